import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { ownValue } from '../../shared/records';
import {
	BANK_DETAIL_FIELDS,
	bankDetailsRequiredFor,
	EMAIL_RULE,
	IBAN_CONDITIONS,
	lengthRule,
	NAME_CHARACTERS,
	PAYEE_FIELD_LABELS,
	PAYEE_FIELD_NAMES,
	PAYEE_NAME,
	payeeField,
	type PayeeField,
	type PayeeRule,
	referenceLength,
	REQUIRED_ON_CREATE,
	WEBSITE_RULE,
} from './payee.fields';
import type { BankCodeCheck } from './bankDetails';
import { hasLoneSurrogate, isBlank, TEXT_RULES, textProblem } from '../../shared/validation/text';

/**
 * The payee schemas, generated from the field table (payee.fields.ts): spec §Payee validation
 * rules, §Bank details required by currency, §Create, §Update, §Upsert. Create, update and upsert
 * are variants of it.
 */

const TEXT = { invalid_type_error: 'must be text', required_error: 'is required' };

/**
 * A payee text value: given as text, not blank, trimmed, valid text without control characters
 * (validation/text.ts), then judged by `rule` and sent trimmed.
 */
const text = <Rule extends z.ZodTypeAny>(rule: Rule) =>
	z
		.string(TEXT)
		.transform((raw, ctx) => {
			const value = raw.trim();
			const problem = isBlank(raw) ? TEXT_RULES.blank : textProblem(value);
			if (problem === undefined) return value;
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
			return z.NEVER;
		})
		.pipe(rule);

/**
 * Bank details: given as text, not blank, valid text, then checked and sent as `check` returns them.
 * The check removes the spaces (tabs included) people copy from invoices, and refuses any other
 * character that is no letter or digit, so the control-character rule of `text` is not needed.
 */
const bankCode = (check: BankCodeCheck) =>
	z.string(TEXT).transform((raw, ctx) => {
		const problem = isBlank(raw)
			? TEXT_RULES.blank
			: hasLoneSurrogate(raw)
				? TEXT_RULES.notValidText
				: undefined;
		const result = problem === undefined ? check(raw) : { ok: false as const, message: problem };
		if (result.ok) return result.value;
		ctx.addIssue({ code: z.ZodIssueCode.custom, message: result.message });
		return z.NEVER;
	});

const lengthBetween = (bounds: { min?: number; max: number }) => {
	const message = `must be ${lengthRule(bounds)}`;
	return z
		.string()
		.min(bounds.min ?? 0, message)
		.max(bounds.max, message);
};

// spec §Payee validation rules: "valid URL format", read as an http(s) URL with a dotted host
// (docs/bank-assumptions.md#payee-fields)
function isWebAddress(value: string): boolean {
	try {
		const url = new URL(value);
		return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.');
	} catch {
		return false;
	}
}

function referenceRule(currency: string | undefined) {
	const { min, max } = referenceLength(currency);
	const message = `must be ${min}-${max} characters${currency ? ` for ${currency} accounts` : ''}`;
	return text(z.string().min(min, message).max(max, message));
}

/** The zod rule of one field of the table; the reference's bound depends on the currency. */
function fieldRule(rule: PayeeRule, currency: string | undefined): z.ZodTypeAny {
	switch (rule.kind) {
		case 'name':
			return text(lengthBetween(rule).regex(PAYEE_NAME, `may contain only ${NAME_CHARACTERS}`));
		case 'length':
			return text(lengthBetween(rule));
		case 'format':
			return text(z.string().regex(rule.format.pattern, `must be ${rule.format.rule}`));
		case 'bankCode':
			return bankCode(rule.check);
		case 'reference':
			return referenceRule(currency);
		case 'email':
			return text(z.string().email(`must be ${EMAIL_RULE}`));
		case 'website':
			return text(z.string().refine(isWebAddress, `must be ${WEBSITE_RULE}`));
		case 'boolean':
			return z.boolean({ invalid_type_error: 'must be true or false' });
	}
}

// every field optional here, required-ness comes below. Until the account's currency is known the
// reference gets the widest bound (6-140).
const payeeFields = (currency: string | undefined) =>
	z
		.object(
			Object.fromEntries(
				PAYEE_FIELD_NAMES.map((field) => [field, fieldRule(payeeField(field).rule, currency)]),
			),
		)
		.partial();

export type PayeeBody = { [Field in PayeeField]?: string | boolean } & { xpid?: string };

/** What the rules that go beyond one field need to know. */
export interface PayeeRuleContext {
	/** The account's currency; currency rules are skipped while it is not known yet. */
	currency?: string;
	/** The stored payee an update applies to; bank details are checked on the merged result. */
	existing?: IDataObject;
}

function has(payee: IDataObject, field: PayeeField): boolean {
	const value = payee[field];
	return value !== undefined && value !== null && value !== '';
}

type AddIssue = (field: PayeeField, message: string) => void;

function checkRequiredOnCreate(payee: PayeeBody, issue: AddIssue): void {
	for (const field of REQUIRED_ON_CREATE) if (!has(payee, field)) issue(field, 'is required');
}

function checkCurrencyOnlyFields(payee: PayeeBody, currency: string, issue: AddIssue): void {
	for (const field of PAYEE_FIELD_NAMES) {
		const only = payeeField(field).onlyFor;
		if (only !== undefined && only !== currency && has(payee, field)) {
			issue(field, `is only allowed for ${only} accounts (this account is ${currency})`);
		}
	}
}

/** The bank details the payee must have, each with the rule that asks for it. */
function requiredBankDetails(
	merged: IDataObject,
	currency: string | undefined,
): Map<PayeeField, string> {
	const missing = new Map<PayeeField, string>();
	if (currency !== undefined) {
		for (const field of bankDetailsRequiredFor(currency)) {
			missing.set(field, `is required for ${currency} accounts`);
		}
	}
	// spec §Bank details required by currency: "A bic is required whenever an iban is provided.
	// An accountNumber is required for GBP, and whenever no iban is provided." Where the currency
	// itself requires an iban, asking for it says enough.
	const ibanGiven = has(merged, 'iban');
	for (const field of PAYEE_FIELD_NAMES) {
		const when = payeeField(field).requiredWhenIban;
		if (when === undefined || ibanGiven !== (when === 'given')) continue;
		if (!missing.has(field) && !missing.has('iban'))
			missing.set(field, `is required ${IBAN_CONDITIONS[when]}`);
	}
	return missing;
}

function crossFieldRules(kind: 'create' | 'update', { currency, existing }: PayeeRuleContext) {
	return (payee: PayeeBody, ctx: z.RefinementCtx) => {
		const issue: AddIssue = (field, message) =>
			ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message });

		if (kind === 'create') checkRequiredOnCreate(payee, issue);
		if (currency !== undefined) checkCurrencyOnlyFields(payee, currency, issue);

		// spec §Update: "bank details that are changed are re-validated": an update that changes none
		// leaves them as stored; one that does is checked merged with the stored payee
		const changesBankDetails = BANK_DETAIL_FIELDS.some((field) => has(payee, field));
		if (kind === 'update' && (!changesBankDetails || existing === undefined)) return;
		const merged: IDataObject =
			kind === 'update' ? { ...pickBankDetails(existing ?? {}), ...payee } : payee;
		const missing = requiredBankDetails(merged, currency);
		for (const [field, message] of missing) if (!has(merged, field)) issue(field, message);
	};
}

function pickBankDetails(payee: IDataObject): IDataObject {
	return Object.fromEntries(
		BANK_DETAIL_FIELDS.filter((field) => has(payee, field)).map((field) => [field, payee[field]]),
	);
}

/** spec §Create: required fields, bank details by currency, every value by its rule. */
export function payeeCreateSchema(context: PayeeRuleContext = {}) {
	return payeeFields(context.currency).strict().superRefine(crossFieldRules('create', context));
}

/** spec §Update: every field optional; changed bank details re-validated (with `existing`). */
export function payeeUpdateSchema(context: PayeeRuleContext = {}) {
	return payeeFields(context.currency).strict().superRefine(crossFieldRules('update', context));
}

const xpidRule = text(z.string().min(1, 'is required'));

/** spec §Upsert rules 1-2: without xpid the create rules apply, with xpid the update rules. */
export function payeeUpsertSchema(context: PayeeRuleContext = {}) {
	return payeeFields(context.currency)
		.extend({ xpid: xpidRule.optional() })
		.strict()
		.superRefine((payee, ctx) =>
			crossFieldRules(payee.xpid ? 'update' : 'create', context)(payee as PayeeBody, ctx),
		);
}

/**
 * The rules that need the account (its currency, the stored payee), for a body one of the schemas
 * above has already parsed without them: every value is judged once, before any request is sent,
 * and these rules once, after the look-ups. With an xpid (upsert) the update rules apply.
 */
export function payeeAccountRules(kind: 'create' | 'update', context: PayeeRuleContext) {
	const reference = referenceRule(context.currency).optional();
	const xpid = xpidRule.optional();
	return z.custom<PayeeBody>().transform((payee, ctx) => {
		const copyIssues = (field: string, result: z.SafeParseReturnType<unknown, unknown>) => {
			for (const { message } of result.error?.issues ?? []) {
				ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message });
			}
		};
		copyIssues('reference', reference.safeParse(payee.reference));
		const checkedXpid = xpid.safeParse(payee.xpid);
		copyIssues('xpid', checkedXpid);
		crossFieldRules(payee.xpid ? 'update' : kind, context)(payee, ctx);
		return checkedXpid.success && checkedXpid.data !== undefined
			? { ...payee, xpid: checkedXpid.data }
			: payee;
	});
}

export interface PayeeIssue {
	field: string;
	label: string;
	rule: string;
}

/** Issues as "field + rule", in the order zod reports them, each field and rule once. */
export function describeIssues(error: z.ZodError): PayeeIssue[] {
	const seen = new Set<string>();
	const issues: PayeeIssue[] = [];
	for (const issue of error.issues) {
		const unknownKeys = issue.code === z.ZodIssueCode.unrecognized_keys ? issue.keys : [];
		const entries =
			unknownKeys.length > 0
				? unknownKeys.map((field) => ({ field, rule: 'is not a payee field' }))
				: [{ field: String(issue.path[0] ?? 'payee'), rule: issue.message }];
		for (const entry of entries) {
			const key = `${entry.field}\u0000${entry.rule}`;
			if (seen.has(key)) continue;
			seen.add(key);
			// a key such as "constructor" must not find an inherited member of the labels
			const label =
				(ownValue(PAYEE_FIELD_LABELS, entry.field) as string | undefined) ?? entry.field;
			issues.push({ ...entry, label });
		}
	}
	return issues;
}

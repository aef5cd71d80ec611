import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { readAmount } from './amount';
import { checkId, ID_RULES, type IdFormat } from '../../shared/validation/ids';
import { isPlainObject } from '../../shared/records';
import { findForbiddenKey, stringsIn } from './inputObjects';
import { referenceLength } from './payee.fields';
import {
	PAYMENT_FIELD_NAMES,
	FIELDS_THE_NODE_SETS,
	paymentField,
	type PaymentField,
	type PaymentRule,
} from './payment.fields';
import { hasLoneSurrogate, isBlank, TEXT_RULES, textProblem } from '../../shared/validation/text';

/**
 * The payment schema, generated from the field table (payment.fields.ts): each field's rule, the
 * body built from them (spec §Payments; fields per docs/bank-assumptions.md#payment-fields).
 */

const amountSchema = z.unknown().transform((value, ctx) => {
	const reading = readAmount(value);
	if ('problem' in reading) {
		ctx.addIssue({ code: z.ZodIssueCode.custom, message: reading.problem });
		return z.NEVER;
	}
	return reading.amount;
});

const text = { required_error: 'is required', invalid_type_error: 'must be text' };

const issue = (ctx: z.RefinementCtx, message: string) => {
	ctx.addIssue({ code: z.ZodIssueCode.custom, message });
	return z.NEVER;
};

/** An optional text: null or blank means not given; otherwise valid text, no control characters except line breaks where `multiLine`. */
const optionalText = (options: { multiLine?: boolean; max?: number } = {}) =>
	z
		.string(text)
		.nullish()
		.transform((value, ctx) => {
			if (value === undefined || value === null || value.trim() === '') return undefined;
			const problem = textProblem(value, { multiLine: options.multiLine });
			if (problem !== undefined) return issue(ctx, problem);
			if (options.max !== undefined && value.length > options.max) {
				return issue(ctx, `must be at most ${options.max} characters (has ${value.length})`);
			}
			return value;
		});

// ISO 4217 code; optional (the account's currency applies when omitted). Piped, so the code rule
// only sees text that passed the text rules.
const currencySchema = optionalText().pipe(
	z
		.string()
		.trim()
		.regex(/^[a-z]{3}$/i, 'must be a 3-letter currency code such as GBP')
		.toUpperCase()
		.optional(),
);

/** xaid and xpid go into the body, and xaid later into look-up paths: checked as every ID is (ids.ts). */
const idSchema = (format: IdFormat, uuidRule?: string) =>
	z.unknown().transform((value, ctx) => {
		const checked = checkId(value, format);
		if (checked.valid) return checked.id;
		return issue(ctx, checked.rule === ID_RULES.uuid && uuidRule ? uuidRule : checked.rule);
	});

function referenceSchema(currency: string | undefined) {
	// spec §Payee validation rules: the payee reference rule, one definition in payee.fields.ts
	const { min, max } = referenceLength(currency);
	// the error names the currency where its bound is not the one of every other currency
	const forCurrency =
		currency !== undefined && max !== referenceLength(undefined).max ? ` for ${currency}` : '';
	return z.string(text).superRefine((reference, ctx) => {
		const problem = isBlank(reference) ? TEXT_RULES.blank : textProblem(reference);
		if (reference.length === 0) {
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'is required' });
		} else if (problem !== undefined) {
			// a reference of spaces has the length but says nothing to the payee, nor to the look-up by reference
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
		} else if (reference.length < min || reference.length > max) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				message: `must be ${min}-${max} characters${forCurrency} (has ${reference.length})`,
			});
		}
	});
}

/**
 * "Additional Body Fields": a JSON object of more payment fields. Absent, null, blank or "{}" add nothing.
 * Keys such as "__proto__" never reach a body (validation/inputObjects.ts), nor do lone surrogates, nor
 * the fields the node sets itself.
 */
const additionalBodyFieldsSchema = z.unknown().transform((value, ctx) => {
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
		return {};
	if (!isPlainObject(value)) return issue(ctx, 'must be a JSON object');
	const forbidden = findForbiddenKey(value);
	if (forbidden !== undefined) return issue(ctx, `must not contain the key "${forbidden}"`);
	for (const entry of stringsIn(value)) {
		if (hasLoneSurrogate(entry)) return issue(ctx, TEXT_RULES.notValidText);
	}
	const ownFields = Object.keys(value).filter((key): key is PaymentField =>
		(FIELDS_THE_NODE_SETS as string[]).includes(key),
	);
	for (const field of ownFields) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			message: `must not set "${field}"; use the ${paymentField(field).label} field`,
		});
	}
	return ownFields.length > 0 ? z.NEVER : (value as IDataObject);
});

/** The zod rule of one field of the table; the reference's bound depends on the currency. */
function fieldRule(rule: PaymentRule, currency: string | undefined): z.ZodTypeAny {
	switch (rule.kind) {
		case 'id':
			return idSchema(rule.format, rule.uuidRule);
		case 'amount':
			return amountSchema;
		case 'currency':
			return currencySchema;
		case 'reference':
			return referenceSchema(currency);
		case 'note':
			return optionalText({ multiLine: true, max: rule.max });
		case 'bodyFields':
			return additionalBodyFieldsSchema;
	}
}

/** The payment schema; the reference rule depends on the currency when it is known. */
export function paymentInputSchema(currency: string | undefined) {
	return z.object(
		Object.fromEntries(
			PAYMENT_FIELD_NAMES.map((field) => [field, fieldRule(paymentField(field).rule, currency)]),
		),
	);
}

/** One payment as read from the parameters, before any rule. */
export type PaymentInput = { [Field in PaymentField]?: unknown };

export interface PaymentIssue {
	/** The parameter as the user sees it, e.g. "Amount". */
	field: string;
	rule: string;
}

export type PaymentValidation =
	| { valid: true; body: IDataObject }
	| { valid: false; issues: PaymentIssue[] };

/** Checks one payment and builds the request body (spec §Payments; docs/bank-assumptions.md#payment-fields). */
export function validatePayment(input: PaymentInput): PaymentValidation {
	const knownCurrency = currencySchema.safeParse(input.currency);
	const parsed = paymentInputSchema(
		knownCurrency.success ? knownCurrency.data : undefined,
	).safeParse(input);
	if (!parsed.success) {
		return {
			valid: false,
			issues: parsed.error.issues.map((issue) => {
				const key = String(issue.path[0] ?? '');
				const field = PAYMENT_FIELD_NAMES.find((name) => name === key);
				return { field: field ? paymentField(field).label : key || 'Payment', rule: issue.message };
			}),
		};
	}
	const { additionalBodyFields, ...fields } = parsed.data;
	const body: IDataObject = { ...additionalBodyFields };
	// empty optional fields are left out
	for (const field of FIELDS_THE_NODE_SETS)
		if (fields[field] !== undefined) body[field] = fields[field];
	return { valid: true, body };
}

export function formatIssues(issues: PaymentIssue[]): string {
	return issues.map(({ field, rule }) => `${field} ${rule}`).join('; ');
}

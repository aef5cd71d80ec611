import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { ownValue } from './objects';
import { isBlank, TEXT_RULES, textProblem } from './text';

/**
 * The one definition of the payee rules (spec §Payee validation rules, §Bank details required by
 * currency, §Create, §Update, §Upsert). Create, update and upsert are variants of it.
 */

/** Every payee body field, with the name the node shows for it (errors name both). */
export const PAYEE_FIELD_LABELS = {
	name: 'Name',
	displayName: 'Display Name',
	reference: 'Reference',
	purpose: 'Purpose',
	purposeCategory: 'Purpose Category',
	isBusiness: 'Is Business',
	email: 'Email',
	mobilePhone: 'Mobile Phone',
	website: 'Website',
	addressLine1: 'Address Line 1',
	addressLine2: 'Address Line 2',
	townCity: 'Town or City',
	countyState: 'County or State',
	postCode: 'Post Code',
	countryCode: 'Country Code',
	sortCode: 'Sort Code',
	accountNumber: 'Account Number',
	iban: 'IBAN',
	bic: 'BIC',
	aba: 'ABA Routing Number',
	bankCountryCode: 'Bank Country Code',
	institutionNumber: 'Institution Number',
	transitNumber: 'Transit Number',
	intermediaryName: 'Intermediary Name',
	intermediaryBic: 'Intermediary BIC',
	intermediaryAba: 'Intermediary ABA Routing Number',
	intermediaryAddress1: 'Intermediary Address Line 1',
	intermediaryAddress2: 'Intermediary Address Line 2',
	intermediaryTownCity: 'Intermediary Town or City',
	intermediaryCountyState: 'Intermediary County or State',
	intermediaryPostcode: 'Intermediary Post Code',
	intermediaryCountryCode: 'Intermediary Country Code',
	xpid: 'Payee ID',
} as const;

export type PayeeField = keyof typeof PAYEE_FIELD_LABELS;

// spec §Create: required body fields (also for upsert without xpid, spec §Upsert rule 1)
export const REQUIRED_ON_CREATE = [
	'name',
	'reference',
	'purpose',
	'purposeCategory',
	'addressLine1',
	'townCity',
	'postCode',
	'countryCode',
] as const;

export const BANK_DETAIL_FIELDS = [
	'sortCode',
	'accountNumber',
	'iban',
	'bic',
	'aba',
	'bankCountryCode',
	'institutionNumber',
	'transitNumber',
] as const;

// spec §Bank details required by currency; any other currency is "international"
const BANK_DETAILS_BY_CURRENCY: Record<string, ReadonlyArray<PayeeField>> = {
	GBP: ['sortCode', 'accountNumber'],
	USD: ['accountNumber', 'aba'],
	CAD: ['institutionNumber', 'transitNumber', 'accountNumber'],
};
const INTERNATIONAL_BANK_DETAILS: ReadonlyArray<PayeeField> = ['iban', 'bic'];

export function bankDetailsRequiredFor(currency: string): ReadonlyArray<PayeeField> {
	return BANK_DETAILS_BY_CURRENCY[currency] ?? INTERNATIONAL_BANK_DETAILS;
}

// spec §Payee validation rules: "sortCode (GBP only)", "aba (USD only)", "institutionNumber /
// transitNumber (CAD only)"
const ONLY_FOR_CURRENCY: Partial<Record<PayeeField, string>> = {
	sortCode: 'GBP',
	aba: 'USD',
	institutionNumber: 'CAD',
	transitNumber: 'CAD',
};

// spec §Payee validation rules: reference is 6-18 characters for GBP, 6-140 for other currencies
export function referenceLength(currency: string | undefined): { min: number; max: number } {
	return currency === 'GBP' ? { min: 6, max: 18 } : { min: 6, max: 140 };
}

/**
 * Length bounds of the free-text payee fields, in characters: spec §Payee validation rules, and
 * for purpose and purposeCategory test/sandbox/DECISIONS.md §Payees (the spec's table has no line
 * for them; the bank decided 1-140). The schema and the form's hints both read them from here.
 */
export const PAYEE_LENGTHS = {
	name: { min: 4, max: 140 },
	displayName: { min: 4, max: 140 },
	purpose: { min: 1, max: 140 },
	purposeCategory: { min: 1, max: 140 },
	addressLine1: { min: 1, max: 50 },
	addressLine2: { min: 3, max: 35 },
	townCity: { min: 1, max: 35 },
	countyState: { min: 4, max: 35 },
	intermediaryName: { min: 2, max: 140 },
	intermediaryBic: { min: 8, max: 11 },
	intermediaryAddress1: { max: 50 },
	intermediaryAddress2: { max: 50 },
	intermediaryTownCity: { max: 35 },
	intermediaryCountyState: { max: 35 },
	intermediaryPostcode: { max: 10 },
} as const satisfies Partial<Record<PayeeField, { min?: number; max: number }>>;

type LengthField = keyof typeof PAYEE_LENGTHS;

interface Format {
	pattern: RegExp;
	/** How the form and the errors say it: "exactly 6 digits". */
	rule: string;
}

const count = (min: number, max: number) => (min === max ? `${min}` : `${min},${max}`);
const amount = (min: number, max: number) => (min === max ? `exactly ${min}` : `${min}-${max}`);
const digits = (min: number, max = min): Format => ({
	pattern: new RegExp(`^\\d{${count(min, max)}}$`),
	rule: `${amount(min, max)} digits`,
});
const lettersOrDigits = (min: number, max: number): Format => ({
	pattern: new RegExp(`^[A-Za-z0-9]{${count(min, max)}}$`),
	rule: `${amount(min, max)} letters or digits`,
});
const letters = (length: number): Format => ({ pattern: new RegExp(`^[A-Za-z]{${length}}$`), rule: `${length} letters` });
const phone = (min: number, max: number): Format => ({
	pattern: new RegExp(`^[0-9+ ()-]{${min},${max}}$`),
	rule: `${min}-${max} characters: digits, +, spaces, dashes and parentheses`,
});
// alphanumeric; a UK-style inner space ("SW1A 1AA") is tolerated and counted, as the service does
const postCode = (min: number, max: number): Format => ({
	pattern: new RegExp(`^(?=.{${min},${max}}$)[A-Za-z0-9]+(?: [A-Za-z0-9]+)*$`),
	rule: `${min}-${max} letters or digits`,
});

/** Format rules of the payee codes and numbers: spec §Payee validation rules, read as DECISIONS.md §Payees does. */
export const PAYEE_FORMATS = {
	mobilePhone: phone(7, 15),
	postCode: postCode(4, 10),
	countryCode: { pattern: /^[A-Z]{2}$/, rule: 'exactly 2 uppercase letters (ISO country code)' },
	bankCountryCode: letters(2),
	sortCode: digits(6),
	accountNumber: digits(4, 17),
	iban: lettersOrDigits(15, 34),
	bic: lettersOrDigits(8, 11),
	aba: digits(9),
	institutionNumber: digits(3),
	transitNumber: digits(5),
	intermediaryAba: digits(9),
	// not in the spec's table; test/sandbox/DECISIONS.md §Payees: 2 letters
	intermediaryCountryCode: letters(2),
} as const satisfies Partial<Record<PayeeField, Format>>;

type FormatField = keyof typeof PAYEE_FORMATS;

// "alphanumeric plus the punctuation & ) ( . -"; spaces separate words in names
const PAYEE_NAME = /^[A-Za-z0-9 &)(.-]*$/;
const NAME_CHARACTERS = 'letters, digits, spaces and the punctuation & ) ( . -';
const EMAIL_RULE = 'a valid e-mail address';
const WEBSITE_RULE = 'a valid URL (e.g. https://example.com)';

function lengthRule(field: LengthField): string {
	const bounds: { min?: number; max: number } = PAYEE_LENGTHS[field];
	return bounds.min === undefined ? `at most ${bounds.max} characters` : `${bounds.min}-${bounds.max} characters`;
}

/**
 * What the form says about a field's value ("1-50 characters", "exactly 6 digits"): the same
 * definitions the schema enforces, so a hint never disagrees with the error.
 */
export function payeeFieldHint(field: PayeeField): string {
	if (field === 'name' || field === 'displayName') return `${lengthRule(field)}: ${NAME_CHARACTERS}`;
	if (field === 'reference') {
		const gbp = referenceLength('GBP');
		const other = referenceLength(undefined);
		return `${gbp.min}-${gbp.max} characters on GBP accounts, ${other.min}-${other.max} on others`;
	}
	if (field === 'email') return EMAIL_RULE;
	if (field === 'website') return WEBSITE_RULE;
	if (Object.hasOwn(PAYEE_LENGTHS, field)) return lengthRule(field as LengthField);
	if (Object.hasOwn(PAYEE_FORMATS, field)) return PAYEE_FORMATS[field as FormatField].rule;
	return '';
}

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

const lengthBetween = (field: LengthField) => {
	const bounds: { min?: number; max: number } = PAYEE_LENGTHS[field];
	const message = `must be ${lengthRule(field)}`;
	return z
		.string()
		.min(bounds.min ?? 0, message)
		.max(bounds.max, message);
};

const matching = (field: FormatField) =>
	text(z.string().regex(PAYEE_FORMATS[field].pattern, `must be ${PAYEE_FORMATS[field].rule}`));

const payeeName = (field: 'name' | 'displayName') =>
	text(lengthBetween(field).regex(PAYEE_NAME, `may contain only ${NAME_CHARACTERS}`));

// test/sandbox/DECISIONS.md §Payees: "`website` must be an http(s) URL with a dotted host"
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

// spec §Payee validation rules, one line per field; all optional here, required-ness comes below.
// Until the account's currency is known the reference gets the widest bound (6-140).
const fieldRules = (currency: string | undefined) => ({
	name: payeeName('name'),
	displayName: payeeName('displayName'),
	reference: referenceRule(currency),
	purpose: text(lengthBetween('purpose')),
	purposeCategory: text(lengthBetween('purposeCategory')),
	isBusiness: z.boolean({ invalid_type_error: 'must be true or false' }),
	email: text(z.string().email(`must be ${EMAIL_RULE}`)),
	mobilePhone: matching('mobilePhone'),
	website: text(z.string().refine(isWebAddress, `must be ${WEBSITE_RULE}`)),
	addressLine1: text(lengthBetween('addressLine1')),
	addressLine2: text(lengthBetween('addressLine2')),
	townCity: text(lengthBetween('townCity')),
	countyState: text(lengthBetween('countyState')),
	postCode: matching('postCode'),
	countryCode: matching('countryCode'),
	bankCountryCode: matching('bankCountryCode'),
	sortCode: matching('sortCode'),
	accountNumber: matching('accountNumber'),
	iban: matching('iban'),
	bic: matching('bic'),
	aba: matching('aba'),
	institutionNumber: matching('institutionNumber'),
	transitNumber: matching('transitNumber'),
	intermediaryName: text(lengthBetween('intermediaryName')),
	intermediaryBic: text(lengthBetween('intermediaryBic')),
	intermediaryAba: matching('intermediaryAba'),
	intermediaryAddress1: text(lengthBetween('intermediaryAddress1')),
	intermediaryAddress2: text(lengthBetween('intermediaryAddress2')),
	intermediaryTownCity: text(lengthBetween('intermediaryTownCity')),
	intermediaryCountyState: text(lengthBetween('intermediaryCountyState')),
	intermediaryPostcode: text(lengthBetween('intermediaryPostcode')),
	intermediaryCountryCode: matching('intermediaryCountryCode'),
}) satisfies Record<Exclude<PayeeField, 'xpid'>, z.ZodTypeAny>;

const payeeFields = (currency: string | undefined) => z.object(fieldRules(currency)).partial();

export type PayeeBody = z.infer<ReturnType<typeof payeeFields>> & { xpid?: string };

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

function crossFieldRules(kind: 'create' | 'update', { currency, existing }: PayeeRuleContext) {
	return (payee: PayeeBody, ctx: z.RefinementCtx) => {
		const issue = (field: PayeeField, message: string) =>
			ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message });

		if (kind === 'create') {
			for (const field of REQUIRED_ON_CREATE) if (!has(payee, field)) issue(field, 'is required');
		}

		if (currency !== undefined) {
			for (const [field, only] of Object.entries(ONLY_FOR_CURRENCY) as Array<[PayeeField, string]>) {
				if (only !== currency && has(payee, field)) {
					issue(field, `is only allowed for ${only} accounts (this account is ${currency})`);
				}
			}
		}

		// spec §Update: "bank details that are changed are re-validated": an update that changes none
		// leaves them as stored; one that does is checked merged with the stored payee
		const changesBankDetails = BANK_DETAIL_FIELDS.some((field) => has(payee, field));
		if (kind === 'update' && (!changesBankDetails || existing === undefined)) return;
		const merged: IDataObject =
			kind === 'update' ? { ...pickBankDetails(existing ?? {}), ...payee } : payee;
		const missing = new Map<PayeeField, string>();
		if (currency !== undefined) {
			for (const field of bankDetailsRequiredFor(currency)) {
				missing.set(field, `is required for ${currency} accounts`);
			}
		}
		// spec §Bank details required by currency: "A bic is required whenever an iban is provided.
		// An accountNumber is required for GBP, and whenever no iban is provided."
		if (has(merged, 'iban') && !missing.has('bic')) missing.set('bic', 'is required when an IBAN is given');
		// (where the currency itself requires an iban, asking for it says enough)
		if (!has(merged, 'iban') && !missing.has('accountNumber') && !missing.has('iban')) {
			missing.set('accountNumber', 'is required when no IBAN is given');
		}
		for (const [field, message] of missing) if (!has(merged, field)) issue(field, message);
	};
}

function pickBankDetails(payee: IDataObject): IDataObject {
	return Object.fromEntries(BANK_DETAIL_FIELDS.filter((field) => has(payee, field)).map((field) => [field, payee[field]]));
}

/** spec §Create: required fields, bank details by currency, every value by its rule. */
export function payeeCreateSchema(context: PayeeRuleContext = {}) {
	return payeeFields(context.currency).strict().superRefine(crossFieldRules('create', context));
}

/** spec §Update: every field optional; changed bank details re-validated (with `existing`). */
export function payeeUpdateSchema(context: PayeeRuleContext = {}) {
	return payeeFields(context.currency).strict().superRefine(crossFieldRules('update', context));
}

/** spec §Upsert rules 1-2: without xpid the create rules apply, with xpid the update rules. */
export function payeeUpsertSchema(context: PayeeRuleContext = {}) {
	return payeeFields(context.currency)
		.extend({ xpid: text(z.string().min(1, 'is required')).optional() })
		.strict()
		.superRefine((payee, ctx) =>
			crossFieldRules(payee.xpid ? 'update' : 'create', context)(payee, ctx),
		);
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
			const label = (ownValue(PAYEE_FIELD_LABELS, entry.field) as string | undefined) ?? entry.field;
			issues.push({ ...entry, label });
		}
	}
	return issues;
}

import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

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

const text = () =>
	z.string({ invalid_type_error: 'must be text', required_error: 'is required' }).trim();

const lengthBetween = (min: number, max: number) =>
	text()
		.min(min, `must be ${min}-${max} characters`)
		.max(max, `must be ${min}-${max} characters`);

const atMost = (max: number) => text().max(max, `must be at most ${max} characters`);

const matching = (pattern: RegExp, rule: string) => text().regex(pattern, `must be ${rule}`);

// "alphanumeric plus the punctuation & ) ( . -"; spaces separate words in names
const PAYEE_NAME = /^[A-Za-z0-9 &)(.-]*$/;
const payeeName = () =>
	lengthBetween(4, 140).regex(
		PAYEE_NAME,
		'may contain only letters, digits, spaces and the punctuation & ) ( . -',
	);

function isWebAddress(value: string): boolean {
	try {
		const url = new URL(value);
		return url.protocol === 'http:' || url.protocol === 'https:';
	} catch {
		return false;
	}
}

function referenceRule(currency: string | undefined) {
	const { min, max } = referenceLength(currency);
	const message = `must be ${min}-${max} characters${currency ? ` for ${currency} accounts` : ''}`;
	return text().min(min, message).max(max, message);
}

// spec §Payee validation rules, one line per field; all optional here, required-ness comes below.
// Until the account's currency is known the reference gets the widest bound (6-140).
const fieldRules = (currency: string | undefined) => ({
	name: payeeName(),
	displayName: payeeName(),
	reference: referenceRule(currency),
	purpose: text().min(1, 'is required'),
	purposeCategory: text().min(1, 'is required'),
	isBusiness: z.boolean({ invalid_type_error: 'must be true or false' }),
	email: text().email('must be a valid e-mail address'),
	mobilePhone: matching(
		/^[0-9+ ()-]{7,15}$/,
		'7-15 characters: digits, +, spaces, dashes and parentheses',
	),
	website: text().refine(isWebAddress, 'must be a valid URL (e.g. https://example.com)'),
	addressLine1: lengthBetween(1, 50),
	addressLine2: lengthBetween(3, 35),
	townCity: lengthBetween(1, 35),
	countyState: lengthBetween(4, 35),
	// 4-10 alphanumeric characters; a UK-style inner space ("SW1A 1AA") is tolerated, as the service does
	postCode: matching(
		/^(?=.{4,10}$)[A-Za-z0-9]+(?: [A-Za-z0-9]+)*$/,
		'4-10 letters or digits',
	),
	countryCode: matching(/^[A-Z]{2}$/, 'exactly 2 uppercase letters (ISO country code)'),
	bankCountryCode: matching(/^[A-Za-z]{2}$/, '2 letters'),
	sortCode: matching(/^\d{6}$/, 'exactly 6 digits'),
	accountNumber: matching(/^\d{4,17}$/, '4-17 digits'),
	iban: matching(/^[A-Za-z0-9]{15,34}$/, '15-34 letters or digits'),
	bic: matching(/^[A-Za-z0-9]{8,11}$/, '8-11 letters or digits'),
	aba: matching(/^\d{9}$/, 'exactly 9 digits'),
	institutionNumber: matching(/^\d{3}$/, 'exactly 3 digits'),
	transitNumber: matching(/^\d{5}$/, 'exactly 5 digits'),
	intermediaryName: lengthBetween(2, 140),
	intermediaryBic: lengthBetween(8, 11),
	intermediaryAba: matching(/^\d{9}$/, 'exactly 9 digits'),
	intermediaryAddress1: atMost(50),
	intermediaryAddress2: atMost(50),
	intermediaryTownCity: atMost(35),
	intermediaryCountyState: atMost(35),
	intermediaryPostcode: atMost(10),
	// no rule in the spec: passed through for the service to judge
	intermediaryCountryCode: text(),
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
		.extend({ xpid: text().min(1, 'is required').optional() })
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
			const label = PAYEE_FIELD_LABELS[entry.field as PayeeField] ?? entry.field;
			issues.push({ ...entry, label });
		}
	}
	return issues;
}

/**
 * The sandbox's own reading of spec §Payee validation rules and §Bank details required by
 * currency. Deliberately independent of the node's schema, so either can catch the other's mistakes.
 */
import { z } from 'zod';

export const PAYEE_TEXT_FIELDS = [
	'name',
	'displayName',
	'reference',
	'purpose',
	'purposeCategory',
	'email',
	'mobilePhone',
	'website',
	'addressLine1',
	'addressLine2',
	'townCity',
	'countyState',
	'postCode',
	'countryCode',
	'sortCode',
	'accountNumber',
	'iban',
	'bic',
	'aba',
	'bankCountryCode',
	'institutionNumber',
	'transitNumber',
	'intermediaryName',
	'intermediaryBic',
	'intermediaryAba',
	'intermediaryAddress1',
	'intermediaryAddress2',
	'intermediaryTownCity',
	'intermediaryCountyState',
	'intermediaryPostcode',
	'intermediaryCountryCode',
] as const;

export type PayeeTextField = (typeof PAYEE_TEXT_FIELDS)[number];
export type PayeeInput = Partial<Record<PayeeTextField, string>> & { isBusiness?: boolean };

// spec §Create: required body fields
export const REQUIRED_ON_CREATE: PayeeTextField[] = [
	'name',
	'reference',
	'purpose',
	'purposeCategory',
	'addressLine1',
	'townCity',
	'postCode',
	'countryCode',
];

/** spec §Payee validation rules: fields only valid for one currency. */
const ONLY_FOR_CURRENCY: Partial<Record<PayeeTextField, string>> = {
	sortCode: 'GBP',
	aba: 'USD',
	institutionNumber: 'CAD',
	transitNumber: 'CAD',
};

const text = (field: string) => z.string({ invalid_type_error: `${field} must be a string` });

const length = (field: string, min: number, max: number, what = 'characters') => {
	const message = `${field} must be ${min}-${max} ${what}`;
	return text(field).min(min, message).max(max, message);
};

const atMost = (field: string, max: number) =>
	text(field).max(max, `${field} must be at most ${max} characters`);

const pattern = (field: string, regex: RegExp, message: string) =>
	text(field).regex(regex, `${field} must be ${message}`);

function isWebUrl(value: string): boolean {
	try {
		const url = new URL(value);
		return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.');
	} catch {
		return false;
	}
}

// spec §Payee validation rules: reference 6-18 characters for GBP, 6-140 for other currencies
export function referenceRule(currency: string) {
	const max = currency === 'GBP' ? 18 : 140;
	return { min: 6, max, message: `reference must be 6-${max} characters for ${currency}` };
}

// spec §Payee validation rules, one line each; `currency` decides the reference length
function fieldSchemas(currency: string) {
	const reference = referenceRule(currency);
	const name = (field: string) =>
		length(field, 4, 140).regex(
			/^[A-Za-z0-9 &)(.-]*$/,
			`${field} may contain only letters, digits, spaces and the punctuation & ) ( . -`,
		);
	return {
		name: name('name'),
		displayName: name('displayName'),
		reference: text('reference')
			.min(reference.min, reference.message)
			.max(reference.max, reference.message),
		purpose: length('purpose', 1, 140),
		purposeCategory: length('purposeCategory', 1, 140),
		email: text('email').email('email must be a valid e-mail address'),
		mobilePhone: pattern(
			'mobilePhone',
			/^[0-9+\-() ]{7,15}$/,
			'7-15 characters of digits, +, spaces, dashes and parentheses',
		),
		website: text('website').refine(isWebUrl, 'website must be a valid http(s) URL'),
		addressLine1: length('addressLine1', 1, 50),
		addressLine2: length('addressLine2', 3, 35),
		townCity: length('townCity', 1, 35),
		countyState: length('countyState', 4, 35),
		postCode: pattern(
			'postCode',
			/^(?=.{4,10}$)[A-Za-z0-9]+(?: [A-Za-z0-9]+)*$/,
			'4-10 letters or digits (single inner spaces allowed)',
		),
		countryCode: pattern(
			'countryCode',
			/^[A-Z]{2}$/,
			'exactly 2 uppercase letters (ISO country code)',
		),
		bankCountryCode: pattern('bankCountryCode', /^[A-Za-z]{2}$/, '2 letters'),
		sortCode: pattern('sortCode', /^\d{6}$/, 'exactly 6 digits'),
		accountNumber: pattern('accountNumber', /^\d{4,17}$/, '4-17 digits'),
		iban: pattern('iban', /^[A-Za-z0-9]{15,34}$/, '15-34 letters or digits'),
		bic: pattern('bic', /^[A-Za-z0-9]{8,11}$/, '8-11 letters or digits'),
		aba: pattern('aba', /^\d{9}$/, 'exactly 9 digits'),
		institutionNumber: pattern('institutionNumber', /^\d{3}$/, 'exactly 3 digits'),
		transitNumber: pattern('transitNumber', /^\d{5}$/, 'exactly 5 digits'),
		intermediaryName: length('intermediaryName', 2, 140),
		intermediaryBic: length('intermediaryBic', 8, 11),
		intermediaryAba: pattern('intermediaryAba', /^\d{9}$/, 'exactly 9 digits'),
		intermediaryAddress1: atMost('intermediaryAddress1', 50),
		intermediaryAddress2: atMost('intermediaryAddress2', 50),
		intermediaryTownCity: atMost('intermediaryTownCity', 35),
		intermediaryCountyState: atMost('intermediaryCountyState', 35),
		intermediaryPostcode: atMost('intermediaryPostcode', 10),
		intermediaryCountryCode: pattern('intermediaryCountryCode', /^[A-Za-z]{2}$/, '2 letters'),
		isBusiness: z.boolean({ invalid_type_error: 'isBusiness must be a boolean' }),
	} satisfies Record<PayeeTextField | 'isBusiness', z.ZodTypeAny>;
}

export interface ParsedPayeeInput {
	values: PayeeInput;
	/** Fields sent as "" or null: absent on create, cleared on update (DECISIONS.md §Payees). */
	cleared: PayeeTextField[];
	/** Fields sent with a value that broke a rule (already reported, not "missing" as well). */
	invalid: PayeeTextField[];
	errors: string[];
}

/** Validates every field that is present; unknown and service-set fields are ignored. */
export function parsePayeeInput(body: Record<string, unknown>, currency: string): ParsedPayeeInput {
	const schemas = fieldSchemas(currency);
	const values: PayeeInput = {};
	const cleared: PayeeTextField[] = [];
	const invalid: PayeeTextField[] = [];
	const errors: string[] = [];
	for (const field of PAYEE_TEXT_FIELDS) {
		if (!(field in body)) continue;
		const raw = body[field];
		if (raw === '' || raw === null) {
			cleared.push(field);
			continue;
		}
		const only = ONLY_FOR_CURRENCY[field];
		if (only && only !== currency) {
			invalid.push(field);
			errors.push(
				`${field} is only allowed for ${only} payees (the account currency is ${currency})`,
			);
			continue;
		}
		const result = schemas[field].safeParse(raw);
		if (result.success) {
			values[field] = result.data;
		} else {
			invalid.push(field);
			errors.push(...new Set(result.error.issues.map((issue) => issue.message)));
		}
	}
	if ('isBusiness' in body && body.isBusiness !== null) {
		const result = schemas.isBusiness.safeParse(body.isBusiness);
		if (result.success) values.isBusiness = result.data;
		else errors.push(result.error.issues[0].message);
	}
	return { values, cleared, invalid, errors };
}

// spec §Bank details required by currency (+ its two sentences on bic and accountNumber)
export function missingBankDetails(
	currency: string,
	payee: PayeeInput,
	invalid: PayeeTextField[] = [],
): string[] {
	const required = new Map<PayeeTextField, string>();
	const byCurrency: Record<string, PayeeTextField[]> = {
		GBP: ['sortCode', 'accountNumber'],
		USD: ['accountNumber', 'aba'],
		CAD: ['institutionNumber', 'transitNumber', 'accountNumber'],
	};
	for (const field of byCurrency[currency] ?? ['iban', 'bic']) {
		required.set(field, `${field} is required for ${currency} payees`);
	}
	if (payee.iban && !required.has('bic')) required.set('bic', 'bic is required when iban is given');
	if (!payee.iban && !required.has('accountNumber')) {
		required.set('accountNumber', 'accountNumber is required when no iban is given');
	}
	return [...required]
		.filter(([field]) => !payee[field] && !invalid.includes(field))
		.map(([, message]) => message);
}

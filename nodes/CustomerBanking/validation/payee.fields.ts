import { type BankCodeCheck, checkBic, checkSortCode, ibanCheck } from './bankDetails';

/**
 * The payee fields: each defined once, with its label, group, rule and the conditions on it (spec
 * §Payee validation rules, §Bank details required by currency, §Create). The schema
 * (payee.schema.ts) enforces these rules and the form (actions/payee/payeeForm.ts) shows them;
 * both are generated from here, so a rule changes in one place.
 */

/** The groups of the form, as spec §Payee groups the fields; errors about a group name it so. */
export const PAYEE_GROUPS = {
	identity: 'Identity',
	contact: 'Contact',
	address: 'Address',
	bankDetails: 'Bank Details',
	intermediaryBank: 'Intermediary Bank',
} as const;

export type PayeeGroup = keyof typeof PAYEE_GROUPS;

export interface Format {
	pattern: RegExp;
	/** How the form and the errors say it: "exactly 6 digits". */
	rule: string;
}

export type PayeeRule =
	| { kind: 'name'; min: number; max: number }
	| { kind: 'length'; min?: number; max: number }
	| { kind: 'format'; format: Format }
	/** Bank details checked as banks check them (bankDetails.ts) and sent as the check returns them. */
	| { kind: 'bankCode'; check: BankCodeCheck; hint: string }
	| { kind: 'reference' }
	| { kind: 'email' }
	| { kind: 'website' }
	| { kind: 'boolean' };

export interface PayeeFieldDefinition {
	label: string;
	group: PayeeGroup;
	rule: PayeeRule;
	/** spec §Create: required body field (also for upsert without xpid, spec §Upsert rule 1). */
	requiredOnCreate?: true;
	/** spec §Payee validation rules: the one currency whose accounts may have the field. */
	onlyFor?: string;
	/** spec §Bank details required by currency: required whenever an IBAN is given, or whenever none is. */
	requiredWhenIban?: 'given' | 'absent';
	/** A bank field that describes the bank rather than telling where the money goes. */
	describesBank?: true;
	/** What the field is, ahead of its rule in the form's description. */
	about?: string;
	/** How the value may be written, a sentence after its rule in the form's description. */
	valueNote?: string;
	placeholder?: string;
}

const count = (min: number, max: number) => (min === max ? `${min}` : `${min},${max}`);
const amount = (min: number, max: number) => (min === max ? `exactly ${min}` : `${min}-${max}`);
const format = (pattern: RegExp, rule: string) => ({
	kind: 'format' as const,
	format: { pattern, rule },
});
const digits = (min: number, max = min) =>
	format(new RegExp(`^\\d{${count(min, max)}}$`), `${amount(min, max)} digits`);
const letters = (length: number) =>
	format(new RegExp(`^[A-Za-z]{${length}}$`), `${length} letters`);
const phone = (min: number, max: number) =>
	format(
		new RegExp(`^[0-9+ ()-]{${min},${max}}$`),
		`${min}-${max} characters: digits, +, spaces, dashes and parentheses`,
	);
// alphanumeric; a UK-style inner space ("SW1A 1AA") is tolerated and counted, as the service does
const postCode = (min: number, max: number) =>
	format(
		new RegExp(`^(?=.{${min},${max}}$)[A-Za-z0-9]+(?: [A-Za-z0-9]+)*$`),
		`${min}-${max} letters or digits`,
	);
const length = (min: number | undefined, max: number) => ({ kind: 'length' as const, min, max });
const bankCode = (check: BankCodeCheck, hint: string) => ({
	kind: 'bankCode' as const,
	check,
	hint,
});
const iban = (min: number, max: number) =>
	bankCode(
		ibanCheck({ min, max }),
		`${min}-${max} letters and digits, checked as banks check them: the length for its country and the check digits`,
	);
// ISO 9362: a BIC has 8 characters, or 11 with a branch; the spec's 8-11 also lets through 9 or 10,
// which is always a typing mistake
const bic = () =>
	bankCode(
		checkBic,
		'8 or 11 letters and digits: a 4-letter bank code, a 2-letter country code, 2 for the location and optionally 3 for the branch',
	);
const WRITTEN_AS_PRINTED =
	'Spaces and lower case are fine: spaces are removed and letters sent in upper case';
const name = (min: number, max: number) => ({ kind: 'name' as const, min, max });

/**
 * Every payee body field, in the order the body is sent and errors are listed. Lengths are in
 * characters; where the spec's table has no line (purpose, purposeCategory, the intermediary
 * country code) docs/bank-assumptions.md#payee-fields gives what the nodes assume.
 */
export const PAYEE_FIELDS = {
	// Identity
	name: {
		label: 'Name',
		group: 'identity',
		rule: name(4, 140),
		requiredOnCreate: true,
		placeholder: 'e.g. Acme Supplies Ltd',
	},
	displayName: {
		label: 'Display Name',
		group: 'identity',
		rule: name(4, 140),
		about: 'Name shown in the banking app',
	},
	reference: {
		label: 'Reference',
		group: 'identity',
		rule: { kind: 'reference' },
		requiredOnCreate: true,
		about: 'Reference for payments to this payee',
		placeholder: 'e.g. INV-2024-001',
	},
	purpose: {
		label: 'Purpose',
		group: 'identity',
		rule: length(1, 140),
		requiredOnCreate: true,
		about: 'Why this payee is paid',
		placeholder: 'e.g. Supplier payments',
	},
	purposeCategory: {
		label: 'Purpose Category',
		group: 'identity',
		rule: length(1, 140),
		requiredOnCreate: true,
		about: 'Category of the purpose, as the bank names it',
		placeholder: 'e.g. SUPPLIER',
	},
	isBusiness: {
		label: 'Is Business',
		group: 'identity',
		rule: { kind: 'boolean' },
		about: 'Whether the payee is a business (on) or an individual (off)',
	},
	// Contact
	email: {
		label: 'Email',
		group: 'contact',
		rule: { kind: 'email' },
		placeholder: 'name@email.com',
	},
	mobilePhone: {
		label: 'Mobile Phone',
		group: 'contact',
		rule: phone(7, 15),
		placeholder: 'e.g. +44 7700 900123',
	},
	website: {
		label: 'Website',
		group: 'contact',
		rule: { kind: 'website' },
		placeholder: 'e.g. https://example.com',
	},
	// Address
	addressLine1: {
		label: 'Address Line 1',
		group: 'address',
		rule: length(1, 50),
		requiredOnCreate: true,
	},
	addressLine2: { label: 'Address Line 2', group: 'address', rule: length(3, 35) },
	townCity: {
		label: 'Town or City',
		group: 'address',
		rule: length(1, 35),
		requiredOnCreate: true,
	},
	countyState: { label: 'County or State', group: 'address', rule: length(4, 35) },
	postCode: {
		label: 'Post Code',
		group: 'address',
		rule: postCode(4, 10),
		requiredOnCreate: true,
		placeholder: 'e.g. EC1A 1BB',
	},
	countryCode: {
		label: 'Country Code',
		group: 'address',
		rule: format(/^[A-Z]{2}$/, 'exactly 2 uppercase letters (ISO country code)'),
		requiredOnCreate: true,
		about: 'Country of the address',
		placeholder: 'e.g. GB',
	},
	// Bank details
	bankCountryCode: {
		label: 'Bank Country Code',
		group: 'bankDetails',
		rule: letters(2),
		describesBank: true,
		about: 'Country of the payee’s bank',
		placeholder: 'e.g. DE',
	},
	sortCode: {
		label: 'Sort Code',
		group: 'bankDetails',
		rule: bankCode(checkSortCode, 'exactly 6 digits'),
		onlyFor: 'GBP',
		valueNote: 'Dashes and spaces are fine and are removed: 04-00-04 is sent as 040004',
		placeholder: 'e.g. 040004',
	},
	accountNumber: {
		label: 'Account Number',
		group: 'bankDetails',
		rule: digits(4, 17),
		requiredWhenIban: 'absent',
		placeholder: 'e.g. 12345678',
	},
	iban: {
		label: 'IBAN',
		group: 'bankDetails',
		rule: iban(15, 34),
		valueNote: WRITTEN_AS_PRINTED,
		placeholder: 'e.g. DE89370400440532013000',
	},
	bic: {
		label: 'BIC',
		group: 'bankDetails',
		rule: bic(),
		valueNote: WRITTEN_AS_PRINTED,
		requiredWhenIban: 'given',
		describesBank: true,
		placeholder: 'e.g. COBADEFFXXX',
	},
	aba: {
		label: 'ABA Routing Number',
		group: 'bankDetails',
		rule: digits(9),
		onlyFor: 'USD',
		placeholder: 'e.g. 021000021',
	},
	institutionNumber: {
		label: 'Institution Number',
		group: 'bankDetails',
		rule: digits(3),
		onlyFor: 'CAD',
		placeholder: 'e.g. 003',
	},
	transitNumber: {
		label: 'Transit Number',
		group: 'bankDetails',
		rule: digits(5),
		onlyFor: 'CAD',
		placeholder: 'e.g. 12345',
	},
	// Intermediary bank
	intermediaryName: {
		label: 'Intermediary Name',
		group: 'intermediaryBank',
		rule: length(2, 140),
		about: 'Name of the intermediary bank',
	},
	intermediaryBic: {
		label: 'Intermediary BIC',
		group: 'intermediaryBank',
		rule: bic(),
		valueNote: WRITTEN_AS_PRINTED,
	},
	intermediaryAba: {
		label: 'Intermediary ABA Routing Number',
		group: 'intermediaryBank',
		rule: digits(9),
	},
	intermediaryAddress1: {
		label: 'Intermediary Address Line 1',
		group: 'intermediaryBank',
		rule: length(undefined, 50),
	},
	intermediaryAddress2: {
		label: 'Intermediary Address Line 2',
		group: 'intermediaryBank',
		rule: length(undefined, 50),
	},
	intermediaryTownCity: {
		label: 'Intermediary Town or City',
		group: 'intermediaryBank',
		rule: length(undefined, 35),
	},
	intermediaryCountyState: {
		label: 'Intermediary County or State',
		group: 'intermediaryBank',
		rule: length(undefined, 35),
	},
	intermediaryPostcode: {
		label: 'Intermediary Post Code',
		group: 'intermediaryBank',
		rule: length(undefined, 10),
	},
	intermediaryCountryCode: {
		label: 'Intermediary Country Code',
		group: 'intermediaryBank',
		rule: letters(2),
		about: 'Country of the intermediary bank',
		placeholder: 'e.g. US',
	},
} as const satisfies Record<string, PayeeFieldDefinition>;

export type PayeeField = keyof typeof PAYEE_FIELDS;

export const PAYEE_FIELD_NAMES = Object.keys(PAYEE_FIELDS) as PayeeField[];

export function payeeField(field: PayeeField): PayeeFieldDefinition {
	return PAYEE_FIELDS[field];
}

const fieldsWhere = (test: (definition: PayeeFieldDefinition) => boolean) =>
	PAYEE_FIELD_NAMES.filter((field) => test(payeeField(field)));

export const REQUIRED_ON_CREATE = fieldsWhere((definition) => definition.requiredOnCreate === true);

export const BANK_DETAIL_FIELDS = fieldsWhere((definition) => definition.group === 'bankDetails');

/** The bank fields that tell where money goes (an upsert finds the payee by them). */
export const ACCOUNT_IDENTIFYING_FIELDS = BANK_DETAIL_FIELDS.filter(
	(field) => !payeeField(field).describesBank,
);

/** The xpid, which identifies a payee rather than describing it. */
export const PAYEE_ID_LABEL = 'Payee ID';

/** Every payee body field, and the xpid, with the name the node shows for it (errors name both). */
export const PAYEE_FIELD_LABELS: Readonly<Record<PayeeField | 'xpid', string>> = {
	...(Object.fromEntries(
		PAYEE_FIELD_NAMES.map((field) => [field, payeeField(field).label]),
	) as Record<PayeeField, string>),
	xpid: PAYEE_ID_LABEL,
};

interface BankDetailsFormat {
	/** The account currency; none for the format of every other currency. */
	currency?: string;
	/** Whose accounts, as the form says it, where that is not the currency: "EUR and other international". */
	accounts?: string;
	/** The form's name for the format. */
	option: string;
	/** spec §Bank details required by currency, in the order errors list them. */
	required: readonly PayeeField[];
}

/** spec §Bank details required by currency; any other currency is "international". */
const BANK_DETAILS_FORMATS = {
	gbp: {
		currency: 'GBP',
		option: 'GBP (Sort Code and Account Number)',
		required: ['sortCode', 'accountNumber'],
	},
	usd: {
		currency: 'USD',
		option: 'USD (Account Number and ABA Routing Number)',
		required: ['accountNumber', 'aba'],
	},
	cad: {
		currency: 'CAD',
		option: 'CAD (Institution, Transit and Account Number)',
		required: ['institutionNumber', 'transitNumber', 'accountNumber'],
	},
	iban: {
		accounts: 'EUR and other international',
		option: 'EUR and Other Currencies (IBAN and BIC)',
		required: ['iban', 'bic'],
	},
} as const satisfies Record<string, BankDetailsFormat>;

export type BankDetailsFormatName = keyof typeof BANK_DETAILS_FORMATS;

export const BANK_DETAILS_FORMAT_NAMES = Object.keys(
	BANK_DETAILS_FORMATS,
) as BankDetailsFormatName[];

export function bankDetailsFormat(name: BankDetailsFormatName): BankDetailsFormat {
	return BANK_DETAILS_FORMATS[name];
}

export function bankDetailsRequiredFor(currency: string): readonly PayeeField[] {
	const formats = BANK_DETAILS_FORMAT_NAMES.map(bankDetailsFormat);
	const format =
		formats.find((entry) => entry.currency === currency) ??
		formats.find((entry) => !entry.currency);
	return format?.required ?? [];
}

/** spec §Bank details required by currency: the conditions of `requiredWhenIban`, as errors and the form say them. */
export const IBAN_CONDITIONS = {
	given: 'when an IBAN is given',
	absent: 'when no IBAN is given',
} as const;

// spec §Payee validation rules: reference is 6-18 characters for GBP, 6-140 for other currencies
export function referenceLength(currency: string | undefined): { min: number; max: number } {
	return currency === 'GBP' ? { min: 6, max: 18 } : { min: 6, max: 140 };
}

// "alphanumeric plus the punctuation & ) ( . -"; spaces separate words in names
export const PAYEE_NAME = /^[A-Za-z0-9 &)(.-]*$/;
export const NAME_CHARACTERS = 'letters, digits, spaces and the punctuation & ) ( . -';
export const EMAIL_RULE = 'a valid e-mail address';
export const WEBSITE_RULE = 'a valid URL (e.g. https://example.com)';

export function lengthRule(bounds: { min?: number; max: number }): string {
	return bounds.min === undefined
		? `at most ${bounds.max} characters`
		: `${bounds.min}-${bounds.max} characters`;
}

/**
 * What the form says about a field's value ("1-50 characters", "exactly 6 digits"): the same
 * definitions the schema enforces, so a hint never disagrees with the error.
 */
export function payeeFieldHint(field: PayeeField): string {
	const rule = payeeField(field).rule;
	switch (rule.kind) {
		case 'name':
			return `${lengthRule(rule)}: ${NAME_CHARACTERS}`;
		case 'length':
			return lengthRule(rule);
		case 'format':
			return rule.format.rule;
		case 'bankCode':
			return rule.hint;
		case 'reference': {
			const gbp = referenceLength('GBP');
			const other = referenceLength(undefined);
			return `${gbp.min}-${gbp.max} characters on GBP accounts, ${other.min}-${other.max} on others`;
		}
		case 'email':
			return EMAIL_RULE;
		case 'website':
			return WEBSITE_RULE;
		case 'boolean':
			return '';
	}
}

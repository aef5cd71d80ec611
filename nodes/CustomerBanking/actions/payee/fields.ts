import type { INodeProperties } from 'n8n-workflow';

/**
 * The payee form, grouped as spec §Payee groups the fields (identity, contact, address, bank
 * details, intermediary bank). Each field is defined once; create, update and upsert arrange them.
 * The rules quoted in the descriptions are enforced by validation/payee.schema.ts.
 */

// Identity
const name: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	placeholder: 'e.g. Acme Supplies Ltd',
	description: '4-140 characters. Letters, digits, spaces and the punctuation & ) ( . - are allowed.',
};
const displayName: INodeProperties = {
	displayName: 'Display Name',
	name: 'displayName',
	type: 'string',
	default: '',
	description:
		'Name shown in the banking app. 4-140 characters: letters, digits, spaces and the punctuation & ) ( . - are allowed.',
};
const reference: INodeProperties = {
	displayName: 'Reference',
	name: 'reference',
	type: 'string',
	default: '',
	placeholder: 'e.g. INV-2024-001',
	description: 'Reference for payments to this payee: 6-18 characters on GBP accounts, 6-140 on others',
};
const purpose: INodeProperties = {
	displayName: 'Purpose',
	name: 'purpose',
	type: 'string',
	default: '',
	placeholder: 'e.g. Supplier payments',
	description: 'Why this payee is paid',
};
const purposeCategory: INodeProperties = {
	displayName: 'Purpose Category',
	name: 'purposeCategory',
	type: 'string',
	default: '',
	placeholder: 'e.g. SUPPLIER',
	description: 'Category of the purpose, as the bank names it',
};
const isBusiness: INodeProperties = {
	displayName: 'Is Business',
	name: 'isBusiness',
	type: 'boolean',
	default: false,
	description: 'Whether the payee is a business (on) or an individual (off)',
};

// Contact
const email: INodeProperties = {
	displayName: 'Email',
	name: 'email',
	type: 'string',
	placeholder: 'name@email.com',
	default: '',
};
const mobilePhone: INodeProperties = {
	displayName: 'Mobile Phone',
	name: 'mobilePhone',
	type: 'string',
	default: '',
	placeholder: 'e.g. +44 7700 900123',
	description: '7-15 characters: digits, +, spaces, dashes and parentheses',
};
const website: INodeProperties = {
	displayName: 'Website',
	name: 'website',
	type: 'string',
	default: '',
	placeholder: 'e.g. https://example.com',
};

// Address
const addressLine1: INodeProperties = {
	displayName: 'Address Line 1',
	name: 'addressLine1',
	type: 'string',
	default: '',
	description: '1-50 characters',
};
const addressLine2: INodeProperties = {
	displayName: 'Address Line 2',
	name: 'addressLine2',
	type: 'string',
	default: '',
	description: '3-35 characters',
};
const townCity: INodeProperties = {
	displayName: 'Town or City',
	name: 'townCity',
	type: 'string',
	default: '',
	description: '1-35 characters',
};
const countyState: INodeProperties = {
	displayName: 'County or State',
	name: 'countyState',
	type: 'string',
	default: '',
	description: '4-35 characters',
};
const postCode: INodeProperties = {
	displayName: 'Post Code',
	name: 'postCode',
	type: 'string',
	default: '',
	placeholder: 'e.g. EC1A 1BB',
	description: '4-10 letters or digits',
};
const countryCode: INodeProperties = {
	displayName: 'Country Code',
	name: 'countryCode',
	type: 'string',
	default: '',
	placeholder: 'e.g. GB',
	description: 'ISO country code of the address: exactly 2 uppercase letters',
};

// Bank details (spec §Bank details required by currency)
const sortCode: INodeProperties = {
	displayName: 'Sort Code',
	name: 'sortCode',
	type: 'string',
	default: '',
	placeholder: 'e.g. 040004',
	description: 'GBP accounts only (required there): exactly 6 digits, without dashes',
};
const accountNumber: INodeProperties = {
	displayName: 'Account Number',
	name: 'accountNumber',
	type: 'string',
	default: '',
	placeholder: 'e.g. 12345678',
	description: '4-17 digits. Required for GBP, USD and CAD accounts, and whenever no IBAN is given.',
};
const iban: INodeProperties = {
	displayName: 'IBAN',
	name: 'iban',
	type: 'string',
	default: '',
	placeholder: 'e.g. DE89370400440532013000',
	description: '15-34 letters or digits, without spaces. Required for EUR and other international accounts.',
};
const bic: INodeProperties = {
	displayName: 'BIC',
	name: 'bic',
	type: 'string',
	default: '',
	placeholder: 'e.g. COBADEFFXXX',
	description: '8-11 letters or digits. Required with an IBAN.',
};
const aba: INodeProperties = {
	displayName: 'ABA Routing Number',
	name: 'aba',
	type: 'string',
	default: '',
	placeholder: 'e.g. 021000021',
	description: 'USD accounts only (required there): exactly 9 digits',
};
const bankCountryCode: INodeProperties = {
	displayName: 'Bank Country Code',
	name: 'bankCountryCode',
	type: 'string',
	default: '',
	placeholder: 'e.g. DE',
	description: 'Country of the payee’s bank: 2 letters',
};
const institutionNumber: INodeProperties = {
	displayName: 'Institution Number',
	name: 'institutionNumber',
	type: 'string',
	default: '',
	placeholder: 'e.g. 003',
	description: 'CAD accounts only (required there): exactly 3 digits',
};
const transitNumber: INodeProperties = {
	displayName: 'Transit Number',
	name: 'transitNumber',
	type: 'string',
	default: '',
	placeholder: 'e.g. 12345',
	description: 'CAD accounts only (required there): exactly 5 digits',
};

// Intermediary bank
const intermediaryBankFields: INodeProperties[] = [
	{
		displayName: 'Intermediary ABA Routing Number',
		name: 'intermediaryAba',
		type: 'string',
		default: '',
		description: 'Exactly 9 digits',
	},
	{
		displayName: 'Intermediary Address Line 1',
		name: 'intermediaryAddress1',
		type: 'string',
		default: '',
		description: 'At most 50 characters',
	},
	{
		displayName: 'Intermediary Address Line 2',
		name: 'intermediaryAddress2',
		type: 'string',
		default: '',
		description: 'At most 50 characters',
	},
	{
		displayName: 'Intermediary BIC',
		name: 'intermediaryBic',
		type: 'string',
		default: '',
		description: '8-11 characters',
	},
	{
		displayName: 'Intermediary Country Code',
		name: 'intermediaryCountryCode',
		type: 'string',
		default: '',
		placeholder: 'e.g. US',
	},
	{
		displayName: 'Intermediary County or State',
		name: 'intermediaryCountyState',
		type: 'string',
		default: '',
		description: 'At most 35 characters',
	},
	{
		displayName: 'Intermediary Name',
		name: 'intermediaryName',
		type: 'string',
		default: '',
		description: 'Name of the intermediary bank: 2-140 characters',
	},
	{
		displayName: 'Intermediary Post Code',
		name: 'intermediaryPostcode',
		type: 'string',
		default: '',
		description: 'At most 10 characters',
	},
	{
		displayName: 'Intermediary Town or City',
		name: 'intermediaryTownCity',
		type: 'string',
		default: '',
		description: 'At most 35 characters',
	},
];

/** Which bank fields each format asks for up front (spec §Bank details required by currency). */
export const BANK_DETAILS_FORMATS = {
	cad: ['institutionNumber', 'transitNumber', 'accountNumber'],
	gbp: ['sortCode', 'accountNumber'],
	iban: ['iban', 'bic'],
	usd: ['accountNumber', 'aba'],
} as const;

export type BankDetailsFormat = keyof typeof BANK_DETAILS_FORMATS;

const bankDetailsFormat: INodeProperties = {
	displayName: 'Bank Details Format',
	name: 'bankDetailsFormat',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'CAD (Institution, Transit and Account Number)',
			value: 'cad',
		},
		{
			name: 'EUR and Other Currencies (IBAN and BIC)',
			value: 'iban',
		},
		{
			name: 'GBP (Sort Code and Account Number)',
			value: 'gbp',
		},
		{
			name: 'USD (Account Number and ABA Routing Number)',
			value: 'usd',
		},
	],
	default: 'gbp',
	description:
		'The bank details the account’s currency needs. The payee gets the currency of the account, and the details are checked against it before anything is sent.',
};

const formatsShowing = (field: string): BankDetailsFormat[] =>
	(Object.keys(BANK_DETAILS_FORMATS) as BankDetailsFormat[]).filter((format) =>
		(BANK_DETAILS_FORMATS[format] as readonly string[]).includes(field),
	);

/** The bank fields of the chosen format, top level (required for create). */
function bankFieldsByFormat(required: boolean): INodeProperties[] {
	return [sortCode, accountNumber, iban, bic, aba, institutionNumber, transitNumber].map((field) => ({
		...field,
		required,
		displayOptions: { show: { bankDetailsFormat: formatsShowing(field.name) } },
	}));
}

/** Bank fields the chosen format does not ask for up front (e.g. an IBAN on a GBP payee). */
function otherBankDetails(): INodeProperties {
	const hiddenWhenTopLevel = (field: INodeProperties): INodeProperties => {
		const formats = formatsShowing(field.name);
		return formats.length ? { ...field, displayOptions: { hide: { '/bankDetailsFormat': formats } } } : field;
	};
	return {
		displayName: 'More Bank Details',
		name: 'bankDetails',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [aba, accountNumber, bankCountryCode, bic, iban, institutionNumber, sortCode, transitNumber].map(
			hiddenWhenTopLevel,
		),
	};
}

const intermediaryBank: INodeProperties = {
	displayName: 'Intermediary Bank',
	name: 'intermediaryBank',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: intermediaryBankFields,
};

const contact: INodeProperties = {
	displayName: 'Contact',
	name: 'contact',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [email, mobilePhone, website],
};

/** Create and upsert: the fields required for create at the top level, the rest in groups. */
export function payeeFormForCreate(required: boolean): INodeProperties[] {
	const top = (field: INodeProperties) => ({ ...field, required });
	return [
		top(name),
		top(reference),
		top(purpose),
		top(purposeCategory),
		top(addressLine1),
		top(townCity),
		top(postCode),
		top(countryCode),
		bankDetailsFormat,
		...bankFieldsByFormat(required),
		{
			displayName: 'Identity',
			name: 'identity',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [displayName, isBusiness],
		},
		contact,
		{
			displayName: 'Address',
			name: 'address',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [addressLine2, countyState],
		},
		otherBankDetails(),
		intermediaryBank,
	];
}

/** Update: every field optional (spec §Update), in the same groups. */
export function payeeFormForUpdate(): INodeProperties[] {
	return [
		{
			displayName: 'Identity',
			name: 'identity',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [displayName, isBusiness, name, purpose, purposeCategory, reference],
		},
		contact,
		{
			displayName: 'Address',
			name: 'address',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [addressLine1, addressLine2, countryCode, countyState, postCode, townCity],
		},
		{
			displayName: 'Bank Details',
			name: 'bankDetails',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [aba, accountNumber, bankCountryCode, bic, iban, institutionNumber, sortCode, transitNumber],
		},
		intermediaryBank,
	];
}

/** Collections whose fields are payee body fields. */
export const PAYEE_COLLECTIONS = ['identity', 'contact', 'address', 'bankDetails', 'intermediaryBank'];

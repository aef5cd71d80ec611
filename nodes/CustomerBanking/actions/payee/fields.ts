import type { INodeProperties } from 'n8n-workflow';

import { payeeFieldHint as hint } from '../../validation/payee.schema';

/**
 * The payee form, grouped as spec §Payee groups the fields (identity, contact, address, bank
 * details, intermediary bank). Each field is defined once; create, update and upsert arrange them.
 * The rules quoted in the descriptions come from validation/payee.schema.ts, which enforces them.
 */

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

// Identity
const name: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	placeholder: 'e.g. Acme Supplies Ltd',
	description: sentence(hint('name')),
};
const displayName: INodeProperties = {
	displayName: 'Display Name',
	name: 'displayName',
	type: 'string',
	default: '',
	description: `Name shown in the banking app. ${sentence(hint('displayName'))}.`,
};
const reference: INodeProperties = {
	displayName: 'Reference',
	name: 'reference',
	type: 'string',
	default: '',
	placeholder: 'e.g. INV-2024-001',
	description: `Reference for payments to this payee: ${hint('reference')}`,
};
const purpose: INodeProperties = {
	displayName: 'Purpose',
	name: 'purpose',
	type: 'string',
	default: '',
	placeholder: 'e.g. Supplier payments',
	description: `Why this payee is paid: ${hint('purpose')}`,
};
const purposeCategory: INodeProperties = {
	displayName: 'Purpose Category',
	name: 'purposeCategory',
	type: 'string',
	default: '',
	placeholder: 'e.g. SUPPLIER',
	description: `Category of the purpose, as the bank names it: ${hint('purposeCategory')}`,
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
	description: sentence(hint('email')),
};
const mobilePhone: INodeProperties = {
	displayName: 'Mobile Phone',
	name: 'mobilePhone',
	type: 'string',
	default: '',
	placeholder: 'e.g. +44 7700 900123',
	description: sentence(hint('mobilePhone')),
};
const website: INodeProperties = {
	displayName: 'Website',
	name: 'website',
	type: 'string',
	default: '',
	placeholder: 'e.g. https://example.com',
	description: sentence(hint('website')),
};

// Address
const addressLine1: INodeProperties = {
	displayName: 'Address Line 1',
	name: 'addressLine1',
	type: 'string',
	default: '',
	description: sentence(hint('addressLine1')),
};
const addressLine2: INodeProperties = {
	displayName: 'Address Line 2',
	name: 'addressLine2',
	type: 'string',
	default: '',
	description: sentence(hint('addressLine2')),
};
const townCity: INodeProperties = {
	displayName: 'Town or City',
	name: 'townCity',
	type: 'string',
	default: '',
	description: sentence(hint('townCity')),
};
const countyState: INodeProperties = {
	displayName: 'County or State',
	name: 'countyState',
	type: 'string',
	default: '',
	description: sentence(hint('countyState')),
};
const postCode: INodeProperties = {
	displayName: 'Post Code',
	name: 'postCode',
	type: 'string',
	default: '',
	placeholder: 'e.g. EC1A 1BB',
	description: sentence(hint('postCode')),
};
const countryCode: INodeProperties = {
	displayName: 'Country Code',
	name: 'countryCode',
	type: 'string',
	default: '',
	placeholder: 'e.g. GB',
	description: `Country of the address: ${hint('countryCode')}`,
};

// Bank details (spec §Bank details required by currency)
const sortCode: INodeProperties = {
	displayName: 'Sort Code',
	name: 'sortCode',
	type: 'string',
	default: '',
	placeholder: 'e.g. 040004',
	description: `GBP accounts only (required there): ${hint('sortCode')}, without dashes`,
};
const accountNumber: INodeProperties = {
	displayName: 'Account Number',
	name: 'accountNumber',
	type: 'string',
	default: '',
	placeholder: 'e.g. 12345678',
	description: `${sentence(hint('accountNumber'))}. Required for GBP, USD and CAD accounts, and whenever no IBAN is given.`,
};
const iban: INodeProperties = {
	displayName: 'IBAN',
	name: 'iban',
	type: 'string',
	default: '',
	placeholder: 'e.g. DE89370400440532013000',
	description: `${sentence(hint('iban'))}, without spaces. Required for EUR and other international accounts.`,
};
const bic: INodeProperties = {
	displayName: 'BIC',
	name: 'bic',
	type: 'string',
	default: '',
	placeholder: 'e.g. COBADEFFXXX',
	description: `${sentence(hint('bic'))}. Required with an IBAN.`,
};
const aba: INodeProperties = {
	displayName: 'ABA Routing Number',
	name: 'aba',
	type: 'string',
	default: '',
	placeholder: 'e.g. 021000021',
	description: `USD accounts only (required there): ${hint('aba')}`,
};
const bankCountryCode: INodeProperties = {
	displayName: 'Bank Country Code',
	name: 'bankCountryCode',
	type: 'string',
	default: '',
	placeholder: 'e.g. DE',
	description: `Country of the payee’s bank: ${hint('bankCountryCode')}`,
};
const institutionNumber: INodeProperties = {
	displayName: 'Institution Number',
	name: 'institutionNumber',
	type: 'string',
	default: '',
	placeholder: 'e.g. 003',
	description: `CAD accounts only (required there): ${hint('institutionNumber')}`,
};
const transitNumber: INodeProperties = {
	displayName: 'Transit Number',
	name: 'transitNumber',
	type: 'string',
	default: '',
	placeholder: 'e.g. 12345',
	description: `CAD accounts only (required there): ${hint('transitNumber')}`,
};

// Intermediary bank
const intermediaryBankFields: INodeProperties[] = [
	{
		displayName: 'Intermediary ABA Routing Number',
		name: 'intermediaryAba',
		type: 'string',
		default: '',
		description: sentence(hint('intermediaryAba')),
	},
	{
		displayName: 'Intermediary Address Line 1',
		name: 'intermediaryAddress1',
		type: 'string',
		default: '',
		description: sentence(hint('intermediaryAddress1')),
	},
	{
		displayName: 'Intermediary Address Line 2',
		name: 'intermediaryAddress2',
		type: 'string',
		default: '',
		description: sentence(hint('intermediaryAddress2')),
	},
	{
		displayName: 'Intermediary BIC',
		name: 'intermediaryBic',
		type: 'string',
		default: '',
		description: sentence(hint('intermediaryBic')),
	},
	{
		displayName: 'Intermediary Country Code',
		name: 'intermediaryCountryCode',
		type: 'string',
		default: '',
		placeholder: 'e.g. US',
		description: `Country of the intermediary bank: ${hint('intermediaryCountryCode')}`,
	},
	{
		displayName: 'Intermediary County or State',
		name: 'intermediaryCountyState',
		type: 'string',
		default: '',
		description: sentence(hint('intermediaryCountyState')),
	},
	{
		displayName: 'Intermediary Name',
		name: 'intermediaryName',
		type: 'string',
		default: '',
		description: `Name of the intermediary bank: ${hint('intermediaryName')}`,
	},
	{
		displayName: 'Intermediary Post Code',
		name: 'intermediaryPostcode',
		type: 'string',
		default: '',
		description: sentence(hint('intermediaryPostcode')),
	},
	{
		displayName: 'Intermediary Town or City',
		name: 'intermediaryTownCity',
		type: 'string',
		default: '',
		description: sentence(hint('intermediaryTownCity')),
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
		displayName: MORE_BANK_DETAILS,
		name: 'bankDetails',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [aba, accountNumber, bankCountryCode, bic, iban, institutionNumber, sortCode, transitNumber].map(
			hiddenWhenTopLevel,
		),
	};
}

/** The groups of the form; errors about a group name it as the form does. */
const COLLECTION_LABELS = {
	identity: 'Identity',
	contact: 'Contact',
	address: 'Address',
	bankDetails: 'Bank Details',
	intermediaryBank: 'Intermediary Bank',
} as const;

type PayeeCollection = keyof typeof COLLECTION_LABELS;

/** Collections whose fields are payee body fields. */
export const PAYEE_COLLECTIONS = Object.keys(COLLECTION_LABELS) as PayeeCollection[];

// create and upsert show the bank fields of the chosen format at the top, the others in this group
const MORE_BANK_DETAILS = 'More Bank Details';

export function payeeCollectionLabel(collection: PayeeCollection, form: 'create' | 'update'): string {
	return collection === 'bankDetails' && form === 'create' ? MORE_BANK_DETAILS : COLLECTION_LABELS[collection];
}

const intermediaryBank: INodeProperties = {
	displayName: COLLECTION_LABELS.intermediaryBank,
	name: 'intermediaryBank',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: intermediaryBankFields,
};

const contact: INodeProperties = {
	displayName: COLLECTION_LABELS.contact,
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
			displayName: COLLECTION_LABELS.identity,
			name: 'identity',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [displayName, isBusiness],
		},
		contact,
		{
			displayName: COLLECTION_LABELS.address,
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
			displayName: COLLECTION_LABELS.identity,
			name: 'identity',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [displayName, isBusiness, name, purpose, purposeCategory, reference],
		},
		contact,
		{
			displayName: COLLECTION_LABELS.address,
			name: 'address',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [addressLine1, addressLine2, countryCode, countyState, postCode, townCity],
		},
		{
			displayName: COLLECTION_LABELS.bankDetails,
			name: 'bankDetails',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [aba, accountNumber, bankCountryCode, bic, iban, institutionNumber, sortCode, transitNumber],
		},
		intermediaryBank,
	];
}

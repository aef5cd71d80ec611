import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import {
	BANK_DETAILS_FORMAT_NAMES,
	bankDetailsFormat,
	bankDetailsRequiredFor,
	IBAN_CONDITIONS,
	PAYEE_FIELD_NAMES,
	PAYEE_GROUPS,
	payeeField,
	type PayeeField,
	payeeFieldHint,
	type PayeeGroup,
	REQUIRED_ON_CREATE,
} from '../../validation/payee.fields';
import { byDisplayName } from '../common.descriptions';

/**
 * The payee form, generated from the field table (validation/payee.fields.ts) in its groups (spec
 * §Payee: identity, contact, address, bank details, intermediary bank). Create and upsert show the
 * fields required for create and the bank fields of the chosen format at the top; update offers
 * every field in its group.
 */

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
const listed = (items: readonly string[]) =>
	items.length < 2
		? items.join('')
		: `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

/** When a bank field is required, as its description says it. */
function requiredWhen(field: PayeeField): string | undefined {
	const { requiredWhenIban } = payeeField(field);
	// a field required with every IBAN needs no word about the accounts that require an IBAN
	const accounts = BANK_DETAILS_FORMAT_NAMES.map(bankDetailsFormat)
		.filter((format) => format.required.includes(field))
		.filter((format) => !(requiredWhenIban === 'given' && format.required.includes('iban')))
		.map((format) => format.accounts ?? format.currency ?? '');
	const byIban = requiredWhenIban && IBAN_CONDITIONS[requiredWhenIban];
	if (accounts.length === 0) return byIban && `Required ${byIban}`;
	const byCurrency = `Required for ${listed(accounts)} accounts`;
	return byIban ? `${byCurrency}, and ${byIban}` : byCurrency;
}

/**
 * The field's description: what it is, its rule (the schema's words), how it may be written and when
 * it is required.
 */
function describe(field: PayeeField): string {
	const { about, onlyFor, valueNote } = payeeField(field);
	const value = payeeFieldHint(field);
	const lead = onlyFor
		? `${onlyFor} accounts only${bankDetailsRequiredFor(onlyFor).includes(field) ? ' (required there)' : ''}`
		: about;
	// a rule that has a colon of its own gets a sentence of its own
	const text =
		lead === undefined
			? sentence(value)
			: value === ''
				? lead
				: value.includes(':')
					? `${lead}. ${sentence(value)}.`
					: `${lead}: ${value}`;
	const when = onlyFor ? undefined : requiredWhen(field);
	const sentences = [text, valueNote, when].filter((part) => part !== undefined);
	// a single phrase stays without a full stop, as n8n's own descriptions do
	return sentences.length === 1
		? text
		: sentences.map((part) => (part.endsWith('.') ? part : `${part}.`)).join(' ');
}

function property(field: PayeeField): INodeProperties {
	const { label, placeholder, rule } = payeeField(field);
	const isBoolean = rule.kind === 'boolean';
	return {
		displayName: label,
		name: field,
		type: isBoolean ? 'boolean' : 'string',
		default: isBoolean ? false : '',
		...(placeholder !== undefined && { placeholder }),
		description: describe(field),
	};
}

function collection(
	group: PayeeGroup,
	displayName: string,
	options: INodeProperties[],
): INodeProperties {
	return {
		displayName,
		name: group,
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: byDisplayName(options),
	};
}

const GROUP_NAMES = Object.keys(PAYEE_GROUPS) as PayeeGroup[];
const fieldsOf = (group: PayeeGroup) =>
	PAYEE_FIELD_NAMES.filter((field) => payeeField(field).group === group);

/** The groups whose fields are payee body fields. */
export const PAYEE_COLLECTIONS = GROUP_NAMES;

// create and upsert show the bank fields of the chosen format at the top, the others in this group
const MORE_BANK_DETAILS = 'More Bank Details';

export function payeeCollectionLabel(group: PayeeGroup, form: 'create' | 'update'): string {
	return group === 'bankDetails' && form === 'create' ? MORE_BANK_DETAILS : PAYEE_GROUPS[group];
}

const formatsShowing = (field: PayeeField) =>
	BANK_DETAILS_FORMAT_NAMES.filter((format) =>
		bankDetailsFormat(format).required.includes(field),
	).sort();

const bankDetailsFormatProperty: INodeProperties = {
	displayName: 'Bank Details Format',
	name: 'bankDetailsFormat',
	type: 'options',
	noDataExpression: true,
	options: BANK_DETAILS_FORMAT_NAMES.map(
		(value): INodePropertyOptions => ({ name: bankDetailsFormat(value).option, value }),
	).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
	default: 'gbp',
	description:
		'The bank details the account’s currency needs. The payee gets the currency of the account, and the details are checked against it before anything is sent.',
};

/** Create and upsert: the fields required for create at the top level, the rest in groups. */
export function payeeFormForCreate(required: boolean): INodeProperties[] {
	const atTop = (field: PayeeField) =>
		(REQUIRED_ON_CREATE as readonly PayeeField[]).includes(field);
	// a bank field of the chosen format is at the top; its group offers it for the other formats
	const inGroup = (field: PayeeField): INodeProperties =>
		formatsShowing(field).length
			? {
					...property(field),
					displayOptions: { hide: { '/bankDetailsFormat': formatsShowing(field) } },
				}
			: property(field);
	return [
		...REQUIRED_ON_CREATE.map((field) => ({ ...property(field), required })),
		bankDetailsFormatProperty,
		...PAYEE_FIELD_NAMES.filter((field) => formatsShowing(field).length).map((field) => ({
			...property(field),
			required,
			displayOptions: { show: { bankDetailsFormat: formatsShowing(field) } },
		})),
		...GROUP_NAMES.map((group) =>
			collection(
				group,
				payeeCollectionLabel(group, 'create'),
				fieldsOf(group)
					.filter((field) => !atTop(field))
					.map(inGroup),
			),
		),
	];
}

/** Update: every field optional (spec §Update), in the same groups. */
export function payeeFormForUpdate(): INodeProperties[] {
	return GROUP_NAMES.map((group) =>
		collection(group, payeeCollectionLabel(group, 'update'), fieldsOf(group).map(property)),
	);
}

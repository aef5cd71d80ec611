import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { z } from 'zod';

import { apiRequest, apiRequestAllItems } from '../../transport';
import { PAYEE_ENDPOINT } from '../../transport/endpoints';
import { readGroup } from '../../validation/objects';
import { BANK_DETAIL_FIELDS, describeIssues, REQUIRED_ON_CREATE } from '../../validation/payee.schema';
import { getOption } from '../parameters';
import { BANK_DETAILS_FORMATS, type BankDetailsFormat, payeeCollectionLabel, PAYEE_COLLECTIONS } from './fields';

const FORMATS = Object.keys(BANK_DETAILS_FORMATS) as BankDetailsFormat[];

/** Empty fields are left out (never sent as ""), so an update leaves them as stored. */
function addField(body: IDataObject, field: string, value: unknown): void {
	if (value === undefined || value === null || value === '') return;
	// expressions may hand over numbers (e.g. an account number from a sheet); the rules judge the text
	body[field] = typeof value === 'number' ? String(value) : (value as IDataObject[string]);
}

/** The payee body as the user filled it in: top-level fields (create, upsert) and the groups. */
export function readPayeeInput(
	context: IExecuteFunctions,
	itemIndex: number,
	form: 'create' | 'update',
): IDataObject {
	const body: IDataObject = {};
	if (form === 'create') {
		const format = getOption(context, 'bankDetailsFormat', itemIndex, 'gbp', FORMATS, 'Bank Details Format');
		const topLevel = [...REQUIRED_ON_CREATE, ...BANK_DETAILS_FORMATS[format]];
		for (const field of topLevel) addField(body, field, context.getNodeParameter(field, itemIndex, ''));
	}
	for (const collection of PAYEE_COLLECTIONS) {
		// null is an empty group; anything else that is not a group of fields, or a key such as
		// "__proto__" (which would replace the body's prototype), is refused before any request
		const group = readGroup(context.getNodeParameter(collection, itemIndex, {}));
		if (!group.ok) {
			const label = payeeCollectionLabel(collection, form);
			throw new NodeOperationError(
				context.getNode(),
				`Invalid payee in item ${itemIndex}: ${label} (${collection}) ${group.rule}`,
				{ itemIndex, description: `${label} (${collection}) ${group.rule}. Nothing was sent.` },
			);
		}
		for (const [field, value] of Object.entries(group.values)) {
			// a top-level value wins over the same field left in a group
			if (!Object.hasOwn(body, field)) addField(body, field, value);
		}
	}
	return body;
}

/** Validates with one of the payee schemas; the error names the field, the rule and the item. */
export function validatePayee<Schema extends z.ZodTypeAny>(
	context: IExecuteFunctions,
	itemIndex: number,
	schema: Schema,
	body: IDataObject,
): z.infer<Schema> {
	const result = schema.safeParse(body);
	if (result.success) return result.data;
	const issues = describeIssues(result.error);
	const [first] = issues;
	const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
	throw new NodeOperationError(
		context.getNode(),
		`Invalid payee in item ${itemIndex}: ${first.label} (${first.field}) ${first.rule}${more}`,
		{
			itemIndex,
			description: issues.map((issue) => `${issue.label} (${issue.field}) ${issue.rule}`).join('\n'),
		},
	);
}

export function changesBankDetails(body: IDataObject): boolean {
	return BANK_DETAIL_FIELDS.some((field) => body[field] !== undefined);
}

// One GET /account/{xaid} per account per execution: the currency decides the payee rules
const currencyCache = new WeakMap<IExecuteFunctions, Map<string, Promise<string>>>();

export async function getAccountCurrency(
	context: IExecuteFunctions,
	xaid: string,
	itemIndex: number,
): Promise<string> {
	const byAccount = currencyCache.get(context) ?? new Map<string, Promise<string>>();
	currencyCache.set(context, byAccount);
	let currency = byAccount.get(xaid);
	if (!currency) {
		currency = apiRequest
			.call(context, { method: 'GET', path: `/account/${xaid}`, itemIndex })
			.then((account) => String(account.currency ?? '').toUpperCase());
		byAccount.set(xaid, currency);
		// a failed look-up is not remembered: the next item asks again and gets its own error
		currency.catch(() => byAccount.delete(xaid));
	}
	return await currency;
}

export async function getPayee(
	context: IExecuteFunctions,
	xpid: string,
	itemIndex: number,
): Promise<IDataObject> {
	return await apiRequest.call(context, {
		method: 'GET',
		path: `/payee/${encodeURIComponent(xpid)}`,
		...PAYEE_ENDPOINT,
		itemIndex,
	});
}

// the bank fields that identify where money goes; bic and bankCountryCode only describe the bank
const IDENTIFYING_BANK_FIELDS = [
	'sortCode',
	'accountNumber',
	'iban',
	'aba',
	'institutionNumber',
	'transitNumber',
];

const normalisedName = (value: unknown) =>
	String(value ?? '')
		.trim()
		.replace(/\s+/g, ' ')
		.toLowerCase();
const normalisedCode = (value: unknown) =>
	String(value ?? '')
		.replace(/\s+/g, '')
		.toUpperCase();

/**
 * spec §Errors rule 6: before an upsert, look the payee up among the account's payees by name and
 * the bank details given; one match → its xpid, none → undefined, several → error (ambiguous).
 */
export async function findExistingPayee(
	context: IExecuteFunctions,
	xaid: string,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject | undefined> {
	const payees = await apiRequestAllItems.call(context, {
		path: `/account/${xaid}/payees`,
		...PAYEE_ENDPOINT,
		returnAll: true,
		itemIndex,
	});
	const bankFields = IDENTIFYING_BANK_FIELDS.filter((field) => body[field] !== undefined);
	const matches = payees.filter(
		(payee) =>
			normalisedName(payee.name) === normalisedName(body.name) &&
			bankFields.every((field) => normalisedCode(payee[field]) === normalisedCode(body[field])),
	);
	if (matches.length > 1) {
		throw new NodeOperationError(
			context.getNode(),
			`${matches.length} payees of the account match the name and bank details of item ${itemIndex}`,
			{
				itemIndex,
				description: `Matching payees: ${matches.map((payee) => payee.xpid).join(', ')}. Set "Payee ID" to choose the one to update.`,
			},
		);
	}
	return matches[0];
}

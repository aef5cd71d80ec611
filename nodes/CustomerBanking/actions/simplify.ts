import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getBoolean } from './parameters';

export type SimplifiedResource = 'account' | 'transaction' | 'payee' | 'approval';

interface CompactField {
	/** The key in the simplified output. */
	key: string;
	/** Where the record holds it, as a path of keys, when not at the top under the same key. */
	from?: string[];
	/** The field in plain words, for the form. */
	label: string;
}

/**
 * The simplified shape of each resource: the one list the form's Simplify description and the README's
 * operations table are written from (test/unit/simplify.test.ts checks that they agree). A simplified
 * record holds the fields of this list that the bank's record has, in this order, as the bank sent them;
 * a missing one is left out, never filled in. Transaction and approval fields are not shown by the API
 * documentation (spec §Transaction, §Approval): the lists name what banks commonly send.
 */
export const COMPACT_FIELDS: Readonly<Record<SimplifiedResource, readonly CompactField[]>> = {
	account: [
		{ key: 'xaid', label: 'account ID' },
		{ key: 'name', label: 'name' },
		{ key: 'displayName', label: 'display name' },
		{ key: 'type', label: 'type' },
		{ key: 'currency', label: 'currency' },
		{ key: 'status', label: 'status' },
		{ key: 'iban', label: 'IBAN' },
		{ key: 'sortCode', label: 'sort code' },
		{ key: 'accountNumber', label: 'account number' },
		{ key: 'createdDate', label: 'created date' },
	],
	transaction: [
		{ key: 'xtid', label: 'transaction ID' },
		{ key: 'xaid', label: 'account ID' },
		{ key: 'direction', label: 'direction' },
		{ key: 'status', label: 'status' },
		{ key: 'amount', label: 'amount' },
		{ key: 'currency', label: 'currency' },
		{ key: 'reference', label: 'reference' },
		{ key: 'counterpartyName', label: 'counterparty name' },
		{ key: 'xpid', label: 'payee ID' },
		{ key: 'created', label: 'created time' },
	],
	payee: [
		{ key: 'xpid', label: 'payee ID' },
		{ key: 'xaid', label: 'account ID' },
		{ key: 'name', label: 'name' },
		{ key: 'displayName', label: 'display name' },
		{ key: 'currency', label: 'currency' },
		{ key: 'reference', label: 'reference' },
		{ key: 'purposeCategory', label: 'purpose category' },
		{ key: 'countryCode', label: 'country' },
		{ key: 'created', label: 'created time' },
		{ key: 'updated', label: 'updated time' },
	],
	// spec §Approval: ref, xtid, parent_xaid, status, the related transaction and meta; where the bank
	// sends the payment's details inside them, they are lifted to the top
	approval: [
		{ key: 'ref', label: 'approval reference' },
		{ key: 'xtid', label: 'transaction ID' },
		{ key: 'parent_xaid', label: 'account ID' },
		{ key: 'status', label: 'status' },
		{ key: 'amount', from: ['transaction', 'amount'], label: 'amount' },
		{ key: 'currency', from: ['transaction', 'currency'], label: 'currency' },
		{ key: 'reference', from: ['transaction', 'reference'], label: 'payment reference' },
		{ key: 'xpid', from: ['transaction', 'xpid'], label: 'payee ID' },
		{ key: 'created', from: ['meta', 'created'], label: 'created time' },
		{ key: 'expiresAt', from: ['meta', 'expiresAt'], label: 'expiry time' },
	],
};

function valueAt(record: IDataObject, path: string[]): unknown {
	let value: unknown = record;
	for (const key of path) {
		if (
			typeof value !== 'object' ||
			value === null ||
			Array.isArray(value) ||
			!Object.hasOwn(value, key)
		) {
			return undefined;
		}
		value = (value as IDataObject)[key];
	}
	return value;
}

/** The record in its simplified shape: only the listed fields it has. */
export function simplifyRecord(resource: SimplifiedResource, record: IDataObject): IDataObject {
	const compact: IDataObject = {};
	for (const field of COMPACT_FIELDS[resource]) {
		const value = valueAt(record, field.from ?? [field.key]);
		if (value !== undefined) compact[field.key] = value as IDataObject[string];
	}
	return compact;
}

/** The simplified shape in words: "the account ID, name, … and created date". */
export function compactFieldsInWords(resource: SimplifiedResource): string {
	const labels = COMPACT_FIELDS[resource].map((field) => field.label);
	return `the ${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
}

/** The simplified shape as the README writes it: "`xaid`, `name`, …, `created` (from `meta.created`)". */
export function compactFieldsForReadme(resource: SimplifiedResource): string {
	return COMPACT_FIELDS[resource]
		.map((field) => `\`${field.key}\`${field.from ? ` (from \`${field.from.join('.')}\`)` : ''}`)
		.join(', ');
}

/**
 * n8n's Simplify switch (named and worded as in n8n's own nodes); on by default where the operation
 * returns many records.
 */
export function simplifyProperty(
	resource: SimplifiedResource,
	defaultOn: boolean,
): INodeProperties {
	const property: INodeProperties = {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		description: `Whether to return a simplified version of the response instead of the raw data: only ${compactFieldsInWords(resource)}, those the bank sends. Used as an AI agent's tool, the node always returns the simplified version.`,
	};
	return { ...property, default: defaultOn };
}

/**
 * n8n turns a node that is usable as a tool into a node type named after it with "Tool" at the end
 * (convertNodeToAiTool in n8n's tool generation, both n8n lines); that is the node an AI agent runs.
 */
export function runsAsAiTool(this: IExecuteFunctions): boolean {
	return this.getNode().type.endsWith('Tool');
}

/**
 * How the records leave the node, read before any request: simplified when Simplify is on or an AI agent
 * runs the node, as the bank sent them otherwise.
 */
export function readSimplify(
	this: IExecuteFunctions,
	itemIndex: number,
	resource: SimplifiedResource,
	defaultOn: boolean,
): <Result extends IDataObject | IDataObject[]>(result: Result) => Result {
	const simplify =
		runsAsAiTool.call(this) || getBoolean.call(this, 'simplify', itemIndex, defaultOn, 'Simplify');
	const shape = (record: IDataObject) =>
		typeof record === 'object' && record !== null && !Array.isArray(record)
			? simplifyRecord(resource, record)
			: record;
	return <Result extends IDataObject | IDataObject[]>(result: Result): Result => {
		if (!simplify) return result;
		return (Array.isArray(result) ? result.map(shape) : shape(result)) as Result;
	};
}

import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { PLAIN_NAMES } from '../../shared/outputNames';
import { getBoolean } from './parameters';
import { isPlainObject, ownValue } from '../../shared/records';

export type SimplifiedResource = 'account' | 'transaction' | 'payee' | 'approval';

interface CompactField {
	/** The key in the simplified output: a plain name (shared/outputNames.ts for the bank's identifiers). */
	key: string;
	/** Where the record holds it, as a path of keys, when not at the top under the same key. */
	from?: readonly string[];
	/** The field in plain words, for the form. */
	label: string;
}

/**
 * The simplified shape of each resource: the one list the form's Simplify description and the
 * operations page (docs/operations.md) are written from, so that the two always agree. A simplified record holds the fields of this list that the bank's record has, in this order,
 * as the bank sent them, under the plain names (an identifier such as xtid becomes transactionId); a
 * missing one is left out, never filled in. Transaction and approval fields are not shown by the API
 * documentation (spec §Transaction, §Approval): the lists name what banks commonly send.
 */
export const COMPACT_FIELDS: Readonly<Record<SimplifiedResource, readonly CompactField[]>> = {
	account: [
		{ key: PLAIN_NAMES.xaid, from: ['xaid'], label: 'account ID' },
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
		{ key: PLAIN_NAMES.xtid, from: ['xtid'], label: 'transaction ID' },
		{ key: 'direction', label: 'direction' },
		{ key: 'status', label: 'status' },
		{ key: 'amount', label: 'amount' },
		{ key: 'currency', label: 'currency' },
		{ key: 'reference', label: 'reference' },
		{ key: 'counterpartyName', label: 'counterparty name' },
		{ key: 'created', label: 'created time' },
		{ key: PLAIN_NAMES.xaid, from: ['xaid'], label: 'account ID' },
		{ key: PLAIN_NAMES.xpid, from: ['xpid'], label: 'payee ID' },
	],
	payee: [
		{ key: PLAIN_NAMES.xpid, from: ['xpid'], label: 'payee ID' },
		{ key: 'name', label: 'name' },
		{ key: 'displayName', label: 'display name' },
		{ key: 'currency', label: 'currency' },
		{ key: 'reference', label: 'reference' },
		{ key: 'purposeCategory', label: 'purpose category' },
		{ key: 'countryCode', label: 'country' },
		{ key: 'created', label: 'created time' },
		{ key: 'updated', label: 'updated time' },
		{ key: PLAIN_NAMES.xaid, from: ['xaid'], label: 'account ID' },
	],
	// spec §Approval: ref, xtid, parent_xaid, status, the related transaction and meta; where the bank
	// sends the payment's details inside them, they are lifted to the top
	approval: [
		{ key: PLAIN_NAMES.ref, from: ['ref'], label: 'approval ID' },
		{ key: 'status', label: 'status' },
		{ key: 'amount', from: ['transaction', 'amount'], label: 'amount' },
		{ key: 'currency', from: ['transaction', 'currency'], label: 'currency' },
		{ key: 'reference', from: ['transaction', 'reference'], label: 'payment reference' },
		{ key: 'created', from: ['meta', 'created'], label: 'created time' },
		{ key: 'expiresAt', from: ['meta', 'expiresAt'], label: 'expiry time' },
		{ key: PLAIN_NAMES.xtid, from: ['xtid'], label: 'transaction ID' },
		{ key: PLAIN_NAMES.parent_xaid, from: ['parent_xaid'], label: 'account ID' },
		{ key: PLAIN_NAMES.xpid, from: ['transaction', 'xpid'], label: 'payee ID' },
	],
};

/** Where a field of a simplified record comes from, worked out once per resource, not per record. */
interface Source {
	/** The key at the record's top. */
	top: string;
	/** The keys below it, for a field lifted from a nested object. */
	below: readonly string[];
}

/**
 * The simplified records of one resource that have the same listed fields are made alike: each one a
 * copy of this object, made in one step, then its values written into fields it already has. An
 * object grown field by field under keys read from a table costs V8 a change of shape per field,
 * through code that sees every key (issue 41 measured 8 µs a record in n8n); copies of one object
 * share its shape.
 */
interface Shape {
	template: IDataObject;
	/** The template's keys, and for each the position of its field in the resource's list. */
	keys: readonly string[];
	positions: readonly number[];
}

/** Everything about simplifying one resource that does not depend on the record. */
interface Plan {
	sources: readonly Source[];
	keys: readonly string[];
	/** The shape of each set of fields seen so far, by its bits (field i: bit i). */
	shapes: Map<number, Shape>;
}

function planOf(fields: readonly CompactField[]): Plan {
	return {
		sources: fields.map(({ key, from = [key] }) => ({ top: from[0], below: from.slice(1) })),
		keys: fields.map(({ key }) => key),
		shapes: new Map(),
	};
}

const PLANS: Readonly<Record<SimplifiedResource, Plan>> = {
	account: planOf(COMPACT_FIELDS.account),
	transaction: planOf(COMPACT_FIELDS.transaction),
	payee: planOf(COMPACT_FIELDS.payee),
	approval: planOf(COMPACT_FIELDS.approval),
};

function shapeOf(plan: Plan, present: number): Shape {
	let shape = plan.shapes.get(present);
	if (shape) return shape;
	const template: IDataObject = {};
	const keys: string[] = [];
	const positions: number[] = [];
	plan.keys.forEach((key, position) => {
		if ((present & (1 << position)) === 0) return;
		template[key] = null;
		keys.push(key);
		positions.push(position);
	});
	shape = { template, keys, positions };
	plan.shapes.set(present, shape);
	return shape;
}

function valueAt(record: IDataObject, { top, below }: Source): unknown {
	let value = ownValue(record, top);
	for (let depth = 0; depth < below.length && value !== undefined; depth++)
		value = isPlainObject(value) ? ownValue(value, below[depth]) : undefined;
	return value;
}

function simplifyWith(plan: Plan, record: IDataObject): IDataObject {
	const { sources } = plan;
	const values: unknown[] = new Array(sources.length);
	let present = 0;
	for (let position = 0; position < sources.length; position++) {
		const value = valueAt(record, sources[position]);
		values[position] = value;
		if (value !== undefined) present |= 1 << position;
	}
	const { template, keys, positions } = shapeOf(plan, present);
	const compact = { ...template };
	for (let field = 0; field < keys.length; field++)
		compact[keys[field]] = values[positions[field]] as IDataObject[string];
	return compact;
}

/**
 * The record in its simplified shape: only the listed fields it has. The one object made per record is
 * the simplified one; the bank's values go into it as they are, not copied.
 */
export function simplifyRecord(resource: SimplifiedResource, record: IDataObject): IDataObject {
	return simplifyWith(PLANS[resource], record);
}

/** The simplified shape in words: "the account ID, name, … and created date". */
export function compactFieldsInWords(resource: SimplifiedResource): string {
	const labels = COMPACT_FIELDS[resource].map((field) => field.label);
	return `the ${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
}

/**
 * n8n's Simplify switch (named and worded as in n8n's own nodes), on by default on every operation that
 * returns the bank's records: what a node shows by default names every field plainly; off, the record is
 * as the bank sent it, under the bank's names.
 */
export function simplifyProperty(resource: SimplifiedResource, besides = ''): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: `Whether to return a simplified version of the response instead of the raw data: only ${compactFieldsInWords(resource)}, those the bank sends${besides}. Off, the record is as the bank sent it, under the bank's own field names. Used as an AI agent's tool, the node always returns the simplified version.`,
	};
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
 * runs the node (the record's shape to apply), as the bank sent them otherwise (undefined). A list takes
 * it page by page (requestAll's `shape`), so the bank's full records are not all held at once.
 */
export function readSimplify(
	this: IExecuteFunctions,
	itemIndex: number,
	resource: SimplifiedResource,
): ((record: IDataObject) => IDataObject) | undefined {
	const simplify =
		runsAsAiTool.call(this) || getBoolean.call(this, 'simplify', itemIndex, true, 'Simplify');
	if (!simplify) return undefined;
	const plan = PLANS[resource];
	return (record) => (isPlainObject(record) ? simplifyWith(plan, record) : record);
}

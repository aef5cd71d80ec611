/**
 * Simplify (issue 22): one list of compact fields per resource (actions/simplify.ts), from which the form's
 * Simplify descriptions are written, and which the operations page (docs/operations.md) states.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { CustomerBanking } from '../../../../nodes/CustomerBanking/CustomerBanking.node';
import {
	COMPACT_FIELDS,
	compactFieldsInWords,
	readSimplify,
	runsAsAiTool,
	type SimplifiedResource,
	simplifyRecord,
} from '../../../../nodes/CustomerBanking/actions/simplify';
import { readAllPages } from '../../../../nodes/shared/transport/paginate';
import {
	createdTimeOf,
	readTransactionFilters,
} from '../../../../nodes/CustomerBanking/actions/transaction/filters';

/** The simplified shape as the operations page writes it: "`accountId` (from `xaid`), `name`, …". */
function operationsPageFields(resource: SimplifiedResource): string {
	return COMPACT_FIELDS[resource]
		.map((field) => `\`${field.key}\`${field.from ? ` (from \`${field.from.join('.')}\`)` : ''}`)
		.join(', ');
}

const RESOURCES = Object.keys(COMPACT_FIELDS) as SimplifiedResource[];
const properties = new CustomerBanking().description.properties;
const OPERATIONS_PAGE = readFileSync(join(__dirname, '../../../../docs/operations.md'), 'utf8');

describe('the compact field lists', () => {
	it.each(RESOURCES)('%s: at most 10 fields, each once', (resource) => {
		const keys = COMPACT_FIELDS[resource].map((field) => field.key);
		expect(keys.length).toBeLessThanOrEqual(10);
		expect(new Set(keys).size).toBe(keys.length);
	});

	it('a record keeps only the listed fields it has, in the list order, as the bank sent them, under plain names', () => {
		const record = {
			status: 'settled',
			xtid: 't-1',
			amount: 0,
			reference: null,
			updated: 'x',
			nested: { a: 1 },
			xpid: '',
		};
		expect(simplifyRecord('transaction', record)).toEqual({
			transactionId: 't-1',
			status: 'settled',
			amount: 0,
			reference: null,
			payeeId: '',
		});
		expect(Object.keys(simplifyRecord('transaction', record))).toEqual([
			'transactionId',
			'status',
			'amount',
			'reference',
			'payeeId',
		]);
		expect(simplifyRecord('payee', {})).toEqual({});
	});

	it("keeps the bank's values themselves: no copy of a nested value", () => {
		const counterparty = { name: 'Acme', country: 'GB' };
		const simplified = simplifyRecord('transaction', {
			xtid: 't',
			counterpartyName: counterparty,
		} as unknown as IDataObject);
		expect(simplified.counterpartyName).toBe(counterparty);
	});

	it.each(RESOURCES)(
		"%s: every output name is a plain one, the bank's identifier names only where it is read from",
		(resource) => {
			for (const { key } of COMPACT_FIELDS[resource])
				expect(key).not.toMatch(/^(?:x[apt]ids?|ref|parent_xaid|requestId)$/);
		},
	);

	it('approval: the payment details are lifted from transaction and meta where they are objects, never made up', () => {
		const detailed = {
			ref: 'r',
			xtid: 't',
			parent_xaid: 'a',
			status: 'pending',
			transaction: { xtid: 't', amount: 12.5, currency: 'GBP', reference: 'INV-1', xpid: 'p' },
			meta: { created: '2026-01-01T00:00:00Z', approvers: ['x'] },
		};
		expect(simplifyRecord('approval', detailed)).toEqual({
			approvalId: 'r',
			status: 'pending',
			amount: 12.5,
			currency: 'GBP',
			reference: 'INV-1',
			created: '2026-01-01T00:00:00Z',
			transactionId: 't',
			accountId: 'a',
			payeeId: 'p',
		});
		// spec §Approval only: `transaction` may be the xtid itself, meta may be empty or absent
		expect(
			simplifyRecord('approval', {
				ref: 'r',
				xtid: 't',
				status: 'pending',
				transaction: 't',
				meta: {},
			}),
		).toEqual({ approvalId: 'r', status: 'pending', transactionId: 't' });
		expect(simplifyRecord('approval', { ref: 'r', transaction: null, meta: 'x' })).toEqual({
			approvalId: 'r',
		});
		// inherited members are not fields of the record
		expect(simplifyRecord('approval', { transaction: {}, meta: {} })).toEqual({});
		expect(
			simplifyRecord('approval', { transaction: Object.create({ amount: 5 }) as IDataObject }),
		).toEqual({});
		expect(simplifyRecord('account', Object.create({ xaid: 'a' }) as IDataObject)).toEqual({});
	});
});

describe('records with the same fields are made alike, each its own object', () => {
	// one page with records of several sets of fields, in any order of the bank's keys
	const page: IDataObject[] = [
		{ xtid: 't-1', status: 'sent', amount: 1 },
		{ amount: 2.5, status: 'settled', xtid: 't-2' },
		{ xtid: 't-3', xaid: 'a', reference: 'R', amount: 3 },
		{ xtid: 't-4', status: 'sent', amount: null },
		{},
		{ status: 'failed', xtid: 't-6', amount: 6 },
	];
	const expected: IDataObject[] = [
		{ transactionId: 't-1', status: 'sent', amount: 1 },
		{ transactionId: 't-2', status: 'settled', amount: 2.5 },
		{ transactionId: 't-3', amount: 3, reference: 'R', accountId: 'a' },
		{ transactionId: 't-4', status: 'sent', amount: null },
		{},
		{ transactionId: 't-6', status: 'failed', amount: 6 },
	];

	it('each record keeps its own values, its fields in the list order', () => {
		const simplified = page.map((record) => simplifyRecord('transaction', record));
		expect(simplified).toEqual(expected);
		simplified.forEach((record, at) =>
			expect(Object.keys(record)).toEqual(Object.keys(expected[at])),
		);
	});

	it('no two records share an object: changing one leaves the others and later ones as they are', () => {
		const first = page.map((record) => simplifyRecord('transaction', record));
		for (const record of first) record.status = 'changed';
		first[0].extra = true;
		expect(page.map((record) => simplifyRecord('transaction', record))).toEqual(expected);
		expect(new Set(first).size).toBe(first.length);
	});

	it('what readSimplify gives a list does the same, and passes on what is not a record', () => {
		const context = {
			getNode: () => ({ type: 'n8n-nodes-customer-banking.customerBanking' }),
			getNodeParameter: () => true,
		} as unknown as IExecuteFunctions;
		const shape = readSimplify.call(context, 0, 'transaction');
		expect(page.map((record) => shape?.(record))).toEqual(expected);
		const notRecords = ['x', null, [1]] as unknown as IDataObject[];
		expect(notRecords.map((value) => shape?.(value))).toEqual(notRecords);
	});
});

describe('Simplify while paging', () => {
	const pageOf = (page: number) => ({
		total: 5,
		results: [0, 1]
			.map((at) => ({ xtid: `t-${page * 2 + at}`, requestId: 'r', status: 'sent' }))
			.filter((_, at) => page * 2 + at < 5),
	});
	const shaped: IDataObject[] = [];
	const shape = (record: IDataObject) => {
		shaped.push(record);
		return simplifyRecord('transaction', record);
	};

	it("shapes each page as it is taken; Filters and the stop condition read the bank's record", async () => {
		shaped.length = 0;
		const seenByKeep: IDataObject[] = [];
		const { items: records } = await readAllPages<IDataObject>({
			pageSize: 2,
			limit: Infinity,
			keep: (record) => {
				seenByKeep.push(record);
				return record.xtid !== 't-1';
			},
			until: (record) => record.xtid === 't-3',
			shape,
			fetchPage: async (page) => pageOf(page),
			notAList: () => new Error('not a list'),
		});
		expect(records).toEqual([
			{ transactionId: 't-0', status: 'sent' },
			{ transactionId: 't-2', status: 'sent' },
			{ transactionId: 't-3', status: 'sent' },
		]);
		expect(seenByKeep.every((record) => 'xtid' in record)).toBe(true);
		// only the records returned are shaped: none filtered out, none after the stop
		expect(shaped.map((record) => record.xtid)).toEqual(['t-0', 't-2', 't-3']);
	});
});

describe('the form and the operations page agree with the lists', () => {
	const simplifyOf = (resource: string) =>
		properties.filter(
			(property) =>
				property.name === 'simplify' &&
				(property.displayOptions?.show?.resource as string[]).includes(resource),
		);

	it.each(RESOURCES)(
		"%s: every operation that returns the bank's records has Simplify, naming the list, on by default",
		(resource) => {
			const switches = simplifyOf(resource);
			const operations = switches.flatMap(
				(property) => property.displayOptions?.show?.operation as string[],
			);
			expect(operations.sort()).toEqual(
				{
					account: ['get', 'getMany'],
					transaction: ['get', 'getMany'],
					payee: ['create', 'get', 'getMany', 'update', 'upsert'],
					approval: ['get', 'getByPayment', 'getMany'],
				}[resource],
			);
			for (const property of switches as INodeProperties[]) {
				expect(property).toEqual(
					expect.objectContaining({ displayName: 'Simplify', type: 'boolean' }),
				);
				expect(property.description).toContain(
					`only ${compactFieldsInWords(resource)}, those the bank sends`,
				);
				expect(property.description).toMatch(
					/^Whether to return a simplified version of the response instead of the raw data/,
				);
				expect(property.default).toBe(true);
			}
		},
	);

	it.each(RESOURCES)('%s: the operations page row lists the same fields', (resource) => {
		const row = OPERATIONS_PAGE.split('\n').find((line) =>
			line.startsWith(`| ${resource[0].toUpperCase()}${resource.slice(1)} |`),
		);
		expect(row).toContain(
			`returns only these fields, those the bank's record has: ${operationsPageFields(resource)}`,
		);
	});

	it('Get Balance has no Simplify (five fields)', () => {
		expect(
			properties.filter(
				(property) =>
					property.name === 'simplify' &&
					(property.displayOptions?.show?.operation as string[]).includes('getBalance'),
			),
		).toEqual([]);
	});
});

describe('n8n runs the node as an AI tool under a type named with "Tool" at the end', () => {
	const context = (type: string) => ({ getNode: () => ({ type }) }) as unknown as IExecuteFunctions;
	it.each([
		['n8n-nodes-customer-banking.customerBankingTool', true],
		['CUSTOM.customerBankingTool', true],
		['n8n-nodes-customer-banking.customerBanking', false],
	])('%s → %s', (type, expected) => {
		expect(runsAsAiTool.call(context(type))).toBe(expected);
	});
});

describe('dates of the transaction filters', () => {
	it.each([
		['2026-03-01T10:00:00Z', Date.UTC(2026, 2, 1, 10)],
		['2026-03-01T10:00:00+02:00', Date.UTC(2026, 2, 1, 8)],
		['2026-03-01T10:00:00', Date.UTC(2026, 2, 1, 10)], // no time zone: UTC
		['2026-03-01 10:00:00', Date.UTC(2026, 2, 1, 10)],
		['not a date', undefined],
		[1767225600000, undefined],
		[undefined, undefined],
	])('a record created %j is read as %j', (created, expected) => {
		expect(createdTimeOf({ created } as IDataObject)).toBe(expected);
	});

	it("a filter time without a time zone is read in the workflow's time zone", () => {
		const context = {
			getNodeParameter: () => ({ createdAfter: '2026-03-01T10:00:00' }),
			getTimezone: () => 'Europe/Berlin',
			getNode: () => ({ name: 'Customer Banking' }),
		} as unknown as IExecuteFunctions;
		const keep = readTransactionFilters.call(context, 0);
		expect(keep?.({ created: '2026-03-01T09:00:00Z' })).toBe(true);
		expect(keep?.({ created: '2026-03-01T08:59:59Z' })).toBe(false);
		expect(keep?.({})).toBe(false);
	});
});

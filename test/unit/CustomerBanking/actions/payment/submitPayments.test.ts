/**
 * Submit and Submit Batch's shared body, in n8n-core's execution context against a scripted bank: every
 * item checked before the first payment is sent, Validate Only sending nothing and showing the request
 * each payment would go in, invalid items with and without Continue On Fail, and the run's items with
 * the request they went in (Submit Batch) or not (Submit).
 */
import type { IDataObject } from 'n8n-workflow';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

import { submitPayments } from '../../../../../nodes/CustomerBanking/actions/payment/submitPayments';
import type { ItemOutput } from '../../../../../nodes/CustomerBanking/actions/types';
import type { Grouping } from '../../../../../nodes/CustomerBanking/payments/paymentPlan';
import {
	type BankCall,
	type BankReply,
	fails,
	ok,
	scriptedBank,
} from '../../../../helpers/scriptedBank';

const ACCOUNT = '0b5d4e3c-1111-4aaa-8bbb-000000000001';
const PAYEE = '0b5d4e3c-2222-4aaa-8bbb-000000000002';

const row = (reference: string, fields: IDataObject = {}): IDataObject => ({
	accountId: ACCOUNT,
	payeeId: PAYEE,
	amount: 12.5,
	reference,
	...fields,
});
const INVALID = row('INV-0BAD', { amount: -1 });

/** Every POST is answered with one accepted payment per entry; reads find nothing. */
function bank(call: BankCall): BankReply {
	if (call.method !== 'POST') return fails(404, { message: 'not found' });
	const entries = Array.isArray(call.body) ? call.body : [call.body];
	return ok({ submitted: entries.map((_entry, index) => ({ xtid: `tx-${index}`, index })) });
}

async function submit(
	rows: IDataObject[],
	grouping: Grouping,
	{
		options = {},
		continueOnFail = false,
	}: { options?: IDataObject; continueOnFail?: boolean } = {},
) {
	const { context, calls } = scriptedBank(bank, {
		parameters: {
			resource: 'payment',
			operation: grouping.batchSize === undefined ? 'submit' : 'submitBatch',
			mappingMode: 'autoMapInputData',
			skipAlreadyMade: false,
			options,
		},
		items: rows.map((json) => ({ json })),
		continueOnFail,
	});
	const results = await submitPayments.call(
		context,
		rows.map((_row, index) => index),
		grouping,
	);
	return { results, posts: calls.filter((call) => call.method === 'POST') };
}

/** Each result as item, status or error, and the request it went (or would go, Validate Only) in. */
const summary = (results: ItemOutput[]) =>
	results.map((result) => {
		if ('error' in result) return [result.itemIndex, 'error', result.errorFields?.status];
		const { status, batch, request } = result.items[0].json as IDataObject & {
			request?: IDataObject;
		};
		const placement = (batch ?? request?.batch) as IDataObject | undefined;
		return [result.itemIndex, status, placement?.itemIndexes];
	});

describe('submitPayments: Validate Only sends nothing', () => {
	const rows = [row('INV-0001'), INVALID, row('INV-0003')];

	it('Submit: every item in input order, each valid one with its key and its request', async () => {
		const { results, posts } = await submit(rows, {}, { options: { validateOnly: true } });
		expect(posts).toEqual([]);
		expect(summary(results)).toEqual([
			[0, 'valid', undefined],
			[1, 'invalid', undefined],
			[2, 'valid', undefined],
		]);
		const [first, , third] = results.map((result) =>
			'items' in result ? result.items[0].json : {},
		);
		expect(first.idempotencyKey).not.toBe(third.idempotencyKey);
		expect(first.request).toMatchObject({
			method: 'POST',
			headers: { 'x-idempotent-key': first.idempotencyKey },
		});
	});

	it('Submit Batch: the invalid items, then each valid one with the request it would go in', async () => {
		const { results, posts } = await submit(
			rows,
			{ batchSize: 2 },
			{ options: { validateOnly: true } },
		);
		expect(posts).toEqual([]);
		expect(summary(results)).toEqual([
			[1, 'invalid', undefined],
			[0, 'valid', [0, 2]],
			[2, 'valid', [0, 2]],
		]);
	});
});

describe('submitPayments: every item is checked before the first payment is sent', () => {
	it('an invalid item without Continue On Fail: nothing is sent, the node fails on it', async () => {
		const { results, posts } = await submit([row('INV-0001'), INVALID, row('INV-0003')], {});
		expect(posts).toEqual([]);
		expect(summary(results)).toEqual([[1, 'error', 'invalid']]);
	});

	it('with Continue On Fail: the invalid item is reported, the others are sent', async () => {
		const { results, posts } = await submit(
			[row('INV-0001'), INVALID, row('INV-0003')],
			{},
			{
				continueOnFail: true,
			},
		);
		expect(posts.map((call) => (call.body as IDataObject).reference)).toEqual([
			'INV-0001',
			'INV-0003',
		]);
		expect(summary(results)).toEqual([
			[1, 'error', 'invalid'],
			[0, 'accepted', undefined],
			[2, 'accepted', undefined],
		]);
	});
});

describe('submitPayments: the run, one request per item or in batches', () => {
	const rows = [row('INV-0001'), row('INV-0002'), row('INV-0003')];

	it('Submit: one request per item, no batch on the items', async () => {
		const { results, posts } = await submit(rows, {});
		expect(posts).toHaveLength(3);
		expect(summary(results)).toEqual([
			[0, 'accepted', undefined],
			[1, 'accepted', undefined],
			[2, 'accepted', undefined],
		]);
	});

	it('Submit Batch: each item says which request it went in', async () => {
		const { results, posts } = await submit(rows, { batchSize: 2 });
		expect(posts.map((call) => (call.body as IDataObject[]).length)).toEqual([2, 1]);
		expect(summary(results)).toEqual([
			[0, 'accepted', [0, 1]],
			[1, 'accepted', [0, 1]],
			[2, 'accepted', [2]],
		]);
	});
});

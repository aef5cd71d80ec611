/**
 * requestAll (spec §Pagination, §Limits): exact request counts for N items, page sizes per
 * endpoint, limits, and the envelopes the nodes tolerate (test/sandbox/DECISIONS.md "Lists and paging").
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { type EndpointCall, requestAll } from '../../../../nodes/shared/transport';
import { ENDPOINTS } from '../../../../nodes/shared/transport/endpoints';
import { pageSizeFor, readListPage } from '../../../../nodes/shared/transport/paginate';
import { endpointCall } from '../../../helpers/endpointCall';
import { createExecuteContext } from '../../../helpers/n8nContext';
import {
	scriptedCredentials,
	startScriptedApi,
	type ScriptedApi,
} from '../../../helpers/scriptedApi';

/** What a test declares of the endpoint it lists; the rest as endpointCall defaults it. */
type EndpointDeclared = Partial<Pick<EndpointCall, 'tooManyRequests' | 'pageLimit'>>;

/** What the payee endpoints declare in the table, for calls of the transport with a path of their own. */
const PAYEE_ENDPOINT = {
	tooManyRequests: ENDPOINTS.payees.tooManyRequests,
	pageLimit: ENDPOINTS.payees.pageLimit,
};

type Envelope = 'results' | 'array' | 'data' | 'items';

let api: ScriptedApi;
beforeEach(async () => {
	api = await startScriptedApi();
});
afterEach(async () => {
	await api.close();
});

/** A list of `count` items served 0-based by page/limit, the way the sandbox does, in one envelope. */
function serveList(count: number, envelope: Envelope, maxLimit = 500) {
	api.setApi((request) => {
		const page = Number(request.query.page ?? 0);
		const limit = Number(request.query.limit ?? 10);
		if (limit > maxLimit)
			return {
				status: 400,
				body: { statusCode: 400, message: `limit must be at most ${maxLimit}` },
			};
		const results = Array.from(
			{ length: Math.max(0, Math.min(limit, count - page * limit)) },
			(_, i) => ({
				id: page * limit + i,
			}),
		);
		const body =
			envelope === 'array'
				? results
				: envelope === 'results'
					? { total: count, results }
					: { [envelope]: results };
		return { status: 200, body };
	});
}

async function list(
	path: string,
	returnAll: boolean,
	limit?: number,
	endpoint: EndpointDeclared = {},
) {
	const { context } = createExecuteContext({
		parameters: {},
		credentials: scriptedCredentials(api),
	});
	return await requestAll.call(context, endpointCall({ path, ...endpoint }), {
		returnAll,
		ifShrinking: 'fail',
		limit,
		qs: { status: 'ACTIVE' },
	});
}

const sentPages = () =>
	api.apiRequests().map((request) => [Number(request.query.page), Number(request.query.limit)]);

describe('Return All', () => {
	it.each([
		// [items, envelope, expected requests]
		[0, 'results', 1],
		[1, 'results', 1],
		[500, 'results', 1], // total says done after a full page
		[501, 'results', 2],
		[1000, 'results', 2],
		[1234, 'results', 3],
		[500, 'array', 2], // no total: a full page needs one more (empty) request
		[1234, 'array', 3],
		[1000, 'data', 3],
		[999, 'items', 2],
	] as Array<[number, Envelope, number]>)(
		'%i items as %s: %i requests of 500',
		async (count, envelope, requests) => {
			serveList(count, envelope);
			const items = await list('/transactions', true);
			expect(items.map((item) => item.id)).toEqual(Array.from({ length: count }, (_, i) => i));
			expect(sentPages()).toEqual(Array.from({ length: requests }, (_, page) => [page, 500]));
		},
	);

	it('payee lists use pages of 100', async () => {
		serveList(250, 'results', 100);
		const items = await list('/account/a1/payees', true, undefined, PAYEE_ENDPOINT);
		expect(items).toHaveLength(250);
		expect(sentPages()).toEqual([
			[0, 100],
			[1, 100],
			[2, 100],
		]);
		api.served.length = 0;
		await list('/payees', true, undefined, PAYEE_ENDPOINT);
		expect(sentPages()[0]).toEqual([0, 100]);
	});

	it('keeps the caller query parameters on every page', async () => {
		serveList(600, 'results');
		await list('/account/a1/transactions', true);
		expect(api.apiRequests().map((request) => request.query.status)).toEqual(['ACTIVE', 'ACTIVE']);
		expect(api.apiRequests()[0].path).toBe('/api/account/a1/transactions');
	});
});

describe('Limit', () => {
	it.each([
		// [limit, items available, expected pages [page, limit]]
		[1, 1000, [[0, 1]]],
		[50, 1000, [[0, 50]]],
		[500, 1000, [[0, 500]]],
		[
			600,
			1000,
			[
				[0, 300],
				[1, 300],
			],
		],
		[
			1001,
			5000,
			[
				[0, 334],
				[1, 334],
				[2, 334],
			],
		],
		[600, 250, [[0, 300]]], // short page: the list ended
	])('limit %i of %i items: requests %j', async (limit, count, pages) => {
		serveList(count, 'results');
		const items = await list('/approvals', false, limit);
		expect(items).toHaveLength(Math.min(limit, count));
		expect(items.map((item) => item.id)).toEqual(
			Array.from({ length: Math.min(limit, count) }, (_, i) => i),
		);
		expect(sentPages()).toEqual(pages);
	});

	it('limit 250 on payees: three pages of 84 (at most 100 each)', async () => {
		serveList(1000, 'array', 100);
		const items = await list('/payees', false, 250, PAYEE_ENDPOINT);
		expect(items).toHaveLength(250);
		expect(sentPages()).toEqual([
			[0, 84],
			[1, 84],
			[2, 84],
		]);
	});

	it('rejects a limit below 1 before any request', async () => {
		serveList(10, 'results');
		await expect(list('/accounts', false, 0)).rejects.toBeInstanceOf(NodeOperationError);
		expect(api.apiRequests()).toHaveLength(0);
	});
});

describe('envelopes', () => {
	it('reads { total, results }, a bare array, { data } and { items }', () => {
		expect(readListPage({ total: 7, results: [{ a: 1 }] })).toEqual({
			items: [{ a: 1 }],
			total: 7,
		});
		expect(readListPage([{ a: 1 }])).toEqual({ items: [{ a: 1 }] });
		expect(readListPage({ data: [{ a: 1 }], total: 1 })).toEqual({ items: [{ a: 1 }], total: 1 });
		expect(readListPage({ items: [] })).toEqual({ items: [] });
		expect(readListPage({ something: 'else' })).toBeUndefined();
		expect(readListPage('text')).toBeUndefined();
	});

	it('an answer that is not a list fails clearly', async () => {
		api.setApi(() => ({ status: 200, body: { unexpected: true } }));
		await expect(list('/accounts', true)).rejects.toThrow(
			'Unexpected answer to GET /accounts: not a list',
		);
	});

	it('page size arithmetic never exceeds the maximum', () => {
		for (const max of [100, 500]) {
			for (let limit = 1; limit <= 2000; limit++) {
				const size = pageSizeFor(max, false, limit);
				expect(size).toBeLessThanOrEqual(max);
				expect(size * Math.ceil(limit / max)).toBeGreaterThanOrEqual(limit);
			}
		}
	});
});

describe('fixed page size and early stop', () => {
	async function search(
		pageSize: number,
		until: (item: IDataObject) => boolean,
		path = '/approvals',
		endpoint: EndpointDeclared = {},
	) {
		const { context } = createExecuteContext({
			parameters: {},
			credentials: scriptedCredentials(api),
		});
		return await requestAll.call(context, endpointCall({ path, ...endpoint }), {
			returnAll: true,
			ifShrinking: 'fail',
			pageSize,
			until,
		});
	}

	it('reads pages of the given size and stops at the page holding the match', async () => {
		serveList(1000, 'results');
		const items = await search(50, (item) => item.id === 77);
		expect(sentPages()).toEqual([
			[0, 50],
			[1, 50],
		]);
		expect(items).toHaveLength(78);
		expect(items[items.length - 1]).toEqual({ id: 77 });
	});

	it('reads to the end when nothing matches', async () => {
		serveList(120, 'results');
		const items = await search(50, () => false);
		expect(sentPages()).toEqual([
			[0, 50],
			[1, 50],
			[2, 50],
		]);
		expect(items).toHaveLength(120);
	});

	it('never asks for more than the endpoint allows', async () => {
		serveList(30, 'results', 100);
		await search(250, () => false, '/payees', PAYEE_ENDPOINT);
		expect(sentPages()).toEqual([[0, 100]]);
	});
});

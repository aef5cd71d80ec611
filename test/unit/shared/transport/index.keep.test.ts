/** requestAll with a `keep` predicate: the client-side filter the list operations apply while paging. */
import type { IDataObject } from 'n8n-workflow';

import { requestAll } from '../../../../nodes/shared/transport';
import { endpointCall } from '../../../helpers/endpointCall';
import { createExecuteContext } from '../../../helpers/n8nContext';
import {
	scriptedCredentials,
	startScriptedApi,
	type ScriptedApi,
} from '../../../helpers/scriptedApi';

let api: ScriptedApi;
beforeEach(async () => {
	api = await startScriptedApi();
	// 1234 items { id }, served by page and limit in { total, results }
	api.setApi((request) => {
		const page = Number(request.query.page ?? 0);
		const limit = Number(request.query.limit ?? 10);
		const results = Array.from(
			{ length: Math.max(0, Math.min(limit, 1234 - page * limit)) },
			(_, i) => ({ id: page * limit + i }),
		);
		return { status: 200, body: { total: 1234, results } };
	});
});
afterEach(async () => await api.close());

async function list(options: {
	returnAll: boolean;
	limit?: number;
	keep?: (item: IDataObject) => boolean;
	until?: (item: IDataObject) => boolean;
	pageSize?: number;
}) {
	const { context } = createExecuteContext({
		parameters: {},
		credentials: scriptedCredentials(api),
	});
	return await requestAll.call(context, endpointCall({ path: '/things' }), {
		...options,
		ifShrinking: 'fail',
	});
}
const sentPages = () =>
	api.apiRequests().map((request) => [Number(request.query.page), Number(request.query.limit)]);
const multipleOf7 = (item: IDataObject) => (item.id as number) % 7 === 0;

describe('keep', () => {
	it('Limit counts kept items: pages are read until enough match, each the largest the endpoint serves', async () => {
		const items = await list({ returnAll: false, limit: 80, keep: multipleOf7 });
		expect(items.map((item) => item.id)).toEqual(Array.from({ length: 80 }, (_, i) => i * 7));
		// 72 multiples of 7 below 500, so the 80th (553) is on the second page
		expect(sentPages()).toEqual([
			[0, 500],
			[1, 500],
		]);
	});

	it('Limit smaller than one page of matches: one request, no more items than the limit', async () => {
		const items = await list({ returnAll: false, limit: 3, keep: multipleOf7 });
		expect(items.map((item) => item.id)).toEqual([0, 7, 14]);
		expect(sentPages()).toEqual([[0, 500]]);
	});

	it('Return All: every kept item of every page', async () => {
		const items = await list({ returnAll: true, keep: multipleOf7 });
		expect(items).toHaveLength(Math.ceil(1234 / 7));
		expect(items.every(multipleOf7)).toBe(true);
		expect(sentPages()).toEqual([
			[0, 500],
			[1, 500],
			[2, 500],
		]);
	});

	it('nothing kept: the whole list is read and the answer is empty', async () => {
		expect(await list({ returnAll: false, limit: 5, keep: () => false })).toEqual([]);
		expect(sentPages()).toEqual([
			[0, 500],
			[1, 500],
			[2, 500],
		]);
	});

	it('until is checked on kept items, and a fixed page size is kept', async () => {
		const items = await list({
			returnAll: true,
			pageSize: 50,
			keep: multipleOf7,
			until: (item) => item.id === 63,
		});
		expect(items.map((item) => item.id)).toEqual([0, 7, 14, 21, 28, 35, 42, 49, 56, 63]);
		expect(sentPages()).toEqual([
			[0, 50],
			[1, 50],
		]);
	});
});

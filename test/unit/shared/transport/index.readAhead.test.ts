/**
 * Return All reads ahead: the next page is requested while the previous one is still on
 * its way or being read, two pages at a time until the bank first answers 429, then one at a time;
 * never a page past the list's end as its `total` tells it (at most ceil(N/limit) + 1 requests, as
 * without read-ahead), items in the list's order. Without a `total` (a bare array, spec §Pagination
 * shows no envelope for most lists) nothing tells where the list ends: one page at a time.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { ENDPOINTS, request, requestAll } from '../../../../nodes/shared/transport';
import { endpointCall } from '../../../helpers/endpointCall';
import { createExecuteContext } from '../../../helpers/n8nContext';
import { credentialsFor } from '../../../helpers/sandboxCredentials';
import {
	scriptedCredentials,
	startScriptedApi,
	type ScriptedApi,
} from '../../../helpers/scriptedApi';
import { type Sandbox, startSandbox } from '../../../sandbox';

const PAGE = 500;

/** The account's list read one page at a time by hand: the order every Return All must keep. */
async function pageByPage(
	credentials: ICredentialDataDecryptedObject,
	xaid: string,
): Promise<unknown[]> {
	const ids: unknown[] = [];
	const { context } = createExecuteContext({ parameters: {}, credentials });
	for (let page = 0; ; page++) {
		const answer = await request.call(
			context,
			endpointCall({ method: 'GET', path: `/account/${xaid}/transactions` }),
			{ qs: { page, limit: PAGE } },
		);
		const items = answer.results as IDataObject[];
		ids.push(...items.map((item) => item.xtid));
		if (items.length < PAGE) return ids;
	}
}

describe('with the sandbox bank', () => {
	let sandbox: Sandbox;
	let credentials: ICredentialDataDecryptedObject;
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0 });
		credentials = credentialsFor(sandbox);
	});
	afterAll(async () => await sandbox.close());
	beforeEach(() => {
		sandbox.control.clearFaults();
		sandbox.control.clearRequests();
	});

	const pageRequests = () =>
		sandbox.control
			.requests()
			.filter((request) => request.area === 'api' && request.path.endsWith('/transactions'));

	async function readAll(xaid: string): Promise<IDataObject[]> {
		const { context } = createExecuteContext({ parameters: {}, credentials });
		return await requestAll.call(context, endpointCall({ path: `/account/${xaid}/transactions` }), {
			returnAll: true,
			ifShrinking: 'fail',
		});
	}

	const listInOrder = (xaid: string) => pageByPage(credentials, xaid);

	it('requests the next page while the bank is still answering the previous one', async () => {
		const xaid = sandbox.seeded.accounts.eur;
		await sandbox.control.seedTransactions(xaid, 1600);
		// the second page is slow: the third is asked for before its answer arrives
		sandbox.control.setFaults([
			{ kind: 'latency', path: '/account/{xaid}/transactions', latencyMs: 400, after: 1, times: 1 },
		]);
		const reading = readAll(xaid);
		const overlapped = await new Promise<boolean>((resolve) => {
			const poll = setInterval(() => {
				const pages = pageRequests();
				const second = pages.find((request) => request.query.page === '1');
				if (pages.some((request) => request.query.page === '2') && second?.status === 0) {
					clearInterval(poll);
					resolve(true);
				} else if (second && second.status !== 0) {
					clearInterval(poll);
					resolve(false);
				}
			}, 5);
		});
		await reading;
		expect(overlapped).toBe(true);
	});

	it.each([1, 499, 500, 501, 1000, 1234, 5003])(
		'%i transactions: items in the list order, each page once, at most ceil(N/limit) + 1 requests',
		async (count) => {
			const xaid = sandbox.seeded.accounts.cad;
			const existing = (await listInOrder(xaid)).length;
			if (existing < count) await sandbox.control.seedTransactions(xaid, count - existing);
			const expected = await listInOrder(xaid);
			sandbox.control.clearRequests();
			const items = await readAll(xaid);
			expect(items.map((item) => item.xtid)).toEqual(expected);
			const pages = pageRequests().map((request) => Number(request.query.page));
			expect(new Set(pages).size).toBe(pages.length);
			expect(pages.length).toBeLessThanOrEqual(Math.ceil(expected.length / PAGE) + 1);
			expect(pageRequests().every((request) => request.query.limit === String(PAGE))).toBe(true);
		},
	);

	it('spec-minimal bank: the same items in the same order', async () => {
		const minimal = await startSandbox({ port: 0, variants: 'specMinimal' });
		try {
			const xaid = minimal.seeded.accounts.gbp;
			await minimal.control.seedTransactions(xaid, 1700);
			const { context } = createExecuteContext({
				parameters: {},
				credentials: credentialsFor(minimal),
			});
			const all = await requestAll.call(
				context,
				endpointCall({ path: `/account/${xaid}/transactions` }),
				{ returnAll: true, ifShrinking: 'fail' },
			);
			const oneByOne = await pageByPage(credentialsFor(minimal), xaid);
			expect(all.map((item) => item.xtid)).toEqual(oneByOne);
			const pages = minimal.control
				.requests()
				.filter((r) => r.area === 'api' && r.path.endsWith('/transactions'));
			const perRead = Math.ceil(oneByOne.length / PAGE);
			// Return All's pages, then the hand-read ones
			expect(pages.length).toBeLessThanOrEqual(perRead + 1 + perRead + 1);
		} finally {
			await minimal.close();
		}
	});
});

describe('how many pages are in flight (scripted bank)', () => {
	let api: ScriptedApi;
	beforeEach(async () => {
		api = await startScriptedApi();
	});
	afterEach(async () => await api.close());

	/**
	 * Serves `count` items page by page after `delayMs`, recording how many pages were being answered
	 * at once when each request arrived; `reply` may answer a request otherwise (a 429).
	 */
	function serve(
		count: number,
		envelope: 'results' | 'array',
		reply?: (
			index: number,
			page: number,
		) => { status: number; headers?: Record<string, string>; body?: unknown } | undefined,
	) {
		const inFlightAtArrival: number[] = [];
		let inFlight = 0;
		let index = 0;
		api.setApi(async (request) => {
			const scripted = reply?.(index++, Number(request.query.page));
			inFlightAtArrival.push(++inFlight);
			await new Promise((resolve) => setTimeout(resolve, 30));
			inFlight--;
			if (scripted) return scripted;
			const page = Number(request.query.page);
			const limit = Number(request.query.limit);
			const results = Array.from(
				{ length: Math.max(0, Math.min(limit, count - page * limit)) },
				(_, i) => ({ id: page * limit + i }),
			);
			return { status: 200, body: envelope === 'array' ? results : { total: count, results } };
		});
		return inFlightAtArrival;
	}

	async function readAll(): Promise<IDataObject[]> {
		const { context } = createExecuteContext({
			parameters: {},
			credentials: scriptedCredentials(api),
		});
		return await requestAll.call(context, ENDPOINTS.transactions.at({}), {
			returnAll: true,
			ifShrinking: 'fail',
		});
	}

	const pagesSent = () => api.apiRequests().map((request) => Number(request.query.page));

	it('two pages at a time once the first answer tells the list size; exactly ceil(N/limit) pages', async () => {
		const inFlight = serve(3200, 'results');
		const items = await readAll();
		expect(items.map((item) => item.id)).toEqual(Array.from({ length: 3200 }, (_, i) => i));
		expect([...pagesSent()].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6]);
		expect(Math.max(...inFlight)).toBe(2);
	});

	it('one page at a time after the first 429, waiting its Retry-After', async () => {
		let refused = false;
		const inFlight = serve(4000, 'results', (_, page) => {
			if (page !== 2 || refused) return undefined;
			refused = true;
			return { status: 429, headers: { 'retry-after': '1' }, body: { message: 'rate limited' } };
		});
		// the Retry-After really waited (n8n-workflow's sleep, not mocked here), so the page beside the
		// refused one has its answer meanwhile
		const started = Date.now();
		const items = await readAll();
		expect(items.map((item) => item.id)).toEqual(Array.from({ length: 4000 }, (_, i) => i));
		expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
		// from the resent page on (after its Retry-After), every page is requested alone
		const pages = pagesSent();
		const resent = pages.lastIndexOf(2);
		expect(pages.indexOf(2)).toBeLessThan(resent);
		expect(inFlight.slice(resent).length).toBeGreaterThanOrEqual(4);
		expect(inFlight.slice(resent).every((n) => n === 1)).toBe(true);
		expect(pages).toHaveLength(9);
		expect(new Set(pages).size).toBe(8);
	});

	it('without a total, one page at a time and the usual end (a short or empty page)', async () => {
		const inFlight = serve(1500, 'array');
		const items = await readAll();
		expect(items).toHaveLength(1500);
		expect(pagesSent()).toEqual([0, 1, 2, 3]);
		expect(Math.max(...inFlight)).toBe(1);
	});

	it('a failed page fails Return All, after the page beside it has been answered', async () => {
		serve(3000, 'results', (index) =>
			index === 3 ? { status: 400, body: { message: 'page must be an integer' } } : undefined,
		);
		await expect(readAll()).rejects.toThrow();
		const sent = api.apiRequests().length;
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(api.apiRequests().length).toBe(sent);
	});
});

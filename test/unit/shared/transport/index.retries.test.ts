/**
 * The transport's retry decisions for every row of spec §Errors, through the realistic n8n context
 * (real HTTP to a scripted server, n8n's 401 refresh, n8n's NodeApiError wrapping). Waits go through
 * n8n-workflow's sleep, replaced here by a recorder so the tests see every wait without waiting.
 */
import { NodeApiError, sleep } from 'n8n-workflow';

import {
	apiFailureOf,
	type EndpointCall,
	request,
	type RequestExtras,
} from '../../../../nodes/shared/transport';
import { ENDPOINTS } from '../../../../nodes/shared/transport/endpoints';
import { BACKOFF } from '../../../../nodes/shared/transport/retryPolicy';
import { endpointCall } from '../../../helpers/endpointCall';
import { createExecuteContext } from '../../../helpers/n8nContext';
import {
	scriptedCredentials,
	startScriptedApi,
	withCachedToken,
	type Reply,
	type ScriptedApi,
	type ServedRequest,
} from '../../../helpers/scriptedApi';

/** What the payee endpoints declare in the table, for calls of the transport with a path of their own. */
const PAYEE_ENDPOINT = {
	tooManyRequests: ENDPOINTS.payees.tooManyRequests,
	pageLimit: ENDPOINTS.payees.pageLimit,
};

jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));
const waits = sleep as jest.MockedFunction<typeof sleep>;

let api: ScriptedApi;
beforeEach(async () => {
	api = await startScriptedApi();
	waits.mockClear();
});
afterEach(async () => {
	await api.close();
});

function context(credentials = scriptedCredentials(api)) {
	return createExecuteContext({ parameters: {}, credentials });
}

async function failing(
	endpoint: EndpointCall,
	extras: RequestExtras = {},
	credentials = scriptedCredentials(api),
) {
	const { context: ctx } = context(credentials);
	const error = await request.call(ctx, endpoint, extras).then(
		() => undefined,
		(thrown: unknown) => thrown,
	);
	if (!(error instanceof NodeApiError))
		throw new Error(`expected a NodeApiError, got ${String(error)}`);
	return error;
}

/** Answers `replies` in order to API requests, then 200 { ok: true }. */
function script(...replies: Reply[]) {
	let index = 0;
	api.setApi(() => replies[index++] ?? { status: 200, body: { ok: true } });
}

const always = (reply: Reply) => api.setApi(() => reply);
const isTransientFailure = (error: unknown) => apiFailureOf(error)?.outcomeUnknown === true;
const waited = () => waits.mock.calls.map(([ms]) => ms);

describe('rows of spec §Errors that are never retried', () => {
	it.each([
		[400, 'GET', '/accounts'],
		[403, 'GET', '/payees'],
		[404, 'GET', '/account/a1/balance'],
		[422, 'POST', '/payments'],
		[409, 'GET', '/accounts'],
	])('%i on %s %s: one request, no wait', async (status, method, path) => {
		always({ status, body: { statusCode: status, message: 'limit must be at most 500' } });
		const error = await failing(endpointCall({ method: method as 'GET', path, retry: 'safe' }), {
			idempotencyKey: 'b7c1f6e2-8a8e-4c43-9d0b-0d7f3f3a2b11',
			body: method === 'GET' ? undefined : { amount: 1 },
		});
		expect(api.apiRequests()).toHaveLength(1);
		expect(waits).not.toHaveBeenCalled();
		expect(error.httpCode).toBe(String(status));
		expect(isTransientFailure(error)).toBe(false);
	});

	it('400 names the API message and the field', async () => {
		always({ status: 400, body: { statusCode: 400, message: 'limit must be at most 500' } });
		const error = await failing(ENDPOINTS.accounts.at({}), { qs: { limit: 900 }, itemIndex: 2 });
		expect(error.message).toBe('Invalid request: limit must be at most 500');
		expect(error.description).toContain('"limit"');
		expect(error.context.field).toBe('limit');
		expect(error.context.itemIndex).toBe(2);
	});

	it('403 says the scope is missing', async () => {
		always({ status: 403, body: { statusCode: 403, message: 'Insufficient scope: update:payee' } });
		const error = await failing(endpointCall({ method: 'PUT', path: '/account/a1/payees/p1' }), {
			body: { name: 'Jane Doe' },
		});
		expect(error.message).toBe(
			'Forbidden: these credentials lack the scope for this operation (Insufficient scope: update:payee)',
		);
	});

	it('404 says what may not exist', async () => {
		always({ status: 404, body: { statusCode: 404, message: 'Account not found' } });
		const error = await failing(ENDPOINTS.account.at({ xaid: 'a1' }));
		expect(error.message).toBe('Not found: Account not found');
		expect(error.description).toMatch(/does not exist, or does not belong to these credentials/);
	});

	it.each([
		'/account/a1/payees',
		'/account/a1/payee',
		'/payees',
		'/payee/p1',
		'/account/a1/payees/p1',
	])('429 on the payee endpoint %s means "account not active": not retried', async (path) => {
		always({ status: 429, body: { statusCode: 429, message: 'Account is not active' } });
		const error = await failing(
			endpointCall({ method: path.startsWith('/payee') ? 'GET' : 'POST', path, ...PAYEE_ENDPOINT }),
			{ body: { name: 'Jane Doe' } },
		);
		expect(api.apiRequests()).toHaveLength(1);
		expect(waits).not.toHaveBeenCalled();
		expect(error.message).toBe('The account is not active');
		expect(error.description).toMatch(/not a rate limit/);
		expect(isTransientFailure(error)).toBe(false);
	});
});

describe('rows of spec §Errors that are retried (GET)', () => {
	it.each([500, 502, 503, 504])(
		'%i: 5 attempts, waits 1 s, 2 s, 4 s, 4 s, then a transient failure',
		async (status) => {
			always({ status, body: { statusCode: status, message: 'upstream failed' } });
			const error = await failing(ENDPOINTS.accounts.at({}));
			expect(api.apiRequests()).toHaveLength(BACKOFF.maxAttempts);
			expect(waited()).toEqual([1000, 2000, 4000, 4000]);
			expect(error.message).toBe(
				`The Customer Banking API failed (HTTP ${status}) after 5 attempts: upstream failed`,
			);
			expect(isTransientFailure(error)).toBe(true);
		},
	);

	it('a 5xx followed by success returns the answer after one wait', async () => {
		script({ status: 503 }, { status: 200, body: { total: 0, results: [] } });
		const { context: ctx } = context();
		await expect(request.call(ctx, ENDPOINTS.accounts.at({}))).resolves.toEqual({
			total: 0,
			results: [],
		});
		expect(waited()).toEqual([1000]);
	});

	it('429 rate limit honours Retry-After (seconds)', async () => {
		script(
			{ status: 429, headers: { 'retry-after': '3' } },
			{ status: 429, headers: { 'retry-after': '0' } },
		);
		const { context: ctx } = context();
		await request.call(ctx, ENDPOINTS.transactions.at({}));
		expect(waited()).toEqual([3000, 0]);
		expect(api.apiRequests()).toHaveLength(3);
	});

	it('429 Retry-After is capped', async () => {
		script({ status: 429, headers: { 'retry-after': '3600' } });
		const { context: ctx } = context();
		await request.call(ctx, ENDPOINTS.approvals.at({}));
		expect(waited()).toEqual([BACKOFF.maxRetryAfterMs]);
	});

	it('429 without Retry-After backs off 1 s, 2 s, 4 s, 4 s and then says it was rate limited', async () => {
		always({ status: 429, body: { statusCode: 429, message: 'Too many requests' } });
		const error = await failing(ENDPOINTS.accounts.at({}));
		expect(waited()).toEqual([1000, 2000, 4000, 4000]);
		expect(error.message).toBe('Too many requests: the API kept rate limiting after 5 attempts');
		expect(isTransientFailure(error)).toBe(true);
	});

	it('a dropped connection (socket hang up) is retried as a network error', async () => {
		script('reset', 'reset', { status: 200, body: { xaid: 'a1' } });
		const { context: ctx } = context();
		await expect(request.call(ctx, ENDPOINTS.account.at({ xaid: 'a1' }))).resolves.toEqual({
			xaid: 'a1',
		});
		expect(waited()).toEqual([1000, 2000]);
	});

	it('a refused connection is retried 5 times, then says the API could not be reached', async () => {
		const error = await failing(
			ENDPOINTS.accounts.at({}),
			{},
			scriptedCredentials(api, { baseUrl: 'http://127.0.0.1:1/api', accessToken: 'token-cached' }),
		);
		expect(waited()).toEqual([1000, 2000, 4000, 4000]);
		expect(error.message).toBe(
			'Could not reach the Customer Banking API: the connection was refused after 5 attempts',
		);
		expect(error.description).toContain('ECONNREFUSED');
		expect(isTransientFailure(error)).toBe(true);
	});
});

describe('writes (spec §Errors rules 2-3)', () => {
	const key = '3f0e9a52-6d1b-4c8e-a1f4-2b7d9c0e5a13';
	const payment = { xaid: 'a1', xpid: 'p1', amount: 12.5, reference: 'INV-000123' };

	it('POST /payments is retried on 5xx, rate limit and dropped connections with the same key and the same body bytes', async () => {
		script(
			{ status: 500 },
			'reset',
			{ status: 429 },
			{ status: 202, body: { requestId: 'r1', submitted: [], rejected: [], rejectedCount: 0 } },
		);
		const { context: ctx } = context();
		const result = await request.call(ctx, ENDPOINTS.payments.at({}), {
			body: payment,
			idempotencyKey: key,
		});
		expect(result).toMatchObject({ requestId: 'r1' });
		const sent = api.apiRequests();
		expect(sent).toHaveLength(4);
		expect(new Set(sent.map((request) => request.headers['x-idempotent-key']))).toEqual(
			new Set([key]),
		);
		expect(new Set(sent.map((request) => request.rawBody))).toEqual(
			new Set([JSON.stringify(payment)]),
		);
		expect(waited()).toEqual([1000, 2000, 4000]);
	});

	it('a batch is resent as the same array', async () => {
		script({ status: 502 });
		const { context: ctx } = context();
		const batch = [payment, { ...payment, amount: 3 }];
		await request.call(ctx, ENDPOINTS.payments.at({}), { body: batch, idempotencyKey: key });
		const sent = api.apiRequests();
		expect(sent.map((request) => request.rawBody)).toEqual([
			JSON.stringify(batch),
			JSON.stringify(batch),
		]);
	});

	it('POST /payments exhausted on 5xx is a transient failure that tells the user to look the payment up', async () => {
		always({ status: 500, body: { statusCode: 500, message: 'Internal error' } });
		const error = await failing(ENDPOINTS.payments.at({}), { body: payment, idempotencyKey: key });
		expect(api.apiRequests()).toHaveLength(5);
		expect(isTransientFailure(error)).toBe(true);
		expect(error.description).toMatch(/may have been processed: look it up/);
	});

	it('POST /payments without an idempotency key is never retried', async () => {
		always({ status: 503 });
		await failing(endpointCall({ method: 'POST', path: '/payments' }), { body: payment });
		expect(api.apiRequests()).toHaveLength(1);
		expect(waits).not.toHaveBeenCalled();
	});

	it.each([
		['POST', '/account/a1/payees'],
		['PUT', '/account/a1/payees/p1'],
		['POST', '/account/a1/payee'],
		['POST', '/webhooks/subscribe'],
		['DELETE', '/webhooks/unsubscribe'],
	])('%s %s is never retried, even on 5xx or a dropped connection', async (method, path) => {
		always({ status: 500 });
		const serverError = await failing(endpointCall({ method: method as 'POST', path }), {
			body: { zapId: 'z1' },
		});
		expect(api.apiRequests()).toHaveLength(1);
		expect(isTransientFailure(serverError)).toBe(true);
		expect(serverError.description).toMatch(/may have been processed/);

		always('reset');
		await failing(endpointCall({ method: method as 'POST', path }), { body: { zapId: 'z1' } });
		expect(api.apiRequests()).toHaveLength(2);
		expect(waits).not.toHaveBeenCalled();
	});
});

describe('the failure callers read (apiFailureOf)', () => {
	it('a refusal: its kind, status and field, not processed', async () => {
		always({ status: 400, body: { statusCode: 400, message: 'limit must be at most 500' } });
		const error = await failing(ENDPOINTS.accounts.at({}));
		expect(apiFailureOf(error)).toEqual({
			kind: 'validation',
			status: 400,
			outcomeUnknown: false,
			refused: true,
			field: 'limit',
			attempts: 1,
		});
	});

	it('a 5xx after every attempt: outcome unknown', async () => {
		always({ status: 503 });
		const error = await failing(ENDPOINTS.accounts.at({}));
		expect(apiFailureOf(error)).toEqual({
			kind: 'serverError',
			status: 503,
			outcomeUnknown: true,
			refused: false,
			attempts: 5,
		});
	});

	it('a refusal after an attempt whose answer was lost: outcome unknown all the same', async () => {
		script('reset', { status: 409, body: { statusCode: 409, message: 'conflict' } });
		const error = await failing(ENDPOINTS.payments.at({}), {
			body: { amount: 1 },
			idempotencyKey: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
		});
		expect(apiFailureOf(error)).toMatchObject({
			kind: 'conflict',
			status: 409,
			outcomeUnknown: true,
			refused: true,
			attempts: 2,
		});
		expect(error.description).toMatch(
			/An earlier attempt of this request failed without an answer/,
		);
	});

	it('is undefined for anything the transport did not throw', () => {
		expect(apiFailureOf(new Error('x'))).toBeUndefined();
		expect(apiFailureOf({ httpCode: '404' })).toBeUndefined();
	});
});

describe('401 (spec §Errors: refresh the token once, retry once)', () => {
	it('an expired token: n8n fetches one new token and resends once, the transport adds nothing', async () => {
		api.setApi((request: ServedRequest) =>
			request.headers.authorization === 'Bearer token-1'
				? { status: 200, body: { xaid: 'a1' } }
				: { status: 401, body: { statusCode: 401, message: 'Token expired' } },
		);
		const credentials = withCachedToken(scriptedCredentials(api), 'token-stale');
		const { context: ctx } = context(credentials);
		await expect(request.call(ctx, ENDPOINTS.account.at({ xaid: 'a1' }))).resolves.toEqual({
			xaid: 'a1',
		});
		expect(api.apiRequests().map((request) => request.headers.authorization)).toEqual([
			'Bearer token-stale',
			'Bearer token-1',
		]);
		expect(api.tokenRequests()).toHaveLength(1);
		expect(credentials.accessToken).toBe('token-1');
		expect(waits).not.toHaveBeenCalled();
	});

	it('a 401 that survives the refresh: exactly one refresh and one resend, then the account message', async () => {
		always({ status: 401, body: { statusCode: 401, message: 'Unauthorized' } });
		const error = await failing(
			endpointCall({ method: 'GET', path: '/account/a1/balance' }),
			{},
			withCachedToken(scriptedCredentials(api), 'token-stale'),
		);
		expect(api.apiRequests()).toHaveLength(2);
		expect(api.tokenRequests()).toHaveLength(1);
		expect(error.message).toBe(
			'Authorization failed: the account does not exist or does not belong to these credentials, or the token was refused',
		);
		expect(error.httpCode).toBe('401');
		expect(isTransientFailure(error)).toBe(false);
		expect(waits).not.toHaveBeenCalled();
	});

	it('a payment resent after a 401 carries the same key and body', async () => {
		api.setApi((request) =>
			request.headers.authorization === 'Bearer token-stale'
				? { status: 401, body: { statusCode: 401, message: 'Token expired' } }
				: { status: 202, body: { requestId: 'r1', submitted: [], rejected: [], rejectedCount: 0 } },
		);
		const { context: ctx } = context(withCachedToken(scriptedCredentials(api), 'token-stale'));
		const body = { xaid: 'a1', xpid: 'p1', amount: 5, reference: 'REF-0001' };
		await request.call(ctx, ENDPOINTS.payments.at({}), { body, idempotencyKey: 'k-1' });
		const sent = api.apiRequests();
		expect(sent.map((request) => request.headers['x-idempotent-key'])).toEqual(['k-1', 'k-1']);
		expect(sent.map((request) => request.rawBody)).toEqual([
			JSON.stringify(body),
			JSON.stringify(body),
		]);
	});
});

describe('token exchange failures inside a request', () => {
	it('arrive with the credential message, not retried', async () => {
		api.setToken(() => ({
			status: 401,
			body: { statusCode: 401, error: 'invalid_client', message: 'bad secret' },
		}));
		const error = await failing(ENDPOINTS.accounts.at({}));
		expect(error.message).toBe(
			'The token service rejected the Client ID or Client Secret (Client Authentication: Send in the Body)',
		);
		expect(api.apiRequests()).toHaveLength(0);
		expect(api.tokenRequests()).toHaveLength(1);
		expect(waits).not.toHaveBeenCalled();
	});
});

describe('request shape', () => {
	it('joins Base URL and path with one slash, sends JSON with Bearer auth, drops empty query strings', async () => {
		always({ status: 200, body: {} });
		const { context: ctx, requests } = context(
			scriptedCredentials(api, { baseUrl: `${api.baseUrl}///` }),
		);
		await request.call(ctx, endpointCall({ method: 'GET', path: 'account/a1' }), { qs: {} });
		await request.call(ctx, endpointCall({ method: 'POST', path: '//webhooks/subscribe' }), {
			body: { zapId: 'z' },
		});
		expect(api.apiRequests().map((request) => request.path)).toEqual([
			'/api/account/a1',
			'/api/webhooks/subscribe',
		]);
		expect(requests[1].url).toBe(`${api.baseUrl}/account/a1`);
		expect(requests[2].headers).toMatchObject({
			Authorization: 'Bearer token-1',
			'content-type': 'application/json',
		});
		expect(api.tokenRequests()).toHaveLength(1);
	});
});

describe('IDs in paths', () => {
	it.each([
		'/payee/..',
		'/account/../payments',
		'/account/%2E%2E/payees',
		'/account//balance',
		'/transaction/a?b=1',
		'/approval/a#b',
		'/payee/a b',
		'/payee/a\\b',
	])('%s is refused before any request', async (path) => {
		const { context: ctx, requests } = context();
		await expect(
			request.call(ctx, endpointCall({ method: 'GET', path }), { itemIndex: 1 }),
		).rejects.toThrow(/^Invalid request path/);
		expect(requests).toHaveLength(0);
	});

	it('encoded IDs and trailing slashes are fine', async () => {
		always({ status: 200, body: {} });
		const { context: ctx } = context();
		await request.call(
			ctx,
			endpointCall({ method: 'GET', path: `/payee/${encodeURIComponent('p/1 x')}/` }),
		);
		expect(api.apiRequests().map((request) => request.path)).toEqual(['/api/payee/p%2F1%20x']);
	});
});

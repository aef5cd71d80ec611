import { randomUUID } from 'node:crypto';

import { type FaultRule, type Sandbox, startSandbox } from './index';
import type { PaymentResponse } from './payments/model';
import { type Api, apiAs, call, type ErrorBody, requestToken } from './testing';

describe('sandbox fault injection', () => {
	let sandbox: Sandbox;
	let api: Api;

	beforeEach(async () => {
		sandbox = await startSandbox({ port: 0 });
		api = await apiAs(sandbox);
	});
	afterEach(() => sandbox.close());

	const payment = () => ({
		xaid: sandbox.seeded.accounts.gbp,
		xpid: sandbox.seeded.payees.gbp,
		amount: 7.5,
		reference: 'FAULT-000001',
	});
	const pay = (key: string) =>
		api.post<PaymentResponse & ErrorBody>('/payments', payment(), { 'x-idempotent-key': key });

	it('answers an injected 500 `times` times, then serves normally', async () => {
		sandbox.control.setFaults([
			{ method: 'GET', path: '/accounts', kind: 'status', status: 500, times: 2 },
		]);
		const statuses = [];
		for (let i = 0; i < 3; i++) statuses.push((await api.get('/accounts')).status);
		expect(statuses).toEqual([500, 500, 200]);
		expect((await api.get(`/account/${sandbox.seeded.accounts.gbp}`)).status).toBe(200);
		expect(sandbox.control.requests().filter((r) => r.fault === 'status')).toHaveLength(2);
	});

	it('lets the first `after` matching requests through, then hits (other requests do not count)', async () => {
		sandbox.control.setFaults([
			{ method: 'GET', path: '/accounts', kind: 'status', status: 503, after: 2, times: 1 },
		]);
		const statuses = [
			(await api.get('/accounts')).status,
			(await api.get(`/account/${sandbox.seeded.accounts.gbp}`)).status,
		];
		for (let i = 0; i < 3; i++) statuses.push((await api.get('/accounts')).status);
		expect(statuses).toEqual([200, 200, 200, 503, 200]);
		expect(
			sandbox.control
				.requests()
				.filter((r) => r.area === 'api')
				.map((r) => r.fault),
		).toEqual([undefined, undefined, undefined, 'status', undefined]);
	});

	it('answers 429 with Retry-After', async () => {
		sandbox.control.setFaults([
			{
				path: '/account/{xaid}/balance',
				kind: 'status',
				status: 429,
				retryAfterSeconds: 3,
				times: 1,
			},
		]);
		const reply = await api.get<ErrorBody>(`/account/${sandbox.seeded.accounts.gbp}/balance`);
		expect(reply.status).toBe(429);
		expect(reply.headers['retry-after']).toBe('3');
		expect(reply.body.statusCode).toBe(429);
	});

	it('adds latency', async () => {
		sandbox.control.setFaults([{ path: /^\/account\/[^/]+$/, kind: 'latency', latencyMs: 120 }]);
		const started = Date.now();
		expect((await api.get(`/account/${sandbox.seeded.accounts.gbp}`)).status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(110);
	});

	it('a status fault with latencyMs fails after that long (a slow failure)', async () => {
		sandbox.control.setFaults([
			{ method: 'GET', path: '/accounts', kind: 'status', status: 404, latencyMs: 150, times: 1 },
		]);
		const started = Date.now();
		expect((await api.get('/accounts')).status).toBe(404);
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
		expect((await api.get('/accounts')).status).toBe(200);
	});

	it('resets the connection without processing the request', async () => {
		sandbox.control.setFaults([{ method: 'POST', path: '/payments', kind: 'reset', times: 1 }]);
		const key = randomUUID();
		await expect(pay(key)).rejects.toThrow();
		expect(sandbox.control.ledger().paymentRequests).toHaveLength(0);
		expect(sandbox.control.requests().at(-1)).toMatchObject({
			path: '/payments',
			status: 0,
			fault: 'reset',
		});
		const retry = await pay(key);
		expect(retry.status).toBe(202);
		expect(retry.headers['x-idempotent-replayed']).toBeUndefined();
	});

	it('commitThenDrop: the payment is committed, the client sees a network error, a retry replays it', async () => {
		sandbox.control.setFaults([
			{ method: 'POST', path: '/payments', kind: 'commitThenDrop', times: 1 },
		]);
		const key = randomUUID();
		await expect(pay(key)).rejects.toThrow();
		const [committed] = sandbox.control.ledger().paymentRequests;
		expect(committed).toMatchObject({ idempotencyKey: key, submitted: [{ amount: 7.5 }] });
		const retry = await pay(key);
		expect(retry.status).toBe(202);
		expect(retry.headers['x-idempotent-replayed']).toBe('true');
		expect(retry.body.requestId).toBe(committed.requestId);
		expect(sandbox.control.ledger().paymentRequests).toHaveLength(1);
	});

	it('commitThenDrop drops the connection even when the request fails', async () => {
		sandbox.control.setFaults([
			{ method: 'POST', path: '/payments', kind: 'commitThenDrop', times: 1 },
		]);
		await expect(pay('not-a-uuid')).rejects.toThrow();
		expect(sandbox.control.requests().at(-1)).toMatchObject({ status: 0, fault: 'commitThenDrop' });
		expect((await pay('not-a-uuid')).status).toBe(400);
	});

	it('expires the presented token before expires_in', async () => {
		sandbox.control.setFaults([{ path: '/accounts', kind: 'expireToken', times: 1 }]);
		const reply = await api.get<ErrorBody>('/accounts');
		expect(reply).toMatchObject({ status: 401, body: { message: 'token expired' } });
		expect((await api.get('/accounts')).status).toBe(401);
		expect((await (await apiAs(sandbox)).get('/accounts')).status).toBe(200);
	});

	it('applies to the token endpoint and only to the named method', async () => {
		sandbox.control.setFaults([
			{ method: 'GET', path: '/oauth/token', kind: 'status', status: 503 },
			{ path: '/oauth/token', kind: 'status', status: 500, times: 1 },
		]);
		expect((await requestToken(sandbox, sandbox.clients.full)).status).toBe(500);
		expect((await requestToken(sandbox, sandbox.clients.full)).status).toBe(200);
	});

	it('decides probabilistic faults from the seed, the same on every run', async () => {
		const pattern = async (seed: number) => {
			const bank = await startSandbox({
				port: 0,
				seed,
				faults: [{ path: '/accounts', kind: 'status', status: 500, probability: 0.5 }],
			});
			try {
				const client = await apiAs(bank);
				const statuses: number[] = [];
				for (let i = 0; i < 16; i++) statuses.push((await client.get('/accounts')).status);
				return statuses;
			} finally {
				await bank.close();
			}
		};
		const first = await pattern(7);
		expect(await pattern(7)).toEqual(first);
		expect(first).toContain(500);
		expect(first).toContain(200);
	});

	it('rejects malformed rules', () => {
		expect(() => sandbox.control.setFaults([{ kind: 'status' }])).toThrow(
			'a status fault needs status 400-599',
		);
		expect(() => sandbox.control.setFaults([{ kind: 'latency' }])).toThrow(
			'a latency fault needs latencyMs >= 0',
		);
		expect(() => sandbox.control.setFaults([{ kind: 'explode' } as unknown as FaultRule])).toThrow(
			/fault kind/,
		);
	});

	it('answers a redirect with its status and Location, and runs nothing', async () => {
		sandbox.control.setFaults([
			{
				method: 'POST',
				path: '/payments',
				kind: 'redirect',
				status: 307,
				location: 'http://127.0.0.1:9/elsewhere',
				times: 1,
			},
			{ path: '/oauth/token', kind: 'redirect', location: 'http://127.0.0.1:9/token', times: 1 },
		]);
		const key = randomUUID();
		const redirected = await pay(key);
		expect(redirected.status).toBe(307);
		expect(redirected.headers.location).toBe('http://127.0.0.1:9/elsewhere');
		expect(sandbox.control.requests().filter((r) => r.fault === 'redirect')).toHaveLength(1);
		// nothing ran: the same key now makes the payment for the first time
		expect(sandbox.control.ledger().paymentRequests).toHaveLength(0);
		const made = await pay(key);
		expect(made.status).toBe(202);
		expect(made.headers['x-idempotent-replayed']).toBeUndefined();
		const token = await requestToken(sandbox, sandbox.clients.full);
		expect(token.status).toBe(302);
		expect(token.headers.location).toBe('http://127.0.0.1:9/token');
		expect(() =>
			sandbox.control.setFaults([{ kind: 'redirect', status: 200, location: 'http://x' }]),
		).toThrow(/redirect fault needs status/);
		expect(() => sandbox.control.setFaults([{ kind: 'redirect' }])).toThrow(
			'a redirect fault needs a location',
		);
	});

	it('clears faults', async () => {
		sandbox.control.setFaults([{ kind: 'status', status: 500 }]);
		expect((await api.get('/accounts')).status).toBe(500);
		sandbox.control.clearFaults();
		expect((await api.get('/accounts')).status).toBe(200);
		expect((await call('GET', `${sandbox.baseUrl}/accounts`)).status).toBe(401);
	});
});

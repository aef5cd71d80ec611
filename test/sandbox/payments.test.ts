import { randomUUID } from 'node:crypto';

import { type Sandbox, startSandbox } from './index';
import type { PaymentResponse } from './payments/model';
import { type Api, apiAs, type ErrorBody, type List } from './testing';

interface Balance {
	balance: number;
	availableBalance: number;
	pendingBalance: number;
}

interface Transaction {
	xtid: string;
	status: string;
	direction: string;
	amount: number;
	requestId?: string;
}

describe('sandbox payments (spec §Payments, DECISIONS.md §Payments)', () => {
	let sandbox: Sandbox;
	let api: Api;
	let gbp: string;
	let gbpPayee: string;

	beforeEach(async () => {
		sandbox = await startSandbox({ port: 0 });
		api = await apiAs(sandbox);
		gbp = sandbox.seeded.accounts.gbp;
		gbpPayee = sandbox.seeded.payees.gbp;
	});
	afterEach(() => sandbox.close());

	const pay = (body: unknown, key: string = randomUUID(), client: Api = api) =>
		client.post<PaymentResponse & ErrorBody>('/payments', body, { 'x-idempotent-key': key });
	const item = (overrides: Record<string, unknown> = {}) => ({
		xaid: gbp,
		xpid: gbpPayee,
		amount: 12.34,
		reference: 'INV-000123',
		...overrides,
	});
	const balance = async (xaid = gbp) => (await api.get<Balance>(`/account/${xaid}/balance`)).body;

	it('requires x-idempotent-key as a UUID v4 (400 naming the header)', async () => {
		const missing = await api.post('/payments', item());
		expect(missing).toMatchObject({
			status: 400,
			body: { message: 'x-idempotent-key header is required' },
		});
		for (const key of ['not-a-uuid', '6ba7b810-9dad-11d1-80b4-00c04fd430c8']) {
			const reply = await pay(item(), key);
			expect(reply).toMatchObject({
				status: 400,
				body: { message: 'x-idempotent-key must be a UUID v4' },
			});
		}
		expect(sandbox.control.ledger().paymentRequests).toHaveLength(0);
	});

	it('submits a single payment: 202, xtid among the account transactions, funds reserved', async () => {
		const reply = await pay(item({ amount: 100.25, description: 'April invoice' }));
		expect(reply.status).toBe(202);
		expect(reply.body).toEqual({
			requestId: expect.any(String),
			submitted: [
				{
					index: 0,
					xtid: expect.any(String),
					status: 'submitted',
					xaid: gbp,
					xpid: gbpPayee,
					amount: 100.25,
					currency: 'GBP',
					reference: 'INV-000123',
				},
			],
			rejected: [],
			rejectedCount: 0,
		});
		const { xtid } = reply.body.submitted[0];
		const transactions = await api.get<List<Transaction>>(`/account/${gbp}/transactions`);
		expect(transactions.body.results.find((t) => t.xtid === xtid)).toMatchObject({
			status: 'sent',
			direction: 'outgoing',
			amount: 100.25,
			requestId: reply.body.requestId,
		});
		expect(await balance()).toEqual({
			currency: 'GBP',
			balance: 50000,
			availableBalance: 49899.75,
			pendingBalance: 100.25,
		});
	});

	it('moves balances: settlement debits the ledger, incoming money credits ledger and available', async () => {
		const reply = await pay([item({ amount: 0.1 }), item({ amount: 0.2 })]);
		expect(await balance()).toMatchObject({
			balance: 50000,
			availableBalance: 49999.7,
			pendingBalance: 0.3,
		});
		await sandbox.control.settle(reply.body.submitted[0].xtid);
		expect(await balance()).toMatchObject({
			balance: 49999.9,
			availableBalance: 49999.7,
			pendingBalance: 0.2,
		});
		expect(
			(await api.get<Transaction>(`/transaction/${reply.body.submitted[0].xtid}`)).body.status,
		).toBe('settled');
		await sandbox.control.receive(gbp, 1000.05, 'Customer payment');
		expect(await balance()).toMatchObject({
			balance: 50999.95,
			availableBalance: 50999.75,
			pendingBalance: 0.2,
		});
		await expect(sandbox.control.settle(reply.body.submitted[0].xtid)).rejects.toThrow(
			/not an outgoing transaction in flight/,
		);
	});

	it('rejects structural problems of the request with 400', async () => {
		const cases: Array<[unknown, string]> = [
			['a string', 'body must be a payment object or an array of payment objects'],
			[[], 'body must contain at least one payment'],
			[Array.from({ length: 101 }, () => item()), 'body: a batch may contain at most 100 payments'],
			[[item(), 7], 'body[1] must be a payment object'],
		];
		for (const [body, message] of cases) {
			expect(await pay(body)).toMatchObject({ status: 400, body: { statusCode: 400, message } });
		}
		const broken = await api.post('/payments', undefined, {
			'x-idempotent-key': randomUUID(),
			'content-type': 'application/json',
		});
		expect(broken.status).toBe(400);
		expect(sandbox.control.ledger().paymentRequests).toHaveLength(0);
	});

	it('accepts a batch of exactly 100 under one key', async () => {
		const reply = await pay(
			Array.from({ length: 100 }, (_, i) =>
				item({ amount: 1, reference: `BATCH-${String(i).padStart(4, '0')}` }),
			),
		);
		expect(reply.status).toBe(202);
		expect(reply.body.submitted).toHaveLength(100);
		expect(new Set(reply.body.submitted.map((s) => s.xtid)).size).toBe(100);
		expect(await balance()).toMatchObject({ pendingBalance: 100 });
	});

	it('rejects single items with an error and echoes what it can (spec §Payments rule 3)', async () => {
		const { eur, suspended, otherWorkspace } = sandbox.seeded.accounts;
		const eurPayee = sandbox.seeded.payees.eur;
		const items: Array<[Record<string, unknown>, string]> = [
			[item({ amount: undefined }), 'amount is required'],
			[item({ amount: 0 }), 'amount must be greater than 0'],
			[item({ amount: 1.001 }), 'amount must have at most 2 decimals'],
			[item({ amount: '10.00' }), 'amount must be a number'],
			[item({ xpid: undefined, reference: undefined }), 'xpid is required; reference is required'],
			[
				item({ xaid: '00000000-0000-4000-8000-000000000000' }),
				'account 00000000-0000-4000-8000-000000000000 does not exist or does not belong to the caller',
			],
			[
				item({ xaid: otherWorkspace }),
				`account ${otherWorkspace} does not exist or does not belong to the caller`,
			],
			[item({ xaid: suspended }), `account ${suspended} is not active (status SUSPENDED)`],
			[item({ xpid: eurPayee }), `payee ${eurPayee} not found on account ${gbp}`],
			[item({ currency: 'EUR' }), 'currency EUR does not match the account and payee currency GBP'],
			[item({ reference: 'ABCDE' }), 'reference must be 6-18 characters for GBP'],
			[item({ reference: 'A'.repeat(19) }), 'reference must be 6-18 characters for GBP'],
			[
				item({ xaid: eur, xpid: eurPayee, reference: 'A'.repeat(141) }),
				'reference must be 6-140 characters for EUR',
			],
			[item({ description: 'd'.repeat(141) }), 'description must be at most 140 characters'],
			[item({ amount: 50000.01 }), `insufficient available balance on account ${gbp}`],
		];
		const ok = [
			item({ currency: 'GBP', reference: 'A'.repeat(18) }),
			item({ xaid: eur, xpid: eurPayee, reference: 'A'.repeat(140) }),
		];
		const reply = await pay([...ok, ...items.map(([body]) => body)]);
		expect(reply.status).toBe(202);
		expect(reply.body.submitted.map((s) => s.index)).toEqual([0, 1]);
		expect(reply.body.rejectedCount).toBe(items.length);
		expect(reply.body.rejected.map((r) => [r.index, r.error])).toEqual(
			items.map(([, error], i) => [i + 2, error]),
		);
		expect(reply.body.rejected[0]).toEqual({
			index: 2,
			error: 'amount is required',
			xaid: gbp,
			xpid: gbpPayee,
			reference: 'INV-000123',
		});
	});

	it('replays the original answer for the same key and body, in any key order, and pays once', async () => {
		const key = randomUUID();
		const first = await pay(item(), key);
		const again = await pay(
			{ reference: 'INV-000123', amount: 12.34, xpid: gbpPayee, xaid: gbp },
			key,
		);
		expect(again.status).toBe(202);
		expect(again.body).toEqual(first.body);
		expect(again.headers['x-idempotent-replayed']).toBe('true');
		expect(first.headers['x-idempotent-replayed']).toBeUndefined();
		expect(sandbox.control.ledger().paymentRequests).toHaveLength(1);
		expect(await balance()).toMatchObject({ pendingBalance: 12.34 });
	});

	it('answers 422 for the same key with a different body', async () => {
		const key = randomUUID();
		await pay(item(), key);
		const reply = await pay(item({ amount: 99 }), key);
		expect(reply.status).toBe(422);
		expect(reply.body.message).toBe(
			`x-idempotent-key ${key} was already used with a different request body`,
		);
		expect(await balance()).toMatchObject({ pendingBalance: 12.34 });
	});

	it('makes one payment out of 20 concurrent identical requests', async () => {
		const key = randomUUID();
		const replies = await Promise.all(Array.from({ length: 20 }, () => pay(item(), key)));
		expect(replies.map((r) => r.status)).toEqual(Array(20).fill(202));
		expect(new Set(replies.map((r) => r.body.requestId)).size).toBe(1);
		expect(replies.filter((r) => r.headers['x-idempotent-replayed'] === 'true')).toHaveLength(19);
		expect(sandbox.control.ledger().paymentRequests).toHaveLength(1);
		expect(await balance()).toMatchObject({ pendingBalance: 12.34 });
	});

	it('makes a twin wait for the original while it is still in flight', async () => {
		sandbox.control.setFaults([
			{ method: 'POST', path: '/payments', kind: 'latency', latencyMs: 150, times: 1 },
		]);
		const key = randomUUID();
		const first = pay(item(), key);
		await new Promise((resolve) => setTimeout(resolve, 30));
		const started = Date.now();
		const second = await pay(item(), key);
		expect(Date.now() - started).toBeGreaterThanOrEqual(60);
		expect(second.body).toEqual((await first).body);
		expect(second.headers['x-idempotent-replayed']).toBe('true');
		const different = pay(item({ amount: 1 }), key);
		expect((await different).status).toBe(422);
		expect(sandbox.control.ledger().paymentRequests).toHaveLength(1);
	});

	it('never overspends under concurrent payments with different keys', async () => {
		sandbox.control.setPolicies('workspace-1', []);
		const replies = await Promise.all(
			Array.from({ length: 20 }, () => pay(item({ amount: 3000 }))),
		);
		const accepted = replies.filter((r) => r.body.submitted.length === 1).length;
		expect(accepted).toBe(16);
		expect(
			replies.filter((r) => r.body.rejected[0]?.error.startsWith('insufficient')),
		).toHaveLength(4);
		expect(await balance()).toEqual({
			currency: 'GBP',
			balance: 50000,
			availableBalance: 2000,
			pendingBalance: 48000,
		});
	});

	it('keeps keys per workspace and forgets them after 24 hours on the sandbox clock', async () => {
		const key = randomUUID();
		await pay(item(), key);
		const other = await apiAs(sandbox, 'otherWorkspace');
		const foreign = await pay(
			{
				xaid: sandbox.seeded.accounts.otherWorkspace,
				xpid: sandbox.seeded.payees.otherWorkspace,
				amount: 5,
				reference: 'OTHER-000001',
			},
			key,
			other,
		);
		expect(foreign.body.submitted).toHaveLength(1);
		await sandbox.control.advanceClock(24 * 60 * 60 * 1000);
		const fresh = await pay(item({ amount: 1 }), key, await apiAs(sandbox)); // the old token expired too
		expect(fresh.status).toBe(202);
		expect(fresh.headers['x-idempotent-replayed']).toBeUndefined();
		expect(sandbox.control.ledger().paymentRequests).toHaveLength(2);
	});
});

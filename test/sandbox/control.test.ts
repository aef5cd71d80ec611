import { randomUUID } from 'node:crypto';

import { type Sandbox, startSandbox } from './index';
import type { PaymentResponse } from './payments/model';
import { type Api, apiAs, call, type ErrorBody, type List, requestToken } from './testing';

interface Ok {
	ok?: boolean;
	status?: string;
	xtid?: string;
	current?: string;
	previous?: string;
}

describe('sandbox control API over HTTP (/_sandbox) and the in-process handle', () => {
	let sandbox: Sandbox;
	let api: Api;

	beforeEach(async () => {
		sandbox = await startSandbox({ port: 0 });
		api = await apiAs(sandbox);
	});
	afterEach(() => sandbox.close());

	const control = <T = Ok>(method: string, path: string, body?: unknown) =>
		call<T & ErrorBody>(method, `${sandbox.controlUrl}${path}`, { body });
	const pay = (amount: number) =>
		api.post<PaymentResponse>(
			'/payments',
			{
				xaid: sandbox.seeded.accounts.gbp,
				xpid: sandbox.seeded.payees.gbp,
				amount,
				reference: 'CONTROL-0001',
			},
			{ 'x-idempotent-key': randomUUID() },
		);

	it('receives money, settles, decides approvals and advances the clock', async () => {
		const received = await control('POST', `/accounts/${sandbox.seeded.accounts.gbp}/receive`, {
			amount: 20,
			reference: 'Top up',
		});
		expect(received).toMatchObject({
			status: 200,
			body: { direction: 'incoming', amount: 20, reference: 'Top up' },
		});
		const sent = (await pay(10)).body.submitted[0];
		expect((await control('POST', `/transactions/${sent.xtid}/settle`)).body).toMatchObject({
			status: 'settled',
		});
		const approvals = await Promise.all([pay(1000), pay(1001), pay(1002)]);
		const [a, b, c] = approvals.map((r) => r.body.submitted[0].approvalRef as string);
		expect((await control('POST', `/approvals/${a}/approve`)).body.status).toBe('approved');
		expect((await control('POST', `/approvals/${b}/decline`)).body.status).toBe('declined');
		expect((await control('POST', `/approvals/${a}/decline`)).status).toBe(409);
		expect((await control('POST', `/approvals/${randomUUID()}/approve`)).status).toBe(404);
		expect((await control('POST', '/clock/advance', { ms: 24 * 3600 * 1000 })).status).toBe(200);
		const ledger = await control<{
			approvals: Array<{ ref: string; status: string }>;
			accounts: Array<{ balance: number }>;
		}>('GET', '/ledger');
		expect(ledger.body.approvals.find((x) => x.ref === c)?.status).toBe('expired');
		expect(ledger.body.accounts[0]).toMatchObject({
			balance: 50010,
			pendingBalance: 1000,
			availableBalance: 49010,
		});
		expect((await control('POST', '/clock/advance', { ms: -1 })).status).toBe(400);
	});

	it('replaces policies, seeds transactions and lists subscriptions', async () => {
		const put = await control('PUT', '/workspaces/workspace-1/policies', [
			{
				id: 'p',
				name: 'All',
				minAmount: 0.01,
				maxAmount: null,
				currency: null,
				approvers: ['Q'],
				coversApiPayments: true,
				expiresInSeconds: 60,
			},
		]);
		expect(put.status).toBe(200);
		expect((await pay(1)).body.submitted[0].status).toBe('pending_approval');
		await control('POST', `/accounts/${sandbox.seeded.accounts.eur}/seed-transactions`, {
			count: 42,
		});
		const list = await api.get<List<unknown>>(
			`/account/${sandbox.seeded.accounts.eur}/transactions`,
		);
		expect(list.body.total).toBe(45);
		await api.post('/webhooks/subscribe', {
			zapId: 'z1',
			xaid: sandbox.seeded.accounts.eur,
			url: 'https://h.example.com',
			event: 'TransactionReceived',
		});
		const subscriptions = await control<Array<{ zapId: string }>>(
			'GET',
			'/subscriptions?workspaceId=workspace-1',
		);
		expect(subscriptions.body.map((s) => s.zapId)).toEqual(['z1']);
		expect(
			(await control<unknown[]>('GET', '/subscriptions?workspaceId=workspace-2')).body,
		).toEqual([]);
		expect((await control<unknown[]>('GET', '/deliveries')).body).toEqual([]);
		expect((await control('PUT', '/workspaces/nope/policies', [])).status).toBe(404);
	});

	it('configures faults (pathPattern for RegExp), revokes tokens and rotates the signing secret', async () => {
		expect(
			(
				await control('PUT', '/faults', {
					rules: [{ pathPattern: '^/acc', kind: 'status', status: 503, times: 1 }],
				})
			).status,
		).toBe(200);
		expect((await api.get('/accounts')).status).toBe(503);
		await control('PUT', '/faults', [{ kind: 'status', status: 500 }]);
		await control('DELETE', '/faults');
		expect((await api.get('/accounts')).status).toBe(200);
		await control('POST', '/tokens/revoke');
		expect((await api.get('/accounts')).status).toBe(401);
		const before = sandbox.signingSecrets.otherWorkspace;
		const rotated = await control('POST', '/signing-secret/rotate?workspaceId=workspace-2');
		expect(rotated.body).toEqual({
			current: sandbox.signingSecrets.otherWorkspace,
			previous: before,
		});
		expect((await control('PUT', '/faults', { rules: [{ kind: 'boom' }] })).status).toBe(400);
		expect((await control('GET', '/nothing')).status).toBe(404);
	});

	it('logs requests without authorization, with API bodies, and clears the log', async () => {
		await pay(3);
		const log = await control<
			Array<{
				path: string;
				headers: Record<string, string>;
				body?: unknown;
				clientId?: string;
				status: number;
			}>
		>('GET', '/requests');
		const entry = log.body.find((e) => e.path === '/payments');
		expect(entry).toMatchObject({
			status: 202,
			clientId: sandbox.clients.full.clientId,
			body: { amount: 3 },
		});
		expect(entry?.headers.authorization).toBeUndefined();
		expect(entry?.headers['x-idempotent-key']).toMatch(/^[0-9a-f-]{36}$/);
		expect(log.body.find((e) => e.path === '/oauth/token')?.body).toBeUndefined();
		await control('DELETE', '/requests');
		expect(sandbox.control.requests()).toEqual([]);
	});

	it('resets to the seeded state: same ids and secrets, data, tokens, faults and log cleared', async () => {
		const payee = {
			name: 'Temporary Payee',
			reference: 'TEMP-000001',
			purpose: 'Test',
			purposeCategory: 'OTHER',
			addressLine1: '2 Road',
			townCity: 'Hull',
			postCode: 'HU1 1AA',
			countryCode: 'GB',
			sortCode: '111111',
			accountNumber: '11111111',
		};
		expect((await api.post(`/account/${sandbox.seeded.accounts.gbp}/payees`, payee)).status).toBe(
			201,
		);
		await pay(500);
		sandbox.control.setFaults([{ path: '/nothing', kind: 'status', status: 500 }]);
		const seededBefore = JSON.stringify(sandbox.control.ledger().accounts.map((a) => a.xaid));
		expect((await control('POST', '/reset')).status).toBe(200);
		expect(JSON.stringify(sandbox.control.ledger().accounts.map((a) => a.xaid))).toBe(seededBefore);
		expect(sandbox.control.ledger().paymentRequests).toEqual([]);
		expect(sandbox.control.requests()).toEqual([]);
		expect((await api.get('/accounts')).status).toBe(401);
		expect((await requestToken(sandbox, sandbox.clients.full)).status).toBe(200);
		const fresh = await apiAs(sandbox);
		expect((await fresh.get(`/account/${sandbox.seeded.accounts.gbp}/balance`)).body).toMatchObject(
			{ balance: 50000, pendingBalance: 0 },
		);
		expect((await fresh.get(`/payee/${sandbox.seeded.payees.gbp}`)).status).toBe(200);
		expect((await fresh.get<List<unknown>>('/payees')).body.total).toBe(4);
	});

	// the URLs docs/sandbox.md and the demo document; each resource registers its own (control.ts)
	it.each([
		['POST', '/approvals/{ref}/approve'],
		['POST', '/approvals/{ref}/decline'],
		['POST', '/approvals/{ref}/expire'],
		['PUT', '/workspaces/{workspaceId}/policies'],
		['POST', '/transactions/{xtid}/settle'],
		['POST', '/accounts/{xaid}/receive'],
		['POST', '/accounts/{xaid}/seed-transactions'],
		['GET', '/subscriptions'],
		['GET', '/deliveries'],
		['POST', '/signing-secret/rotate'],
		['GET', '/requests'],
		['DELETE', '/requests'],
		['PUT', '/faults'],
		['DELETE', '/faults'],
		['POST', '/tokens/revoke'],
		['POST', '/clock/advance'],
		['GET', '/ledger'],
		['POST', '/reset'],
	])('serves %s /_sandbox%s', async (method, path) => {
		const reply = await control(method, path.replace(/\{\w+\}/g, 'unknown'));
		expect(reply.body.message ?? '').not.toMatch(/^no control route/);
		expect(
			(await control(method, `${path.replace(/\{\w+\}/g, 'unknown')}/more`)).body.message,
		).toMatch(/^no control route/);
	});

	it('gives the same ids and secrets for the same seed and different ones for another seed', async () => {
		const same = await startSandbox({ port: 0, seed: 1 });
		const other = await startSandbox({ port: 0, seed: 2 });
		try {
			expect(same.seeded).toEqual(sandbox.seeded);
			expect(same.clients).toEqual(sandbox.clients);
			expect(same.signingSecret).toBe(sandbox.signingSecret);
			expect(other.seeded.accounts.gbp).not.toBe(sandbox.seeded.accounts.gbp);
			for (const xaid of Object.values(sandbox.seeded.accounts)) {
				expect(xaid).toMatch(
					/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
				);
			}
		} finally {
			await Promise.all([same.close(), other.close()]);
		}
	});
});

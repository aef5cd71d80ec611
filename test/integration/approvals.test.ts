import { randomUUID } from 'node:crypto';

import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { simplifyRecord } from '../../nodes/CustomerBanking/actions/simplify';
import { credentialsFor } from '../helpers/sandboxCredentials';
import { type Sandbox, startSandbox } from '../sandbox';
import { byId, mainJson, runNode } from './actionNode';

let sandbox: Sandbox;
let credentials: ICredentialDataDecryptedObject;
/** Submitted payments that await approval, oldest first: 60 on the GBP account, 2 on the EUR account. */
let gbpXtids: string[];
let eurXtids: string[];

/** Submits a batch straight to the API (not through the node): the approvals are this suite's fixtures. */
async function submitPayments(
	xaid: string,
	xpid: string,
	count: number,
	amount: number,
): Promise<string[]> {
	const token = await fetch(sandbox.tokenUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({
			client_id: sandbox.clients.full.clientId,
			client_secret: sandbox.clients.full.clientSecret,
			audience: sandbox.audience,
			grant_type: 'client_credentials',
		}),
	}).then(async (response) => ((await response.json()) as { access_token: string }).access_token);
	const batch = Array.from({ length: count }, (_, index) => ({
		xaid,
		xpid,
		amount,
		reference: `APPR-${index}-TEST`,
	}));
	const response = await fetch(`${sandbox.baseUrl}/payments`, {
		method: 'POST',
		headers: {
			authorization: `Bearer ${token}`,
			'content-type': 'application/json',
			'x-idempotent-key': randomUUID(),
		},
		body: JSON.stringify(batch),
	});
	const result = (await response.json()) as { submitted: IDataObject[]; rejectedCount: number };
	expect(result.rejectedCount).toBe(0);
	return result.submitted.map((item) => item.xtid as string);
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	credentials = credentialsFor(sandbox);
	const { accounts, payees } = sandbox.seeded;
	await sandbox.control.receive(accounts.gbp, 100_000);
	// the seeded policy covers API payments of 1000.00 or more
	gbpXtids = await submitPayments(accounts.gbp, payees.gbp, 60, 1000);
	eurXtids = await submitPayments(accounts.eur, payees.eur, 2, 1500);
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.control.clearRequests());

const run = (parameters: Record<string, unknown>) =>
	runNode(sandbox, credentials, { parameters: { resource: 'approval', ...parameters } });

describe('Approval', () => {
	it('Get Many (Return All, all accounts): every pending approval', async () => {
		const result = await run({ operation: 'getMany', scope: 'all', returnAll: true });
		const approvals = mainJson(result);
		expect(approvals.map((approval) => approval.transactionId).sort()).toEqual(
			[...gbpXtids, ...eurXtids].sort(),
		);
		expect(approvals.every((approval) => approval.status === 'pending')).toBe(true);
		expect(result.calls).toEqual(['GET /approvals?page=0&limit=500']);
	});

	it('Get Many (one account, Limit)', async () => {
		const xaid = sandbox.seeded.accounts.eur;
		const all = await run({
			operation: 'getMany',
			scope: 'account',
			account: byId(xaid),
			returnAll: true,
		});
		expect(mainJson(all).map((approval) => approval.transactionId)).toEqual(eurXtids);
		const limited = await run({
			operation: 'getMany',
			scope: 'account',
			account: byId(sandbox.seeded.accounts.gbp),
			returnAll: false,
			limit: 1,
		});
		expect(mainJson(limited)).toEqual([
			expect.objectContaining({
				transactionId: gbpXtids[0],
				accountId: sandbox.seeded.accounts.gbp,
			}),
		]);
		expect(limited.calls).toEqual([
			`GET /account/${sandbox.seeded.accounts.gbp}/approvals?page=0&limit=1`,
		]);
	});

	it('Get Many with a Status filter: pending or decided, whatever the bank calls decided', async () => {
		const [declined] = sandbox.control
			.ledger()
			.approvals.filter((approval) => approval.xtid === eurXtids[0]);
		await sandbox.control.decline(String(declined.ref));
		const scope = {
			operation: 'getMany',
			scope: 'account',
			account: byId(sandbox.seeded.accounts.eur),
			returnAll: true,
		};
		const pending = mainJson(await run({ ...scope, status: 'pending' }));
		expect(pending.map((approval) => approval.transactionId)).toEqual([eurXtids[1]]);
		const decided = mainJson(await run({ ...scope, status: 'decided' }));
		// a bank that lists pending approvals only shows no decided one
		expect(decided.map((approval) => approval.transactionId)).toEqual(
			sandbox.variants.approvalList === 'pendingOnly' ? [] : [eurXtids[0]],
		);
		const limited = mainJson(
			await run({ ...scope, status: 'pending', returnAll: false, limit: 1 }),
		);
		expect(limited).toHaveLength(1);
	});

	it('Get: one approval by ref; 404 for an unknown ref', async () => {
		const [approval] = sandbox.control.ledger().approvals;
		const found = await run({ operation: 'get', approvalRef: approval.ref });
		expect(mainJson(found)).toEqual([
			expect.objectContaining({ approvalId: approval.ref, transactionId: approval.xtid }),
		]);

		const missing = await run({ operation: 'get', approvalRef: randomUUID() });
		expect(missing.error).toBeInstanceOf(NodeApiError);
		expect(missing.error?.httpCode).toBe('404');
	});

	it('Get by Payment: pages of 50, stopping at the page that holds the xtid', async () => {
		// the 55th approval of the account: on the second page of 50
		const xtid = gbpXtids[54];
		const result = await run({
			operation: 'getByPayment',
			transactionId: xtid,
			scope: 'account',
			account: byId(sandbox.seeded.accounts.gbp),
		});
		expect(mainJson(result)).toEqual([
			expect.objectContaining({
				transactionId: xtid,
				accountId: sandbox.seeded.accounts.gbp,
				status: 'pending',
			}),
		]);
		const path = `/account/${sandbox.seeded.accounts.gbp}/approvals`;
		expect(result.calls).toEqual([`GET ${path}?page=0&limit=50`, `GET ${path}?page=1&limit=50`]);

		const first = await run({
			operation: 'getByPayment',
			transactionId: gbpXtids[3],
			scope: 'all',
		});
		expect(mainJson(first)[0].transactionId).toBe(gbpXtids[3]);
		expect(first.calls).toEqual(['GET /approvals?page=0&limit=50']);
	});

	it('Get by Payment: a payment without an approval is an error once every page was read', async () => {
		const xtid = randomUUID();
		const result = await run({ operation: 'getByPayment', transactionId: xtid, scope: 'all' });
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(result.error?.message).toBe(`No approval found for the payment ${xtid}`);
		// 62 approvals: two pages of 50
		expect(result.calls).toEqual([
			'GET /approvals?page=0&limit=50',
			'GET /approvals?page=1&limit=50',
		]);
	});

	it('Get by Payment: an xtid that is not a UUID sends nothing', async () => {
		const result = await run({ operation: 'getByPayment', transactionId: 'xt-1', scope: 'all' });
		expect(result.error?.message).toBe('Transaction ID: must be a UUID (item 0)');
		expect(result.requests).toEqual([]);
	});
});

describe('Approval: Simplify, and Status filtered while paging', () => {
	it('Get Many: simplified by default, the payment details lifted where the bank has them', async () => {
		const scope = {
			operation: 'getMany',
			scope: 'account',
			account: byId(sandbox.seeded.accounts.gbp),
			returnAll: true,
		};
		const raw = mainJson(await run({ ...scope, simplify: false }));
		const simplified = mainJson(await run(scope));
		expect(raw.length).toBeGreaterThan(0);
		// with what each says of its payment, as Submit and Get Status say it (withPaymentState's own test)
		expect(simplified).toEqual(
			raw.map((approval) => ({
				...simplifyRecord('approval', approval),
				paymentState: expect.any(String),
			})),
		);
		expect(simplified.map((approval) => approval.paymentState)).toContain('waiting for approval');
		for (const [index, approval] of simplified.entries()) {
			const transaction = raw[index].transaction;
			const detailed = typeof transaction === 'object' && transaction !== null;
			expect(approval).toEqual(
				expect.objectContaining({
					approvalId: raw[index].ref,
					transactionId: raw[index].xtid,
					status: raw[index].status,
				}),
			);
			expect('amount' in approval).toBe(detailed);
			expect(approval).not.toHaveProperty('meta');
			expect(approval).not.toHaveProperty('transaction');
		}
	});

	it("Get and Get by Payment: simplified by default, the bank's record with Simplify off", async () => {
		const xtid = gbpXtids[1];
		const [raw] = mainJson(
			await run({ operation: 'getByPayment', transactionId: xtid, scope: 'all', simplify: false }),
		);
		expect(raw).toHaveProperty('meta');
		const [byPayment] = mainJson(
			await run({ operation: 'getByPayment', transactionId: xtid, scope: 'all' }),
		);
		const shown = { ...simplifyRecord('approval', raw), paymentState: 'waiting for approval' };
		expect(raw.status).toBe('pending');
		expect(byPayment).toEqual(shown);
		const [byRef] = mainJson(await run({ operation: 'get', approvalRef: raw.ref }));
		expect(byRef).toEqual(shown);
		const [rawByRef] = mainJson(
			await run({ operation: 'get', approvalRef: raw.ref, simplify: false }),
		);
		expect(rawByRef).toEqual(raw);
	});

	it('Status with a Limit: the limit counts matching approvals, read from full pages', async () => {
		const xaid = sandbox.seeded.accounts.gbp;
		const refs = sandbox.control
			.ledger()
			.approvals.filter((approval) => approval.parent_xaid === xaid)
			.map((approval) => String(approval.ref));
		for (const ref of refs.slice(0, 3)) await sandbox.control.decline(ref);
		const result = await run({
			operation: 'getMany',
			scope: 'account',
			account: byId(xaid),
			status: 'pending',
			returnAll: false,
			limit: 2,
		});
		expect(mainJson(result).map((approval) => approval.transactionId)).toEqual([
			gbpXtids[3],
			gbpXtids[4],
		]);
		expect(result.calls).toEqual([`GET /account/${xaid}/approvals?page=0&limit=500`]);
	});
});

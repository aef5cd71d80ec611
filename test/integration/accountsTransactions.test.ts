import { randomUUID } from 'node:crypto';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { credentialsFor } from '../helpers/sandboxCredentials';
import { type Sandbox, startSandbox } from '../sandbox';
import { byId, mainJson, runNode } from './actionNode';

let sandbox: Sandbox;
let credentials: ICredentialDataDecryptedObject;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	credentials = credentialsFor(sandbox);
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.control.clearRequests());

const run = (parameters: Record<string, unknown>, extra: Parameters<typeof runNode>[2] extends infer O ? Partial<O> : never = {}) =>
	runNode(sandbox, credentials, { parameters, ...extra });

describe('Account', () => {
	it('Get: the account by xaid', async () => {
		const result = await run({ resource: 'account', operation: 'get', account: byId(sandbox.seeded.accounts.gbp) });
		expect(mainJson(result)).toEqual([
			expect.objectContaining({ xaid: sandbox.seeded.accounts.gbp, currency: 'GBP', status: 'ACTIVE', type: 'SCAN' }),
		]);
		expect(result.calls).toEqual([`GET /account/${sandbox.seeded.accounts.gbp}`]);
		expect(result.output?.[0][0].pairedItem).toEqual({ item: 0 });
	});

	it('Get Many (Return All): every account of the workspace, one page', async () => {
		const result = await run({ resource: 'account', operation: 'getMany', returnAll: true });
		const accounts = mainJson(result);
		const { gbp, eur, usd, cad, suspended, otherWorkspace } = sandbox.seeded.accounts;
		expect(accounts.map((account) => account.xaid).sort()).toEqual([gbp, eur, usd, cad, suspended].sort());
		expect(accounts.map((account) => account.xaid)).not.toContain(otherWorkspace);
		expect(result.calls).toEqual(['GET /accounts?page=0&limit=500']);
	});

	it('Get Many (Limit): at most the limit, asking for no more', async () => {
		const result = await run({ resource: 'account', operation: 'getMany', returnAll: false, limit: 2 });
		expect(mainJson(result)).toHaveLength(2);
		expect(result.calls).toEqual(['GET /accounts?page=0&limit=2']);
	});

	it('Get Balance: available, pending and ledger balance of the account', async () => {
		const xaid = sandbox.seeded.accounts.eur;
		const account = sandbox.control.ledger().accounts.find((entry) => entry.xaid === xaid);
		const result = await run({ resource: 'account', operation: 'getBalance', account: byId(xaid) });
		expect(account).toBeDefined();
		expect(mainJson(result)).toEqual([
			{
				xaid,
				currency: 'EUR',
				balance: account?.balance,
				availableBalance: account?.availableBalance,
				pendingBalance: account?.pendingBalance,
			},
		]);
		expect(result.calls).toEqual([`GET /account/${xaid}/balance`]);
	});

	it('401: an account of another workspace fails with the API error, naming the item', async () => {
		const result = await run({ resource: 'account', operation: 'get', account: byId(sandbox.seeded.accounts.otherWorkspace) });
		expect(result.error).toBeInstanceOf(NodeApiError);
		// spec §Errors lists the case under 401 and 404: a bank answering 404 is final (no refresh, no resend)
		const notTheirs = sandbox.variants.unknownAccount === 404 ? '404' : '401';
		expect(result.error?.httpCode).toBe(notTheirs);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(result.calls).toEqual(
			Array(notTheirs === '404' ? 1 : 2).fill(`GET /account/${sandbox.seeded.accounts.otherWorkspace}`),
		);
	});

	it('an account ID that is not a UUID fails before any request', async () => {
		const result = await run({ resource: 'account', operation: 'getBalance', account: byId('not-a-uuid') });
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(result.error?.message).toBe('Account: must be a UUID (item 0)');
		expect(result.requests).toEqual([]);
	});
});

describe('Transaction', () => {
	it('Get Many (Return All, all accounts): pages of 500 until the total is reached', async () => {
		await sandbox.control.seedTransactions(sandbox.seeded.accounts.usd, 1100);
		const total = sandbox.control.ledger().transactions.length;
		sandbox.control.clearRequests();
		const result = await run({ resource: 'transaction', operation: 'getMany', scope: 'all', returnAll: true });
		expect(mainJson(result)).toHaveLength(total);
		const pages = Math.ceil(total / 500);
		expect(result.calls).toEqual(Array.from({ length: pages }, (_, page) => `GET /transactions?page=${page}&limit=500`));
		expect(sandbox.control.requests().filter((entry) => entry.area === 'api')).toHaveLength(pages);
	});

	it('Get Many (one account, Limit): only that account, at most the limit', async () => {
		const xaid = sandbox.seeded.accounts.usd;
		const result = await run({
			resource: 'transaction',
			operation: 'getMany',
			scope: 'account',
			account: byId(xaid),
			returnAll: false,
			limit: 7,
		});
		const transactions = mainJson(result);
		expect(transactions).toHaveLength(7);
		expect(new Set(transactions.map((transaction) => transaction.xaid))).toEqual(new Set([xaid]));
		expect(result.calls).toEqual([`GET /account/${xaid}/transactions?page=0&limit=7`]);
	});

	it('Get: one transaction by xtid; 404 for an unknown one', async () => {
		const known = sandbox.control.ledger().transactions[0];
		const found = await run({ resource: 'transaction', operation: 'get', transactionId: known.xtid });
		expect(mainJson(found)).toEqual([expect.objectContaining({ xtid: known.xtid, amount: known.amount })]);

		const unknown = await run({ resource: 'transaction', operation: 'get', transactionId: randomUUID() });
		expect(unknown.error).toBeInstanceOf(NodeApiError);
		expect(unknown.error?.httpCode).toBe('404');
		// not retried: a 404 is final
		expect(unknown.calls).toHaveLength(1);
	});

	it('continueOnFail: each item gets its result or its error, paired with its input item', async () => {
		const known = sandbox.control.ledger().transactions[0].xtid as string;
		const result = await runNode(sandbox, credentials, {
			parameters: { resource: 'transaction', operation: 'get' },
			itemParameters: [{ transactionId: known }, { transactionId: randomUUID() }, { transactionId: 'bad' }, { transactionId: known }],
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.output).toHaveLength(1);
		const items = result.output?.[0] ?? [];
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(items[0].json.xtid).toBe(known);
		expect(items[1].json).toEqual({ error: expect.any(String) });
		expect(items[2].json).toEqual({ error: 'Transaction ID: must be a UUID (item 2)' });
		expect(items[3].json.xtid).toBe(known);
		// the invalid item sent nothing: two GETs of the known one and one of the unknown one
		expect(result.calls).toHaveLength(3);
	});

	it('without continueOnFail the first failing item stops the node, naming its index', async () => {
		const known = sandbox.control.ledger().transactions[0].xtid as string;
		const result = await runNode(sandbox, credentials, {
			parameters: { resource: 'transaction', operation: 'get' },
			itemParameters: [{ transactionId: known }, { transactionId: randomUUID() }, { transactionId: known }],
		});
		expect(result.error).toBeInstanceOf(NodeApiError);
		expect(result.error?.context?.itemIndex).toBe(1);
		expect(result.calls).toHaveLength(2);
	});
});

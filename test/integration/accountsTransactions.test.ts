import { randomUUID } from 'node:crypto';

import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { CustomerBanking } from '../../nodes/CustomerBanking/CustomerBanking.node';
import { COMPACT_FIELDS, simplifyRecord } from '../../nodes/CustomerBanking/actions/simplify';
import { createExecuteContext } from '../helpers/n8nContext';
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

const run = (
	parameters: Record<string, unknown>,
	extra: Parameters<typeof runNode>[2] extends infer O ? Partial<O> : never = {},
) => runNode(sandbox, credentials, { parameters, ...extra });

describe('Account', () => {
	it('Get: the account by xaid', async () => {
		const result = await run({
			resource: 'account',
			operation: 'get',
			account: byId(sandbox.seeded.accounts.gbp),
		});
		expect(mainJson(result)).toEqual([
			expect.objectContaining({
				accountId: sandbox.seeded.accounts.gbp,
				currency: 'GBP',
				status: 'ACTIVE',
				type: 'SCAN',
			}),
		]);
		expect(result.calls).toEqual([`GET /account/${sandbox.seeded.accounts.gbp}`]);
		expect(result.output?.[0][0].pairedItem).toEqual({ item: 0 });
	});

	it('Get Many (Return All): every account of the workspace, one page', async () => {
		const result = await run({ resource: 'account', operation: 'getMany', returnAll: true });
		const accounts = mainJson(result);
		const { gbp, eur, usd, cad, suspended, otherWorkspace } = sandbox.seeded.accounts;
		expect(accounts.map((account) => account.accountId).sort()).toEqual(
			[gbp, eur, usd, cad, suspended].sort(),
		);
		expect(accounts.map((account) => account.accountId)).not.toContain(otherWorkspace);
		expect(result.calls).toEqual(['GET /accounts?page=0&limit=500']);
	});

	it('Get Many (Limit): at most the limit, asking for no more', async () => {
		const result = await run({
			resource: 'account',
			operation: 'getMany',
			returnAll: false,
			limit: 2,
		});
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
				accountId: xaid,
				currency: 'EUR',
				balance: account?.balance,
				availableBalance: account?.availableBalance,
				pendingBalance: account?.pendingBalance,
			},
		]);
		expect(result.calls).toEqual([`GET /account/${xaid}/balance`]);
	});

	it('401: an account of another workspace fails with the API error, naming the item', async () => {
		const result = await run({
			resource: 'account',
			operation: 'get',
			account: byId(sandbox.seeded.accounts.otherWorkspace),
		});
		expect(result.error).toBeInstanceOf(NodeApiError);
		// spec §Errors lists the case under 401 and 404: a bank answering 404 is final (no refresh, no resend)
		const notTheirs = sandbox.variants.unknownAccount === 404 ? '404' : '401';
		expect(result.error?.httpCode).toBe(notTheirs);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(result.calls).toEqual(
			Array(notTheirs === '404' ? 1 : 2).fill(
				`GET /account/${sandbox.seeded.accounts.otherWorkspace}`,
			),
		);
	});

	it('an account name where its ID belongs fails before any request, saying where the IDs are', async () => {
		const result = await run({
			resource: 'account',
			operation: 'getBalance',
			account: byId('Main account'),
		});
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(result.error?.message).toBe(
			"Account: must be an account ID (a UUID), not a name: Account → Get Many lists each account's ID, and the form's account list picks one by name (item 0)",
		);
		expect(result.requests).toEqual([]);
	});
});

describe('Transaction', () => {
	it('Get Many (Return All, all accounts): pages of 500 until the total is reached', async () => {
		await sandbox.control.seedTransactions(sandbox.seeded.accounts.usd, 1100);
		const total = sandbox.control.ledger().transactions.length;
		sandbox.control.clearRequests();
		const result = await run({
			resource: 'transaction',
			operation: 'getMany',
			scope: 'all',
			returnAll: true,
		});
		expect(mainJson(result)).toHaveLength(total);
		const pages = Math.ceil(total / 500);
		expect(result.calls).toEqual(
			Array.from({ length: pages }, (_, page) => `GET /transactions?page=${page}&limit=500`),
		);
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
		expect(new Set(transactions.map((transaction) => transaction.accountId))).toEqual(
			new Set([xaid]),
		);
		expect(result.calls).toEqual([`GET /account/${xaid}/transactions?page=0&limit=7`]);
	});

	it('Get: one transaction by xtid; 404 for an unknown one', async () => {
		const known = sandbox.control.ledger().transactions[0];
		const found = await run({
			resource: 'transaction',
			operation: 'get',
			transactionId: known.xtid,
		});
		expect(mainJson(found)).toEqual([
			expect.objectContaining({ transactionId: known.xtid, amount: known.amount }),
		]);

		const unknown = await run({
			resource: 'transaction',
			operation: 'get',
			transactionId: randomUUID(),
		});
		expect(unknown.error).toBeInstanceOf(NodeApiError);
		expect(unknown.error?.httpCode).toBe('404');
		// not retried: a 404 is final
		expect(unknown.calls).toHaveLength(1);
	});

	it('Get of a payment held for approval that has no transaction record: the 404 says where to look, not just "check the ID"', async () => {
		const xtid = randomUUID();
		sandbox.control.setFaults([
			{ method: 'GET', path: `/transaction/${xtid}`, kind: 'status', status: 404 },
		]);
		const missing = await run({ resource: 'transaction', operation: 'get', transactionId: xtid });
		expect(missing.error?.httpCode).toBe('404');
		expect(missing.error?.description).toContain('waiting for approval');
		expect(missing.error?.description).toContain('Approval → Get by Payment with the same ID');
		expect(missing.error?.description).not.toContain('Check the ID.');
	});

	it('continueOnFail: each item gets its result or its error, paired with its input item', async () => {
		const known = sandbox.control.ledger().transactions[0].xtid as string;
		const result = await runNode(sandbox, credentials, {
			parameters: { resource: 'transaction', operation: 'get' },
			itemParameters: [
				{ transactionId: known },
				{ transactionId: randomUUID() },
				{ transactionId: 'bad' },
				{ transactionId: known },
			],
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.output).toHaveLength(1);
		const items = result.output?.[0] ?? [];
		expect(items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(items[0].json.transactionId).toBe(known);
		expect(items[1].json).toEqual({ error: expect.any(String) });
		expect(items[2].json).toEqual({ error: 'Transaction ID: must be a UUID (item 2)' });
		expect(items[3].json.transactionId).toBe(known);
		// the invalid item sent nothing: two GETs of the known one and one of the unknown one
		expect(result.calls).toHaveLength(3);
	});

	it('without continueOnFail the first failing item stops the node, naming its index', async () => {
		const known = sandbox.control.ledger().transactions[0].xtid as string;
		const result = await runNode(sandbox, credentials, {
			parameters: { resource: 'transaction', operation: 'get' },
			itemParameters: [
				{ transactionId: known },
				{ transactionId: randomUUID() },
				{ transactionId: known },
			],
		});
		expect(result.error).toBeInstanceOf(NodeApiError);
		expect(result.error?.context?.itemIndex).toBe(1);
		expect(result.calls).toHaveLength(2);
	});
});

/** The raw record as this bank answers it (spec-minimal: without created/updated). */
const answered = (record: IDataObject): IDataObject => {
	if (sandbox.variants.createdTimes) return record;
	return Object.fromEntries(
		Object.entries(record).filter(([key]) => key !== 'created' && key !== 'updated'),
	);
};

/** The node as n8n hands it to an AI agent: its type named with "Tool" at the end (n8n's convertNodeToAiTool). */
async function runAsAiTool(parameters: Record<string, unknown>) {
	const nodeType = new CustomerBanking();
	nodeType.description = {
		...nodeType.description,
		name: `${nodeType.description.name}Tool`,
		displayName: `${nodeType.description.displayName} Tool`,
	};
	const { context, requests } = createExecuteContext({ parameters, credentials, nodeType });
	const output = await nodeType.execute.call(context);
	return { items: output[0].map((item) => item.json), type: context.getNode().type, requests };
}

describe('Simplify', () => {
	it('Account Get Many: simplified by default, every field with Simplify off', async () => {
		const simplified = mainJson(
			await run({ resource: 'account', operation: 'getMany', returnAll: true }),
		);
		const raw = mainJson(
			await run({ resource: 'account', operation: 'getMany', returnAll: true, simplify: false }),
		);
		expect(raw.length).toBeGreaterThan(0);
		expect(simplified).toEqual(raw.map((account) => simplifyRecord('account', account)));
		expect(Object.keys(simplified[0])).toEqual(COMPACT_FIELDS.account.map((field) => field.key));
		expect(Object.keys(raw[0]).length).toBeGreaterThan(15);
		expect(simplified[0]).not.toHaveProperty('bic');
	});

	it("Account Get: simplified by default, the bank's record with Simplify off", async () => {
		const xaid = sandbox.seeded.accounts.gbp;
		const [raw] = mainJson(
			await run({ resource: 'account', operation: 'get', account: byId(xaid), simplify: false }),
		);
		const [simplified] = mainJson(
			await run({ resource: 'account', operation: 'get', account: byId(xaid) }),
		);
		expect(raw).toEqual(
			expect.objectContaining({ bic: expect.any(String), companyReg: expect.any(String) }),
		);
		expect(simplified).toEqual(simplifyRecord('account', raw));
		expect(simplified).toEqual(
			expect.objectContaining({ accountId: xaid, currency: 'GBP', status: 'ACTIVE' }),
		);
	});

	it('Transaction Get Many and Get: the fields this bank sends, none filled in', async () => {
		const ledger = sandbox.control.ledger().transactions.slice(0, 13).map(answered);
		const simplified = mainJson(
			await run({
				resource: 'transaction',
				operation: 'getMany',
				scope: 'all',
				returnAll: false,
				limit: 13,
			}),
		);
		expect(simplified).toEqual(
			ledger.map((transaction) => simplifyRecord('transaction', transaction)),
		);
		// spec-minimal: no creation time, and none made up
		for (const transaction of simplified)
			expect('created' in transaction).toBe(sandbox.variants.createdTimes);
		expect(simplified[0]).not.toHaveProperty('updated');

		const known = ledger[0];
		const [raw] = mainJson(
			await run({
				resource: 'transaction',
				operation: 'get',
				transactionId: known.xtid,
				simplify: false,
			}),
		);
		expect(raw).toEqual(known);
		const [one] = mainJson(
			await run({ resource: 'transaction', operation: 'get', transactionId: known.xtid }),
		);
		expect(one).toEqual(simplifyRecord('transaction', known));
	});

	it('an invalid Simplify fails before any request, naming the field', async () => {
		const result = await run({
			resource: 'transaction',
			operation: 'getMany',
			scope: 'all',
			returnAll: true,
			simplify: '={{ "yes" }}',
		});
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(result.error?.message).toBe('Simplify: must be true or false (item 0)');
		expect(result.requests).toEqual([]);
	});

	it('run by an AI agent (the node type ending in Tool): the simplified shape, even where Simplify is off', async () => {
		const xaid = sandbox.seeded.accounts.gbp;
		const tool = await runAsAiTool({
			resource: 'account',
			operation: 'get',
			account: byId(xaid),
			simplify: false,
		});
		expect(tool.type).toMatch(/\.customerBankingTool$/);
		const [raw] = mainJson(
			await run({ resource: 'account', operation: 'get', account: byId(xaid), simplify: false }),
		);
		expect(tool.items).toEqual([simplifyRecord('account', raw)]);
		expect(Object.keys(tool.items[0]).length).toBeLessThanOrEqual(10);
	});
});

describe('Transaction Get Many: Filters', () => {
	const ledgerTransactions = () => sandbox.control.ledger().transactions.map(answered);

	it('Direction with a Limit over several pages: the limit counts matching transactions', async () => {
		if (ledgerTransactions().length < 1000)
			await sandbox.control.seedTransactions(sandbox.seeded.accounts.usd, 1100);
		const incoming = ledgerTransactions().filter(
			(transaction) => transaction.direction === 'incoming',
		);
		// the first page holds outgoing transactions too, so 600 matches take two pages
		expect(
			ledgerTransactions()
				.slice(0, 500)
				.filter((transaction) => transaction.direction === 'outgoing').length,
		).toBeGreaterThan(0);
		sandbox.control.clearRequests();
		const result = await run({
			resource: 'transaction',
			operation: 'getMany',
			scope: 'all',
			returnAll: false,
			limit: 600,
			simplify: false,
			filters: { direction: 'incoming' },
		});
		expect(mainJson(result)).toEqual(incoming.slice(0, 600));
		expect(result.calls).toEqual([
			'GET /transactions?page=0&limit=500',
			'GET /transactions?page=1&limit=500',
		]);

		const outgoing = mainJson(
			await run({
				resource: 'transaction',
				operation: 'getMany',
				scope: 'all',
				returnAll: true,
				filters: { direction: 'outgoing' },
			}),
		);
		const expected = ledgerTransactions().filter(
			(transaction) => transaction.direction === 'outgoing',
		);
		expect(expected.length).toBeGreaterThan(0);
		expect(outgoing.map((transaction) => transaction.transactionId)).toEqual(
			expected.map((transaction) => transaction.xtid),
		);
	});

	it('Status: as the bank writes it, upper or lower case, several separated by commas', async () => {
		const xaid = sandbox.seeded.accounts.gbp;
		const ofAccount = ledgerTransactions().filter((transaction) => transaction.xaid === xaid);
		const settled = mainJson(
			await run({
				resource: 'transaction',
				operation: 'getMany',
				scope: 'account',
				account: byId(xaid),
				returnAll: true,
				filters: { status: ' SETTLED ' },
			}),
		);
		expect(settled.map((t) => t.transactionId)).toEqual(
			ofAccount.filter((t) => t.status === 'settled').map((t) => t.xtid),
		);
		expect(settled.length).toBeGreaterThan(0);
		const none = mainJson(
			await run({
				resource: 'transaction',
				operation: 'getMany',
				scope: 'account',
				account: byId(xaid),
				returnAll: true,
				filters: { status: 'no-such-status' },
			}),
		);
		expect(none).toEqual([]);
		const both = mainJson(
			await run({
				resource: 'transaction',
				operation: 'getMany',
				scope: 'account',
				account: byId(xaid),
				returnAll: true,
				filters: { status: 'sent, settled' },
			}),
		);
		expect(both.map((t) => t.transactionId)).toEqual(
			ofAccount.filter((t) => ['sent', 'settled'].includes(t.status as string)).map((t) => t.xtid),
		);
	});

	it('Created After / Created Before: at or after, and before; a bank without creation times keeps none', async () => {
		const xaid = sandbox.seeded.accounts.cad;
		await sandbox.control.receive(xaid, 10, 'Before the window');
		await sandbox.control.advanceClock(60_000);
		await sandbox.control.receive(xaid, 11, 'In the window 1');
		await sandbox.control.receive(xaid, 12, 'In the window 2');
		await sandbox.control.advanceClock(60_000);
		await sandbox.control.receive(xaid, 13, 'After the window');
		const all = sandbox.control.ledger().transactions.filter((t) => t.xaid === xaid);
		const created = (reference: string) =>
			Date.parse(all.find((t) => t.reference === reference)?.created as string);
		const from = new Date(created('In the window 1')).toISOString();
		const to = new Date(created('After the window') - 1).toISOString();
		const inWindow = all.filter(
			(t) =>
				Date.parse(t.created as string) >= Date.parse(from) &&
				Date.parse(t.created as string) < Date.parse(to),
		);

		const result = await run({
			resource: 'transaction',
			operation: 'getMany',
			scope: 'account',
			account: byId(xaid),
			returnAll: true,
			filters: { createdAfter: from, createdBefore: to },
		});
		const references = mainJson(result).map((t) => t.reference);
		if (sandbox.variants.createdTimes) {
			expect(references).toEqual(['In the window 1', 'In the window 2']);
			expect(references).toEqual(inWindow.map((t) => t.reference));
		} else {
			expect(references).toEqual([]);
		}
		expect(result.calls).toEqual([`GET /account/${xaid}/transactions?page=0&limit=500`]);
	});

	it.each([
		[{ direction: 'sideways' }, 'Filters › Direction: must be one of incoming, outgoing (item 0)'],
		[{ status: ' ' }, 'Filters › Status: enter a status or remove the filter (item 0)'],
		[
			{ createdAfter: 'yesterday' },
			'Filters › Created After: must be a date and time, e.g. 2026-01-31T17:00:00 (item 0)',
		],
		[
			{ createdBefore: '' },
			'Filters › Created Before: must be a date and time, e.g. 2026-01-31T17:00:00 (item 0)',
		],
		[
			{ createdAfter: '2026-02-01T00:00:00Z', createdBefore: '2026-01-01T00:00:00Z' },
			'Filters › Created After: must be earlier than Created Before (item 0)',
		],
	])('invalid filter %j fails before any request, naming the field', async (filters, message) => {
		const result = await run({
			resource: 'transaction',
			operation: 'getMany',
			scope: 'all',
			returnAll: true,
			filters,
		});
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(result.error?.message).toBe(message);
		expect(result.error?.description).toMatch(/Nothing was sent\.$/);
		expect(result.requests).toEqual([]);
	});
});

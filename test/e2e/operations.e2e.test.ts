/**
 * Scenario 2 (both n8n lines): every operation of the action node once, in one real workflow
 * (workflows/operations.json), checked against n8n's execution data and the sandbox's ledger; and
 * Return All over thousands of transactions with the number of page requests the sandbox saw.
 */
import { COMPACT_FIELDS, simplifyRecord } from '../../nodes/CustomerBanking/actions/simplify';
import { selectedVersions } from './lib/config';
import {
	activate,
	createCredential,
	credentialData,
	executionError,
	importWorkflow,
	nodeOutput,
	runWebhookWorkflow,
	type Stack,
	startStack,
} from './lib/stack';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const PAGE_SIZE = 500; // spec §Pagination: largest allowed page for transactions

describe.each(selectedVersions())('n8n %s: action node operations', (version) => {
	let stack: Stack;
	let credentialId: string;
	let accountTransactions: Promise<string> | undefined;

	/** workflows/account-transactions.json, imported and activated once (its webhook path is unique) */
	function accountTransactionsWorkflow(): Promise<string> {
		accountTransactions ??= importWorkflow(stack.n8n, 'account-transactions.json', {
			CREDENTIAL_ID: credentialId,
		}).then(async (workflow) => {
			await activate(stack.n8n, workflow.id);
			return workflow.id;
		});
		return accountTransactions;
	}

	beforeAll(async () => {
		stack = await startStack(version);
		credentialId = (
			await createCredential(stack.n8n, 'Customer Banking sandbox', credentialData(stack.sandbox))
		).id;
	});

	afterAll(async () => {
		await stack?.stop();
	});

	it('runs every operation once, each answer matching the bank', async () => {
		const { n8n, sandbox } = stack;
		const gbp = sandbox.seeded.accounts.gbp;
		const before = sandbox.control.ledger();
		const workflow = await importWorkflow(n8n, 'operations.json', { CREDENTIAL_ID: credentialId });
		await activate(n8n, workflow.id);
		sandbox.control.clearRequests();

		const { status, execution } = await runWebhookWorkflow(n8n, workflow.id, 'e2e-operations', {
			gbp,
			payeeName: 'Northwind Supplies Ltd',
			reference: 'E2E-OPS-0001',
			batchReference: 'E2E-OPS-0002',
		});
		expect(executionError(execution)).toBeUndefined();
		expect(execution.status).toBe('success');
		expect(status).toBe(200);
		const after = sandbox.control.ledger();

		// Account: Get Many / Get / Get Balance
		expect(
			nodeOutput(execution, 'Accounts')
				.map((a) => a.accountId)
				.sort(),
		).toEqual(before.accounts.map((a) => a.xaid).sort());
		expect(nodeOutput(execution, 'Account')).toEqual([
			expect.objectContaining({ accountId: gbp, currency: 'GBP' }),
		]);
		const ledgerGbp = before.accounts.find((a) => a.xaid === gbp);
		expect(nodeOutput(execution, 'Balance')).toEqual([
			expect.objectContaining({
				currency: 'GBP',
				balance: ledgerGbp?.balance,
				availableBalance: ledgerGbp?.availableBalance,
				pendingBalance: ledgerGbp?.pendingBalance,
			}),
		]);

		// Payee: Create / Get / Update / Create or Update (found by look-up; Simplify off there: the
		// bank's record) / Get Many
		const [created] = nodeOutput(execution, 'Create Payee');
		expect(created).toEqual(
			expect.objectContaining({
				payeeId: expect.any(String),
				accountId: gbp,
				currency: 'GBP',
				name: 'Northwind Supplies Ltd',
			}),
		);
		expect(created).not.toHaveProperty('xpid');
		expect(nodeOutput(execution, 'Payee')).toEqual([
			expect.objectContaining({ payeeId: created.payeeId, name: created.name }),
		]);
		expect(nodeOutput(execution, 'Update Payee')).toEqual([
			expect.objectContaining({ payeeId: created.payeeId, displayName: 'Renamed Supplier' }),
		]);
		expect(nodeOutput(execution, 'Upsert Payee')).toEqual([
			expect.objectContaining({
				xpid: created.payeeId,
				xaid: gbp,
				purpose: 'Upserted purpose',
				sortCode: '040004',
			}),
		]);
		const payees = nodeOutput(execution, 'Payees');
		expect(payees.filter((p) => p.payeeId === created.payeeId)).toHaveLength(1);
		expect(payees.every((p) => p.accountId === gbp)).toBe(true);

		// Payment: Submit (no policy: sent) and Submit Batch (≥ 1000: approval)
		const [paid] = nodeOutput(execution, 'Pay');
		expect(paid).toEqual(
			expect.objectContaining({
				status: 'sent',
				payeeId: created.payeeId,
				amount: 12.34,
				reference: 'E2E-OPS-0001',
			}),
		);
		expect(paid.idempotencyKey).toMatch(UUID_V4);
		expect(after.transactions.find((t) => t.xtid === paid.transactionId)).toEqual(
			expect.objectContaining({
				xaid: gbp,
				direction: 'outgoing',
				status: 'sent',
				amount: 12.34,
				reference: 'E2E-OPS-0001',
			}),
		);
		const [batched] = nodeOutput(execution, 'Pay Batch');
		expect(batched).toEqual(
			expect.objectContaining({
				status: 'pending_approval',
				amount: 1500,
				approvalId: expect.any(String),
			}),
		);
		expect(after.approvals.find((a) => a.ref === batched.approvalId)).toEqual(
			expect.objectContaining({ xtid: batched.transactionId, status: 'pending', parent_xaid: gbp }),
		);
		expect(after.transactions.find((t) => t.xtid === batched.transactionId)).toBeUndefined();

		// Transaction: Get / Get Many (limit 3: the first page, oldest first)
		expect(nodeOutput(execution, 'Transaction')).toEqual([
			expect.objectContaining({ transactionId: paid.transactionId, status: 'sent', amount: 12.34 }),
		]);
		const transactions = nodeOutput(execution, 'Transactions');
		expect(transactions.map((t) => t.transactionId)).toEqual(
			after.transactions
				.filter((t) => t.xaid === gbp)
				.slice(0, 3)
				.map((t) => t.xtid),
		);

		// Simplify (on by default) and Filters: the outgoing transactions of the last hour, compact
		const outgoing = after.transactions.filter((t) => t.xaid === gbp && t.direction === 'outgoing');
		expect(outgoing.map((t) => t.xtid)).toContain(paid.transactionId);
		expect(outgoing.length).toBeLessThan(after.transactions.filter((t) => t.xaid === gbp).length);
		expect(nodeOutput(execution, 'Outgoing Transactions')).toEqual(
			outgoing.map((t) => simplifyRecord('transaction', t)),
		);
		expect(nodeOutput(execution, 'Transactions')).toEqual(
			after.transactions
				.filter((t) => t.xaid === gbp)
				.slice(0, 3)
				.map((t) => simplifyRecord('transaction', t)),
		);
		expect(
			Object.keys(nodeOutput(execution, 'Outgoing Transactions')[0]).every((key) =>
				COMPACT_FIELDS.transaction.some((field) => field.key === key),
			),
		).toBe(true);

		// Approval: Get by Payment / Get / Get Many
		expect(nodeOutput(execution, 'Approval of Payment')).toEqual([
			expect.objectContaining({
				approvalId: batched.approvalId,
				transactionId: batched.transactionId,
				accountId: gbp,
			}),
		]);
		expect(nodeOutput(execution, 'Approval')).toEqual([
			expect.objectContaining({ approvalId: batched.approvalId, status: 'pending' }),
		]);
		expect(nodeOutput(execution, 'Approvals').map((a) => a.approvalId)).toEqual(
			after.approvals.map((a) => a.ref),
		);

		// Payment: Get Status, in the words Submit used: one paid at once, one waiting for approval
		expect(nodeOutput(execution, 'Payment Status')).toEqual([
			expect.objectContaining({
				status: 'sent',
				transactionId: paid.transactionId,
				accountId: gbp,
				transactionStatus: 'sent',
			}),
		]);
		expect(nodeOutput(execution, 'Payment Status')[0]).not.toHaveProperty('approvalId');
		expect(nodeOutput(execution, 'Batch Payment Status')).toEqual([
			expect.objectContaining({
				status: 'pending_approval',
				transactionId: batched.transactionId,
				approvalId: batched.approvalId,
			}),
		]);

		// two payments, two requests, two different keys, both sent as the node reported them
		const payments = sandbox.control
			.requests()
			.filter((r) => r.method === 'POST' && r.path === '/payments');
		expect(payments.map((r) => r.status)).toEqual([202, 202]);
		expect(payments.map((r) => r.headers['x-idempotent-key'])).toEqual([
			paid.idempotencyKey,
			batched.idempotencyKey,
		]);
		// one token for the whole execution
		expect(sandbox.control.requests().filter((r) => r.path === '/oauth/token')).toHaveLength(1);
	});

	it.each([
		['not a multiple of the page size', 2437],
		['an exact multiple of the page size', 3000],
	])(
		'Return All reads every transaction of an account (%s) with one request per page',
		async (_, count) => {
			const { n8n, sandbox } = stack;
			const usd = sandbox.seeded.accounts.usd;
			const already = sandbox.control.ledger().transactions.filter((t) => t.xaid === usd).length;
			await sandbox.control.seedTransactions(usd, count - already);
			const expected = sandbox.control.ledger().transactions.filter((t) => t.xaid === usd);
			expect(expected).toHaveLength(count);

			const workflowId = await accountTransactionsWorkflow();
			sandbox.control.clearRequests();
			const { execution } = await runWebhookWorkflow(n8n, workflowId, 'e2e-account-transactions', {
				xaid: usd,
			});
			expect(executionError(execution)).toBeUndefined();

			const items = nodeOutput(execution, 'All Transactions');
			expect(items).toHaveLength(count);
			expect(new Set(items.map((t) => t.transactionId))).toEqual(
				new Set(expected.map((t) => t.xtid)),
			);

			const pages = sandbox.control
				.requests()
				.filter((r) => r.method === 'GET' && r.path === `/account/${usd}/transactions`);
			// the envelope's total ends the paging: no extra request for an empty page, also on an exact multiple
			expect(pages).toHaveLength(Math.ceil(count / PAGE_SIZE));
			expect(pages.map((r) => r.query)).toEqual(
				pages.map((_, page) => ({ page: String(page), limit: String(PAGE_SIZE) })),
			);
			expect(pages.every((r) => r.status === 200)).toBe(true);
		},
	);

	it("a list's records are paired with the item that asked for them: n8n resolves $('Accounts').item through them", async () => {
		const { n8n, sandbox } = stack;
		const accounts = [
			{ xaid: sandbox.seeded.accounts.gbp, tag: 'gbp' },
			{ xaid: sandbox.seeded.accounts.eur, tag: 'eur' },
		];
		for (const { xaid } of accounts) {
			const already = sandbox.control.ledger().transactions.filter((t) => t.xaid === xaid).length;
			if (already < 3) await sandbox.control.seedTransactions(xaid, 3 - already);
		}
		const workflow = await importWorkflow(n8n, 'list-pairing.json', {
			CREDENTIAL_ID: credentialId,
		});
		await activate(n8n, workflow.id);
		const { execution } = await runWebhookWorkflow(n8n, workflow.id, 'e2e-list-pairing', {
			accounts,
		});
		expect(executionError(execution)).toBeUndefined();

		// each input item's records share one pairing object in the node's output (router.ts)
		const listed = execution.data.resultData.runData.Transactions[0].data?.main[0] ?? [];
		expect(listed).toHaveLength(6);
		for (const item of listed as Array<{ json: { accountId: string }; pairedItem?: unknown }>)
			expect(item.pairedItem).toEqual({
				item: accounts.findIndex((account) => account.xaid === item.json.accountId),
			});
		const paired = nodeOutput(execution, 'Paired');
		expect(paired).toHaveLength(6);
		for (const item of paired)
			expect(item.tag).toBe(accounts.find((account) => account.xaid === item.accountId)?.tag);
		expect(new Set(paired.map((item) => item.tag))).toEqual(new Set(['gbp', 'eur']));
	});
});

/**
 * Scenarios 3-5 on the default n8n line: token reuse and refresh across executions, payments that
 * are never made twice when answers are lost (transport resend and n8n's own Retry On Fail), and a
 * payment that waits for approval until the bank's app approves it.
 */
import { BACKOFF } from '../../nodes/shared/transport/retryPolicy';
import { defaultVersion } from './lib/install';
import {
	activate,
	createCredential,
	credentialData,
	type Execution,
	executionError,
	importWorkflow,
	loadWorkflow,
	nodeOutput,
	runWebhookWorkflow,
	type Stack,
	startStack,
} from './lib/stack';

describe(`n8n ${defaultVersion}: tokens, lost answers and approvals`, () => {
	let stack: Stack;
	const workflows: Record<string, string> = {};

	beforeAll(async () => {
		stack = await startStack(defaultVersion);
		const { id } = await createCredential(
			stack.n8n,
			'Customer Banking sandbox',
			credentialData(stack.sandbox),
		);
		for (const file of ['balance.json', 'pay.json', 'pay-loop.json', 'account-transactions.json']) {
			const workflow = await importWorkflow(stack.n8n, file, { CREDENTIAL_ID: id });
			await activate(stack.n8n, workflow.id);
			workflows[file] = workflow.id;
		}
		// pay.json with Skip Payments Already Made off, at its own path: for the test that needs the
		// look-up to fail while the keys alone decide (with the switch on, the same failing reads stop
		// the payment before it is sent)
		const keysOnly = loadWorkflow('pay.json', { CREDENTIAL_ID: id });
		for (const node of keysOnly.nodes as Array<Record<string, unknown>>) {
			const parameters = node.parameters as Record<string, unknown>;
			if (node.name === 'Pay') parameters.skipAlreadyMade = false;
			if (parameters.path === 'e2e-pay') {
				parameters.path = 'e2e-pay-keys';
				node.webhookId = 'e2e00000-0000-4000-8000-000000000911';
			}
		}
		const created = await stack.n8n.apiOk<{ id: string }>('POST', '/workflows', keysOnly);
		await activate(stack.n8n, String(created.id));
		workflows['pay.json keys only'] = String(created.id);
	});

	afterAll(async () => {
		await stack?.stop();
	});

	afterEach(() => {
		stack?.sandbox.control.clearFaults();
	});

	async function run(
		file: string,
		path: string,
		body: Record<string, unknown>,
	): Promise<Execution> {
		const { execution } = await runWebhookWorkflow(stack.n8n, workflows[file], path, body);
		return execution;
	}

	const balance = () =>
		run('balance.json', 'e2e-balance', { xaid: stack.sandbox.seeded.accounts.gbp });
	const pay = (amount: number, reference: string) =>
		run('pay.json', 'e2e-pay', {
			xaid: stack.sandbox.seeded.accounts.gbp,
			xpid: stack.sandbox.seeded.payees.gbp,
			amount,
			reference,
		});
	const payKeysOnly = (amount: number, reference: string) =>
		run('pay.json keys only', 'e2e-pay-keys', {
			xaid: stack.sandbox.seeded.accounts.gbp,
			xpid: stack.sandbox.seeded.payees.gbp,
			amount,
			reference,
		});
	const seen = () =>
		stack.sandbox.control.requests().map((r) => `${r.method} ${r.route ?? r.path} ${r.status}`);

	describe('scenario 3: one token for many executions, one refresh after revocation', () => {
		it('shares one token across executions', async () => {
			stack.sandbox.control.clearRequests();
			for (let i = 0; i < 5; i++) {
				const execution = await balance();
				expect(executionError(execution)).toBeUndefined();
				expect(nodeOutput(execution, 'Balance')).toEqual([
					expect.objectContaining({ currency: 'GBP' }),
				]);
			}
			expect(seen()).toEqual([
				'POST /oauth/token 200',
				...Array(5).fill('GET /account/{xaid}/balance 200'),
			]);
		});

		it('after the bank revokes tokens: one 401, one refresh, one retry, and the execution succeeds', async () => {
			stack.sandbox.control.revokeTokens();
			stack.sandbox.control.clearRequests();
			const execution = await balance();
			expect(executionError(execution)).toBeUndefined();
			expect(execution.status).toBe('success');
			expect(seen()).toEqual([
				'GET /account/{xaid}/balance 401',
				'POST /oauth/token 200',
				'GET /account/{xaid}/balance 200',
			]);

			// the new token was stored: the next execution needs no exchange
			stack.sandbox.control.clearRequests();
			expect(executionError(await balance())).toBeUndefined();
			expect(seen()).toEqual(['GET /account/{xaid}/balance 200']);
		});
	});

	describe('scenario 4: lost answers never pay twice', () => {
		function assertPaidOnce(execution: Execution, reference: string) {
			expect(executionError(execution)).toBeUndefined();
			expect(execution.status).toBe('success');
			const [paid] = nodeOutput(execution, 'Pay');
			expect(paid).toEqual(
				expect.objectContaining({
					status: 'sent',
					reference,
					transactionId: expect.any(String),
				}),
			);

			const ledger = stack.sandbox.control.ledger();
			const transactions = ledger.transactions.filter((t) => t.reference === reference);
			expect(transactions).toEqual([
				expect.objectContaining({ xtid: paid.transactionId, direction: 'outgoing', amount: 42.5 }),
			]);
			expect(
				ledger.paymentRequests.filter((r) => JSON.stringify(r).includes(reference)),
			).toHaveLength(1);

			const posts = stack.sandbox.control
				.requests()
				.filter((r) => r.method === 'POST' && r.path === '/payments');
			// every attempt, across transport resends and Retry On Fail tries, carried the same key and body
			expect(new Set(posts.map((r) => r.headers['x-idempotent-key']))).toEqual(
				new Set([paid.idempotencyKey]),
			);
			expect(new Set(posts.map((r) => JSON.stringify(r.body))).size).toBe(1);
			return posts;
		}

		it('the transport resends a payment whose answer was lost, with the same key: one payment', async () => {
			stack.sandbox.control.clearRequests();
			stack.sandbox.control.setFaults([
				{ method: 'POST', path: '/payments', kind: 'commitThenDrop', times: 1 },
			]);
			const execution = await pay(42.5, 'E2E-DROP-0001');
			const posts = assertPaidOnce(execution, 'E2E-DROP-0001');
			expect(posts.map((r) => r.status)).toEqual([0, 202]);
		});

		it('Retry On Fail re-runs the node in the same execution with the same key: one payment', async () => {
			stack.sandbox.control.clearRequests();
			stack.sandbox.control.setFaults([
				// every transport attempt of the first try is committed, then its answer is lost …
				{ method: 'POST', path: '/payments', kind: 'commitThenDrop', times: BACKOFF.maxAttempts },
				// … and the look-up that would find it fails too, so the node fails and n8n retries it
				{
					method: 'GET',
					path: /^\/account\/[^/]+\/(approvals|transactions)$/,
					kind: 'status',
					status: 403,
				},
			]);
			const execution = await payKeysOnly(42.5, 'E2E-RETRY-0001');
			const posts = assertPaidOnce(execution, 'E2E-RETRY-0001');
			// first try: every attempt's answer dropped; second try (Retry On Fail): the stored answer is replayed
			expect(posts.map((r) => r.status)).toEqual([...Array(BACKOFF.maxAttempts).fill(0), 202]);
			const lookups = stack.sandbox.control
				.requests()
				.filter((r) => r.method === 'GET' && r.status === 403);
			expect(lookups.length).toBeGreaterThan(0);
		});
	});

	describe('a loop runs the payment node once per pass', () => {
		it("each pass gets its own key from n8n's run index: every payment is made once", async () => {
			const { sandbox } = stack;
			const references = ['E2E-LOOP-0001', 'E2E-LOOP-0002', 'E2E-LOOP-0003'];
			const payments = references.map((reference, i) => ({
				xaid: sandbox.seeded.accounts.gbp,
				xpid: sandbox.seeded.payees.gbp,
				amount: 10 + i,
				reference,
			}));
			sandbox.control.clearRequests();
			const execution = await run('pay-loop.json', 'e2e-pay-loop', { payments });
			expect(executionError(execution)).toBeUndefined();
			expect(execution.data.resultData.runData.Pay).toHaveLength(references.length);

			const posts = sandbox.control
				.requests()
				.filter((r) => r.method === 'POST' && r.path === '/payments');
			expect(posts.map((r) => r.status)).toEqual(references.map(() => 202));
			expect(new Set(posts.map((r) => r.headers['x-idempotent-key'])).size).toBe(references.length);
			const paid = sandbox.control
				.ledger()
				.transactions.filter((t) => references.includes(String(t.reference)));
			expect(paid.map((t) => [t.reference, t.amount]).sort()).toEqual(
				payments.map((p) => [p.reference, p.amount]),
			);
		});
	});

	describe('scenario 5: a payment covered by the approval policy', () => {
		it('waits for approval, then appears among the account transactions', async () => {
			const { sandbox } = stack;
			const gbp = sandbox.seeded.accounts.gbp;
			const execution = await pay(1500, 'E2E-APPROVE-01');
			expect(executionError(execution)).toBeUndefined();
			const [pending] = nodeOutput(execution, 'Pay');
			expect(pending).toEqual(
				expect.objectContaining({
					status: 'pending_approval',
					amount: 1500,
					approvalId: expect.any(String),
					transactionId: expect.any(String),
				}),
			);

			const before = sandbox.control.ledger();
			expect(before.approvals.find((a) => a.ref === pending.approvalId)).toEqual(
				expect.objectContaining({ status: 'pending', xtid: pending.transactionId }),
			);
			expect(before.transactions.find((t) => t.xtid === pending.transactionId)).toBeUndefined();

			await sandbox.control.approve(String(pending.approvalId));

			const listed = await run('account-transactions.json', 'e2e-account-transactions', {
				xaid: gbp,
			});
			expect(executionError(listed)).toBeUndefined();
			const transaction = nodeOutput(listed, 'All Transactions').find(
				(t) => t.transactionId === pending.transactionId,
			);
			expect(transaction).toEqual(
				expect.objectContaining({
					status: 'sent',
					amount: 1500,
					reference: 'E2E-APPROVE-01',
					direction: 'outgoing',
				}),
			);
			expect(
				sandbox.control.ledger().approvals.find((a) => a.ref === pending.approvalId)?.status,
			).toBe('approved');
		});
	});
});

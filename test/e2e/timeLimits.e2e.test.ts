/**
 * Time limits in a real n8n (both lines): a bank that accepts the connection and never answers ends
 * an execution with a message naming the time waited, instead of "Executing node…" until the bank
 * comes back; a payment the bank made without answering is paid once, through Retry On Fail and a
 * second execution.
 */
import { selectedVersions } from './lib/config';
import {
	activate,
	createCredential,
	credentialData,
	type Execution,
	executionError,
	importWorkflow,
	nodeOutput,
	runWebhookWorkflow,
	type Stack,
	startStack,
} from './lib/stack';

const LIMIT_SECONDS = 5;

describe.each(selectedVersions())('n8n %s: a bank that never answers', (version) => {
	let stack: Stack;
	const workflows: Record<string, string> = {};

	beforeAll(async () => {
		stack = await startStack(version);
		const { id } = await createCredential(stack.n8n, 'Customer Banking sandbox', {
			...credentialData(stack.sandbox),
			requestTimeLimit: LIMIT_SECONDS as unknown as string,
		});
		for (const file of ['balance.json', 'pay.json']) {
			const workflow = await importWorkflow(stack.n8n, file, { CREDENTIAL_ID: id });
			await activate(stack.n8n, workflow.id);
			workflows[file] = workflow.id;
		}
		// the token first, so that a loaded machine's slow token exchange is not what runs out of time
		const warm = await run('balance.json', 'e2e-balance', {
			xaid: stack.sandbox.seeded.accounts.gbp,
		});
		expect(executionError(warm)).toBeUndefined();
	});

	afterAll(async () => {
		await stack?.stop();
	});

	afterEach(() => stack?.sandbox.control.clearFaults());

	async function run(file: string, path: string, body: Record<string, unknown>) {
		const { execution } = await runWebhookWorkflow(stack.n8n, workflows[file], path, body);
		return execution;
	}

	const sent = (reference: string) =>
		stack.sandbox.control
			.ledger()
			.transactions.filter((t) => t.reference === reference && t.direction === 'outgoing');

	it('a read ends with "no answer within" the limit after its attempts', async () => {
		stack.sandbox.control.setFaults([
			{ method: 'GET', path: '/account/{xaid}/balance', kind: 'hang' },
		]);
		const started = Date.now();
		const execution: Execution = await run('balance.json', 'e2e-balance', {
			xaid: stack.sandbox.seeded.accounts.gbp,
		});
		expect(execution.status).toBe('error');
		expect(executionError(execution)).toContain(
			`no answer within ${LIMIT_SECONDS} s after 5 attempts`,
		);
		// five silent attempts and the backoff between them (1 + 2 + 4 + 4 s), not n8n's 300 s default
		expect(Date.now() - started).toBeLessThan(5 * LIMIT_SECONDS * 1000 + 11_000 + 20_000);
	}, 120_000);

	it('a payment the bank made without answering is paid once: Retry On Fail, then another execution', async () => {
		const reference = `HANG-${version.replace(/\D/g, '').slice(0, 6)}`;
		stack.sandbox.control.setFaults([
			{ method: 'POST', path: '/payments', kind: 'commitThenHang' },
		]);
		const body = {
			xaid: stack.sandbox.seeded.accounts.gbp,
			xpid: stack.sandbox.seeded.payees.gbp,
			amount: 33.1,
			reference,
		};
		const first = await run('pay.json', 'e2e-pay', body);
		expect(first.status).toBe('error');
		expect(executionError(first)).toMatch(/not resubmitted/);
		expect(sent(reference)).toHaveLength(1);

		stack.sandbox.control.clearFaults();
		const second = await run('pay.json', 'e2e-pay', body);
		expect(executionError(second)).toBeUndefined();
		expect(nodeOutput(second, 'Pay')).toEqual([
			expect.objectContaining({ status: 'already_made', transactionId: sent(reference)[0].xtid }),
		]);
		expect(sent(reference)).toHaveLength(1);
	}, 300_000);
});

/**
 * Issue 20 in a real n8n (both lines): the Approval Trigger with a bank that keeps a transaction record
 * of each held payment (PENDING_APPROVAL, then DECLINED or EXPIRED; approved → the sent transaction).
 * Approve, decline, expire → one execution each with the right decision, never "approved" for the
 * others; approvals requested and decided between two polls → one execution each. Each poll is an
 * activation (n8n polls when it activates), which also reloads the node's state from the database.
 */
import { selectedVersions } from './lib/config';
import {
	activate,
	createCredential,
	credentialData,
	deactivate,
	type Execution,
	executionError,
	executionIds,
	getExecution,
	importWorkflow,
	nodeOutput,
	runWebhookWorkflow,
	sleep,
	type Stack,
	startStack,
	waitFor,
} from './lib/stack';

const TRIGGER = 'Customer Banking Approval Trigger';

describe.each(selectedVersions())('n8n %s: Approval Trigger with a bank that keeps records of held payments', (version) => {
	let stack: Stack;
	let payWorkflowId: string;
	let triggerWorkflowId: string;
	let seen: string[] = [];

	beforeAll(async () => {
		stack = await startStack(version, { variants: { heldPaymentRecords: true } });
		const { id } = await createCredential(stack.n8n, 'Customer Banking sandbox', credentialData(stack.sandbox));
		payWorkflowId = (await importWorkflow(stack.n8n, 'pay.json', { CREDENTIAL_ID: id })).id;
		await activate(stack.n8n, payWorkflowId);
		triggerWorkflowId = (await importWorkflow(stack.n8n, 'approval-trigger.json', { CREDENTIAL_ID: id })).id;
	});

	afterAll(async () => {
		await stack?.stop();
	});

	/** One poll: n8n polls when it activates the workflow. Returns the executions it started. */
	async function poll(): Promise<Execution[]> {
		await activate(stack.n8n, triggerWorkflowId);
		// n8n 2.x may finish activating after the API call answered; give the poll time to start its execution
		await sleep(3000);
		const fresh = await waitFor('executions to finish', async () => {
			const ids = (await executionIds(stack.n8n, triggerWorkflowId)).filter((id) => !seen.includes(id));
			const executions = await Promise.all(ids.map((id) => getExecution(stack.n8n, id)));
			return executions.some((e) => ['new', 'running', 'waiting'].includes(e.status)) ? undefined : executions;
		});
		seen = [...seen, ...fresh.map((e) => e.id)];
		await deactivate(stack.n8n, triggerWorkflowId);
		return fresh;
	}

	const events = (executions: Execution[]) =>
		executions.flatMap((execution) => {
			expect(executionError(execution)).toBeUndefined();
			return nodeOutput(execution, TRIGGER);
		});

	async function payNeedingApproval(reference: string): Promise<{ ref: string; xtid: string }> {
		const { sandbox } = stack;
		const paid = await runWebhookWorkflow(stack.n8n, payWorkflowId, 'e2e-pay', { xaid: sandbox.seeded.accounts.gbp, xpid: sandbox.seeded.payees.gbp, amount: 1500, reference });
		expect(executionError(paid.execution)).toBeUndefined();
		const [result] = nodeOutput(paid.execution, 'Pay');
		expect(result).toMatchObject({ status: 'pending_approval', approvalRef: expect.any(String) });
		// the bank shows the held payment as a transaction record
		expect(stack.sandbox.control.ledger().transactions).toContainEqual(expect.objectContaining({ xtid: result.xtid, status: 'PENDING_APPROVAL' }));
		return { ref: String(result.approvalRef), xtid: String(result.xtid) };
	}

	it('the first poll takes a baseline and emits nothing', async () => {
		const old = await payNeedingApproval('E2E-HELD-OLD');
		await stack.sandbox.control.decline(old.ref);
		expect(events(await poll())).toEqual([]);
	});

	it('approve, decline, expire → one execution each with the right decision; more polls emit nothing', async () => {
		const { sandbox } = stack;
		const approved = await payNeedingApproval('E2E-HELD-1');
		const declined = await payNeedingApproval('E2E-HELD-2');
		const expired = await payNeedingApproval('E2E-HELD-3');
		expect(events(await poll()).map((event) => [event.event, event.ref])).toEqual([
			['approvalRequested', approved.ref],
			['approvalRequested', declined.ref],
			['approvalRequested', expired.ref],
		]);

		await sandbox.control.decline(declined.ref);
		const afterDecline = await poll();
		expect(afterDecline).toHaveLength(1);
		expect(events(afterDecline)).toEqual([
			expect.objectContaining({ event: 'approvalDecided', decision: 'declined', ref: declined.ref, transactionStatus: 'DECLINED' }),
		]);
		await sandbox.control.expire(expired.ref);
		expect(events(await poll())).toEqual([
			expect.objectContaining({ event: 'approvalDecided', decision: 'expired', ref: expired.ref, transactionStatus: 'EXPIRED' }),
		]);
		await sandbox.control.approve(approved.ref);
		expect(events(await poll())).toEqual([
			expect.objectContaining({ event: 'approvalDecided', decision: 'approved', ref: approved.ref, transactionStatus: 'sent', transaction: expect.objectContaining({ xtid: approved.xtid }) }),
		]);
		for (let i = 0; i < 3; i++) expect(await poll()).toEqual([]);
	});

	it('approvals requested and decided between two polls → one execution each, the right decision', async () => {
		const { sandbox } = stack;
		const declined = await payNeedingApproval('E2E-HELD-4');
		const approved = await payNeedingApproval('E2E-HELD-5');
		await sandbox.control.decline(declined.ref);
		await sandbox.control.approve(approved.ref);
		const decided = await poll();
		expect(decided).toHaveLength(1);
		expect(events(decided).map((event) => [event.event, event.ref, event.decision])).toEqual([
			['approvalDecided', declined.ref, 'declined'],
			['approvalDecided', approved.ref, 'approved'],
		]);
		for (let i = 0; i < 2; i++) expect(await poll()).toEqual([]);
	});
});

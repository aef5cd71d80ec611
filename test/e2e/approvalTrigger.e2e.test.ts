/**
 * Issue 13 in a real n8n (both lines): the Customer Banking Approval Trigger in an active workflow. A
 * payment of 1,500 submitted through the action node starts exactly one "requested" execution; the bank
 * approving, declining or expiring it starts exactly one "decided" execution each; ten further polls
 * emit nothing. n8n polls at every activation, so each poll here is a deactivation and an activation,
 * which also reloads the node's state from the database as a restart would.
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

describe.each(selectedVersions())('n8n %s: Customer Banking Approval Trigger', (version) => {
	let stack: Stack;
	let payWorkflowId: string;
	let triggerWorkflowId: string;
	let seen: string[] = [];

	beforeAll(async () => {
		stack = await startStack(version);
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
		return { ref: String(result.approvalRef), xtid: String(result.xtid) };
	}

	it('the first poll takes a baseline and emits nothing', async () => {
		await payNeedingApproval('E2E-APPR-OLD');
		expect(events(await poll())).toEqual([]);
	});

	it('a payment of 1,500 → one "requested" execution; approve, decline, expire → one "decided" execution each; ten more polls emit nothing', async () => {
		const { sandbox } = stack;
		const approved = await payNeedingApproval('E2E-APPR-1');
		const declined = await payNeedingApproval('E2E-APPR-2');
		const expired = await payNeedingApproval('E2E-APPR-3');
		const requested = await poll();
		expect(requested).toHaveLength(1);
		expect(events(requested).map((event) => [event.event, event.ref])).toEqual([
			['approvalRequested', approved.ref],
			['approvalRequested', declined.ref],
			['approvalRequested', expired.ref],
		]);

		await sandbox.control.approve(approved.ref);
		const afterApproval = events(await poll());
		expect(afterApproval).toEqual([
			expect.objectContaining({ event: 'approvalDecided', decision: 'approved', ref: approved.ref, xtid: approved.xtid, transaction: expect.objectContaining({ xtid: approved.xtid }) }),
		]);

		await sandbox.control.decline(declined.ref);
		expect(events(await poll())).toEqual([expect.objectContaining({ event: 'approvalDecided', decision: 'declined', ref: declined.ref })]);
		await sandbox.control.expire(expired.ref);
		expect(events(await poll())).toEqual([expect.objectContaining({ event: 'approvalDecided', decision: 'expired', ref: expired.ref })]);

		for (let i = 0; i < 10; i++) expect(await poll()).toEqual([]);
	});
});

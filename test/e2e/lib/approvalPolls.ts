/**
 * The real-n8n approval suites' harness: a stack with the pay workflow active and the approval trigger
 * workflow imported, one poll per activation (n8n polls when it activates, and reloads the node's state
 * from the database as a restart would), and a payment that needs approval.
 */
import type { SandboxOptions } from '../../sandbox';
import {
	activate,
	createSandboxCredential,
	deactivate,
	type Execution,
	executionError,
	executionIds,
	getExecution,
	importWorkflow,
	isFinished,
	nodeOutput,
	runWebhookWorkflow,
	sleep,
	type Stack,
	startStack,
	waitFor,
} from './stack';

export const TRIGGER = 'Customer Banking Approval Trigger';

export interface ApprovalStack {
	stack: Stack;
	/** One poll: activates the trigger workflow, waits for the executions it started, deactivates it. */
	poll(): Promise<Execution[]>;
	/** Submits a payment of 1,500 (the seeded policy holds it for approval); its approval's ref and xtid. */
	payNeedingApproval(reference: string): Promise<{ ref: string; xtid: string }>;
}

export async function startApprovalStack(
	version: string,
	options: Partial<SandboxOptions> = {},
): Promise<ApprovalStack> {
	const stack = await startStack(version, options);
	const { id } = await createSandboxCredential(stack.n8n, stack.sandbox);
	const payWorkflowId = (await importWorkflow(stack.n8n, 'pay.json', { CREDENTIAL_ID: id })).id;
	await activate(stack.n8n, payWorkflowId);
	const triggerWorkflowId = (
		await importWorkflow(stack.n8n, 'approval-trigger.json', { CREDENTIAL_ID: id })
	).id;
	let seen: string[] = [];

	async function poll(): Promise<Execution[]> {
		await activate(stack.n8n, triggerWorkflowId);
		// n8n 2.x may finish activating after the API call answered; give the poll time to start its execution
		await sleep(3000);
		const fresh = await waitFor('executions to finish', async () => {
			const ids = (await executionIds(stack.n8n, triggerWorkflowId)).filter(
				(executionId) => !seen.includes(executionId),
			);
			const executions = await Promise.all(
				ids.map((executionId) => getExecution(stack.n8n, executionId)),
			);
			return executions.every(isFinished) ? executions : undefined;
		});
		seen = [...seen, ...fresh.map((e) => e.id)];
		await deactivate(stack.n8n, triggerWorkflowId);
		return fresh;
	}

	async function payNeedingApproval(reference: string): Promise<{ ref: string; xtid: string }> {
		const { sandbox } = stack;
		const paid = await runWebhookWorkflow(stack.n8n, payWorkflowId, 'e2e-pay', {
			xaid: sandbox.seeded.accounts.gbp,
			xpid: sandbox.seeded.payees.gbp,
			amount: 1500,
			reference,
		});
		if (executionError(paid.execution) !== undefined)
			throw new Error(`paying ${reference} failed: ${String(executionError(paid.execution))}`);
		const [result] = nodeOutput(paid.execution, 'Pay');
		if (result?.status !== 'pending_approval' || typeof result.approvalId !== 'string') {
			throw new Error(`paying ${reference} did not ask for approval: ${JSON.stringify(result)}`);
		}
		return { ref: result.approvalId, xtid: String(result.transactionId) };
	}

	return { stack, poll, payNeedingApproval };
}

/** What the trigger emitted in these executions, none of which may have failed. */
export function emittedEvents(executions: Execution[]) {
	return executions.flatMap((execution) => {
		const error = executionError(execution);
		if (error !== undefined)
			throw new Error(`an approval trigger execution failed: ${String(error)}`);
		return nodeOutput(execution, TRIGGER);
	});
}

/**
 * n8n's Retry in a real n8n (both lines): a workflow whose payment node fails mid-way (the bank stops
 * answering) is retried with n8n's own Retry (the REST call the editor's Retry buttons make), with the
 * original and with the current workflow: every invoice is paid exactly once. The same after the saved
 * workflow was edited before the Retry (Batch Size changed, Submit Batch switched to Submit), retried
 * with the workflow as saved: each payment made once, each output's transaction the ledger's. And a
 * Submit Batch with custom keys, run again with the invoices in another order and one added, pays
 * nothing twice.
 */
import type { FaultRule } from '../sandbox/faults';
import { selectedVersions } from './lib/config';
import {
	createCredential,
	credentialData,
	executionError,
	executionIds,
	getExecution,
	type Execution,
	activate,
	loadWorkflow,
	nodeOutput,
	type Stack,
	startStack,
	waitFor,
	waitForNewExecution,
} from './lib/stack';

interface Variant {
	operation: 'submit' | 'submitBatch';
	customKeys: boolean;
	batchSize?: number;
	/** Skip Payments Already Made; on when absent, as in a new node. */
	skipAlreadyMade?: boolean;
}

interface SavedWorkflow {
	name: string;
	nodes: Array<{ name: string; parameters: Record<string, unknown> }>;
	connections: unknown;
	settings: unknown;
}

describe.each(selectedVersions())(
	"n8n %s: n8n's Retry of a failed payment execution",
	(version) => {
		let stack: Stack;
		let credentialId: string;
		let counter = 0;

		beforeAll(async () => {
			stack = await startStack(version);
			credentialId = (
				await createCredential(stack.n8n, 'Customer Banking sandbox', credentialData(stack.sandbox))
			).id;
		});

		afterAll(async () => {
			await stack?.stop();
		});

		afterEach(() => stack?.sandbox.control.clearFaults());

		async function importPayMany(variant: Variant): Promise<{ id: string; path: string }> {
			const path = `e2e-pay-many-${++counter}`;
			const workflow = loadWorkflow('pay-many.json', {
				OPERATION: variant.operation,
				PATH: path,
				WEBHOOK_ID: `e2e00000-0000-4000-8000-${String(900 + counter).padStart(12, '0')}`,
				CREDENTIAL_ID: credentialId,
				CUSTOM_KEY: '={{ $json.invoice }}',
			});
			const pay = (
				workflow.nodes as Array<{ name: string; parameters: Record<string, unknown> }>
			).find((node) => node.name === 'Pay');
			if (!pay) throw new Error('pay-many.json has no Pay node');
			if (!variant.customKeys) pay.parameters.options = {};
			if (variant.operation === 'submitBatch') pay.parameters.batchSize = variant.batchSize ?? 5;
			if (variant.skipAlreadyMade === false) pay.parameters.skipAlreadyMade = false;
			const created = await stack.n8n.apiOk<{ id: string }>('POST', '/workflows', workflow);
			await activate(stack.n8n, String(created.id));
			return { id: String(created.id), path };
		}

		function invoices(tag: string, count: number) {
			const { gbp } = stack.sandbox.seeded.accounts;
			return Array.from({ length: count }, (_, index) => ({
				invoice: `${tag}-invoice-${index}`,
				xaid: gbp,
				xpid: stack.sandbox.seeded.payees.gbp,
				amount: 20 + index,
				reference: `INV-${tag}-${index}`,
			}));
		}

		async function start(
			workflow: { id: string; path: string },
			body: unknown,
		): Promise<Execution> {
			const before = await executionIds(stack.n8n, workflow.id);
			const answer = await waitFor(`webhook ${workflow.path}`, async () => {
				const result = await stack.n8n.http('POST', `/webhook/${workflow.path}`, { body });
				return result.status === 404 ? undefined : result;
			});
			expect(answer.status).toBe(200);
			return await waitForNewExecution(stack.n8n, workflow.id, before, 120_000);
		}

		async function retry(
			workflowId: string,
			executionId: string,
			loadWorkflowToo: boolean,
		): Promise<Execution> {
			const before = await executionIds(stack.n8n, workflowId);
			await stack.n8n.restOk('POST', `/executions/${executionId}/retry`, {
				loadWorkflow: loadWorkflowToo,
			});
			return await waitForNewExecution(stack.n8n, workflowId, before, 120_000);
		}

		const timesPaid = (items: Array<{ reference: string }>) =>
			items.map(
				(item) =>
					stack.sandbox.control
						.ledger()
						.transactions.filter(
							(t) => t.reference === item.reference && t.direction === 'outgoing',
						).length,
			);

		describe.each<[string, Variant]>([
			['Submit', { operation: 'submit', customKeys: false }],
			['Submit Batch', { operation: 'submitBatch', customKeys: false }],
			['Submit Batch with custom keys', { operation: 'submitBatch', customKeys: true }],
		])('%s', (_name, variant) => {
			it.each([false, true])(
				"fails after 10 of 20 payments; n8n's Retry (loadWorkflow: %s) pays each invoice exactly once",
				async (loadWorkflowToo) => {
					const workflow = await importPayMany(variant);
					const items = invoices(`R${++counter}${loadWorkflowToo ? 'C' : 'O'}`, 20);
					const paidBeforeFailure =
						variant.operation === 'submitBatch' && !variant.customKeys ? 2 : 10;
					stack.sandbox.control.setFaults([
						{
							method: 'POST',
							path: '/payments',
							kind: 'status',
							status: 429,
							retryAfterSeconds: 0,
							after: paidBeforeFailure,
						},
					]);
					const failed = await start(workflow, { invoices: items });
					expect(failed.status).toBe('error');
					expect(executionError(failed)).toMatch(/Payment state unknown — not resubmitted/);
					expect(timesPaid(items).filter((n) => n === 1)).toHaveLength(10);

					stack.sandbox.control.clearFaults();
					const retried = await retry(workflow.id, failed.id, loadWorkflowToo);
					expect(retried.status).toBe('success');
					expect(timesPaid(items)).toEqual(items.map(() => 1));
					const outputs = nodeOutput(retried, 'Pay');
					expect(outputs).toHaveLength(20);
					for (const output of outputs) {
						const [made] = stack.sandbox.control
							.ledger()
							.transactions.filter((t) => t.reference === output.reference);
						expect(output.transactionId).toBe(made.xtid);
					}
					// the retry really is a new execution of n8n's, in retry mode
					const full = await getExecution(stack.n8n, retried.id);
					expect(full.mode).toBe('retry');
				},
			);
		});

		const failures: Array<[string, FaultRule[], number]> = [
			// the second batch is refused as rate limited until the node gives up
			[
				'is rate limited',
				[
					{
						method: 'POST',
						path: '/payments',
						kind: 'status',
						status: 429,
						retryAfterSeconds: 0,
						after: 1,
					},
				],
				10,
			],
			// the second batch is made, but its answer never comes; nothing later gets through
			[
				'times out',
				[
					{
						method: 'POST',
						path: '/payments',
						kind: 'commitThenDrop',
						after: 1,
						times: 1,
						latencyMs: 300,
					},
					// each rule counts the requests it sees: the first batch passes here too
					{ method: 'POST', path: '/payments', kind: 'reset', after: 1 },
				],
				20,
			],
		];
		const edits: Array<[string, (pay: { parameters: Record<string, unknown> }) => void]> = [
			['Batch Size changed from 10 to 4', (pay) => (pay.parameters.batchSize = 4)],
			[
				'Submit Batch switched to Submit',
				(pay) => {
					pay.parameters.operation = 'submit';
					delete pay.parameters.batchSize;
				},
			],
		];
		const retryCases = failures.flatMap(([failure, faults, paid]) =>
			edits.map(([edit, change]) => [failure, edit, faults, paid, change] as const),
		);

		describe.each(retryCases)(
			"the second batch of a Submit Batch %s; %s in the saved workflow; n8n's Retry with the currently saved workflow",
			(_failure, _edit, faults, paidBeforeRetry, edit) => {
				it('pays each invoice exactly once, and every output names the transaction the ledger holds for it', async () => {
					const workflow = await importPayMany({
						operation: 'submitBatch',
						customKeys: false,
						batchSize: 10,
					});
					const items = invoices(`E${++counter}`, 30);
					stack.sandbox.control.setFaults(faults);
					const failed = await start(workflow, { invoices: items });
					expect(failed.status).toBe('error');
					expect(timesPaid(items)).toEqual(
						items.map((_, index) => (index < paidBeforeRetry ? 1 : 0)),
					);
					// the failed batch may have been paid (it was, when it timed out): never reported as not sent
					expect(executionError(failed)).toMatch(/Payment state unknown/);
					expect(executionError(failed)).not.toMatch(/The payment was not sent|nothing was paid/i);
					stack.sandbox.control.clearFaults();

					const saved = await stack.n8n.apiOk<SavedWorkflow>('GET', `/workflows/${workflow.id}`);
					const payNode = saved.nodes.find((node) => node.name === 'Pay');
					if (!payNode) throw new Error('the saved workflow has no Pay node');
					edit(payNode);
					await stack.n8n.apiOk('PUT', `/workflows/${workflow.id}`, {
						name: saved.name,
						nodes: saved.nodes,
						connections: saved.connections,
						settings: saved.settings,
					});
					const retried = await retry(workflow.id, failed.id, true);
					expect(executionError(retried)).toBeUndefined();
					expect(retried.status).toBe('success');
					// the Retry ran the workflow as saved (the execution keeps the workflow it ran: GET /rest/executions/:id)
					const ran = await stack.n8n.restOk<{ data: { workflowData: SavedWorkflow } }>(
						'GET',
						`/executions/${retried.id}`,
					);
					const ranPay = ran.data.workflowData.nodes.find((node) => node.name === 'Pay');
					expect({
						operation: ranPay?.parameters.operation,
						batchSize: ranPay?.parameters.batchSize,
					}).toEqual({
						operation: payNode.parameters.operation,
						batchSize: payNode.parameters.batchSize,
					});

					expect(timesPaid(items)).toEqual(items.map(() => 1));
					const outputs = nodeOutput(retried, 'Pay');
					expect(outputs.map((output) => output.reference)).toEqual(
						items.map((item) => item.reference),
					);
					for (const output of outputs) {
						const [made] = stack.sandbox.control
							.ledger()
							.transactions.filter(
								(t) => t.reference === output.reference && t.direction === 'outgoing',
							);
						expect({ reference: output.reference, xtid: output.transactionId }).toEqual({
							reference: output.reference,
							xtid: made.xtid,
						});
						expect(['sent', 'replayed', 'found_after_error', 'accepted']).toContain(output.status);
					}
					expect((await getExecution(stack.n8n, retried.id)).mode).toBe('retry');
				});
			},
		);

		it.each<[string, Variant, Record<string, number>]>([
			[
				'custom keys alone (Skip Payments Already Made off): the bank answers the 20 keys with their payments',
				{ operation: 'submitBatch', customKeys: true, skipAlreadyMade: false },
				{ sent: 21 },
			],
			[
				'Skip Payments Already Made: the 20 are left out before sending',
				{ operation: 'submitBatch', customKeys: false },
				{ already_made: 20, sent: 1 },
			],
		])(
			'Submit Batch run again with the invoices in another order and one added, %s; nothing is paid twice',
			async (_name, variant, tally) => {
				const workflow = await importPayMany(variant);
				const all = invoices(`O${++counter}`, 21);
				const first = await start(workflow, { invoices: all.slice(0, 20) });
				expect(executionError(first)).toBeUndefined();
				const again = await start(workflow, { invoices: [all[20], ...all.slice(0, 20).reverse()] });
				expect(again.status).toBe('success');
				expect(timesPaid(all)).toEqual(all.map(() => 1));
				const counted: Record<string, number> = {};
				for (const { status } of nodeOutput(again, 'Pay'))
					counted[String(status)] = (counted[String(status)] ?? 0) + 1;
				expect(counted).toEqual(tally);
			},
		);
	},
);

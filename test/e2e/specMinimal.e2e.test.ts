/**
 * A real n8n (both lines) against a bank that answers only what the spec promises (the
 * sandbox's spec-minimal mode), a batch of three with one rejection and one payment that needs approval
 * comes out as sent, pending_approval (with its approval ID) and rejected, without failing, each
 * paid once; and the trigger, told the bank's payload field names, starts one execution per delivery.
 */
import { selectedVersions } from './lib/config';
import {
	activate,
	createCredential,
	credentialData,
	executionError,
	executionIds,
	loadWorkflow,
	nodeOutput,
	type Stack,
	startStack,
	waitFor,
	whenWebhookServes,
	waitForNewExecution,
} from './lib/stack';

describe.each(selectedVersions())(
	'n8n %s: a bank that answers only what the spec promises',
	(version) => {
		let stack: Stack;
		let credentialId: string;

		beforeAll(async () => {
			stack = await startStack(version, { variants: 'specMinimal' });
			credentialId = (
				await createCredential(stack.n8n, 'Customer Banking sandbox', credentialData(stack.sandbox))
			).id;
		});

		afterAll(async () => {
			await stack?.stop();
		});

		type WorkflowNode = { name: string; parameters: Record<string, unknown> };

		/** A workflow of test/e2e/workflows/, with its nodes changed by `change`, created and activated. */
		async function createWorkflow(
			file: string,
			replacements: Record<string, string>,
			change: (node: WorkflowNode) => WorkflowNode,
		): Promise<{ id: string }> {
			const workflow = loadWorkflow(file, replacements);
			workflow.nodes = (workflow.nodes as WorkflowNode[]).map(change);
			const created = await stack.n8n.apiOk<{ id: string }>('POST', '/workflows', workflow);
			await activate(stack.n8n, String(created.id));
			return { id: String(created.id) };
		}

		it('a batch of three: sent, pending_approval with its approval ID, rejected; no failure, each paid once', async () => {
			const { n8n, sandbox } = stack;
			expect(sandbox.variants.paymentAnswer).toBe('xtidOnly');
			const workflow = await createWorkflow(
				'pay-many.json',
				{
					OPERATION: 'submitBatch',
					PATH: 'e2e-spec-minimal-batch',
					WEBHOOK_ID: 'e2e00000-0000-4000-8000-000000000951',
					CREDENTIAL_ID: credentialId,
					CUSTOM_KEY: 'unused',
				},
				(node) =>
					node.name === 'Pay' ? { ...node, parameters: { ...node.parameters, options: {} } } : node,
			);
			const { gbp } = sandbox.seeded.accounts;
			const invoices = [
				{ xaid: gbp, xpid: sandbox.seeded.payees.gbp, amount: 12.5, reference: 'SPECMIN-OK-1' },
				{
					xaid: gbp,
					xpid: sandbox.seeded.payees.gbp,
					amount: 1200,
					reference: 'SPECMIN-APPROVE-1',
				},
				// a payee of another account: the bank rejects this item
				{ xaid: gbp, xpid: sandbox.seeded.payees.eur, amount: 11, reference: 'SPECMIN-REJECT-1' },
			];
			const before = await executionIds(n8n, workflow.id);
			await waitFor('the webhook', async () => {
				const result = await n8n.http('POST', '/webhook/e2e-spec-minimal-batch', {
					body: { invoices },
				});
				return result.status === 404 ? undefined : result;
			});
			const execution = await waitForNewExecution(n8n, workflow.id, before);
			expect(executionError(execution)).toBeUndefined();

			const outputs = nodeOutput(execution, 'Pay');
			expect(outputs.map((output) => [output.reference, output.status])).toEqual([
				['SPECMIN-OK-1', 'sent'],
				['SPECMIN-APPROVE-1', 'pending_approval'],
				['SPECMIN-REJECT-1', 'rejected'],
			]);
			const ledger = sandbox.control.ledger();
			const approval = ledger.approvals.find((a) => a.xtid === outputs[1].transactionId);
			expect(outputs[1].approvalId).toBe(approval?.ref);
			expect(
				ledger.transactions.filter((t) => t.reference === 'SPECMIN-OK-1').map((t) => t.xtid),
			).toEqual([outputs[0].transactionId]);
			expect(ledger.approvals.filter((a) => a.xtid === outputs[1].transactionId)).toHaveLength(1);
			expect(ledger.transactions.filter((t) => t.reference === 'SPECMIN-REJECT-1')).toEqual([]);
			expect(String(outputs[2].rejectionReason)).toMatch(/payee/);
		});

		it("the trigger, told the bank's payload field names, starts one execution per delivery", async () => {
			const { n8n, sandbox } = stack;
			const workflow = await createWorkflow(
				'trigger.json',
				{
					CREDENTIAL_ID: credentialId,
					ACCOUNT_GBP: sandbox.seeded.accounts.gbp,
					ACCOUNT_EUR: sandbox.seeded.accounts.eur,
				},
				(node) => ({
					...node,
					parameters: {
						...node.parameters,
						payloadFields: {
							deliveryId: 'id',
							event: 'type',
							account: 'accountId',
							transaction: 'transactionId',
							occurredAt: 'createdAt',
						},
					},
				}),
			);
			await waitFor(
				'4 subscriptions',
				() => (sandbox.control.subscriptions('workspace-1').length >= 4 ? true : undefined),
				30_000,
			);
			await whenWebhookServes(sandbox.control.subscriptions('workspace-1')[0].url);

			const before = await executionIds(n8n, workflow.id);
			const transaction = await sandbox.control.receive(
				sandbox.seeded.accounts.gbp,
				42.42,
				'SPECMIN-IN-1',
			);
			await sandbox.control.waitForDeliveries();
			const execution = await waitForNewExecution(n8n, workflow.id, before);
			expect(executionError(execution)).toBeUndefined();
			const [emitted] = nodeOutput(execution, 'Customer Banking Trigger');
			expect(emitted).toMatchObject({
				event: 'transactionReceived',
				accountId: sandbox.seeded.accounts.gbp,
				transactionId: transaction.xtid,
			});
			const delivery = sandbox.control.deliveries().find((d) => d.xtid === transaction.xtid);
			expect(JSON.parse(String(delivery?.body))).toHaveProperty('transactionId', transaction.xtid);
			expect(emitted.deliveryId).toBe(delivery?.deliveryId);
			expect(await executionIds(n8n, workflow.id)).toHaveLength(before.length + 1);
		});
	},
);

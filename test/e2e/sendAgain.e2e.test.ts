/**
 * The user's second hour, in a real n8n (both lines): five invoices paid with Submit Batch, the approver
 * declines one, the next run says not_sent for it, and Send Again If Refused, set by an expression for
 * that invoice alone (Skip Payments Already Made on), sends it again while the other four stay paid once.
 * Payments are counted per invoice in the bank's ledger.
 */
import { selectedVersions } from './lib/config';
import {
	activate,
	createCredential,
	credentialData,
	type Execution,
	executionError,
	executionIds,
	loadWorkflow,
	nodeOutput,
	type Stack,
	startStack,
	waitFor,
	waitForNewExecution,
} from './lib/stack';

describe.each(selectedVersions())('n8n %s: one declined invoice sent again', (version) => {
	let stack: Stack;
	let workflow: { id: string; path: string };

	beforeAll(async () => {
		stack = await startStack(version);
		const { id } = await createCredential(
			stack.n8n,
			'Customer Banking sandbox',
			credentialData(stack.sandbox),
		);
		const path = 'e2e-send-again';
		const definition = loadWorkflow('pay-many.json', {
			OPERATION: 'submitBatch',
			PATH: path,
			WEBHOOK_ID: 'e2e00000-0000-4000-8000-000000000977',
			CREDENTIAL_ID: id,
			CUSTOM_KEY: '',
		});
		const pay = (
			definition.nodes as Array<{ name: string; parameters: Record<string, unknown> }>
		).find((node) => node.name === 'Pay');
		if (!pay) throw new Error('pay-many.json has no Pay node');
		pay.parameters.batchSize = 5;
		pay.parameters.options = {
			sendAgainIfRefused: "={{ $json.reference === $('Webhook').first().json.body.sendAgain }}",
		};
		const created = await stack.n8n.apiOk<{ id: string }>('POST', '/workflows', definition);
		await activate(stack.n8n, String(created.id));
		workflow = { id: String(created.id), path };
	});

	afterAll(async () => {
		await stack?.stop();
	});

	async function run(body: unknown): Promise<Array<Record<string, unknown>>> {
		const before = await executionIds(stack.n8n, workflow.id);
		await waitFor(`webhook ${workflow.path}`, async () => {
			const result = await stack.n8n.http('POST', `/webhook/${workflow.path}`, { body });
			return result.status === 404 ? undefined : result;
		});
		const execution: Execution = await waitForNewExecution(stack.n8n, workflow.id, before, 120_000);
		expect(executionError(execution)).toBeUndefined();
		return nodeOutput(execution, 'Pay');
	}

	it('only the declined invoice is sent again; each other invoice is paid once', async () => {
		const tag = version.replace(/\D/g, '').slice(0, 6);
		const invoices = [20, 21, 22, 2400, 24].map((amount, index) => ({
			xaid: stack.sandbox.seeded.accounts.gbp,
			xpid: stack.sandbox.seeded.payees.gbp,
			amount,
			reference: `AG-${tag}-${index}`,
		}));
		const ledger = () => stack.sandbox.control.ledger();
		const heldAtBank = () =>
			invoices.map(
				({ reference }) =>
					ledger().transactions.filter(
						(t) => t.reference === reference && t.direction === 'outgoing',
					).length +
					ledger().approvals.filter(
						(a) => (a.transaction as Record<string, unknown>).reference === reference,
					).length,
			);

		const first = await run({ invoices });
		expect(first.map((item) => item.status)).toEqual([
			'sent',
			'sent',
			'sent',
			'pending_approval',
			'sent',
		]);
		await stack.sandbox.control.decline(String(first[3].approvalId));

		const second = await run({ invoices });
		expect(second.map((item) => item.status)).toEqual([
			'already_made',
			'already_made',
			'already_made',
			'not_sent',
			'already_made',
		]);
		expect(String(second[3].message)).toContain('Send Again If Refused');
		expect(heldAtBank()).toEqual([1, 1, 1, 1, 1]);

		const third = await run({ invoices, sendAgain: invoices[3].reference });
		expect(third.map((item) => item.status)).toEqual([
			'already_made',
			'already_made',
			'already_made',
			'pending_approval',
			'already_made',
		]);
		expect(third[3].approvalId).not.toBe(first[3].approvalId);
		// the declined request and the new one for invoice 3; one payment for every other invoice
		expect(heldAtBank()).toEqual([1, 1, 1, 2, 1]);

		// run again with the same setting: the new payment waits for approval, nothing goes again
		const fourth = await run({ invoices, sendAgain: invoices[3].reference });
		expect(fourth.map((item) => item.status)).toEqual(Array(5).fill('already_made'));
		expect(heldAtBank()).toEqual([1, 1, 1, 2, 1]);
	}, 300_000);
});

/**
 * A newcomer's first session, as the README's first screen leads it: `npm run demo` (the sandbox bank,
 * the credential and the example workflows), then only clicks and form fields in n8n's editor (headless
 * chromium). Three invoices are paid from "Pay invoices" (one sent, one an approval policy holds, one the
 * bank refuses), each row of the Pay node's output shows its status with its next step, and the approval
 * example, switched on by the user, reports the approver's decision. Assertions are on what the page
 * shows. Screenshots go to artifacts/e2e/newcomer-<version>/.
 */
import { join } from 'node:path';

import type { Page } from 'playwright-core';

import { type EditorBrowser, openEditorBrowser, signIn } from './lib/browser';
import { ACTIVE_EXAMPLE, type DemoWorkflow, importDemoWorkflows, seedApprovals } from './lib/demo';
import { defaultVersion } from './lib/install';
import { repoRoot } from './lib/pack';
import { createSandboxCredential, sleep, type Stack, startStack, waitFor } from './lib/stack';

const PAY_INVOICES = 'Pay invoices';
const APPROVAL_DECIDED = 'Tell the requester when a payment was approved, declined or expired';

describe(`n8n ${defaultVersion}: a newcomer's first session, from the demo`, () => {
	let stack: Stack;
	let editor: EditorBrowser;
	let page: Page;
	let examples: DemoWorkflow[];
	/** The approval ID the Pay node's output shows for the invoice the policy held. */
	let heldApproval: string;

	beforeAll(async () => {
		stack = await startStack(defaultVersion);
		// what `npm run demo` sets up, with the approval examples left for the user to switch on
		await seedApprovals(stack.sandbox);
		const credential = await createSandboxCredential(stack.n8n, stack.sandbox);
		examples = await importDemoWorkflows(stack.n8n, stack.sandbox, credential.id, [ACTIVE_EXAMPLE]);
		editor = await openEditorBrowser(
			join(repoRoot, 'artifacts', 'e2e', `newcomer-${defaultVersion}`),
		);
		({ page } = editor);
	});

	afterAll(async () => {
		await editor?.close();
		await stack?.stop();
	});

	const shot = (name: string) => editor.shot(name);
	const ndv = () => page.locator('[data-test-id="ndv"]');

	/** Opens a workflow from the Workflows list by its name, as a user clicks it. */
	async function openFromList(name: string): Promise<void> {
		await page.goto(`${stack.n8n.url}/home/workflows`);
		await page.getByText(name, { exact: true }).first().click();
		await page.locator('[data-test-id="execute-workflow-button"]').waitFor();
	}

	async function openCanvasNode(name: string): Promise<void> {
		await page.locator('[data-test-id="canvas-node"]').filter({ hasText: name }).first().dblclick();
		await ndv().waitFor();
	}

	/** Back to the canvas with the node view's close button. */
	async function closeNdv(): Promise<void> {
		await waitFor(
			'the node details view closed',
			async () => {
				if (!(await ndv().isVisible())) return true;
				await ndv().locator('[data-test-id="ndv-close-button"]').first().click();
				await sleep(300);
				return undefined;
			},
			10_000,
		);
	}

	it('signs in and finds the demo workflows', async () => {
		await signIn(page, stack.n8n.url);
		await page.goto(`${stack.n8n.url}/home/workflows`);
		for (const example of examples)
			await page.getByText(example.name, { exact: true }).first().waitFor();
		await shot('01-workflows');
	});

	/** The Pay node's output as the Table view shows it: one record per row, keyed by the column headers. */
	async function outputTable(): Promise<Array<Record<string, string>>> {
		const output = ndv().locator('[data-test-id="output-panel"]');
		await output.locator('[data-test-id="radio-button-table"]').click();
		const table = output.locator('[data-test-id="ndv-data-container"] table').first();
		await table.waitFor();
		const headers = (await table.locator('thead th').allInnerTexts()).map((text) => text.trim());
		const rows = await table.locator('tbody > tr').all();
		return await Promise.all(
			rows.map(async (row) => {
				const cells = await row.locator(':scope > td').allInnerTexts();
				return Object.fromEntries(
					headers.map((header, index) => [header, cells[index]?.trim() ?? '']),
				);
			}),
		);
	}

	it('pays three invoices from "Pay invoices": each row shows its status and what to do next', async () => {
		const { sandbox } = stack;
		await openFromList(PAY_INVOICES);
		await shot('02-pay-invoices');

		// a third invoice, typed into the Invoices node after the two there; its payee is the EUR one the
		// demo lists, which the bank does not hold for this GBP account
		await openCanvasNode('Invoices');
		const json = ndv().locator('[data-test-id="parameter-input-jsonOutput"] .cm-content').first();
		const { invoices } = JSON.parse(await json.innerText()) as {
			invoices: Array<Record<string, unknown>>;
		};
		expect(invoices.map((invoice) => invoice.reference)).toEqual([
			'INV-DEMO-0001',
			'INV-DEMO-0002',
		]);
		invoices.push({
			accountId: invoices[0].accountId,
			payeeId: sandbox.seeded.payees.eur,
			amount: 80,
			reference: 'INV-DEMO-0003',
		});
		await json.click();
		await page.keyboard.press('Control+A');
		await page.keyboard.insertText(JSON.stringify({ invoices }, null, 2));
		await shot('03-three-invoices');
		await closeNdv();

		await page.locator('[data-test-id="execute-workflow-button"]').click();
		await openCanvasNode('Pay');
		await ndv()
			.locator('[data-test-id="output-panel"]')
			.getByText('3 items')
			.first()
			.waitFor({ timeout: 60_000 });
		const rows = await outputTable();
		await shot('04-pay-output');
		const row = (reference: string) => rows.find((r) => r.reference === reference);
		expect(rows).toHaveLength(3);
		expect(row('INV-DEMO-0001')).toMatchObject({
			status: 'sent',
			nextStep: 'Nothing to do: the bank shows the payment on its way.',
		});
		expect(row('INV-DEMO-0002')).toMatchObject({
			status: 'pending_approval',
			nextStep:
				"An approver must approve it in the bank's app; the Customer Banking Approval Trigger reports the decision.",
		});
		expect(row('INV-DEMO-0003')).toMatchObject({
			status: 'rejected',
			nextStep: 'Nothing was paid: fix what rejectionReason says, then run it again.',
			rejectionReason: expect.stringContaining('not found on account'),
		});
		await closeNdv();

		// what the page says is what the bank holds: one payment sent, one held, none for the third
		const ledger = sandbox.control.ledger();
		const outgoing = (reference: string) =>
			ledger.transactions.filter((t) => t.reference === reference && t.direction === 'outgoing')
				.length;
		const held = (reference: string) =>
			ledger.approvals.filter(
				(a) => (a.transaction as Record<string, unknown>).reference === reference,
			).length;
		expect(
			['INV-DEMO-0001', 'INV-DEMO-0002', 'INV-DEMO-0003'].map((r) => [outgoing(r), held(r)]),
		).toEqual([
			[1, 0],
			[0, 1],
			[0, 0],
		]);
		heldApproval = String(row('INV-DEMO-0002')?.approvalId);
	});

	it("publishes the approval example and sees the approver's decision arrive in its executions", async () => {
		const { sandbox } = stack;
		expect(heldApproval).toMatch(/^[0-9a-f-]{36}$/);
		await openFromList(APPROVAL_DECIDED);
		sandbox.control.clearRequests();
		await page.locator('[data-test-id="workflow-open-publish-modal-button"]').click();
		const modal = page.locator('[data-test-id="workflowPublish-modal"]');
		await modal.locator('[data-test-id="workflow-publish-button"]').click();
		await modal.waitFor({ state: 'hidden' });
		await shot('05-published');
		await page.getByRole('button', { name: 'Got it' }).click();
		await page.getByText('Published', { exact: true }).first().waitFor();
		// n8n polls once when it publishes: the trigger notes what is pending, then reports decisions
		await waitFor('the first poll', () =>
			sandbox.control.requests().some((request) => request.path.startsWith('/approvals'))
				? true
				: undefined,
		);
		await sleep(2000);
		// the approver approves INV-DEMO-0002 in the bank's app
		await sandbox.control.approve(heldApproval);

		// the trigger polls every minute: its execution appears in the Executions tab, which refreshes itself
		await page.locator('[data-test-id="radio-button-executions"]').click();
		const execution = page.locator('[data-test-id^="execution-details-"]').first();
		await execution.waitFor({ timeout: 100_000 });
		expect(await execution.innerText()).toContain('Succeeded');
		await execution.click();
		// the execution opens beside the list: its canvas, whose nodes show what they passed on
		await shot('06-execution');
		await page
			.locator('[data-test-id="canvas-node"]')
			.filter({ hasText: /^Approved/ })
			.first()
			.dblclick();
		await ndv()
			.getByText(
				/^Approved: payment INV-DEMO-0002 of 1,500\.00 GBP was sent \(transaction \S+\)\.$/,
			)
			.first()
			.waitFor();
		await shot('07-decision-arrived');
	});
});

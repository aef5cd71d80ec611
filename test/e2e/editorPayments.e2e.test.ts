/**
 * Payments as a user makes them in n8n's editor (headless chromium, every pinned n8n line): pressing
 * "Execute workflow" again never pays again (Skip Payments Already Made), also after Batch Size is typed
 * in the form; switched off, the form warns and the next run pays again; and money typed into Amount
 * reaches the node as typed (no rounding or clamping by the editor) and a bad amount is refused by name
 * with nothing sent. Screenshots go to artifacts/e2e/editor-payments-<version>/.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import type { Page } from 'playwright-core';

import { docImage, type EditorBrowser, openEditorBrowser, signIn } from './lib/browser';
import { selectedVersions } from './lib/config';
import { defaultVersion } from './lib/install';
import { repoRoot } from './lib/pack';
import {
	createCredential,
	credentialData,
	type Execution,
	executionError,
	executionIds,
	nodeOutput,
	PACKAGE,
	sleep,
	type Stack,
	startStack,
	waitFor,
	waitForNewExecution,
} from './lib/stack';

describe.each(selectedVersions())('n8n %s: payments made in the editor', (version) => {
	let stack: Stack;
	let editor: EditorBrowser;
	let page: Page;
	let credentialId: string;

	beforeAll(async () => {
		stack = await startStack(version);
		const credential = await createCredential(
			stack.n8n,
			'Customer Banking sandbox',
			credentialData(stack.sandbox),
		);
		credentialId = credential.id;
		editor = await openEditorBrowser(
			join(repoRoot, 'artifacts', 'e2e', `editor-payments-${version}`),
		);
		({ page } = editor);
		await signIn(page, stack.n8n.url);
	});

	afterAll(async () => {
		await editor?.close();
		await stack?.stop();
	});

	const shot = (name: string) => editor.shot(name);
	const ndv = () => page.locator('[data-test-id="ndv"]');

	/** Opens a node of the workflow on the canvas in the node details view. */
	async function openCanvasNode(name: string): Promise<void> {
		await page.locator('[data-test-id="canvas-node"]').filter({ hasText: name }).first().dblclick();
		await ndv().waitFor();
	}

	/** Creates a workflow through n8n's API and opens it in the editor. */
	async function openNewWorkflow(
		name: string,
		nodes: unknown[],
		connections: unknown,
	): Promise<string> {
		const created = await stack.n8n.apiOk<{ id: string }>('POST', '/workflows', {
			name,
			nodes,
			connections,
			settings: { executionOrder: 'v1' },
		});
		await page.goto(`${stack.n8n.url}/workflow/${String(created.id)}`);
		await page.locator('[data-test-id="execute-workflow-button"]').waitFor();
		return String(created.id);
	}

	/** Closes the node details view (a field that has the focus takes the first Escape). */
	async function closeNdv(): Promise<void> {
		await waitFor(
			'the node details view closed',
			async () => {
				if (!(await ndv().isVisible())) return true;
				await page.keyboard.press('Escape');
				await sleep(300);
				return undefined;
			},
			10_000,
		);
	}

	/** Presses "Execute workflow" in the editor and returns the execution it started. */
	async function executeInEditor(workflowId: string): Promise<Execution> {
		const before = await executionIds(stack.n8n, workflowId);
		await page.locator('[data-test-id="execute-workflow-button"]').click();
		return await waitForNewExecution(stack.n8n, workflowId, before);
	}

	const manualTrigger = {
		id: randomUUID(),
		name: 'Manual Trigger',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const credentials = () => ({
		customerBankingApi: { id: credentialId, name: 'Customer Banking sandbox' },
	});

	/**
	 * Manual Trigger → the invoices (a Set node) → one item per invoice → Pay (Map Automatically), opened
	 * in the editor; each of `destinations` (No Operation nodes) takes one of Pay's outputs, in order.
	 */
	async function openInvoiceWorkflow(
		name: string,
		invoices: Array<Record<string, unknown>>,
		payParameters: Record<string, unknown>,
		destinations: string[] = [],
	): Promise<string> {
		const destinationNodes = destinations.map((destination, index) => ({
			id: randomUUID(),
			name: destination,
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			position: [940, (index - (destinations.length - 1) / 2) * 140],
			parameters: {},
		}));
		const payConnections = destinations.length
			? { Pay: { main: destinations.map((node) => [{ node, type: 'main', index: 0 }]) } }
			: {};
		return await openNewWorkflow(
			name,
			[
				manualTrigger,
				{
					id: randomUUID(),
					name: 'Invoices',
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					position: [220, 0],
					parameters: { mode: 'raw', jsonOutput: JSON.stringify({ invoices }), options: {} },
				},
				{
					id: randomUUID(),
					name: 'One item per invoice',
					type: 'n8n-nodes-base.splitOut',
					typeVersion: 1,
					position: [440, 0],
					parameters: { fieldToSplitOut: 'invoices', options: {} },
				},
				{
					id: randomUUID(),
					name: 'Pay',
					type: `${PACKAGE}.customerBanking`,
					typeVersion: 1,
					position: [660, 0],
					parameters: {
						resource: 'payment',
						operation: 'submitBatch',
						mappingMode: 'autoMapInputData',
						...payParameters,
					},
					credentials: credentials(),
				},
				...destinationNodes,
			],
			{
				'Manual Trigger': { main: [[{ node: 'Invoices', type: 'main', index: 0 }]] },
				Invoices: { main: [[{ node: 'One item per invoice', type: 'main', index: 0 }]] },
				'One item per invoice': { main: [[{ node: 'Pay', type: 'main', index: 0 }]] },
				...payConnections,
			},
		);
	}

	/** Invoices of the seeded GBP account and payee, with references of their own. */
	function invoicesOf(tag: string, amounts: number[]): Array<Record<string, unknown>> {
		return amounts.map((amount, index) => ({
			accountId: stack.sandbox.seeded.accounts.gbp,
			payeeId: stack.sandbox.seeded.payees.gbp,
			amount,
			reference: `${tag}${Date.now() % 100000}-${index}`,
		}));
	}

	it('pays each invoice once when Execute is pressed three times, also after Batch Size changed; off, the form warns and the next run pays again', async () => {
		const { sandbox } = stack;
		const invoices = invoicesOf('ED', [12.5, 40, 1500]);
		const held = () =>
			invoices.map(({ reference }) => {
				const ledger = sandbox.control.ledger();
				return (
					ledger.transactions.filter((t) => t.reference === reference && t.direction === 'outgoing')
						.length +
					ledger.approvals.filter(
						(a) => (a.transaction as Record<string, unknown>).reference === reference,
					).length
				);
			});
		const workflowId = await openInvoiceWorkflow('Pay three invoices', invoices, {
			batchSize: 3,
			options: {},
		});
		const statuses = (execution: Execution) =>
			nodeOutput(execution, 'Pay').map((item) => item.status);

		const first = await executeInEditor(workflowId);
		expect(executionError(first)).toBeUndefined();
		expect(statuses(first)).toEqual(['sent', 'sent', 'pending_approval']);
		const paidIds = nodeOutput(first, 'Pay').map((item) => item.transactionId);
		for (const run of [await executeInEditor(workflowId), await executeInEditor(workflowId)]) {
			expect(statuses(run)).toEqual(['already_made', 'already_made', 'already_made']);
			expect(nodeOutput(run, 'Pay').map((item) => item.transactionId)).toEqual(paidIds);
		}
		expect(held()).toEqual([1, 1, 1]);
		await shot('01-paid-once-already-made');

		// Batch Size typed in the form between runs: the same payments, grouped otherwise, are not paid again
		await openCanvasNode('Pay');
		const batchSize = ndv().locator('[data-test-id="parameter-input-batchSize"] input').first();
		await batchSize.fill('2');
		await batchSize.blur();
		await closeNdv();
		expect(statuses(await executeInEditor(workflowId))).toEqual([
			'already_made',
			'already_made',
			'already_made',
		]);
		expect(held()).toEqual([1, 1, 1]);

		// off: the form says what that means, and the next run pays again
		await openCanvasNode('Pay');
		const notice = 'Running this workflow again pays every payment again';
		expect(await ndv().innerText()).not.toContain(notice);
		await ndv().locator('[data-test-id="parameter-input-skipAlreadyMade"]').first().click();
		await ndv().getByText(notice).first().waitFor();
		await shot('02-skip-already-made-off-notice');
		await closeNdv();
		expect(statuses(await executeInEditor(workflowId))).toEqual([
			'sent',
			'sent',
			'pending_approval',
		]);
		expect(held()).toEqual([2, 2, 2]);
	});

	it('Outputs by Outcome: the node shows one output per outcome, and each payment leaves on its own', async () => {
		const workflowId = await openInvoiceWorkflow(
			'Pay by outcome',
			invoicesOf('EDO', [12.5, 1500, 6000]),
			{ outputsByOutcome: true, options: { maxAmount: '5000' } },
			['Mark paid', 'Tell the approver', 'Nothing to do', 'Fix and retry', 'Check in the bank'],
		);
		const execution = await executeInEditor(workflowId);
		expect(executionError(execution)).toBeUndefined();
		const outputs = ['Sent', 'To Approve', 'Made Before', 'Not Paid', 'To Check'];
		expect(
			outputs.map((_name, index) => nodeOutput(execution, 'Pay', index).map((item) => item.status)),
		).toEqual([['sent'], ['pending_approval'], [], ['rejected'], []]);
		await openCanvasNode('Pay');
		const panel = await ndv().innerText();
		for (const name of outputs) expect(panel).toContain(name);
		await shot('04-outputs-by-outcome');
		await closeNdv();
		// connected, each name is drawn whole (n8n allows 96 px then)
		await page.locator('[data-test-id="zoom-to-fit"]').click();
		await sleep(700);
		const drawn = await outputLabelsOf('Pay');
		expect(drawn.labels.map((label) => label.text)).toEqual(outputs);
		expect(drawn.labels.filter((label) => !label.whole)).toEqual([]);
		// connected, the item counts are drawn on the connections (`edgeLabel`): none over a name
		const edgeCounts = await page.locator('[class*="_edgeLabel_"]').evaluateAll((elements) =>
			elements
				.filter((element) => /item/.test(element.textContent ?? ''))
				.map((element) => {
					const { left, right, top, bottom } = element.getBoundingClientRect();
					return { text: (element.textContent ?? '').trim(), box: { left, right, top, bottom } };
				}),
		);
		expect(edgeCounts.length).toBeGreaterThan(0);
		expect(
			edgeCounts.flatMap((count) =>
				drawn.labels
					.filter((label) => overlap(count.box, label.box))
					.map((label) => `${count.text} over ${label.text}`),
			),
		).toEqual([]);
		if (version === defaultVersion) {
			// the run on the canvas: each output with the number of items that left on it
			await docImage(page, 'outputs-by-outcome', [page.locator('[data-test-id="canvas-node"]')]);
		}
	});

	/**
	 * What n8n's canvas draws at a node's main outputs (CanvasHandleMainOutput.vue, the same on both n8n
	 * lines): each output's label (`outputLabel`: one line, cut with an ellipsis past its max-width, 96px
	 * once connected) and, on an output not connected after a run, its item count (`runDataLabel`).
	 * Read from the page: whether each label is drawn whole (its text no wider than its box) and where
	 * each is.
	 */
	async function outputLabelsOf(name: string) {
		return await page
			.locator('[data-test-id="canvas-node"]')
			.filter({ hasText: name })
			.first()
			.evaluate((node) => {
				const drawn = (selector: string) =>
					[...node.querySelectorAll(selector)]
						.filter((element) => (element.textContent ?? '').trim() !== '')
						.map((element) => {
							const { left, right, top, bottom } = element.getBoundingClientRect();
							return {
								text: (element.textContent ?? '').trim(),
								whole: element.scrollWidth <= element.clientWidth,
								width: element.clientWidth,
								needs: element.scrollWidth,
								box: { left, right, top, bottom },
							};
						});
				return {
					labels: drawn('[class*="_outputLabel_"]'),
					counts: drawn('[class*="_runDataLabel_"]'),
				};
			});
	}

	type Box = { left: number; right: number; top: number; bottom: number };
	const overlap = (a: Box, b: Box) =>
		a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

	it('Outputs by Outcome with no output connected yet: every label whole on the canvas, before and after a run, and no item count over a label', async () => {
		const outputs = ['Sent', 'To Approve', 'Made Before', 'Not Paid', 'To Check'];
		const workflowId = await openInvoiceWorkflow(
			'Pay by outcome, outputs not connected',
			invoicesOf('EDU', [12.5, 1500, 6000]),
			{ outputsByOutcome: true, options: { maxAmount: '5000' } },
		);
		await page.locator('[data-test-id="zoom-to-fit"]').click();
		await sleep(700);
		const before = await outputLabelsOf('Pay');
		console.log(`n8n ${version}, before a run: ${JSON.stringify(before)}`);
		await shot('05-outputs-by-outcome-not-connected');
		const execution = await executeInEditor(workflowId);
		expect(executionError(execution)).toBeUndefined();
		await page.locator('[class*="_runDataLabel_"]').filter({ hasText: /item/ }).first().waitFor();
		await sleep(700);
		const after = await outputLabelsOf('Pay');
		console.log(`n8n ${version}, after a run: ${JSON.stringify(after)}`);
		await shot('06-outputs-by-outcome-not-connected-run');
		// zoomed out, n8n draws the names larger than the node (its zoom compensation)
		await page.locator('[data-test-id="zoom-out-button"]').click();
		await page.locator('[data-test-id="zoom-out-button"]').click();
		await sleep(700);
		const zoomedOut = await outputLabelsOf('Pay');
		console.log(`n8n ${version}, zoomed out: ${JSON.stringify(zoomedOut)}`);
		await shot('07-outputs-by-outcome-not-connected-zoomed-out');
		for (const drawn of [before, after, zoomedOut]) {
			expect(drawn.labels.map((label) => label.text)).toEqual(outputs);
			expect(drawn.labels.filter((label) => !label.whole)).toEqual([]);
		}
		for (const drawn of [after, zoomedOut]) {
			expect(drawn.counts.map((count) => count.text)).toEqual(['1 item', '1 item', '1 item']);
			const covered = drawn.counts.flatMap((count) =>
				drawn.labels
					.filter((label) => overlap(count.box, label.box))
					.map((label) => `${count.text} over ${label.text}`),
			);
			expect(covered).toEqual([]);
		}
	});

	it.each(['10.123', '-50', '0', '1,000.50', 'abc'])(
		'Amount typed as %p in the form: nothing is sent, and the node says which field and rule',
		async (typed) => {
			const { sandbox } = stack;
			const reference = `EDAMT-${Date.now() % 1000000}`;
			const workflowId = await openNewWorkflow(
				`Amount typed as ${typed}`,
				[
					manualTrigger,
					{
						id: randomUUID(),
						name: 'Pay',
						type: `${PACKAGE}.customerBanking`,
						typeVersion: 1,
						position: [220, 0],
						parameters: {
							resource: 'payment',
							operation: 'submit',
							account: { __rl: true, mode: 'id', value: sandbox.seeded.accounts.gbp },
							payee: { __rl: true, mode: 'id', value: sandbox.seeded.payees.gbp },
							amount: '',
							reference,
							options: {},
						},
						credentials: credentials(),
					},
				],
				{ 'Manual Trigger': { main: [[{ node: 'Pay', type: 'main', index: 0 }]] } },
			);
			await openCanvasNode('Pay');
			const amount = ndv().locator('[data-test-id="parameter-input-amount"] input').first();
			await amount.fill(typed);
			await amount.blur();
			// the form keeps what was typed: no rounding, no clamping
			expect(await amount.inputValue()).toBe(typed);
			await shot(`03-amount-${typed.replace(/[^0-9a-z]/gi, '_')}`);
			await closeNdv();
			const execution = await executeInEditor(workflowId);
			expect(executionError(execution)).toMatch(/^Pay: Invalid payment in item 0: Amount /);
			const posted = sandbox.control
				.ledger()
				.transactions.filter((t) => t.reference === reference).length;
			expect(posted).toBe(0);
		},
	);
});

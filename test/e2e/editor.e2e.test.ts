/**
 * The package in n8n's editor, in a real browser (Debian chromium driven by playwright-core): sign
 * in, find both nodes in the node panel by searching "Customer Banking", add the trigger and the
 * action node, open their parameters and the lists they load from the sandbox. Screenshots go to
 * artifacts/e2e/ (look at them: labels, icons). Fails on browser console errors from our package
 * and on icons of the package that do not load.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import type { Locator, Page } from 'playwright-core';

import { ACTIONS_DESCRIPTION } from '../../nodes/shared/appDescription';
import { docImage, type EditorBrowser, openEditorBrowser, signIn } from './lib/browser';
import { type DemoWorkflow, importDemoWorkflows, seedApprovals } from './lib/demo';
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

const OURS = /customer-?banking/i;
const shots = join(repoRoot, 'artifacts', 'e2e', `editor-${defaultVersion}`);

describe(`n8n ${defaultVersion}: the editor in a browser`, () => {
	let stack: Stack;
	let editor: EditorBrowser;
	let page: Page;
	const consoleErrors: string[] = [];
	const failedAssets: string[] = [];
	let examples: DemoWorkflow[];
	let credentialId: string;

	beforeAll(async () => {
		stack = await startStack(defaultVersion);
		const credential = await createCredential(
			stack.n8n,
			'Customer Banking sandbox',
			credentialData(stack.sandbox),
		);
		await seedApprovals(stack.sandbox);
		credentialId = credential.id;
		examples = await importDemoWorkflows(stack.n8n, stack.sandbox, credential.id);
		editor = await openEditorBrowser(shots);
		({ page } = editor);
		const { blocked } = editor;
		page.on('console', (message) => {
			const { url } = message.location();
			if (message.type() === 'error' && !blocked.has(url))
				consoleErrors.push(`${message.text()} @ ${url}`);
		});
		page.on('pageerror', (error) => consoleErrors.push(`${error.message}\n${error.stack ?? ''}`));
		page.on('response', (response) => {
			if (OURS.test(response.url()) && response.status() >= 400)
				failedAssets.push(`${response.status()} ${response.url()}`);
		});
	});

	afterAll(async () => {
		await editor?.close();
		await stack?.stop();
	});

	const shot = (name: string) => editor.shot(name);
	const ndv = () => page.locator('[data-test-id="ndv"]');
	const nodePanel = () => page.locator('[data-test-id="node-creator"]');
	const ourErrors = () => consoleErrors.filter((line) => OURS.test(line));

	/** Types into the node panel's search and waits until the results show our node. */
	async function searchNodePanel(term = 'Customer Banking'): Promise<Locator> {
		const search = page
			.locator(
				'input[data-test-id="node-creator-search-bar"], [data-test-id="node-creator-search-bar"] input',
			)
			.first();
		await search.waitFor();
		await search.fill(term);
		const items = page.locator(
			'[data-test-id="node-creator"] [data-test-id="node-creator-item-name"]',
		);
		await waitFor(
			`"${term}" in the node panel`,
			async () =>
				(await items.allTextContents()).some((name) => name.includes(term)) ? true : undefined,
			15_000,
		);
		return items;
	}

	/**
	 * Clicks `opener` (again while the options are still loading) until the list shows every account
	 * of the workspace, each labelled "<name> (<currency>)" as the sandbox names them.
	 */
	async function openListShowingAccounts(opener: Locator): Promise<void> {
		const labels = stack.sandbox.control
			.ledger()
			.accounts.map((a) => `${a.name as string} (${a.currency as string})`);
		const shown = () =>
			Promise.all(labels.map((label) => page.getByText(label).filter({ visible: true }).count()));
		await waitFor(
			`the account list (${labels.join(', ')})`,
			async () => {
				if ((await shown()).every((count) => count > 0)) return true;
				await opener.click({ force: true });
				await sleep(500);
				return undefined;
			},
			20_000,
			250,
		);
	}

	it('signs in through the sign-in form', async () => {
		await signIn(page, stack.n8n.url);
		expect(page.url()).toMatch(/\/home\//);
	});

	/**
	 * The node panel's entries of the package: n8n merges the action node and the webhook trigger into one
	 * app ("Customer Banking"); the approval trigger is an app of its own ("Customer Banking Approval").
	 */
	async function openAppInNodePanel(app = 'Customer Banking'): Promise<Locator> {
		const items = await searchNodePanel();
		expect(
			(await items.allTextContents())
				.map((name) => name.trim())
				.filter((name) => name.includes('Customer Banking')),
		).toEqual(['Customer Banking', 'Customer Banking Approval']);
		await items
			.filter({ hasText: new RegExp(`^\\s*${app}\\s*$`) })
			.first()
			.click();
		await page.locator('[data-test-id="node-creator"]').getByText('Node details').waitFor();
		return page.locator('[data-test-id="node-creator"] [data-test-id="item-iterator-item"]');
	}

	it('finds the trigger in the node panel and opens it with its accounts loaded from the bank', async () => {
		await page.goto(`${stack.n8n.url}/workflow/new`);
		await page.locator('[data-test-id="canvas-plus-button"]').click();
		await searchNodePanel();
		await shot('01-node-panel-search');
		const actions = await openAppInNodePanel();
		const panelText = await page.locator('[data-test-id="node-creator"]').innerText();
		expect(panelText).toMatch(/Triggers \(2\)/);
		expect(panelText).toMatch(/Actions \(16\)/);
		expect(await actions.allInnerTexts()).toEqual(
			expect.arrayContaining(['On transaction confirmed', 'On transaction received']),
		);
		await shot('02-node-panel-app');
		await docImage(page, 'nodes-panel-triggers', [nodePanel()], { side: 0, top: 0, bottom: 0 });

		await actions.filter({ hasText: 'On transaction confirmed' }).first().click();
		await ndv().waitFor();
		const panel = await ndv().innerText();
		for (const label of [
			'Customer Banking Trigger',
			'Account Names or IDs',
			'Events',
			'Fetch Full Transaction',
			'Webhook Signing Secret',
		]) {
			expect(panel).toContain(label);
		}
		await shot('03-trigger-parameters');

		// the accounts come from the sandbox through the credential n8n picked (the only one)
		await openListShowingAccounts(
			ndv().locator('[data-test-id="parameter-input-accounts"] input').first(),
		);
		await shot('04-trigger-accounts');
		await page.keyboard.press('Escape');
		await page.keyboard.press('Escape');
	});

	it('finds the approval trigger in the node panel, with its events and poll times', async () => {
		await page.goto(`${stack.n8n.url}/workflow/new`);
		await page.locator('[data-test-id="canvas-plus-button"]').click();
		const actions = await openAppInNodePanel('Customer Banking Approval');
		expect(await actions.allInnerTexts()).toEqual(
			expect.arrayContaining(['On approval decided', 'On approval requested']),
		);
		await shot('04a-node-panel-approval-trigger');
		await actions.filter({ hasText: 'On approval requested' }).first().click();
		await ndv().waitFor();
		const panel = await ndv().innerText();
		for (const label of [
			'Customer Banking Approval Trigger',
			'Poll Times',
			'Events',
			'Approval Requested',
			'Account Names or IDs',
		]) {
			expect(panel).toContain(label);
		}
		await shot('04b-approval-trigger-parameters');
		await page.keyboard.press('Escape');
		await page.keyboard.press('Escape');
	});

	it('finds the action node, lists its actions and opens one with the account list from the bank', async () => {
		await page.goto(`${stack.n8n.url}/workflow/new`);
		await page.locator('[data-test-id="canvas-plus-button"]').click();
		// a workflow starts with a trigger: take the manual one, then add our node after it
		await (await searchNodePanel('Manual Trigger'))
			.filter({ hasText: 'Manual Trigger' })
			.first()
			.click();
		await page.keyboard.press('Escape');
		await page.locator('[data-test-id="canvas-handle-plus"]').first().click();
		const actions = await openAppInNodePanel();
		const names = await actions.allInnerTexts();
		expect(names).toEqual(
			expect.arrayContaining([
				'Get the balance of an account',
				'Submit a payment',
				'Get the status of a payment',
				'Create or update a payee',
			]),
		);
		// someone adding an action reads what the actions do, not the trigger's "Starts the workflow when…"
		const panelText = await page.locator('[data-test-id="node-creator"]').innerText();
		const shownDescriptions = panelText
			.split('\n')
			.filter((line) => line.includes('manage payees'));
		expect(shownDescriptions.length).toBeGreaterThan(0);
		for (const line of shownDescriptions) expect(line.startsWith(ACTIONS_DESCRIPTION)).toBe(true);
		expect(panelText).not.toMatch(/^Starts the workflow when money arrives/m);
		await shot('05-node-panel-actions');
		await docImage(page, 'nodes-panel-actions', [nodePanel()], { side: 0, top: 0, bottom: 0 });

		await actions.filter({ hasText: 'Get the balance of an account' }).first().click();
		await ndv().waitFor();
		const panel = await ndv().innerText();
		for (const label of ['Credential', 'Resource', 'Operation', 'Account'])
			expect(panel).toContain(label);
		await shot('06-action-parameters');

		await openListShowingAccounts(ndv().getByPlaceholder('Choose...').first());
		await shot('07-action-account-list');
		await page.keyboard.press('Escape');
	});

	it('shows the credential form with every field, the sandbox notice and no secret in clear', async () => {
		await page.goto(`${stack.n8n.url}/home/credentials/${credentialId}`);
		const modal = page.locator('[data-test-id="editCredential-modal"]');
		await modal.getByText('Client Secret').first().waitFor();
		const text = await modal.innerText();
		for (const label of [
			'Environment',
			'Base URL',
			'Token URL',
			'Audience',
			'Client ID',
			'Client Secret',
			'Webhook Signing Secret',
			'SANDBOX: test data only',
		]) {
			expect(text).toContain(label);
		}
		const values = await modal
			.locator('input')
			.evaluateAll((inputs) =>
				inputs.map((input) => (input as unknown as { value: string }).value),
			);
		const { clientSecret } = stack.sandbox.clients.full;
		expect(values).toContain(stack.sandbox.baseUrl);
		expect(
			values.filter(
				(value) => value.includes(clientSecret) || value.includes(stack.sandbox.signingSecret),
			),
		).toEqual([]);
		await shot('00-credential');

		// n8n tests a credential when it is saved (README, Credentials): no Test button; a changed field
		// and Save show the test's result
		const buttons = (await modal.locator('button').allInnerTexts()).map((label) => label.trim());
		expect(buttons.filter((label) => /^test\b/i.test(label))).toEqual([]);
		const previous = modal
			.locator('[data-test-id="parameter-input-webhookSigningSecretPrevious"] input')
			.first();
		await previous.fill('whsec_e2e-previous');
		await modal.locator('[data-test-id="credential-save-button"]').click();
		await modal.getByText('Connection tested successfully').first().waitFor({ timeout: 30_000 });
		await shot('00b-credential-saved-and-tested');
		await previous.fill('');
		await modal.locator('[data-test-id="credential-save-button"]').click();
		await modal.getByText('Connection tested successfully').first().waitFor({ timeout: 30_000 });
		await page.keyboard.press('Escape');
	});

	it("offers the credential in the HTTP Request node's Predefined Credential Type list", async () => {
		const nodeId = randomUUID();
		const created = await stack.n8n.apiOk<{ id: string }>('POST', '/workflows', {
			name: 'HTTP Request with the Customer Banking credential',
			nodes: [
				{
					id: nodeId,
					name: 'HTTP Request',
					type: 'n8n-nodes-base.httpRequest',
					typeVersion: 4.2,
					position: [0, 0],
					parameters: {
						url: `${stack.sandbox.baseUrl}/accounts`,
						authentication: 'predefinedCredentialType',
						options: {},
					},
				},
			],
			connections: {},
			settings: { executionOrder: 'v1' },
		});
		await page.goto(`${stack.n8n.url}/workflow/${String(created.id)}/${nodeId}`);
		await ndv().waitFor();
		const credentialType = ndv()
			.locator('[data-test-id="parameter-input-nodeCredentialType"] input')
			.first();
		await credentialType.click();
		await credentialType.fill('Customer Banking');
		const option = page
			.locator('.el-select-dropdown__item, [role="option"]')
			.filter({ hasText: /^\s*Customer Banking API\s*$/ })
			.filter({ visible: true });
		await option.first().waitFor();
		await shot('12-http-request-credential-type');
		await option.first().click();
		// then the saved credentials of that type are offered: the sandbox one
		const credentialSelect = ndv()
			.locator('[data-test-id="node-credentials-select"] input')
			.first();
		await credentialSelect.waitFor();
		if ((await credentialSelect.inputValue()) !== 'Customer Banking sandbox') {
			await credentialSelect.click();
			await page
				.locator('.el-select-dropdown__item, [role="option"]')
				.filter({ hasText: 'Customer Banking sandbox' })
				.filter({ visible: true })
				.first()
				.click();
		}
		await waitFor(
			'the sandbox credential picked',
			async () =>
				(await credentialSelect.inputValue()) === 'Customer Banking sandbox' ? true : undefined,
			10_000,
		);
		await shot('13-http-request-credential');
		await page.keyboard.press('Escape');
	});

	it('finds the nodes in the node panel by the words people search for ("transfer", "approval")', async () => {
		await page.goto(`${stack.n8n.url}/workflow/new`);
		await page.locator('[data-test-id="canvas-plus-button"]').click();
		const search = page
			.locator(
				'input[data-test-id="node-creator-search-bar"], [data-test-id="node-creator-search-bar"] input',
			)
			.first();
		const items = page.locator(
			'[data-test-id="node-creator"] [data-test-id="node-creator-item-name"]',
		);
		const found = async (term: string) => {
			await search.fill(term);
			return await waitFor(
				`our nodes for "${term}"`,
				async () => {
					const names = (await items.allTextContents())
						.map((name) => name.trim())
						.filter((name) => name.startsWith('Customer Banking'));
					return names.length > 0 ? names : undefined;
				},
				15_000,
			);
		};
		expect(await found('transfer')).toEqual(
			expect.arrayContaining(['Customer Banking', 'Customer Banking Approval']),
		);
		await shot('14-node-panel-search-transfer');
		expect(await found('approval')).toContain('Customer Banking Approval');
		await page.keyboard.press('Escape');
	});

	/** Opens a node of the workflow on the canvas in the node details view. */
	async function openCanvasNode(name: string): Promise<void> {
		await page.locator('[data-test-id="canvas-node"]').filter({ hasText: name }).first().dblclick();
		await ndv().waitFor();
	}

	/** Opens an example of `npm run demo` and runs it with the editor's "Execute workflow" button. */
	async function runExample(file: string, screenshot: string): Promise<Execution> {
		const example = examples.find((workflow) => workflow.file === file);
		if (!example) throw new Error(`no demo example ${file}`);
		await page.goto(`${stack.n8n.url}/workflow/${example.id}`);
		const before = await executionIds(stack.n8n, example.id);
		await page.locator('[data-test-id="execute-workflow-button"]').click();
		const execution = await waitForNewExecution(stack.n8n, example.id, before);
		await shot(screenshot);
		expect(executionError(execution)).toBeUndefined();
		return execution;
	}

	// seven examples run one after the other, each through the editor (about 20 s each on a loaded machine)
	it('runs the demo examples from the editor', async () => {
		const { sandbox } = stack;
		const ledger = sandbox.control.ledger();

		// "Execute workflow" on a polling trigger fetches the newest approval of its events as an example
		const requested = nodeOutput(
			await runExample('approval-requested.json', '08-example-approval-requested'),
			'Notification',
		);
		expect(requested).toEqual([
			expect.objectContaining({
				text: expect.stringMatching(
					/^Payment DEMO-APPROVE-01 needs approval: 2,500\.00 GBP( to [^,]+)?, by .+, before \d{1,2} [A-Z][a-z]+ \d{4}, \d{2}:\d{2} \S+\. Approve or decline it in the bank's app \(approval \S+\)\.$/,
				),
			}),
		]);
		const decided = nodeOutput(
			await runExample('approval-decided.json', '08b-example-approval-decided'),
			'Approved',
		);
		await docImage(page, 'approval-flow', [page.locator('[data-test-id="canvas-node"]')]);
		expect(decided).toEqual([
			expect.objectContaining({
				text: expect.stringMatching(
					/^Approved: payment DEMO-APPROVED-01 of 1,800\.00 GBP was sent \(transaction \S+\)\.$/,
				),
			}),
		]);
		const paid = nodeOutput(
			await runExample('approved-invoices.json', '08c-example-approved-invoices'),
			'Mark invoice paid',
		);
		expect(paid).toEqual([expect.objectContaining({ invoice: 'DEMO-APPROVED-01' })]);

		const balances = nodeOutput(
			await runExample('daily-balances.json', '09-example-balances'),
			'Summary line',
		);
		expect(balances.map((line) => line.currency).sort()).toEqual(
			ledger.accounts.map((account) => account.currency).sort(),
		);

		const synced = nodeOutput(
			await runExample('sync-payees.json', '10-example-payees'),
			'Create or update payee',
		);
		expect(synced.map((payee) => payee.name)).toEqual([
			'Acme Supplies Ltd',
			'Blue Harbour Logistics',
			'Northwind Stationery',
		]);
		// running the sync again finds every payee and updates it: no duplicates
		const again = nodeOutput(
			await runExample('sync-payees.json', '11-example-payees-again'),
			'Create or update payee',
		);
		const payeeIds = (payees: Array<Record<string, unknown>>) =>
			payees.map((payee) => payee.payeeId);
		expect(payeeIds(synced)).toEqual([expect.any(String), expect.any(String), expect.any(String)]);
		expect(payeeIds(again)).toEqual(payeeIds(synced));

		// after the approval examples, which show the newest pending approval: paying invoices adds one
		const paid2 = await runExample('pay-invoices.json', '15-example-pay-invoices');
		expect(nodeOutput(paid2, 'Pay').map((payment) => [payment.reference, payment.status])).toEqual([
			['INV-DEMO-0001', 'sent'],
			['INV-DEMO-0002', 'pending_approval'],
		]);
		await openCanvasNode('Pay');
		// the Mapping list shows its choice in an input; the notice below it is only there for Map Automatically
		expect(await ndv().innerText()).toContain(
			"Each input item must have the fields 'accountId', 'payeeId', 'amount', 'reference'",
		);
		await shot('16-map-automatically');
		await page.keyboard.press('Escape');
		const accounts = examples.find((workflow) => workflow.file === 'daily-balances.json');
		await page.goto(`${stack.n8n.url}/workflow/${String(accounts?.id)}`);
		await openCanvasNode('Accounts');
		expect(await ndv().innerText()).toContain('Simplify');
		await shot('17-simplify');
		await page.keyboard.press('Escape');

		// the active trigger example reacts to money arriving
		const trigger = examples.find((workflow) => workflow.file === 'settled-payments.json');
		const before = await executionIds(stack.n8n, String(trigger?.id));
		await sandbox.control.receive(sandbox.seeded.accounts.gbp, 120.5, 'Invoice 42');
		const received = await waitForNewExecution(stack.n8n, String(trigger?.id), before);
		expect(nodeOutput(received, 'Message')).toEqual([
			{
				text: expect.stringMatching(
					/^Received: 120\.50 GBP, reference Invoice 42, on \d{1,2} [A-Z][a-z]+ \d{4}, \d{2}:\d{2} \S+ \(transaction \S+\)$/,
				),
			},
		]);
	}, 360_000);

	it('logged no browser console error from the package, and every package asset loaded', () => {
		expect(ourErrors()).toEqual([]);
		expect(failedAssets).toEqual([]);
		expect(PACKAGE).toBe('n8n-nodes-customer-banking');
	});
});

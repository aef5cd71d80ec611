/**
 * Scenario 6 (both n8n lines): the Customer Banking Trigger in a real n8n. Activation subscribes
 * accounts × events at the sandbox; a settlement makes the sandbox deliver a signed
 * TransactionConfirmed to n8n's production webhook URL and an execution starts with the full
 * transaction, its event in the package's casing (transactionConfirmed); forged deliveries get 401 and start nothing; deactivation leaves no subscription.
 */
import { withPlainNames } from '../../nodes/shared/outputNames';
import { createHmac } from 'node:crypto';

import { selectedVersions } from './lib/config';
import {
	activate,
	createCredential,
	credentialData,
	deactivate,
	executionError,
	executionIds,
	importWorkflow,
	nodeOutput,
	runWebhookWorkflow,
	sleep,
	type Stack,
	startStack,
	waitFor,
	waitForNewExecution,
} from './lib/stack';

const TRIGGER = 'Customer Banking Trigger';
const EVENTS = ['TransactionConfirmed', 'TransactionReceived'];

describe.each(selectedVersions())('n8n %s: Customer Banking Trigger', (version) => {
	let stack: Stack;
	let payWorkflowId: string;
	let triggerWorkflowId: string;

	beforeAll(async () => {
		stack = await startStack(version);
		const { n8n, sandbox } = stack;
		const { id } = await createCredential(n8n, 'Customer Banking sandbox', credentialData(sandbox));
		payWorkflowId = (await importWorkflow(n8n, 'pay.json', { CREDENTIAL_ID: id })).id;
		await activate(n8n, payWorkflowId);
		triggerWorkflowId = (
			await importWorkflow(n8n, 'trigger.json', {
				CREDENTIAL_ID: id,
				ACCOUNT_GBP: sandbox.seeded.accounts.gbp,
				ACCOUNT_EUR: sandbox.seeded.accounts.eur,
			})
		).id;
	});

	afterAll(async () => {
		await stack?.stop();
	});

	const subscriptions = () => stack.sandbox.control.subscriptions('workspace-1');

	it("activating subscribes every account × event to n8n's production webhook URL", async () => {
		expect(subscriptions()).toEqual([]);
		await activate(stack.n8n, triggerWorkflowId);

		// n8n 2.x finishes activating after the API call has answered
		const made = await waitFor(
			'4 subscriptions',
			() => (subscriptions().length >= 4 ? subscriptions() : undefined),
			30_000,
		);
		const { gbp, eur } = stack.sandbox.seeded.accounts;
		expect(made.map((s) => `${s.xaid} ${s.event}`).sort()).toEqual(
			[gbp, eur].flatMap((xaid) => EVENTS.map((event) => `${xaid} ${event}`)).sort(),
		);
		const urls = new Set(made.map((s) => s.url));
		expect(urls.size).toBe(1);
		expect([...urls][0]).toMatch(new RegExp(`^${stack.n8n.url}/webhook/[^/]+/webhook$`));
	});

	it('a settled payment is delivered, signed, and starts an execution with the full transaction', async () => {
		const { n8n, sandbox } = stack;
		const { gbp } = sandbox.seeded.accounts;
		const paid = await runWebhookWorkflow(n8n, payWorkflowId, 'e2e-pay', {
			xaid: gbp,
			xpid: sandbox.seeded.payees.gbp,
			amount: 75.25,
			reference: 'E2E-SETTLE-01',
		});
		expect(executionError(paid.execution)).toBeUndefined();
		const [{ transactionId: xtid }] = nodeOutput(paid.execution, 'Pay');

		const before = await executionIds(n8n, triggerWorkflowId);
		await sandbox.control.settle(String(xtid));
		await sandbox.control.waitForDeliveries();
		const execution = await waitForNewExecution(n8n, triggerWorkflowId, before);

		expect(executionError(execution)).toBeUndefined();
		const settled = sandbox.control.ledger().transactions.find((t) => t.xtid === xtid);
		expect(settled?.status).toBe('settled');
		expect(nodeOutput(execution, TRIGGER)).toEqual([
			expect.objectContaining({
				event: 'transactionConfirmed',
				accountId: gbp,
				transactionId: xtid,
				deliveryId: expect.any(String),
				transaction: settled && withPlainNames(settled),
			}),
		]);
		const deliveries = sandbox.control
			.deliveries()
			.filter((d) => JSON.stringify(d).includes(String(xtid)));
		expect(deliveries).toEqual([
			expect.objectContaining({
				event: 'TransactionConfirmed',
				status: 'delivered',
				attempts: [expect.objectContaining({ statusCode: 200 })],
			}),
		]);
	});

	it('forged or unsigned deliveries start nothing: the first is a failed execution saying why (500), the others get 401', async () => {
		const { n8n, sandbox } = stack;
		const [subscription] = subscriptions().filter((s) => s.event === 'TransactionConfirmed');
		const transaction = sandbox.control
			.ledger()
			.transactions.find((t) => t.xaid === subscription.xaid);
		const body = JSON.stringify({
			deliveryId: 'forged-delivery-1',
			event: 'TransactionConfirmed',
			xaid: subscription.xaid,
			xtid: transaction?.xtid,
			zapId: subscription.zapId,
			occurredAt: new Date().toISOString(),
		});
		const timestamp = String(Math.floor(Date.now() / 1000));
		const forgedSignature = createHmac('sha256', 'whsec_not_the_bank')
			.update(`${timestamp}.${body}`)
			.digest('hex');
		const before = await executionIds(n8n, triggerWorkflowId);

		const attempts: Array<Record<string, string>> = [
			{ 'x-cb-timestamp': timestamp, 'x-cb-signature': `v1=${forgedSignature}` },
			{ 'x-cb-timestamp': timestamp },
			// the right secret over other bytes: a tampered body
			{
				'x-cb-timestamp': timestamp,
				'x-cb-signature': `v1=${createHmac('sha256', sandbox.signingSecret).update(`${timestamp}.${body} `).digest('hex')}`,
			},
		];
		const statuses: number[] = [];
		for (const headers of attempts) {
			const answer = await fetch(subscription.url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...headers },
				body,
			});
			statuses.push(answer.status);
		}
		// the first refusal is reported as a failed execution saying why (n8n answers 500), the others
		// inside the minute are answered 401 and counted
		expect(statuses).toEqual([500, 401, 401]);
		const report = await waitForNewExecution(n8n, triggerWorkflowId, before);
		expect(report.status).toBe('error');
		expect(executionError(report)).toContain(
			'Customer Banking Trigger refused 1 delivery: the signature matches neither Webhook Signing Secret of the credential (1)',
		);
		await sleep(2000);
		expect(await executionIds(n8n, triggerWorkflowId)).toHaveLength(before.length + 1);
	});

	it('deactivating removes every subscription', async () => {
		await deactivate(stack.n8n, triggerWorkflowId);
		// like activation, n8n 2.x finishes deactivating after the API call has answered
		await waitFor(
			'no subscriptions',
			() => (subscriptions().length === 0 ? true : undefined),
			30_000,
		).catch(() => undefined);
		expect(subscriptions()).toEqual([]);
	});
});

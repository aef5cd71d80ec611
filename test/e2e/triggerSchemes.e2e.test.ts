/**
 * The Customer Banking Trigger set to Standard Webhooks in a real n8n: deliveries signed by the
 * `standardwebhooks` library (never the project's signer) sent to n8n's production webhook URL. A valid
 * delivery starts the workflow once (its copy and the sender's re-signed retry start nothing); a
 * delivery signed with another key is refused, the first refusal shown as a failed execution that
 * says why and runs no node after the trigger (shared/n8nInternals.ts 12.), the next answered 401.
 */
import { randomBytes, randomUUID } from 'node:crypto';

import { Webhook } from 'standardwebhooks';

import { selectedVersions } from './lib/config';
import {
	activate,
	createCredential,
	credentialData,
	deactivate,
	executionError,
	executionIds,
	getExecution,
	importWorkflow,
	nodeOutput,
	sleep,
	type Stack,
	startStack,
	waitFor,
	waitForNewExecution,
	whenRegistered,
} from './lib/stack';

const TRIGGER = 'Customer Banking Trigger';
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

describe.each(selectedVersions())('n8n %s: Standard Webhooks deliveries', (version) => {
	let stack: Stack;
	let workflowId: string;
	let url: string;

	beforeAll(async () => {
		stack = await startStack(version);
		const { n8n, sandbox } = stack;
		const { id } = await createCredential(
			n8n,
			'Standard Webhooks bank',
			credentialData(sandbox, 'full', { webhookSigningSecret: SECRET }),
		);
		workflowId = (
			await importWorkflow(n8n, 'trigger-schemes.json', {
				CREDENTIAL_ID: id,
				ACCOUNT_GBP: sandbox.seeded.accounts.gbp,
			})
		).id;
		await activate(n8n, workflowId);
		const subscription = await waitFor(
			'the subscription',
			() => sandbox.control.subscriptions('workspace-1')[0],
			30_000,
		);
		url = subscription.url;
		expect(url).toMatch(new RegExp(`^${stack.n8n.url}/webhook/[^/]+/webhook$`));
	});

	afterAll(async () => {
		if (stack && workflowId) await deactivate(stack.n8n, workflowId).catch(() => undefined);
		await stack?.stop();
	});

	const body = () =>
		JSON.stringify({
			event: 'TransactionReceived',
			xaid: stack.sandbox.seeded.accounts.gbp,
			xtid: `txn-${randomUUID()}`,
			occurredAt: new Date().toISOString(),
		});

	function signed(secret: string, id: string, text: string, at = new Date()) {
		return {
			'content-type': 'application/json',
			'webhook-id': id,
			'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
			'webhook-signature': new Webhook(secret).sign(id, at, text),
		};
	}

	const send = async (headers: Record<string, string>, text: string) =>
		await fetch(url, { method: 'POST', headers, body: text });

	it('a delivery signed by the standardwebhooks library starts the workflow once; its copy and the re-signed retry do not', async () => {
		const { n8n } = stack;
		const id = `msg_${randomUUID()}`;
		const text = body();
		const before = await executionIds(n8n, workflowId);
		const first = await whenRegistered('the production webhook', () =>
			send(signed(SECRET, id, text), text),
		);
		expect(first.status).toBe(200);
		const execution = await waitForNewExecution(n8n, workflowId, before);
		expect(executionError(execution)).toBeUndefined();
		expect(nodeOutput(execution, TRIGGER)).toEqual([
			expect.objectContaining({ event: 'transactionReceived', deliveryId: id }),
		]);
		expect(nodeOutput(execution, 'After Trigger')).toHaveLength(1);

		const copy = await send(signed(SECRET, id, text), text);
		const retry = await send(signed(SECRET, id, text, new Date(Date.now() + 2000)), text);
		expect([copy.status, retry.status]).toEqual([200, 200]);
		await sleep(2000);
		expect(await executionIds(n8n, workflowId)).toHaveLength(before.length + 1);
	});

	it('a delivery signed with another key: the first refusal is a failed execution saying why, with no node after the trigger run; the next is answered 401', async () => {
		const { n8n } = stack;
		const before = await executionIds(n8n, workflowId);
		const forged = body();
		const other = `whsec_${randomBytes(32).toString('base64')}`;
		const reported = await send(signed(other, `msg_${randomUUID()}`, forged), forged);
		expect(reported.status).toBe(500);
		const failed = await waitForNewExecution(n8n, workflowId, before);
		expect(failed.status).toBe('error');
		expect(executionError(failed)).toContain(
			'Customer Banking Trigger refused 1 delivery: the signature matches neither Webhook Signing Secret of the credential (1)',
		);
		expect(executionError(failed)).toContain('Signature Scheme "Standard Webhooks (Svix)"');
		expect(JSON.stringify(failed)).not.toContain(SECRET.slice('whsec_'.length));
		expect(Object.keys(failed.data.resultData.runData)).not.toContain('After Trigger');

		const next = await send(signed(other, `msg_${randomUUID()}`, forged), forged);
		expect(next.status).toBe(401);
		await sleep(2000);
		const after = await executionIds(n8n, workflowId);
		expect(after).toHaveLength(before.length + 1);
		expect((await getExecution(n8n, after.sort((a, b) => Number(b) - Number(a))[0])).id).toBe(
			failed.id,
		);
	});
});

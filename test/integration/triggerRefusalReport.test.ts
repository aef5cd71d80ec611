/**
 * Why deliveries are refused, told where the user looks: a refused delivery makes webhook() throw a
 * NodeOperationError, at most once per REFUSAL_LOG_INTERVAL_MS per trigger node (every time while the
 * user listens for a test event), which n8n turns into a failed execution in the execution list (and
 * into the test run's error in the editor), answering the sender 500 and running no node after the
 * trigger. Between reports, refusals are answered 401 and counted. Deliveries signed by the senders'
 * own libraries.
 */
import { randomBytes, randomUUID } from 'node:crypto';

import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { REFUSAL_LOG_INTERVAL_MS } from '../../nodes/CustomerBankingTrigger/refusalLog';
import { signWithReferenceLibraries } from '../helpers/referenceSigning';
import type { SigningRequest } from '../helpers/referenceSigning';
import { CustomerBankingTrigger } from '../../nodes/CustomerBankingTrigger/CustomerBankingTrigger.node';
import { newStaticData, webhookContext } from './triggerFixtures';

/** The node as n8n calls it, without the suites' emulation of n8n's answer to a thrown error. */
const trigger = new CustomerBankingTrigger();

const ACCOUNT = 'acc-report-1';
const whsec = () => `whsec_${randomBytes(24).toString('base64')}`;

function delivery(request: Omit<SigningRequest, 'body'>) {
	const body = JSON.stringify({ event: 'TransactionReceived', xaid: ACCOUNT, xtid: randomUUID() });
	const [headers] = signWithReferenceLibraries([{ ...request, body, id: `msg_${randomUUID()}` }]);
	return { rawBody: Buffer.from(body), headers };
}

let nodeCounter = 0;

function triggerNode(
	scheme: string,
	secret: string,
	options: { mode?: 'manual' | 'webhook'; node?: Partial<INode> } = {},
) {
	const node = {
		name: 'Customer Banking Trigger',
		id: `report-node-${++nodeCounter}`,
		...options.node,
	};
	const credentials = { webhookSigningSecret: secret };
	const parameters: IDataObject = {
		accounts: [ACCOUNT],
		events: ['transactionReceived'],
		fetchTransaction: false,
		signatureScheme: scheme,
	};
	return async (input: { rawBody: Buffer; headers: Record<string, string> }) => {
		const { context, response, requests, logs } = webhookContext(
			credentials,
			parameters,
			{ ...input, path: '/webhook' },
			{ node, staticData: newStaticData(), mode: options.mode ?? 'webhook' },
		);
		try {
			const result = await trigger.webhook.call(context);
			return { result, status: response.statusCode, ended: response.ended, requests, logs };
		} catch (error) {
			return { error: error as NodeOperationError, ended: response.ended, requests, logs };
		}
	};
}

function expectNoSecretIn(error: NodeOperationError | undefined, ...secrets: string[]) {
	const shown = JSON.stringify({ message: error?.message, description: error?.description });
	for (const secret of secrets) {
		expect(shown).not.toContain(secret);
		expect(shown).not.toContain(secret.replace(/^whsec_/, ''));
	}
}

describe('refused deliveries are reported as a failed execution', () => {
	it('the first refusal of a node throws, naming the reason in words, the chosen scheme and the scheme whose headers came', async () => {
		const secret = whsec();
		const receive = triggerNode('customerBanking', secret);
		const signed = delivery({ library: 'standardwebhooks', secret });
		const outcome = await receive(signed);
		expect(outcome.error).toBeInstanceOf(NodeOperationError);
		expect(outcome.error?.message).toBe(
			'Customer Banking Trigger refused 1 delivery: no signature in the header the Signature Scheme reads (1)',
		);
		expect(outcome.error?.description).toContain('Signature Scheme "Customer Banking"');
		expect(outcome.error?.description).toContain('x-cb-signature');
		expect(outcome.error?.description).toContain('Standard Webhooks (Svix)');
		// n8n answers the sender itself (500) and runs nothing after the trigger; nothing was asked of the bank
		expect(outcome.ended).toBe(false);
		expect(outcome.requests).toEqual([]);
		expectNoSecretIn(outcome.error, secret, signed.headers['webhook-signature']);
	});

	it('later refusals inside the interval are answered 401 and counted; the next report after it says how many', async () => {
		const secret = whsec();
		const receive = triggerNode('standardWebhooks', secret);
		const forged = () => delivery({ library: 'standardwebhooks', secret: whsec() });
		expect((await receive(forged())).error).toBeDefined();
		for (let i = 0; i < 3; i++) {
			const outcome = await receive(forged());
			expect(outcome.error).toBeUndefined();
			expect(outcome.result).toEqual({ noWebhookResponse: true });
			expect(outcome.status).toBe(401);
		}
		const start = Date.now();
		const clock = jest.spyOn(Date, 'now').mockReturnValue(start + REFUSAL_LOG_INTERVAL_MS + 1000);
		try {
			const outcome = await receive(forged());
			expect(outcome.error?.message).toMatch(
				/^Customer Banking Trigger refused 4 deliveries in the last \d+ s: the signature matches neither Webhook Signing Secret of the credential \(4\)$/,
			);
		} finally {
			clock.mockRestore();
		}
	});

	it('while the user listens for a test event, every refusal is reported', async () => {
		const secret = whsec();
		const receive = triggerNode('stripe', secret, { mode: 'manual' });
		for (let i = 0; i < 2; i++) {
			const outcome = await receive(delivery({ library: 'stripe', secret: 'whsec_other' }));
			expect(outcome.error?.message).toBe(
				'Customer Banking Trigger refused 1 delivery: the signature matches neither Webhook Signing Secret of the credential (1)',
			);
		}
	});

	it('a secret that is not whsec_ + base64 is named for Standard Webhooks, without the secret', async () => {
		const secret = 'whsec_not base64 at all!';
		const receive = triggerNode('standardWebhooks', secret);
		const outcome = await receive(delivery({ library: 'standardwebhooks', secret: whsec() }));
		expect(outcome.error?.message).toContain(
			'the Webhook Signing Secret is not whsec_ followed by base64, as Standard Webhooks issues it',
		);
		expectNoSecretIn(outcome.error, secret);
	});

	it('a trigger set to continue on error never throws (n8n would run the next nodes with the error): 401 and the log only', async () => {
		const secret = whsec();
		for (const onError of ['continueRegularOutput', 'continueErrorOutput'] as const) {
			const receive = triggerNode('customerBanking', secret, { node: { onError } });
			const outcome = await receive(delivery({ library: 'standardwebhooks', secret }));
			expect(outcome.error).toBeUndefined();
			expect(outcome.status).toBe(401);
			expect(outcome.logs.map((entry) => entry.message)).toEqual([
				'Customer Banking Trigger: refused 1 delivery without a valid signature or timestamp (missingSignature: 1)',
			]);
		}
	});

	it('a valid delivery is emitted as before', async () => {
		const secret = whsec();
		const receive = triggerNode('standardWebhooks', secret);
		const outcome = await receive(delivery({ library: 'standardwebhooks', secret }));
		expect(outcome.error).toBeUndefined();
		expect(outcome.result?.workflowData).toHaveLength(1);
	});
});

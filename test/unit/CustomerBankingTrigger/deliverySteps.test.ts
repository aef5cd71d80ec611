/**
 * The steps of one webhook call in n8n-core's WebhookContext, with the transaction read answered by a
 * scripted bank: verification first and fail-closed (refused deliveries start nothing; reported by a
 * failed execution at most once a minute, every time while testing), then the body, the facts, the
 * watched accounts and events, and the item.
 */
import { createHmac } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

import { CustomerBankingTrigger } from '../../../nodes/CustomerBankingTrigger/CustomerBankingTrigger.node';
import { acknowledge, Answer } from '../../../nodes/CustomerBankingTrigger/answers';
import {
	deliveryFacts,
	deliveryItem,
	deliveryOutput,
	parsedPayload,
	verifiedDelivery,
	watchedDelivery,
	type DeliveryFacts,
} from '../../../nodes/CustomerBankingTrigger/deliverySteps';
import { createWebhookContext, type WebhookContextOptions } from '../../helpers/n8nContext';
import { fails, ok, scriptedBankCredentials, scriptRequests } from '../../helpers/scriptedBank';

const SECRET = 'whsec_current_secret_0123456789';
const trigger = new CustomerBankingTrigger();
let workflowCount = 0;

const PARAMETERS = {
	accounts: ['acc-1'],
	events: ['transactionReceived'],
	fetchTransaction: false,
};

/** The sandbox scheme (the trigger's default): `v1=` HMAC-SHA256 over "<timestamp>.<raw body>". */
function signed(raw: string, secret = SECRET, timestamp = Math.floor(Date.now() / 1000)) {
	const signature = createHmac('sha256', secret).update(`${timestamp}.`).update(raw).digest('hex');
	return { 'x-cb-timestamp': String(timestamp), 'x-cb-signature': `v1=${signature}` };
}

/** A webhook call of a trigger node; `workflowId` names the node (its remembered secrets, its refusal tally). */
function call(options: Partial<WebhookContextOptions> & { raw?: string } = {}) {
	const raw = options.raw ?? '{"event":"TransactionReceived","xaid":"acc-1","xtid":"tx-1"}';
	const credentials = options.credentials ?? {
		...scriptedBankCredentials(),
		webhookSigningSecret: SECRET,
	};
	const parts = createWebhookContext({
		nodeType: trigger,
		node: { name: 'Customer Banking Trigger', id: 'trigger-1' },
		workflowId: `workflow-${++workflowCount}`,
		parameters: PARAMETERS,
		body: raw,
		headers: signed(raw),
		...options,
		credentials,
	});
	return { ...parts, raw };
}

describe('verifiedDelivery: verified before anything is read, fail-closed', () => {
	it('a delivery signed with the secret is verified, its raw bytes kept as they came', async () => {
		const raw = '{"event": "TransactionReceived",  "xaid":"acc-1","xtid":"tx-1","note":"café"}';
		const { context } = call({ raw });
		const verified = await verifiedDelivery.call(context);
		expect(verified).not.toBeInstanceOf(Answer);
		if (verified instanceof Answer) return;
		expect(verified.rawBody.equals(Buffer.from(raw))).toBe(true);
		expect(Math.abs(verified.nowSeconds - Date.now() / 1000)).toBeLessThan(5);
	});

	it.each<[string, Partial<WebhookContextOptions>]>([
		['signed with another secret', { headers: signed('{}', 'whsec_other_secret_0123456') }],
		['no signature headers', { headers: {} }],
		[
			'a timestamp an hour old',
			{
				headers: signed(
					'{"event":"TransactionReceived","xaid":"acc-1","xtid":"tx-1"}',
					SECRET,
					Math.floor(Date.now() / 1000) - 3600,
				),
			},
		],
	])(
		'%s: the first refusal is reported as a failed execution, the next ones answered 401 without starting anything',
		async (_case, options) => {
			const first = call(options);
			await expect(verifiedDelivery.call(first.context)).rejects.toBeInstanceOf(NodeOperationError);
			// the same trigger node, within the minute
			const second = createWebhookContext({
				nodeType: trigger,
				node: { name: 'Customer Banking Trigger', id: 'trigger-1' },
				workflowId: `workflow-${workflowCount}`,
				parameters: PARAMETERS,
				credentials: { ...scriptedBankCredentials(), webhookSigningSecret: SECRET },
				body: first.raw,
				...options,
			});
			const answer = await verifiedDelivery.call(second.context);
			expect(answer).toEqual(new Answer({ noWebhookResponse: true }));
			expect(second.response.statusCode).toBe(401);
			expect(second.response.ended).toBe(true);
		},
	);

	it('while the user listens for a test event, every refusal is reported', async () => {
		const options = { mode: 'manual' as const, headers: {} };
		const first = call(options);
		await expect(verifiedDelivery.call(first.context)).rejects.toThrow();
		const again = createWebhookContext({
			nodeType: trigger,
			node: { name: 'Customer Banking Trigger', id: 'trigger-1' },
			workflowId: `workflow-${workflowCount}`,
			parameters: PARAMETERS,
			credentials: { ...scriptedBankCredentials(), webhookSigningSecret: SECRET },
			body: first.raw,
			...options,
		});
		await expect(verifiedDelivery.call(again.context)).rejects.toBeInstanceOf(NodeOperationError);
	});

	it('a trigger set to continue on error never passes a refusal on: it answers 401', async () => {
		const { context, response } = call({
			headers: {},
			node: { name: 'Customer Banking Trigger', id: 'trigger-1', onError: 'continueRegularOutput' },
		});
		expect(await verifiedDelivery.call(context)).toBeInstanceOf(Answer);
		expect(response.statusCode).toBe(401);
	});

	it('a credential without a signing secret refuses every delivery', async () => {
		const { context } = call({ credentials: scriptedBankCredentials() });
		await expect(verifiedDelivery.call(context)).rejects.toBeInstanceOf(NodeOperationError);
	});

	it('a secret set in the credential since it was read is read again before refusing', async () => {
		const credentials = { ...scriptedBankCredentials(), webhookSigningSecret: SECRET };
		const first = call({ credentials });
		expect(await verifiedDelivery.call(first.context)).not.toBeInstanceOf(Answer);
		const rotated = 'whsec_rotated_secret_987654321';
		credentials.webhookSigningSecret = rotated;
		const raw = '{"event":"TransactionReceived","xaid":"acc-1","xtid":"tx-2"}';
		const next = createWebhookContext({
			nodeType: trigger,
			node: { name: 'Customer Banking Trigger', id: 'trigger-1' },
			workflowId: `workflow-${workflowCount}`,
			parameters: PARAMETERS,
			credentials,
			body: raw,
			headers: signed(raw, rotated),
		});
		expect(await verifiedDelivery.call(next.context)).not.toBeInstanceOf(Answer);
	});
});

describe('parsedPayload', () => {
	it.each([
		['not JSON', '{"event":'],
		['a JSON array', '[{"event":"TransactionReceived"}]'],
		['a JSON string', '"TransactionReceived"'],
		['JSON null', 'null'],
	])('%s: refused with 400, nothing started', (_case, raw) => {
		const { context, response } = call({ raw });
		expect(parsedPayload.call(context, Buffer.from(raw))).toEqual(
			new Answer({ noWebhookResponse: true }),
		);
		expect(response.statusCode).toBe(400);
	});

	it('a JSON object is the payload', () => {
		const { context } = call();
		expect(parsedPayload.call(context, Buffer.from('{"a":1}'))).toEqual({ a: 1 });
	});
});

describe('deliveryFacts', () => {
	const payload = { event: 'TransactionReceived', xaid: 'acc-1', xtid: 'tx-1' };

	it('reads the facts by the default field names; the delivery ID falls back to the signed message ID', () => {
		const { context } = call();
		expect(deliveryFacts.call(context, { ...payload, occurredAt: '2026-01-01' }, 'msg-1')).toEqual({
			event: 'transactionReceived',
			xaid: 'acc-1',
			xtid: 'tx-1',
			deliveryId: 'msg-1',
			occurredAt: '2026-01-01',
		});
		expect(deliveryFacts.call(context, { ...payload, deliveryId: 'd-1' }, 'msg-1')).toMatchObject({
			deliveryId: 'd-1',
		});
		expect(deliveryFacts.call(context, { ...payload, deliveryId: '  ' })).toMatchObject({
			deliveryId: undefined,
		});
	});

	it("reads the bank's own field names when Payload Field Names gives them", () => {
		const { context } = call({
			parameters: {
				...PARAMETERS,
				payloadFields: { event: 'type', account: 'accountId', transaction: 'transactionId' },
			},
		});
		expect(
			deliveryFacts.call(context, {
				type: 'TransactionConfirmed',
				accountId: 'acc-1',
				transactionId: 'tx-9',
			}),
		).toMatchObject({ event: 'transactionConfirmed', xaid: 'acc-1', xtid: 'tx-9' });
	});

	it.each([
		['TransactionConfirmed', 'transactionConfirmed'],
		['TransactionReceived', 'transactionReceived'],
	])("the bank's word %s is the event %s", (word, event) => {
		const { context } = call();
		expect(deliveryFacts.call(context, { ...payload, event: word })).toMatchObject({ event });
	});

	it.each<[string, IDataObject]>([
		['no event', { xaid: 'acc-1', xtid: 'tx-1' }],
		['an event the node does not know', { ...payload, event: 'PaymentSent' }],
		["the package's word instead of the bank's", { ...payload, event: 'transactionReceived' }],
		["the bank's word in capitals", { ...payload, event: 'TRANSACTIONRECEIVED' }],
		["the bank's word with a space after it", { ...payload, event: 'TransactionReceived ' }],
		['a word of the object prototype', { ...payload, event: 'constructor' }],
		['no account', { event: 'TransactionReceived', xtid: 'tx-1' }],
		['a transaction ID that is not text', { ...payload, xtid: 42 }],
		['a transaction ID ".."', { ...payload, xtid: '..' }],
		['an empty account', { ...payload, xaid: '' }],
	])('%s: refused with 400', (_case, body) => {
		const { context, response } = call();
		expect(deliveryFacts.call(context, body)).toBeInstanceOf(Answer);
		expect(response.statusCode).toBe(400);
	});

	it('an unknown event word is logged as such, naming the field the node reads', () => {
		const { context, logs } = call();
		deliveryFacts.call(context, { ...payload, event: 'transactionReceived' });
		expect(logs).toContainEqual(
			expect.objectContaining({
				level: 'warn',
				message:
					'Customer Banking Trigger: refused a signed delivery without a known event, or without xaid or xtid (see Payload Field Names)',
			}),
		);
	});

	it('an inherited field is not read (only own fields of the payload)', () => {
		const { context } = call();
		const inherited = Object.create(payload) as IDataObject;
		expect(deliveryFacts.call(context, inherited)).toBeInstanceOf(Answer);
	});
});

describe('watchedDelivery', () => {
	const facts: DeliveryFacts = { event: 'transactionReceived', xaid: 'acc-1', xtid: 'tx-1' };

	it.each<[string, DeliveryFacts]>([
		['an account not watched', { ...facts, xaid: 'acc-2' }],
		['an event not watched', { ...facts, event: 'transactionConfirmed' }],
	])('%s: acknowledged (200), not emitted', (_case, given) => {
		const { context } = call();
		expect(watchedDelivery.call(context, given)).toEqual(
			acknowledge('account or event not watched by this trigger'),
		);
	});

	it('a watched one goes on', () => {
		const { context } = call();
		expect(watchedDelivery.call(context, facts)).toBe(facts);
	});
});

describe('deliveryItem and deliveryOutput', () => {
	const facts: DeliveryFacts = { event: 'transactionReceived', xaid: 'acc-1', xtid: 'tx-1' };

	it('the item names the IDs as the action node does, missing facts as null', () => {
		expect(deliveryItem(facts)).toEqual({
			event: 'transactionReceived',
			accountId: 'acc-1',
			transactionId: 'tx-1',
			deliveryId: null,
			occurredAt: null,
		});
		expect(deliveryItem(facts, { xtid: 'tx-1', xaid: 'acc-1', amount: 5 }).transaction).toEqual({
			transactionId: 'tx-1',
			accountId: 'acc-1',
			amount: 5,
		});
	});

	it('without Fetch Full Transaction, nothing is read', async () => {
		const { context } = call();
		const bank = scriptRequests(context, () => ok({}));
		expect(await deliveryOutput.call(context, facts)).toEqual(deliveryItem(facts));
		expect(bank.calls).toEqual([]);
	});

	it('with Fetch Full Transaction, the transaction is read from the API', async () => {
		const { context } = call({ parameters: { ...PARAMETERS, fetchTransaction: true } });
		const bank = scriptRequests(context, () => ok({ xtid: 'tx-1', amount: 5, status: 'SETTLED' }));
		expect(await deliveryOutput.call(context, facts)).toEqual(
			deliveryItem(facts, { xtid: 'tx-1', amount: 5, status: 'SETTLED' }),
		);
		expect(bank.calls.map((sent) => `${sent.method} ${sent.path}`)).toEqual([
			'GET /transaction/tx-1',
		]);
	});

	it('a failed read throws the transport error (n8n answers 500, the bank sends it again)', async () => {
		const { context } = call({ parameters: { ...PARAMETERS, fetchTransaction: true } });
		scriptRequests(context, () => fails(404));
		await expect(deliveryOutput.call(context, facts)).rejects.toBeInstanceOf(NodeApiError);
	});
});

describe("a delivery through the node's webhook: the bank's word in, the package's word out", () => {
	it.each([
		['TransactionConfirmed', 'transactionConfirmed'],
		['TransactionReceived', 'transactionReceived'],
	])('a delivery of %s starts an execution whose item says %s', async (word, event) => {
		const raw = JSON.stringify({ event: word, xaid: 'acc-1', xtid: 'tx-1', deliveryId: 'd-1' });
		const { context } = call({
			raw,
			parameters: { ...PARAMETERS, events: ['transactionConfirmed', 'transactionReceived'] },
		});
		const result = await trigger.webhook.call(context);
		expect(result.workflowData?.[0]?.map((item) => item.json)).toEqual([
			{
				event,
				accountId: 'acc-1',
				transactionId: 'tx-1',
				deliveryId: 'd-1',
				occurredAt: null,
			},
		]);
	});

	it("a delivery of the package's word is refused with 400 and starts nothing (the bank does not send it)", async () => {
		const raw = JSON.stringify({ event: 'transactionConfirmed', xaid: 'acc-1', xtid: 'tx-1' });
		const { context, response } = call({
			raw,
			parameters: { ...PARAMETERS, events: ['transactionConfirmed'] },
		});
		const result = await trigger.webhook.call(context);
		expect(result.workflowData).toBeUndefined();
		expect(response.statusCode).toBe(400);
	});
});

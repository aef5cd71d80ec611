/**
 * Activation and deactivation of the webhook trigger in n8n-core's HookContext, the bank scripted:
 * everything that can be checked before a request is checked first (fail closed without a secret), a
 * production credential never subscribes an address that is not https, and deactivation removes what
 * activation made.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

import { CustomerBankingTrigger } from '../../../nodes/CustomerBankingTrigger/CustomerBankingTrigger.node';
import {
	subscribe,
	unsubscribe,
} from '../../../nodes/CustomerBankingTrigger/subscriptionLifecycle';
import { createHookContext, type StaticData } from '../../helpers/n8nContext';
import { fails, ok, scriptedBankCredentials, scriptRequests } from '../../helpers/scriptedBank';

const trigger = new CustomerBankingTrigger();
const HTTPS_URL = 'https://n8n.example.test/webhook/hook-1/webhook';
const PARAMETERS = { accounts: ['acc-1', 'acc-2'], events: ['transactionReceived'] };

function hook(
	options: {
		parameters?: IDataObject;
		credentials?: IDataObject;
		webhookUrl?: string;
		staticData?: StaticData;
	} = {},
) {
	const parts = createHookContext({
		nodeType: trigger,
		node: { name: 'Customer Banking Trigger', id: 'trigger-1' },
		workflowId: 'workflow-lifecycle',
		parameters: options.parameters ?? PARAMETERS,
		credentials: (options.credentials ?? {
			...scriptedBankCredentials(),
			webhookSigningSecret: 'whsec_secret_0123456789abcdef',
		}) as never,
		webhookUrl: options.webhookUrl ?? HTTPS_URL,
		staticData: options.staticData,
	});
	const bank = scriptRequests(parts.context, () => ok({}));
	return { ...parts, ...bank };
}

const sent = (calls: Array<{ method: string; path: string; body: unknown }>) =>
	calls.map((call) => `${call.method} ${call.path} ${JSON.stringify(call.body)}`);

describe('subscribe (activation)', () => {
	it('subscribes every watched account and event to the webhook address', async () => {
		const { context, calls } = hook();
		await expect(subscribe.call(context)).resolves.toBe(true);
		expect(calls.map((call) => [call.method, call.path])).toEqual([
			['POST', '/webhooks/subscribe'],
			['POST', '/webhooks/subscribe'],
		]);
		expect(calls.map((call) => call.body)).toEqual([
			expect.objectContaining({ xaid: 'acc-1', url: HTTPS_URL, event: 'TransactionReceived' }),
			expect.objectContaining({ xaid: 'acc-2', url: HTTPS_URL, event: 'TransactionReceived' }),
		]);
	});

	it("subscribes each event under the bank's word, the zapId derived from it", async () => {
		const { context, calls } = hook({
			parameters: { accounts: ['acc-1'], events: ['transactionConfirmed', 'transactionReceived'] },
		});
		await expect(subscribe.call(context)).resolves.toBe(true);
		expect(calls.map((call) => (call.body as IDataObject).event)).toEqual([
			'TransactionConfirmed',
			'TransactionReceived',
		]);
		expect(new Set(calls.map((call) => (call.body as IDataObject).zapId)).size).toBe(2);
	});

	it("an event given in the bank's word is refused before any request, naming the field and the values", async () => {
		const { context, calls } = hook({
			parameters: { accounts: ['acc-1'], events: ['TransactionReceived'] },
		});
		await expect(subscribe.call(context)).rejects.toThrow(
			'Events must be transactionConfirmed or transactionReceived; not supported: TransactionReceived',
		);
		expect(calls).toEqual([]);
	});

	it('a failed subscribe names the event as the Events field shows it', async () => {
		const { context, setScript } = hook({
			parameters: { accounts: ['acc-1'], events: ['transactionConfirmed'] },
		});
		setScript((call) => (call.method === 'POST' ? fails(400) : ok({})));
		await expect(subscribe.call(context)).rejects.toThrow(
			/^Could not subscribe account acc-1 to Transaction Confirmed \(subscription 1 of 1\)/,
		);
	});

	it.each<[string, Parameters<typeof hook>[0], RegExp]>([
		['no account', { parameters: { accounts: [], events: ['transactionReceived'] } }, /account/i],
		['no event', { parameters: { accounts: ['acc-1'], events: [] } }, /event/i],
		[
			'an unusable Max Running Executions',
			{ parameters: { ...PARAMETERS, options: { maxRunningExecutions: 0 } } },
			/Max/i,
		],
		[
			'no signing secret in the credential (fail closed)',
			{ credentials: scriptedBankCredentials() },
			/^Set "Webhook Signing Secret" in the Customer Banking credential/,
		],
		[
			'a production credential and a webhook address that is not https',
			{
				credentials: {
					...scriptedBankCredentials(),
					environment: 'production',
					webhookSigningSecret: 'whsec_secret_0123456789abcdef',
				},
				webhookUrl: 'http://localhost:5678/webhook/hook-1/webhook',
			},
			/is not https \(http:\/\/localhost:5678\)/,
		],
	])('%s: refused before anything is sent to the bank', async (_case, options, message) => {
		const { context, calls } = hook(options);
		const activation = subscribe.call(context);
		await expect(activation).rejects.toBeInstanceOf(NodeOperationError);
		await expect(activation).rejects.toThrow(message);
		expect(calls).toEqual([]);
	});

	it('a sandbox credential subscribes an http address, with a warning in the log', async () => {
		const { context, calls, logs } = hook({
			webhookUrl: 'http://localhost:5678/webhook/hook-1/webhook',
		});
		await expect(subscribe.call(context)).resolves.toBe(true);
		expect(calls).toHaveLength(2);
		expect(logs).toContainEqual(
			expect.objectContaining({
				level: 'warn',
				message: expect.stringMatching(/not https/) as string,
			}),
		);
	});

	it('a subscription the bank refuses fails the activation, and those made are removed (all or nothing)', async () => {
		const { context, calls, setScript } = hook();
		setScript((call) =>
			call.method === 'POST' && (call.body as IDataObject).xaid === 'acc-2' ? fails(400) : ok({}),
		);
		await expect(subscribe.call(context)).rejects.toThrow();
		const made = calls.find((call) => call.method === 'POST')?.body as IDataObject;
		expect(sent(calls)).toContain(
			`DELETE /webhooks/unsubscribe ${JSON.stringify({ zapId: made.zapId })}`,
		);
	});
});

describe('unsubscribe (deactivation)', () => {
	it('removes the subscriptions activation made', async () => {
		const staticData: StaticData = { node: {}, global: {} };
		const activation = hook({ staticData });
		await subscribe.call(activation.context);
		const zapIds = activation.calls.map((call) => (call.body as IDataObject).zapId);
		const deactivation = hook({ staticData: { node: staticData.node, global: {} } });
		await expect(unsubscribe.call(deactivation.context)).resolves.toBe(true);
		expect(
			deactivation.calls.map((call) => [call.method, call.path, (call.body as IDataObject).zapId]),
		).toEqual(zapIds.map((zapId) => ['DELETE', '/webhooks/unsubscribe', zapId]));
	});
});

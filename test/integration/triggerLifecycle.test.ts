/**
 * Customer Banking Trigger: webhook lifecycle (checkExists / create / delete) against the sandbox.
 */
import type { IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { planSubscriptions } from '../../nodes/CustomerBankingTrigger/subscriptions';
import type { SubscriptionOwner } from '../../nodes/CustomerBankingTrigger/subscriptions';
import { credentialsFor } from '../helpers/sandboxCredentials';
import { startSandbox } from '../sandbox';
import type { Sandbox } from '../sandbox';
import { hookContext, hooks, newStaticData } from './triggerFixtures';
import type { TriggerParameters } from './triggerFixtures';

const PRODUCTION_URL = 'http://127.0.0.1:5678/webhook/webhook-1/webhook';
const TEST_URL = 'http://127.0.0.1:5678/webhook-test/webhook-1/webhook';
const BOTH = ['transactionReceived', 'transactionConfirmed'];

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 5 });
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(() => {
	sandbox.control.reset();
});

function pairsOf(subscriptions: Array<{ xaid: string; event: string }>): string[] {
	return subscriptions.map(({ xaid, event }) => `${xaid}/${event}`).sort();
}

function owner(webhookUrl: string, isTest: boolean): SubscriptionOwner {
	return { workflowId: 'workflow-42', nodeId: 'trigger-node-1', webhookUrl, isTest };
}

/** The status of a successful unsubscribe: 200 with the record, or 204 (spec: "response body not shown"). */
const removed = () => (sandbox.variants.unsubscribeAnswer === 'empty' ? 204 : 200);

function apiCalls(method: string, path: string) {
	return sandbox.control
		.requests()
		.filter((entry) => entry.method === method && entry.path === path);
}

/** Makes the sandbox fail one POST /webhooks/subscribe, the `nth` one this context sends. */
function failNthSubscribe(
	context: ReturnType<typeof hookContext>['context'],
	nth: number,
	fault: { kind: 'status'; status: number } | { kind: 'commitThenDrop' },
) {
	const send = context.helpers.httpRequestWithAuthentication;
	let subscribes = 0;
	context.helpers.httpRequestWithAuthentication = async function (
		type: string,
		options: IHttpRequestOptions,
	) {
		if (
			options.method === 'POST' &&
			options.url.endsWith('/webhooks/subscribe') &&
			++subscribes === nth
		) {
			sandbox.control.setFaults([
				{ method: 'POST', path: '/webhooks/subscribe', times: 1, ...fault },
			]);
		}
		return await send.call(this, type, options);
	};
}

describe('activation', () => {
	it('creates exactly accounts × events subscriptions, with the derived zapIds and the webhook URL', async () => {
		const { gbp, eur } = sandbox.seeded.accounts;
		const parameters: TriggerParameters = { accounts: [gbp, eur], events: BOTH };
		const { context, staticData } = hookContext(credentialsFor(sandbox), parameters, {
			webhookUrl: PRODUCTION_URL,
		});

		expect(await hooks.checkExists.call(context)).toBe(false);
		expect(await hooks.create.call(context)).toBe(true);

		const subscriptions = sandbox.control.subscriptions();
		expect(pairsOf(subscriptions)).toEqual(
			[
				`${gbp}/TransactionReceived`,
				`${gbp}/TransactionConfirmed`,
				`${eur}/TransactionReceived`,
				`${eur}/TransactionConfirmed`,
			].sort(),
		);
		const planned = planSubscriptions(
			owner(PRODUCTION_URL, false),
			[gbp, eur],
			['transactionReceived', 'transactionConfirmed'],
		);
		expect(subscriptions.map((s) => s.zapId).sort()).toEqual(planned.map((t) => t.zapId).sort());
		expect(new Set(subscriptions.map((s) => s.url))).toEqual(new Set([PRODUCTION_URL]));
		expect([...(staticData.node.subscribedZapIds as string[])].sort()).toEqual(
			planned.map((t) => t.zapId).sort(),
		);

		// The API cannot list subscriptions: every activation subscribes again, whatever was recorded.
		expect(await hooks.checkExists.call(context)).toBe(false);
	});

	it('re-activating, or activating after the static data was lost, creates no duplicates', async () => {
		const { gbp } = sandbox.seeded.accounts;
		const parameters: TriggerParameters = { accounts: [gbp], events: BOTH };
		const first = hookContext(credentialsFor(sandbox), parameters, { webhookUrl: PRODUCTION_URL });
		await hooks.create.call(first.context);
		const created = sandbox.control.subscriptions();
		const refs = created.map((s) => s.ref).sort();
		const zapIds = created.map((s) => s.zapId).sort();

		await hooks.create.call(first.context);
		const afterReactivation = sandbox.control.subscriptions().map((s) => s.ref);
		const lost = hookContext(credentialsFor(sandbox), parameters, { webhookUrl: PRODUCTION_URL });
		expect(await hooks.checkExists.call(lost.context)).toBe(false);
		await hooks.create.call(lost.context);

		const subscriptions = sandbox.control.subscriptions();
		expect(subscriptions).toHaveLength(2);
		expect(subscriptions.map((s) => s.zapId).sort()).toEqual(zapIds);
		expect(pairsOf(subscriptions)).toEqual(
			[`${gbp}/TransactionReceived`, `${gbp}/TransactionConfirmed`].sort(),
		);
		if (sandbox.variants.resubscribe === 'refuse') {
			// a bank that refuses a known zapId (409): the trigger unsubscribes and subscribes again, so
			// each activation gives the same zapIds new refs
			const refsSeen = [...refs, ...afterReactivation, ...subscriptions.map((s) => s.ref)];
			expect(new Set(refsSeen).size).toBe(6);
			expect(apiCalls('POST', '/webhooks/subscribe').map((entry) => entry.status)).toEqual([
				201, 201, 409, 201, 409, 201, 409, 201, 409, 201,
			]);
		} else {
			expect(subscriptions.map((s) => s.ref).sort()).toEqual(refs);
		}
	});

	it('keeps test and production subscriptions apart', async () => {
		const { gbp } = sandbox.seeded.accounts;
		const parameters: TriggerParameters = { accounts: [gbp], events: BOTH };
		const production = hookContext(credentialsFor(sandbox), parameters, {
			webhookUrl: PRODUCTION_URL,
		});
		const test = hookContext(credentialsFor(sandbox), parameters, {
			webhookUrl: TEST_URL,
			mode: 'manual',
			activationMode: 'manual',
		});

		await hooks.create.call(production.context);
		await hooks.create.call(test.context);
		const all = sandbox.control.subscriptions();
		expect(all).toHaveLength(4);
		const testIds = all.filter((s) => s.url === TEST_URL).map((s) => s.zapId);
		const productionIds = all.filter((s) => s.url === PRODUCTION_URL).map((s) => s.zapId);
		expect(testIds).toHaveLength(2);
		expect(productionIds).toHaveLength(2);
		expect(testIds.every((id) => id.startsWith('n8n-test-'))).toBe(true);
		expect(productionIds.every((id) => id.startsWith('n8n-prod-'))).toBe(true);

		// Stopping the test listener leaves production alone.
		await hooks.delete.call(test.context);
		expect(sandbox.control.subscriptions().map((s) => s.url)).toEqual([
			PRODUCTION_URL,
			PRODUCTION_URL,
		]);
	});

	it('refuses to activate without a webhook signing secret, before any request', async () => {
		const credentials = {
			...credentialsFor(sandbox),
			webhookSigningSecret: '  ',
			webhookSigningSecretPrevious: '',
		};
		const { context } = hookContext(credentials, {
			accounts: [sandbox.seeded.accounts.gbp],
			events: BOTH,
		});
		sandbox.control.clearRequests();

		expect(await hooks.checkExists.call(context)).toBe(false);
		const failure = hooks.create.call(context);
		await expect(failure).rejects.toBeInstanceOf(NodeOperationError);
		await expect(failure).rejects.toThrow(
			'Set "Webhook Signing Secret" in the Customer Banking credential',
		);
		expect(sandbox.control.requests()).toEqual([]);
		expect(sandbox.control.subscriptions()).toEqual([]);
	});

	it("with a production credential, refuses a webhook address that is not https, naming n8n's WEBHOOK_URL, before any request", async () => {
		// never reached: activation stops before anything is sent
		const credentials = {
			...credentialsFor(sandbox),
			environment: 'production',
			baseUrl: 'https://api.bank.example.com',
			tokenUrl: 'https://auth.bank.example.com',
		};
		const { context } = hookContext(
			credentials,
			{ accounts: [sandbox.seeded.accounts.gbp], events: BOTH },
			{ webhookUrl: PRODUCTION_URL },
		);
		sandbox.control.clearRequests();
		const failure = hooks.create.call(context);
		await expect(failure).rejects.toBeInstanceOf(NodeOperationError);
		await expect(failure).rejects.toThrow(/not https \(http:\/\/127\.0\.0\.1:5678\)/);
		await expect(failure).rejects.toMatchObject({
			description: expect.stringContaining('WEBHOOK_URL'),
		});
		expect(sandbox.control.requests()).toEqual([]);
	});

	it("with a sandbox credential, subscribes a webhook address that is not https and logs a warning naming n8n's WEBHOOK_URL", async () => {
		const parameters = { accounts: [sandbox.seeded.accounts.gbp], events: BOTH };
		const { context, logs } = hookContext(credentialsFor(sandbox), parameters, {
			webhookUrl: PRODUCTION_URL,
		});
		expect(await hooks.create.call(context)).toBe(true);
		expect(sandbox.control.subscriptions().map((s) => s.url)).toEqual([
			PRODUCTION_URL,
			PRODUCTION_URL,
		]);
		const warnings = logs.filter((entry) => entry.level === 'warn').map((entry) => entry.message);
		expect(warnings).toEqual([
			expect.stringMatching(/not https \(http:\/\/127\.0\.0\.1:5678\).*WEBHOOK_URL/),
		]);
		await hooks.delete.call(context);
		// an https address: no warning
		const https = hookContext(credentialsFor(sandbox), parameters, {
			webhookUrl: 'https://n8n.example.com/webhook/webhook-1/webhook',
		});
		expect(await hooks.create.call(https.context)).toBe(true);
		expect(https.logs.filter((entry) => entry.level === 'warn')).toEqual([]);
		await hooks.delete.call(https.context);
	});

	it('names the field when no account or no event is chosen, before any request', async () => {
		const { context } = hookContext(credentialsFor(sandbox), { accounts: [], events: [] });
		sandbox.control.clearRequests();
		await expect(hooks.create.call(context)).rejects.toThrow(
			'Accounts must contain at least one account; Events must contain at least one event',
		);
		expect(sandbox.control.requests()).toEqual([]);
	});
});

describe('all-or-nothing create', () => {
	const fourSubscriptions = (): TriggerParameters => ({
		accounts: [sandbox.seeded.accounts.gbp, sandbox.seeded.accounts.eur],
		events: BOTH,
	});

	it('rolls back the first two when the third of four subscribe calls fails, and says which failed', async () => {
		const { context, staticData } = hookContext(credentialsFor(sandbox), fourSubscriptions(), {
			webhookUrl: PRODUCTION_URL,
		});
		failNthSubscribe(context, 3, { kind: 'status', status: 500 });

		const failure = hooks.create.call(context);
		await expect(failure).rejects.toBeInstanceOf(NodeOperationError);
		await expect(failure).rejects.toThrow(
			`Could not subscribe account ${sandbox.seeded.accounts.eur} to Transaction Received (subscription 3 of 4)`,
		);

		expect(sandbox.control.subscriptions()).toEqual([]);
		expect(apiCalls('POST', '/webhooks/subscribe')).toHaveLength(3);
		// The two made are removed; the failed one is unsubscribed too, in case the bank committed it (404 here).
		expect(apiCalls('DELETE', '/webhooks/unsubscribe').map((entry) => entry.status)).toEqual([
			removed(),
			removed(),
			404,
		]);
		expect(staticData.node.subscribedZapIds).toBeUndefined();
	});

	it('also removes the failed subscription when the bank committed it but the answer was lost', async () => {
		const { context } = hookContext(credentialsFor(sandbox), fourSubscriptions(), {
			webhookUrl: PRODUCTION_URL,
		});
		failNthSubscribe(context, 3, { kind: 'commitThenDrop' });

		await expect(hooks.create.call(context)).rejects.toThrow('(subscription 3 of 4)');
		expect(apiCalls('DELETE', '/webhooks/unsubscribe').map((entry) => entry.status)).toEqual([
			removed(),
			removed(),
			removed(),
		]);
		expect(sandbox.control.subscriptions()).toEqual([]);
	});

	it("rolls back when the bank refuses an account that is not the caller's (401)", async () => {
		const { gbp, otherWorkspace } = sandbox.seeded.accounts;
		const { context } = hookContext(credentialsFor(sandbox), {
			accounts: [gbp, otherWorkspace],
			events: BOTH,
		});

		await expect(hooks.create.call(context)).rejects.toThrow(
			`Could not subscribe account ${otherWorkspace} to Transaction Received (subscription 3 of 4)`,
		);
		expect(sandbox.control.subscriptions()).toEqual([]);
	});

	it('keeps a subscription whose rollback failed recorded, so deactivation removes it', async () => {
		const { context, staticData } = hookContext(credentialsFor(sandbox), fourSubscriptions(), {
			webhookUrl: PRODUCTION_URL,
		});
		const send = context.helpers.httpRequestWithAuthentication;
		let subscribes = 0;
		context.helpers.httpRequestWithAuthentication = async function (
			type: string,
			options: IHttpRequestOptions,
		) {
			if (options.url.endsWith('/webhooks/subscribe') && ++subscribes === 3) {
				sandbox.control.setFaults([
					{ method: 'POST', path: '/webhooks/subscribe', kind: 'status', status: 500, times: 1 },
					{
						method: 'DELETE',
						path: '/webhooks/unsubscribe',
						kind: 'status',
						status: 500,
						times: 1,
					},
				]);
			}
			return await send.call(this, type, options);
		};

		await expect(hooks.create.call(context)).rejects.toThrow('(subscription 3 of 4)');
		const left = sandbox.control.subscriptions();
		expect(left).toHaveLength(1);
		expect(staticData.node.subscribedZapIds).toEqual([left[0].zapId]);

		sandbox.control.clearFaults();
		await hooks.delete.call(context);
		expect(sandbox.control.subscriptions()).toEqual([]);
	});
});

describe('deactivation', () => {
	it('leaves zero subscriptions and forgets them', async () => {
		const { gbp, eur } = sandbox.seeded.accounts;
		const { context, staticData } = hookContext(credentialsFor(sandbox), {
			accounts: [gbp, eur],
			events: BOTH,
		});
		await hooks.create.call(context);
		expect(sandbox.control.subscriptions()).toHaveLength(4);

		expect(await hooks.delete.call(context)).toBe(true);
		expect(sandbox.control.subscriptions()).toEqual([]);
		expect(staticData.node).toEqual({});
	});

	it('removes the derived subscriptions even when the static data was lost, and tolerates ones already gone', async () => {
		const parameters: TriggerParameters = { accounts: [sandbox.seeded.accounts.gbp], events: BOTH };
		await hooks.create.call(hookContext(credentialsFor(sandbox), parameters).context);

		const lost = hookContext(credentialsFor(sandbox), parameters);
		await hooks.delete.call(lost.context);
		expect(sandbox.control.subscriptions()).toEqual([]);

		// Everything is gone now: every unsubscribe answers 404, and that is fine.
		await expect(hooks.delete.call(lost.context)).resolves.toBe(true);
		expect(
			apiCalls('DELETE', '/webhooks/unsubscribe').filter((entry) => entry.status === 404),
		).toHaveLength(2);
	});

	it('reports an unsubscribe that failed and keeps it recorded for the next attempt', async () => {
		const { context, staticData } = hookContext(credentialsFor(sandbox), {
			accounts: [sandbox.seeded.accounts.gbp],
			events: ['transactionReceived'],
		});
		await hooks.create.call(context);
		const [subscription] = sandbox.control.subscriptions();
		sandbox.control.setFaults([
			{ method: 'DELETE', path: '/webhooks/unsubscribe', kind: 'status', status: 500, times: 1 },
		]);

		await expect(hooks.delete.call(context)).rejects.toThrow(
			`Could not remove 1 webhook subscription(s): ${subscription.zapId}`,
		);
		expect(staticData.node.subscribedZapIds).toEqual([subscription.zapId]);

		await hooks.delete.call(context);
		expect(sandbox.control.subscriptions()).toEqual([]);
	});
});

describe('changing accounts or events of an active workflow', () => {
	it('re-activation with new parameters leaves no stale subscription behind', async () => {
		const { gbp, eur } = sandbox.seeded.accounts;
		const staticData = newStaticData();
		const before = hookContext(
			credentialsFor(sandbox),
			{ accounts: [gbp], events: BOTH },
			{ staticData },
		);
		await hooks.create.call(before.context);

		const after = hookContext(
			credentialsFor(sandbox),
			{ accounts: [eur], events: ['transactionReceived'] },
			{ staticData },
		);
		expect(await hooks.checkExists.call(after.context)).toBe(false);
		// checkExists never deletes anything.
		expect(sandbox.control.subscriptions()).toHaveLength(2);
		expect(apiCalls('DELETE', '/webhooks/unsubscribe')).toEqual([]);

		await hooks.create.call(after.context);
		expect(pairsOf(sandbox.control.subscriptions())).toEqual([`${eur}/TransactionReceived`]);
	});

	it('delete with the new parameters also removes the ones recorded under the old parameters', async () => {
		const { gbp, eur } = sandbox.seeded.accounts;
		const staticData = newStaticData();
		await hooks.create.call(
			hookContext(credentialsFor(sandbox), { accounts: [gbp], events: BOTH }, { staticData })
				.context,
		);

		await hooks.delete.call(
			hookContext(credentialsFor(sandbox), { accounts: [eur], events: BOTH }, { staticData })
				.context,
		);
		expect(sandbox.control.subscriptions()).toEqual([]);
	});
});

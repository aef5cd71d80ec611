/**
 * After every activation n8n reports as successful, every account × event subscription is
 * live at the bank, whatever happened to earlier activations and deactivations; after the last
 * successful deactivation nothing is left. The node's static data is handled as n8n 2.41.1 handles it
 * (active-workflow-manager: saved only after every webhook method of an activation or deactivation
 * succeeded; a failure leaves what was saved before), not shared live between calls.
 */
import type { IDataObject } from 'n8n-workflow';

import type { BankingEvent } from '../../nodes/CustomerBankingTrigger/events';
import { planSubscriptions } from '../../nodes/CustomerBankingTrigger/subscriptions';
import { credentialsFor } from '../helpers/sandboxCredentials';
import { startSandbox } from '../sandbox';
import type { Sandbox } from '../sandbox';
import type { FaultRule } from '../sandbox/faults';
import type { VariantsOption } from '../sandbox/variants';
import { hookContext, hooks } from './triggerFixtures';
import type { TriggerParameters } from './triggerFixtures';

const WEBHOOK_URL = 'http://127.0.0.1:5678/webhook/churn-1/webhook';
const BOTH = ['transactionReceived', 'transactionConfirmed'];
const CYCLES = 100;

/** n8n's activation and deactivation of one webhook trigger, with its static-data persistence. */
class N8nActivation {
	private saved: IDataObject = {};
	/** One stored credential, so its token is reused as n8n reuses it. */
	private readonly credentials;

	constructor(
		sandbox: Sandbox,
		private readonly parameters: TriggerParameters,
	) {
		this.credentials = credentialsFor(sandbox);
	}

	private context() {
		const staticData = { node: structuredClone(this.saved), global: {} };
		const { context } = hookContext(this.credentials, this.parameters, {
			staticData,
			webhookUrl: WEBHOOK_URL,
		});
		return { context, staticData };
	}

	/** True when n8n would report the workflow active. */
	async activate(): Promise<boolean> {
		const { context, staticData } = this.context();
		try {
			if (!(await hooks.checkExists.call(context))) await hooks.create.call(context);
		} catch {
			return false;
		}
		this.saved = staticData.node;
		return true;
	}

	async deactivate(): Promise<boolean> {
		const { context, staticData } = this.context();
		try {
			await hooks.delete.call(context);
		} catch {
			return false;
		}
		this.saved = staticData.node;
		return true;
	}
}

/** About 30% of subscribe and unsubscribe calls fail: half answer 500, half commit and lose the answer. */
const CHURN_FAULTS: FaultRule[] = ['POST', 'DELETE'].flatMap((method) => {
	const path = method === 'POST' ? '/webhooks/subscribe' : '/webhooks/unsubscribe';
	return [
		{ method, path, kind: 'status', status: 500, probability: 0.16 },
		{ method, path, kind: 'commitThenDrop', probability: 0.17 },
	] as FaultRule[];
});

describe.each<[string, VariantsOption]>([
	['a bank that replaces a re-subscribed zapId', { resubscribe: 'replace' }],
	[
		'a bank that refuses a re-subscribed zapId (409) and answers unsubscribe with 204',
		'specMinimal',
	],
])('activation churn with failing subscribe/unsubscribe calls, %s', (_name, variants) => {
	let sandbox: Sandbox;

	beforeAll(async () => {
		sandbox = await startSandbox({ seed: 10, variants });
	});

	afterAll(async () => {
		await sandbox.close();
	});

	it(`${CYCLES} activate/deactivate cycles: every successful activation leaves every subscription live, none is left after the last deactivation`, async () => {
		const { gbp, eur } = sandbox.seeded.accounts;
		const parameters: TriggerParameters = { accounts: [gbp, eur], events: BOTH };
		const planned = planSubscriptions(
			{
				workflowId: 'workflow-42',
				nodeId: 'trigger-node-1',
				webhookUrl: WEBHOOK_URL,
				isTest: false,
			},
			parameters.accounts,
			BOTH as BankingEvent[],
		);
		const n8n = new N8nActivation(sandbox, parameters);
		sandbox.control.setFaults(CHURN_FAULTS);

		const tally = {
			activated: 0,
			activationFailed: 0,
			deactivated: 0,
			deactivationFailed: 0,
			missingAfterActivation: 0,
		};
		for (let cycle = 0; cycle < CYCLES; cycle++) {
			if (await n8n.activate()) {
				tally.activated++;
				const live = new Map(sandbox.control.subscriptions().map((s) => [s.zapId, s]));
				const missing = planned.filter((target) => live.get(target.zapId)?.url !== WEBHOOK_URL);
				tally.missingAfterActivation += missing.length;
			} else {
				tally.activationFailed++;
			}
			if (await n8n.deactivate()) tally.deactivated++;
			else tally.deactivationFailed++;
		}

		sandbox.control.setFaults([]);
		expect(await n8n.deactivate()).toBe(true);
		const left = sandbox.control.subscriptions().length;
		console.log(
			`churn (${_name}): ${JSON.stringify(tally)}, subscriptions left after the last deactivation: ${left}`,
		);

		// the faults really hit both sides, or the test proves nothing
		expect(tally.activated).toBeGreaterThan(10);
		expect(tally.activationFailed).toBeGreaterThan(10);
		expect(tally.deactivationFailed).toBeGreaterThan(10);
		expect(tally.missingAfterActivation).toBe(0);
		expect(left).toBe(0);
	});
});

import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { APP_DESCRIPTION } from '../CustomerBanking/appDescription';
import { getAccounts } from '../CustomerBanking/methods/loadOptions';
import {
	admittedDelivery,
	Answer,
	deliveryFacts,
	deliveryOutput,
	handedOver,
	parsedPayload,
	verifiedDelivery,
	watchedDelivery,
} from './deliverySteps';
import { triggerProperties } from './description';
import { forgetSigningSecrets, readSigningSecrets } from './signingSecrets';
import {
	optionProblems,
	readAccounts,
	readEvents,
	readEventValues,
	readMaxRunning,
	readScheme,
	schemeProblems,
	subscriptionProblems,
} from './triggerParameters';
import {
	planSubscriptions,
	removeStaleSubscriptions,
	removeSubscriptions,
	subscribeAllOrNothing,
} from './subscriptions';
import type { SubscriptionOwner, SubscriptionTarget } from './subscriptions';
import { webhookAddressCheck } from './webhookAddress';

import { CREDENTIAL_TYPE as CREDENTIAL } from '../CustomerBanking/transport/credentialRules';

/** Undefined when n8n has no URL for the webhook (nothing can be planned then). */
function subscriptionOwner(this: IHookFunctions): SubscriptionOwner | undefined {
	const webhookUrl = this.getNodeWebhookUrl('default');
	if (!webhookUrl) return undefined;
	return {
		workflowId: this.getWorkflow().id ?? '',
		nodeId: this.getNode().id,
		webhookUrl,
		// n8n registers test webhooks (the editor's "listen for test event") in manual mode.
		isTest: this.getMode() === 'manual',
	};
}

/**
 * Production refuses a webhook address that is not https; the sandbox subscribes it with a warning in
 * n8n's log (a webhook's `create` has no other way to warn: n8n shows only a thrown error).
 */
async function checkWebhookAddress(this: IHookFunctions, webhookUrl: string): Promise<void> {
	const { environment } = await this.getCredentials(CREDENTIAL);
	const check = webhookAddressCheck(webhookUrl, environment);
	if (check.verdict === 'refuse') {
		throw new NodeOperationError(this.getNode(), check.message, {
			description: check.description,
		});
	}
	if (check.verdict === 'warn') {
		this.logger.warn(`Customer Banking Trigger: ${check.message}. ${check.description}`);
	}
}

function plannedSubscriptions(this: IHookFunctions): SubscriptionTarget[] {
	const owner = subscriptionOwner.call(this);
	if (!owner) return [];
	return planSubscriptions(owner, readAccounts.call(this), readEvents.call(this));
}

export class CustomerBankingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Customer Banking Trigger',
		name: 'customerBankingTrigger',
		icon: {
			light: 'file:../../icons/customerBanking.svg',
			dark: 'file:../../icons/customerBanking.dark.svg',
		},
		group: ['trigger'],
		// Same behaviour in both. For a webhook start node of version 1, n8n evaluates a binaryData
		// expression on every delivery (an expression sandbox per request in n8n 2.x); from 1.1 it only
		// parses the JSON body, so new triggers are 1.1 and saved workflows keep working as 1.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{ [].concat($parameter["events"]).join(", ") }}',
		// the nodes panel shows this for the app's one entry, actions included (appDescription.ts)
		description: APP_DESCRIPTION,
		defaults: { name: 'Customer Banking Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL, required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				// n8n answers the bank once the execution has ended, without its data (runningDeliveries.ts)
				responseMode: 'lastNode',
				responseData: 'noData',
				path: 'webhook',
			},
		],
		properties: triggerProperties,
	};

	methods = { loadOptions: { getAccounts } };

	webhookMethods = {
		default: {
			// The API cannot list subscriptions, and what the static data records may be gone at the bank (a
			// deactivation that failed part-way is not saved by n8n, a subscription may be removed on the
			// bank's side). So every activation subscribes again: `create` ends with each one live.
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return false;
			},

			async create(this: IHookFunctions): Promise<boolean> {
				const problems = [
					...subscriptionProblems(readAccounts.call(this), readEventValues.call(this)),
					...schemeProblems(readScheme.call(this)),
					...optionProblems(readMaxRunning.call(this)),
				];
				if (problems.length > 0) {
					throw new NodeOperationError(this.getNode(), problems.join('; '));
				}
				// Fail closed: without a secret no delivery could ever be verified (spec §Events rule 1).
				if ((await readSigningSecrets.call(this, Date.now())).length === 0) {
					throw new NodeOperationError(
						this.getNode(),
						'Set "Webhook Signing Secret" in the Customer Banking credential before activating this trigger',
						{
							description:
								'Deliveries are only accepted with a valid signature, and without the secret none can be verified.',
						},
					);
				}
				const owner = subscriptionOwner.call(this);
				if (!owner) {
					throw new NodeOperationError(this.getNode(), 'n8n has no webhook URL for this trigger');
				}
				await checkWebhookAddress.call(this, owner.webhookUrl);
				const planned = planSubscriptions(owner, readAccounts.call(this), readEvents.call(this));
				const staticData = this.getWorkflowStaticData('node');
				await subscribeAllOrNothing.call(this, planned, owner.webhookUrl, staticData);
				await removeStaleSubscriptions.call(this, staticData, planned);
				return true;
			},

			async delete(this: IHookFunctions): Promise<boolean> {
				forgetSigningSecrets.call(this);
				const staticData = this.getWorkflowStaticData('node');
				await removeSubscriptions.call(this, staticData, plannedSubscriptions.call(this));
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const delivery = await verifiedDelivery.call(this);
		if (delivery instanceof Answer) return delivery.response;
		const payload = parsedPayload.call(this, delivery.rawBody);
		if (payload instanceof Answer) return payload.response;
		const facts = deliveryFacts.call(this, payload);
		if (facts instanceof Answer) return facts.response;
		const watched = watchedDelivery.call(this, facts);
		if (watched instanceof Answer) return watched.response;
		const admission = await admittedDelivery.call(this, watched, delivery);
		if (admission instanceof Answer) return admission.response;
		const output = await deliveryOutput.call(this, watched, admission);
		return handedOver.call(this, output, admission);
	}
}

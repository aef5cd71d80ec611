import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { APP_DESCRIPTION } from '../shared/appDescription';
import { getAccounts } from '../shared/methods/loadOptions';
import { CREDENTIAL_TYPE as CREDENTIAL } from '../shared/transport/credentialRules';
import { admit } from './admission';
import { Answer } from './answers';
import {
	deliveryFacts,
	deliveryOutput,
	parsedPayload,
	verifiedDelivery,
	watchedDelivery,
} from './deliverySteps';
import { triggerProperties } from './description';
import { subscribe, unsubscribe } from './subscriptionLifecycle';

export class CustomerBankingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Customer Banking Trigger',
		name: 'customerBankingTrigger',
		icon: {
			light: 'file:../../icons/customerBanking.svg',
			dark: 'file:../../icons/customerBanking.dark.svg',
		},
		group: ['trigger'],
		// One version, above 1: for a webhook start node of version 1, n8n evaluates a binaryData
		// expression on every delivery (shared/n8nInternals.ts 5.).
		version: 1.1,
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
				return await subscribe.call(this);
			},

			async delete(this: IHookFunctions): Promise<boolean> {
				return await unsubscribe.call(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const delivery = await verifiedDelivery.call(this);
		if (delivery instanceof Answer) return delivery.response;
		const payload = parsedPayload.call(this, delivery.rawBody);
		if (payload instanceof Answer) return payload.response;
		const facts = deliveryFacts.call(this, payload, delivery.messageId);
		if (facts instanceof Answer) return facts.response;
		const watched = watchedDelivery.call(this, facts);
		if (watched instanceof Answer) return watched.response;
		const item = await admit(this, watched, delivery, deliveryOutput.bind(this, watched));
		if (item instanceof Answer) return item.response;
		return { workflowData: [[{ json: item }]] };
	}
}

import type { IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE as CREDENTIAL } from '../shared/transport/credentialRules';
import { forgetSigningSecrets, readSigningSecrets } from './signingSecrets';
import {
	planSubscriptions,
	removeStaleSubscriptions,
	removeSubscriptions,
	subscribeAllOrNothing,
} from './subscriptions';
import type { SubscriptionOwner, SubscriptionTarget } from './subscriptions';
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
import { webhookAddressCheck } from './webhookAddress';

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

/**
 * Activation (the webhook's `create`): the parameters and the signing secret checked, then every planned
 * subscription made live at the bank, and those of an earlier activation no longer planned removed.
 */
export async function subscribe(this: IHookFunctions): Promise<boolean> {
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
}

/** Deactivation (the webhook's `delete`): the secrets forgotten, the subscriptions removed. */
export async function unsubscribe(this: IHookFunctions): Promise<boolean> {
	forgetSigningSecrets.call(this);
	const staticData = this.getWorkflowStaticData('node');
	await removeSubscriptions.call(this, staticData, plannedSubscriptions.call(this));
	return true;
}

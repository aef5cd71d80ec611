import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { getAccounts } from '../CustomerBanking/methods/loadOptions';
import { checkId } from '../CustomerBanking/validation/ids';
import { apiRequest } from '../CustomerBanking/transport';
import { triggerProperties } from './description';
import {
	deliveryKey,
	IN_FLIGHT_RETRY_AFTER_SECONDS,
	ledgerFor,
	persistedAsTaken,
	persistRecentKeys,
	retentionFor,
} from './deliveryLedger';
import { noteRefusal } from './refusalLog';
import { verifyDelivery } from './signature';
import {
	forgetSigningSecrets,
	readSigningSecrets,
	recentSigningSecrets,
	rereadSigningSecrets,
} from './signingSecrets';
import {
	readAccounts,
	readEvents,
	readEventValues,
	readFetchTransaction,
	readPayloadFields,
	readScheme,
	schemeProblems,
	subscriptionProblems,
} from './triggerParameters';
import {
	isBankingEvent,
	planSubscriptions,
	removeStaleSubscriptions,
	removeSubscriptions,
	subscribeAllOrNothing,
} from './subscriptions';
import type { SubscriptionOwner, SubscriptionTarget } from './subscriptions';

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

function plannedSubscriptions(this: IHookFunctions): SubscriptionTarget[] {
	const owner = subscriptionOwner.call(this);
	if (!owner) return [];
	return planSubscriptions(owner, readAccounts.call(this), readEvents.call(this));
}

/** Refuses a delivery without starting an execution. */
function refuse(this: IWebhookFunctions, status: 400 | 401): IWebhookResponseData {
	this.getResponseObject().status(status).end();
	return { noWebhookResponse: true };
}

/** Asks the bank to deliver again later, without starting an execution. */
function deferDelivery(this: IWebhookFunctions, retryAfterSeconds: number, reason: string): IWebhookResponseData {
	const response = this.getResponseObject();
	response.status(503);
	response.setHeader('Retry-After', String(retryAfterSeconds));
	response.json({ received: false, reason });
	return { noWebhookResponse: true };
}

/** Acknowledges a delivery with 200 without starting an execution. */
function acknowledge(reason: string): IWebhookResponseData {
	return { webhookResponse: { received: true, emitted: false, reason } };
}

function optionalString(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value : undefined;
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
		description:
			'Starts the workflow when money arrives on a Customer Banking account or an outgoing payment settles',
		defaults: { name: 'Customer Banking Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL, required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
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
		// Verify first, before reading anything from the body (spec §Events rule 1, fail-closed).
		const scheme = readScheme.call(this);
		const request = this.getRequestObject();
		const headers = this.getHeaderData();
		const nowMs = Date.now();
		const nowSeconds = Math.floor(nowMs / 1000);
		const verify = (secrets: string[]) =>
			verifyDelivery({ rawBody: request.rawBody, headers, secrets, scheme, nowSeconds });
		const remembered = recentSigningSecrets.call(this, nowMs);
		let verdict =
			schemeProblems(scheme).length > 0
				? ({ valid: false, reason: 'misconfiguredScheme' } as const)
				: verify(remembered ?? (await readSigningSecrets.call(this, nowMs)));
		// a secret set in the credential since it was read: read it again before refusing (rate-limited,
		// since anybody can send a delivery with a bad signature)
		if (remembered && !verdict.valid && (verdict.reason === 'badSignature' || verdict.reason === 'noSecret')) {
			const reread = await rereadSigningSecrets.call(this, nowMs);
			if (reread) verdict = verify(reread);
		}
		if (!verdict.valid) {
			noteRefusal.call(this, verdict.reason, nowMs);
			return refuse.call(this, 401);
		}

		// spec §Events rule 3: the payload shape is not shown; the field names are the node's Payload Field
		// Names (defaults: DECISIONS.md §Webhooks). Parsed from the verified bytes only.
		const rawBody = Buffer.isBuffer(request.rawBody)
			? request.rawBody
			: Buffer.from(String(request.rawBody), 'utf8');
		let payload: IDataObject;
		try {
			const parsed: unknown = JSON.parse(rawBody.toString('utf8'));
			if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
				return refuse.call(this, 400);
			}
			payload = parsed as IDataObject;
		} catch {
			this.logger.warn('Customer Banking Trigger: refused a signed delivery whose body is not JSON');
			return refuse.call(this, 400);
		}
		const fields = readPayloadFields.call(this);
		const field = (name: string): unknown => (Object.hasOwn(payload, name) ? payload[name] : undefined);
		const event = field(fields.event);
		const account = checkId(field(fields.account), 'text');
		const transaction = checkId(field(fields.transaction), 'text');
		const xaid = account.valid ? account.id : undefined;
		const xtid = transaction.valid ? transaction.id : undefined;
		if (!isBankingEvent(event) || !xaid || !xtid) {
			this.logger.warn(
				`Customer Banking Trigger: refused a signed delivery without ${fields.event}, ${fields.account} or ${fields.transaction} (see Payload Field Names)`,
			);
			return refuse.call(this, 400);
		}

		// A subscription left over from other accounts or events is acknowledged, not emitted.
		if (!readAccounts.call(this).includes(xaid) || !readEvents.call(this).includes(event)) {
			return acknowledge('account or event not watched by this trigger');
		}

		// Retries and replays keep their delivery id (DECISIONS.md §Webhooks): the key is claimed before any
		// await, so copies arriving while this one runs cannot start another execution.
		const fetchTransaction = readFetchTransaction.call(this);
		const deliveryId = optionalString(field(fields.deliveryId));
		const key = deliveryKey(deliveryId, rawBody);
		const retention = retentionFor(scheme);
		const staticData = this.getWorkflowStaticData('node');
		const ledger = ledgerFor(this.getWorkflow().id ?? '', this.getNode().id || this.getNode().name);
		// emitted before an n8n restart, or by another n8n webhook instance (queue mode)
		if (persistedAsTaken(staticData, key, nowSeconds, retention.keepSeconds)) return acknowledge('duplicate delivery');
		const claim = ledger.claim(key, nowSeconds, retention.keepSeconds, retention.mustKeepSeconds);
		if (claim === 'duplicate') return acknowledge('duplicate delivery');
		if (claim === 'inFlight') {
			// not "received": the first copy may still fail, and then this one must be sent again
			return deferDelivery.call(this, IN_FLIGHT_RETRY_AFTER_SECONDS, 'the same delivery is being processed');
		}
		if (claim === 'full') {
			this.logger.warn('Customer Banking Trigger: too many deliveries inside the replay window; asked the bank to retry');
			return deferDelivery.call(this, 60, 'too many deliveries; send again later');
		}

		const output: IDataObject = {
			event,
			account: xaid,
			xtid,
			deliveryId: deliveryId ?? null,
			occurredAt: optionalString(field(fields.occurredAt)) ?? null,
		};
		// spec §Events rule 2: a delivery is a signal; the full, current record comes from the API.
		// A failure throws NodeApiError (from the transport): n8n answers 500 and the bank retries; the key
		// is given back first, so that retry, and any copy told to wait meanwhile, is processed.
		if (fetchTransaction) {
			const fetched = apiRequest.call(this, { method: 'GET', path: `/transaction/${encodeURIComponent(xtid)}` });
			fetched.catch(() => ledger.release(key));
			output.transaction = await fetched;
		}

		// Nothing of the node's can fail after this point: the execution is handed to n8n when this call
		// returns (both lines' webhook-helpers.js: the response callback, which saves the static data, then
		// the workflow runner). Only now is the key settled, so recognised as a duplicate and persisted.
		ledger.settle(key, Math.floor(Date.now() / 1000));
		persistRecentKeys(staticData, ledger);
		// Answered here, not by n8n: only then does n8n save the static data written above (deliveryLedger.ts).
		const response = this.getResponseObject();
		response.status(200);
		response.json({ received: true, emitted: true });
		return { noWebhookResponse: true, workflowData: [[{ json: output }]] };
	}
}

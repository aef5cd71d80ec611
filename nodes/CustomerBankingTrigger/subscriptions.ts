import { createHash } from 'crypto';
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiFailureOf, ENDPOINTS, request } from '../shared/transport';
import { bankWordOf, eventName } from './events';
import type { BankingEvent } from './events';

export interface SubscriptionTarget {
	zapId: string;
	xaid: string;
	event: BankingEvent;
}

export interface SubscriptionOwner {
	workflowId: string;
	nodeId: string;
	/** The URL the bank delivers to: n8n gives test and production webhooks different URLs. */
	webhookUrl: string;
	isTest: boolean;
}

/**
 * The zapId is derived, never random, from everything that identifies one subscription: the same
 * workflow, node, URL, account and event (the bank's word, what is subscribed) always give the same
 * id. Re-subscribing an existing zapId is an idempotent replace (docs/bank-assumptions.md#resubscribe),
 * so a lost static data or a repeated activation can never leave duplicates, and test and production
 * subscriptions (different URLs) never share an id.
 */
export function deriveZapId(owner: SubscriptionOwner, xaid: string, event: BankingEvent): string {
	const environment = owner.isTest ? 'test' : 'prod';
	const digest = createHash('sha256')
		.update(
			JSON.stringify([
				owner.workflowId,
				owner.nodeId,
				environment,
				owner.webhookUrl,
				xaid,
				bankWordOf(event),
			]),
		)
		.digest('hex');
	return `n8n-${environment}-${digest.slice(0, 40)}`;
}

/** spec §Webhook subscriptions: one subscription per account and event (two of each → four). */
export function planSubscriptions(
	owner: SubscriptionOwner,
	accounts: string[],
	events: BankingEvent[],
): SubscriptionTarget[] {
	return accounts.flatMap((xaid) =>
		events.map((event) => ({ zapId: deriveZapId(owner, xaid, event), xaid, event })),
	);
}

// What the node remembers in its static data: every zapId that may still be live at the bank. n8n saves
// it only after a successful activation or deactivation, so it may list more than the bank has, never
// less than what the last successful activation made.
const SUBSCRIBED_ZAP_IDS = 'subscribedZapIds';

export function readSubscribedZapIds(staticData: IDataObject): string[] {
	const stored = staticData[SUBSCRIBED_ZAP_IDS];
	return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : [];
}

export function writeSubscribedZapIds(staticData: IDataObject, zapIds: Iterable<string>): void {
	const unique = [...new Set(zapIds)];
	if (unique.length === 0) {
		delete staticData[SUBSCRIBED_ZAP_IDS];
		return;
	}
	staticData[SUBSCRIBED_ZAP_IDS] = unique;
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** One POST /webhooks/subscribe { zapId, xaid, url, event } (spec §Webhook subscriptions); the failure, if any. */
async function postSubscription(
	this: IHookFunctions,
	target: SubscriptionTarget,
	url: string,
): Promise<unknown> {
	try {
		await request.call(this, ENDPOINTS.subscribeWebhook.at({}), {
			body: { zapId: target.zapId, xaid: target.xaid, url, event: bankWordOf(target.event) },
		});
		return undefined;
	} catch (error) {
		return error;
	}
}

/**
 * Ends with the subscription live at the bank, or returns why not. The spec does not say what
 * re-subscribing an existing zapId does: it may replace it, or refuse it with 409
 * (docs/bank-assumptions.md#resubscribe).
 * Then the existing one is removed and made again, so this call, not an older one, is what is live.
 */
async function subscribe(
	this: IHookFunctions,
	target: SubscriptionTarget,
	url: string,
): Promise<unknown> {
	const failure = await postSubscription.call(this, target, url);
	if (apiFailureOf(failure)?.kind !== 'conflict') return failure;
	const removed = await unsubscribeEach.call(this, [target.zapId]);
	return removed.failed.length > 0 ? failure : await postSubscription.call(this, target, url);
}

export interface UnsubscribeOutcome {
	/** Deleted now, or already gone (404). */
	removed: string[];
	failed: Array<{ zapId: string; message: string }>;
}

/** Unsubscribes each zapId; a 404 means already gone (docs/bank-assumptions.md#unsubscribe). */
export async function unsubscribeEach(
	this: IHookFunctions,
	zapIds: Iterable<string>,
): Promise<UnsubscribeOutcome> {
	const outcome: UnsubscribeOutcome = { removed: [], failed: [] };
	for (const zapId of new Set(zapIds)) {
		try {
			await request.call(this, ENDPOINTS.unsubscribeWebhook.at({}), { body: { zapId } });
			outcome.removed.push(zapId);
		} catch (error) {
			if (apiFailureOf(error)?.kind === 'notFound') {
				outcome.removed.push(zapId);
			} else {
				outcome.failed.push({ zapId, message: messageOf(error) });
			}
		}
	}
	return outcome;
}

function describeFailures(failed: UnsubscribeOutcome['failed']): string {
	return failed.map(({ zapId, message }) => `${zapId} (${message})`).join('; ');
}

/**
 * Makes every planned subscription or none: when one subscribe call fails, every subscription this call
 * attempted (including the failed one, which the bank may have committed before the answer was lost) is
 * unsubscribed again, and the error names the account and event that failed. Subscriptions whose
 * rollback failed stay in the static data so that `delete` removes them later.
 */
export async function subscribeAllOrNothing(
	this: IHookFunctions,
	targets: SubscriptionTarget[],
	url: string,
	staticData: IDataObject,
): Promise<void> {
	// Recorded before the first call: a subscribe whose answer is lost may still have been made.
	const recordedBefore = readSubscribedZapIds(staticData);
	writeSubscribedZapIds(staticData, [...recordedBefore, ...targets.map((target) => target.zapId)]);
	for (const [index, target] of targets.entries()) {
		const failure = await subscribe.call(this, target, url);
		if (failure !== undefined) {
			const attempted = targets.slice(0, index + 1).map((t) => t.zapId);
			const rollback = await unsubscribeEach.call(this, attempted);
			const leftOver = rollback.failed.map((f) => f.zapId);
			const stillRecorded = [...recordedBefore, ...attempted].filter(
				(zapId) => !rollback.removed.includes(zapId),
			);
			writeSubscribedZapIds(staticData, stillRecorded);

			const rolledBack =
				leftOver.length === 0
					? `The ${index} subscription(s) made before it were removed again, so nothing is left subscribed.`
					: `Removing the subscriptions made before it failed for ${describeFailures(rollback.failed)}; they are removed when the workflow is deactivated.`;
			throw new NodeOperationError(
				this.getNode(),
				`Could not subscribe account ${target.xaid} to ${eventName(target.event)} (subscription ${index + 1} of ${targets.length}): ${messageOf(failure)}`,
				{ description: rolledBack },
			);
		}
	}
}

/**
 * Removes every subscription this node may have made: the ones recorded in static data (which may come
 * from an earlier set of accounts or events) and the ones the current parameters derive (in case the
 * static data was lost). Ones already gone are fine; other failures stay recorded and are reported.
 */
export async function removeSubscriptions(
	this: IHookFunctions,
	staticData: IDataObject,
	planned: SubscriptionTarget[],
): Promise<void> {
	const recorded = readSubscribedZapIds(staticData);
	const outcome = await unsubscribeEach.call(this, [
		...recorded,
		...planned.map((target) => target.zapId),
	]);
	writeSubscribedZapIds(
		staticData,
		outcome.failed.map((f) => f.zapId),
	);
	if (outcome.failed.length > 0) {
		throw new NodeOperationError(
			this.getNode(),
			`Could not remove ${outcome.failed.length} webhook subscription(s): ${describeFailures(outcome.failed)}`,
			{
				description:
					'They stay recorded on this node and are retried the next time the workflow is deactivated.',
			},
		);
	}
}

/**
 * After the planned subscriptions exist, removes recorded ones that are no longer planned (the accounts
 * or events changed). Failures are logged and kept recorded for `delete`, without failing activation.
 */
export async function removeStaleSubscriptions(
	this: IHookFunctions,
	staticData: IDataObject,
	planned: SubscriptionTarget[],
): Promise<void> {
	const plannedIds = new Set(planned.map((target) => target.zapId));
	const stale = readSubscribedZapIds(staticData).filter((zapId) => !plannedIds.has(zapId));
	const outcome = await unsubscribeEach.call(this, stale);
	if (outcome.failed.length > 0) {
		this.logger.warn(
			`Customer Banking Trigger: could not remove ${outcome.failed.length} outdated webhook subscription(s); they are retried on deactivation: ${describeFailures(outcome.failed)}`,
		);
	}
	writeSubscribedZapIds(staticData, [...plannedIds, ...outcome.failed.map((f) => f.zapId)]);
}

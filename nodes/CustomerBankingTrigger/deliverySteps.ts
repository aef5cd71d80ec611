import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { checkId } from '../CustomerBanking/validation/ids';
import { ENDPOINTS, request } from '../CustomerBanking/transport';
import {
	deliveryKey,
	IN_FLIGHT_RETRY_AFTER_SECONDS,
	ledgerFor,
	persistedAsEnded,
	persistEnded,
	persistRecentKeys,
	retentionFor,
} from './deliveryLedger';
import type { DeliveryLedger, HandedOver } from './deliveryLedger';
import { isBankingEvent } from './events';
import type { BankingEvent } from './events';
import { noteRefusal } from './refusalLog';
import {
	BUSY_RETRY_AFTER_SECONDS,
	DEFAULT_MAX_RUNNING,
	PLACE_WAIT_SECONDS,
	runningFor,
} from './runningDeliveries';
import type { Place, RunningDeliveries } from './runningDeliveries';
import { verifyDelivery } from './signature';
import type { SignatureScheme, VerificationResult } from './signature';
import { readSigningSecrets, recentSigningSecrets, rereadSigningSecrets } from './signingSecrets';
import {
	isUsableMaxRunning,
	readAccounts,
	readEvents,
	readFetchTransaction,
	readMaxRunning,
	readPayloadFields,
	readScheme,
	schemeProblems,
} from './triggerParameters';

/**
 * The steps of one webhook call. Each returns either the next value or an `Answer`: what the bank is
 * told when the delivery goes no further (and then nothing is emitted).
 */
export class Answer {
	constructor(readonly response: IWebhookResponseData) {}
}

/** Refuses a delivery without starting an execution. */
function refuse(this: IWebhookFunctions, status: 400 | 401): Answer {
	this.getResponseObject().status(status).end();
	return new Answer({ noWebhookResponse: true });
}

/** Asks the bank to deliver again later (a retryable answer), without starting an execution. */
function deferDelivery(this: IWebhookFunctions, retryAfterSeconds: number, reason: string): Answer {
	const response = this.getResponseObject();
	response.status(503);
	response.setHeader('Retry-After', String(retryAfterSeconds));
	response.json({ received: false, reason });
	return new Answer({ noWebhookResponse: true });
}

/** Acknowledges a delivery with 200 without starting an execution. */
function acknowledge(reason: string): Answer {
	return new Answer({ webhookResponse: { received: true, emitted: false, reason } });
}

function optionalString(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

export interface VerifiedDelivery {
	rawBody: Buffer;
	scheme: SignatureScheme;
	nowSeconds: number;
}

function rawBodyOf(this: IWebhookFunctions): Buffer {
	const { rawBody } = this.getRequestObject();
	return Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(String(rawBody), 'utf8');
}

/** Verifies first, before reading anything from the body (spec §Events rule 1, fail-closed). */
export async function verifiedDelivery(
	this: IWebhookFunctions,
): Promise<Answer | VerifiedDelivery> {
	const scheme = readScheme.call(this);
	const request = this.getRequestObject();
	const headers = this.getHeaderData();
	const nowMs = Date.now();
	const nowSeconds = Math.floor(nowMs / 1000);
	const verify = (secrets: string[]): VerificationResult =>
		verifyDelivery({ rawBody: request.rawBody, headers, secrets, scheme, nowSeconds });
	if (schemeProblems(scheme).length > 0) {
		noteRefusal.call(this, 'misconfiguredScheme', nowMs);
		return refuse.call(this, 401);
	}
	const remembered = recentSigningSecrets.call(this, nowMs);
	let verdict = verify(remembered ?? (await readSigningSecrets.call(this, nowMs)));
	// a secret set in the credential since it was read: read it again before refusing (rate-limited,
	// since anybody can send a delivery with a bad signature)
	if (
		remembered &&
		!verdict.valid &&
		(verdict.reason === 'badSignature' || verdict.reason === 'noSecret')
	) {
		const reread = await rereadSigningSecrets.call(this, nowMs);
		if (reread) verdict = verify(reread);
	}
	if (!verdict.valid) {
		noteRefusal.call(this, verdict.reason, nowMs);
		return refuse.call(this, 401);
	}
	return { rawBody: rawBodyOf.call(this), scheme, nowSeconds };
}

/** The verified bytes as a JSON object. */
export function parsedPayload(this: IWebhookFunctions, rawBody: Buffer): Answer | IDataObject {
	let parsed: unknown;
	try {
		parsed = JSON.parse(rawBody.toString('utf8'));
	} catch {
		this.logger.warn('Customer Banking Trigger: refused a signed delivery whose body is not JSON');
		return refuse.call(this, 400);
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
		return refuse.call(this, 400);
	return parsed as IDataObject;
}

export interface DeliveryFacts {
	event: BankingEvent;
	xaid: string;
	xtid: string;
	deliveryId?: string;
	occurredAt?: string;
}

/**
 * spec §Events rule 3: the payload shape is not shown; the field names are the node's Payload Field
 * Names (defaults: DECISIONS.md §Webhooks).
 */
export function deliveryFacts(
	this: IWebhookFunctions,
	payload: IDataObject,
): Answer | DeliveryFacts {
	const fields = readPayloadFields.call(this);
	const field = (name: string): unknown =>
		Object.hasOwn(payload, name) ? payload[name] : undefined;
	const event = field(fields.event);
	const account = checkId(field(fields.account), 'text');
	const transaction = checkId(field(fields.transaction), 'text');
	if (!isBankingEvent(event) || !account.valid || !transaction.valid) {
		this.logger.warn(
			`Customer Banking Trigger: refused a signed delivery without ${fields.event}, ${fields.account} or ${fields.transaction} (see Payload Field Names)`,
		);
		return refuse.call(this, 400);
	}
	return {
		event,
		xaid: account.id,
		xtid: transaction.id,
		deliveryId: optionalString(field(fields.deliveryId)),
		occurredAt: optionalString(field(fields.occurredAt)),
	};
}

/** A subscription left over from other accounts or events is acknowledged, not emitted. */
export function watchedDelivery(
	this: IWebhookFunctions,
	facts: DeliveryFacts,
): Answer | DeliveryFacts {
	if (
		!readAccounts.call(this).includes(facts.xaid) ||
		!readEvents.call(this).includes(facts.event)
	) {
		return acknowledge('account or event not watched by this trigger');
	}
	return facts;
}

/** A delivery taken: its key claimed in the ledger and a place among the running deliveries. */
export interface Admission {
	key: string;
	ledger: DeliveryLedger;
	running: RunningDeliveries;
	place: Place;
	staticData: IDataObject;
	/** Set once its execution is handed to n8n. */
	handedOver?: HandedOver;
}

type Claimed = Omit<Admission, 'place'>;

function booksOf(this: IWebhookFunctions): { ledger: DeliveryLedger; running: RunningDeliveries } {
	const workflowId = this.getWorkflow().id ?? '';
	const nodeId = this.getNode().id || this.getNode().name;
	return { ledger: ledgerFor(workflowId, nodeId), running: runningFor(workflowId, nodeId) };
}

function maxRunning(this: IWebhookFunctions): number {
	const value = readMaxRunning.call(this);
	return isUsableMaxRunning(value) ? value : DEFAULT_MAX_RUNNING;
}

/**
 * Takes the delivery once, or answers why not. Retries and replays keep their delivery id
 * (DECISIONS.md §Webhooks): the key is claimed before any await (also before waiting for a place), so
 * copies arriving while this one waits or runs cannot start another execution. Until a delivery's
 * execution has ended, a copy is asked to come back (it is not "received": the first copy may still
 * fail). The answers that make a bank send a delivery
 * again are 503 with Retry-After: the spec does not show the bank's retry policy (spec §Events rule 4),
 * so the node only ever asks, and never answers "received" for an event that did not run.
 */
export async function admittedDelivery(
	this: IWebhookFunctions,
	facts: DeliveryFacts,
	delivery: VerifiedDelivery,
): Promise<Answer | Admission> {
	const key = deliveryKey(facts, delivery.rawBody);
	const staticData = this.getWorkflowStaticData('node');
	const { ledger, running } = booksOf.call(this);
	const claimed: Claimed = { key, ledger, running, staticData };
	const refusal = claimDelivery.call(this, claimed, delivery);
	if (refusal) return refusal;
	const place = await placeFor.call(this, claimed);
	if (!place) {
		ledger.release(key);
		return deferDelivery.call(
			this,
			BUSY_RETRY_AFTER_SECONDS,
			'too many executions running; send again later',
		);
	}
	// the same object the answer's listener holds, so it sees the hand-over
	return Object.assign(claimed, { place });
}

/** Claims the delivery's key in the ledger, or answers why this copy does not run. */
function claimDelivery(
	this: IWebhookFunctions,
	books: Claimed,
	delivery: VerifiedDelivery,
): Answer | undefined {
	const { key, ledger, running, staticData } = books;
	const { nowSeconds } = delivery;
	const retention = retentionFor(delivery.scheme);
	const beingProcessed = () =>
		deferDelivery.call(this, IN_FLIGHT_RETRY_AFTER_SECONDS, 'the same delivery is being processed');
	if (running.has(key)) return beingProcessed();
	// its execution ended before an n8n restart, or on another n8n webhook instance (queue mode)
	if (persistedAsEnded(staticData, key, nowSeconds, retention.keepSeconds))
		return acknowledge('duplicate delivery');
	const claim = ledger.claim(key, nowSeconds, retention.keepSeconds, retention.mustKeepSeconds);
	if (claim === 'duplicate') return acknowledge('duplicate delivery');
	if (claim === 'inFlight') return beingProcessed();
	if (claim === 'full') {
		this.logger.warn(
			'Customer Banking Trigger: too many deliveries inside the replay window; asked the bank to retry',
		);
		return deferDelivery.call(this, 60, 'too many deliveries; send again later');
	}
	return undefined;
}

/**
 * A place among the running deliveries, waiting up to PLACE_WAIT_SECONDS for one; undefined when none
 * came. The key stays claimed while the delivery waits, so a copy arriving meanwhile is asked to come
 * back.
 */
async function placeFor(this: IWebhookFunctions, claimed: Claimed): Promise<Place | undefined> {
	const { key, running, staticData } = claimed;
	// n8n closes the response once the execution ended (or failed), or when the bank hung up (maybe
	// already, while the delivery was verified); only an answer n8n finished sending says it ended
	const response = this.getResponseObject();
	let closed = response.closed;
	let held: Place | undefined;
	response.once('close', () => {
		closed = true;
		if (held) running.free(held);
		if (response.writableFinished) answered(claimed);
	});
	const place = await running.take(
		key,
		staticData,
		maxRunning.call(this),
		PLACE_WAIT_SECONDS * 1000,
	);
	if (!place) return undefined;
	// The bank hung up while this waited: the delivery still runs, since the bank's retry of it is then
	// a duplicate (the event runs once) while not running it could lose the event, if that was the
	// bank's last try. Nothing will tell when its execution ends, so its place is given back now.
	if (closed) running.free(place);
	else held = place;
	return place;
}

/**
 * n8n answered the delivery, which it does once the execution has ended: from now on it is written as
 * ended into the static data of every call still waiting for its answer, so whichever n8n saves last
 * holds it. Its own call's static data was saved just before the answer, already saying so.
 */
function answered(claimed: Claimed): void {
	const { handedOver, ledger, running } = claimed;
	if (!handedOver) return;
	ledger.ended(handedOver);
	for (const staticData of running.staticDataOfRunning())
		persistEnded(staticData, ledger, handedOver);
}

/**
 * What the execution starts with. spec §Events rule 2: a delivery is a signal; the full, current record
 * comes from the API. A failure throws NodeApiError (from the transport): n8n answers 500 and the bank
 * retries; the key and the place are given back first, so that retry, and any copy told to wait
 * meanwhile, is processed.
 */
export async function deliveryOutput(
	this: IWebhookFunctions,
	facts: DeliveryFacts,
	admission: Admission,
): Promise<IDataObject> {
	const output: IDataObject = {
		event: facts.event,
		account: facts.xaid,
		xtid: facts.xtid,
		deliveryId: facts.deliveryId ?? null,
		occurredAt: facts.occurredAt ?? null,
	};
	if (!readFetchTransaction.call(this)) return output;
	const fetched = request.call(this, ENDPOINTS.transaction.at({ xtid: facts.xtid }));
	fetched.catch(() => {
		admission.ledger.release(admission.key);
		admission.running.free(admission.place);
	});
	output.transaction = await fetched;
	return output;
}

/**
 * Hands the execution to n8n. Nothing of the node's can fail after this point: n8n starts the execution
 * with the data returned and answers the bank when it has ended (response mode 'lastNode', both lines'
 * `webhook-helpers.js`), saving the static data first if it is marked changed (`live-webhooks.js`).
 * Only now is the key handed over, so recognised as a duplicate in this instance, and written into the
 * static data of every call still waiting for its answer, so whichever n8n saves last holds it: as
 * ended into this call's own (n8n saves that only once this execution has ended), as running into the
 * others' until n8n has answered this one (`answered`).
 *
 * n8n 2.41.1 starts the run in the same tick as this call returns, and that clears the "changed" mark
 * of the static data written here (`workflow-runner.js` `establishContextForPersistence` builds a
 * workflow over the same object), so the keys are written again once the run has started.
 */
export function handedOver(
	this: IWebhookFunctions,
	output: IDataObject,
	admission: Admission,
): IWebhookResponseData {
	const { key, ledger, running } = admission;
	admission.handedOver = ledger.handOver(key, Math.floor(Date.now() / 1000));
	for (const staticData of new Set([admission.staticData, ...running.staticDataOfRunning()])) {
		persistRecentKeys(staticData, ledger, staticData === admission.staticData ? key : undefined);
	}
	void sleep(0).then(() => persistRecentKeys(admission.staticData, ledger, key));
	return { workflowData: [[{ json: output }]] };
}

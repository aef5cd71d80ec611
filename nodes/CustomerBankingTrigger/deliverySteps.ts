import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkId } from '../shared/validation/ids';
import { ENDPOINTS, request } from '../shared/transport';
import { withPlainNames } from '../shared/outputNames';
import { acknowledge, Answer, refuse } from './answers';
import { eventOfBankWord } from './events';
import type { BankingEvent } from './events';
import { noteRefusal } from './refusalLog';
import { refusalReport } from './refusalReasons';
import type { RefusalReason } from './refusalReasons';
import { verifyDelivery } from './signature';
import type { SignatureScheme, VerificationResult } from './signature';
import { readSigningSecrets, recentSigningSecrets, rereadSigningSecrets } from './signingSecrets';
import {
	readAccounts,
	readEvents,
	readFetchTransaction,
	readPayloadFields,
	readScheme,
	schemeProblems,
} from './triggerParameters';

/*
 * The steps of one webhook call. Each returns either the next value or an `Answer` (answers.ts): what
 * the bank is told when the delivery goes no further (and then nothing is emitted).
 */

function optionalString(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

export interface VerifiedDelivery {
	rawBody: Buffer;
	scheme: SignatureScheme;
	nowSeconds: number;
	/** The signed message ID of schemes that carry one (Standard Webhooks, Svix). */
	messageId?: string;
}

function rawBodyOf(this: IWebhookFunctions): Buffer {
	const { rawBody } = this.getRequestObject();
	return Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(String(rawBody), 'utf8');
}

/**
 * Whether a refusal may be reported by throwing: n8n then records a failed execution that runs no node
 * after the trigger (shared/n8nInternals.ts 12.), unless the trigger is set to continue on error, when
 * n8n would pass the error on to the next nodes as an item.
 */
function reportsByFailing(this: IWebhookFunctions): boolean {
	const node = this.getNode();
	return (
		node.continueOnFail !== true &&
		node.onError !== 'continueRegularOutput' &&
		node.onError !== 'continueErrorOutput'
	);
}

/**
 * Refuses the delivery (401, nothing started), counted and logged in summary (refusalLog.ts). When a
 * summary is due (at most once a minute per node), or for every refusal while the user listens for a
 * test event, it is reported where the user looks: thrown, so n8n answers the sender 500 and shows a
 * failed execution saying why (the execution list, the editor's test run, the Error Workflow).
 */
function refuseAndReport(
	this: IWebhookFunctions,
	reason: RefusalReason,
	scheme: SignatureScheme,
	nowMs: number,
): Answer {
	const testEvent = this.getMode() === 'manual';
	const due = noteRefusal.call(this, reason, nowMs);
	const counts = testEvent ? { counts: new Map([[reason, 1]]) } : due;
	if (counts && reportsByFailing.call(this)) {
		const { message, description } = refusalReport(counts, scheme, this.getHeaderData());
		throw new NodeOperationError(this.getNode(), message, { description });
	}
	return refuse.call(this, 401);
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
	if (schemeProblems(scheme).length > 0)
		return refuseAndReport.call(this, 'misconfiguredScheme', scheme, nowMs);
	const remembered = recentSigningSecrets.call(this, nowMs);
	let verdict = verify(remembered ?? (await readSigningSecrets.call(this, nowMs)));
	// a secret set in the credential since it was read: read it again before refusing (rate-limited,
	// since anybody can send a delivery with a bad signature)
	if (
		remembered &&
		!verdict.valid &&
		['badSignature', 'noSecret', 'unusableSecret'].includes(verdict.reason)
	) {
		const reread = await rereadSigningSecrets.call(this, nowMs);
		if (reread) verdict = verify(reread);
	}
	if (!verdict.valid) return refuseAndReport.call(this, verdict.reason, scheme, nowMs);
	return { rawBody: rawBodyOf.call(this), scheme, nowSeconds, messageId: verdict.messageId };
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
 * Names (defaults: docs/bank-assumptions.md#delivery-payload). The delivery ID is the payload's, else the signed message
 * ID of the scheme (the sender keeps it across retries), else none.
 */
export function deliveryFacts(
	this: IWebhookFunctions,
	payload: IDataObject,
	messageId?: string,
): Answer | DeliveryFacts {
	const fields = readPayloadFields.call(this);
	const field = (name: string): unknown =>
		Object.hasOwn(payload, name) ? payload[name] : undefined;
	// the bank's word, read through the events table only: a word not in it is unknown (spec §Events)
	const event = eventOfBankWord(field(fields.event));
	const account = checkId(field(fields.account), 'text');
	const transaction = checkId(field(fields.transaction), 'text');
	if (event === undefined || !account.valid || !transaction.valid) {
		this.logger.warn(
			`Customer Banking Trigger: refused a signed delivery without a known ${fields.event}, or without ${fields.account} or ${fields.transaction} (see Payload Field Names)`,
		);
		return refuse.call(this, 400);
	}
	return {
		event,
		xaid: account.id,
		xtid: transaction.id,
		deliveryId: optionalString(field(fields.deliveryId)) ?? messageId,
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

/**
 * The item of a delivery: its facts and, when fetched, the transaction as the API showed it, both with
 * the names the action node's outputs give these IDs (shared/outputNames.ts).
 */
export function deliveryItem(facts: DeliveryFacts, transaction?: IDataObject): IDataObject {
	return {
		event: facts.event,
		accountId: facts.xaid,
		transactionId: facts.xtid,
		deliveryId: facts.deliveryId ?? null,
		occurredAt: facts.occurredAt ?? null,
		...(transaction !== undefined && { transaction: withPlainNames(transaction) }),
	};
}

/**
 * What the execution starts with. spec §Events rule 2: a delivery is a signal; the full, current record
 * comes from the API. A failure throws NodeApiError (from the transport): n8n answers 500 and the bank
 * retries (admission.ts `admit`).
 */
export async function deliveryOutput(
	this: IWebhookFunctions,
	facts: DeliveryFacts,
): Promise<IDataObject> {
	if (!readFetchTransaction.call(this)) return deliveryItem(facts);
	return deliveryItem(
		facts,
		await request.call(this, ENDPOINTS.transaction.at({ xtid: facts.xtid })),
	);
}

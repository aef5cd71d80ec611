import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { type ApiFailure, apiFailureOf, apiRequest, type ApiRequestOptions } from '../transport';
import { uuidV4FromParts } from './idempotencyKey';
import { approvalsOf, type FoundPayment, findCandidates, lookUpPayments, type SentPayment } from './lookUpBeforeResubmit';
import type { PaymentMemory } from './paymentMemory';

/** One validated payment object (validation/payment.schema.ts) and the input item it came from. */
export interface PaymentToSend {
	itemIndex: number;
	body: IDataObject;
}

interface OutcomeBase {
	itemIndex: number;
	/** The x-idempotent-key of the request this outcome comes from. */
	idempotencyKey: string;
}

/**
 * What became of a payment that has no answer of its own: `unknown`, it may have been made and was not
 * sent again; `not_sent`, nothing reached the bank (or nothing it could act on); `rejected`, the bank
 * refused the whole request.
 */
export type FailedStatus = 'unknown' | 'not_sent' | 'rejected';

export type PaymentOutcome =
	/** `replayed`: the bank answered this key with this xtid before (Retry On Fail, n8n's Retry, a repeated custom key). */
	| (OutcomeBase & { kind: 'accepted'; accepted: IDataObject; requestId?: string; replayed: boolean })
	/** `reasonUncertain`: the answer did not say which of its rejections is this payment's. */
	| (OutcomeBase & { kind: 'rejected'; reason: string; requestId?: string; reasonUncertain?: boolean })
	/** The request failed in a way that may have processed it, and the lookup found the payment. */
	| (OutcomeBase & { kind: 'found'; found: FoundPayment; failure: string })
	/** `candidates`: for `unknown`, the account's payments that may be this one. */
	| (OutcomeBase & { kind: 'failed'; status: FailedStatus; error: NodeApiError | NodeOperationError; candidates?: string[] });

function objectsIn(value: unknown): IDataObject[] {
	return Array.isArray(value)
		? (value.filter((entry) => typeof entry === 'object' && entry !== null && !Array.isArray(entry)) as IDataObject[])
		: [];
}

/**
 * Which payment of the request an answer entry is about: its `index` (DECISIONS.md §Payments),
 * else the only payment, else the one unclaimed payment with the same reference (and amount).
 */
function positionOf(entry: IDataObject, payments: PaymentToSend[], claimed: Set<number>): number | undefined {
	const index = entry.index;
	if (typeof index === 'number' && Number.isInteger(index) && index >= 0 && index < payments.length) return index;
	if (payments.length === 1) return 0;
	const candidates = payments
		.map((payment, position) => ({ payment, position }))
		.filter(
			({ payment, position }) =>
				!claimed.has(position) &&
				payment.body.reference === entry.reference &&
				(entry.amount === undefined || payment.body.amount === entry.amount),
		);
	return candidates.length === 1 ? candidates[0].position : undefined;
}

/** spec §Errors rule 3, as the error of a payment request that may have been processed says it. */
export const LOOK_PAYMENT_UP =
	'The payment may have been processed: look it up (approvals for payments awaiting approval, transactions otherwise, matching on reference) before sending it again.';

/**
 * The request that sends one payment object, or a batch as an array, under one key: safe to resend
 * with the same key and body (spec §Payments rule 2, §Errors rule 2).
 */
export function paymentRequest(key: string, body: IDataObject | IDataObject[], itemIndex?: number): ApiRequestOptions {
	return {
		method: 'POST',
		path: '/payments',
		body,
		idempotencyKey: key,
		retry: 'safe',
		whenOutcomeUnknown: LOOK_PAYMENT_UP,
		itemIndex,
	};
}

function explainRefusal(error: NodeApiError, failure: ApiFailure, key: string): NodeApiError {
	if (failure.kind === 'unprocessable') {
		// spec §Errors rule 7 (not shown): the sandbox answers 422, DECISIONS.md §Payments
		error.message = `Idempotency key ${key} was already used for a different payment request: nothing new was paid`;
		error.description =
			'The bank refused this request because the same key was used before with another body (amount, payee, reference or other fields). The earlier payment made with this key stands. With a Custom Idempotency Key, give each payment its own key; a derived key only repeats within one execution, so the input of this node changed between attempts.';
	} else {
		error.description = `${error.description ?? ''} The bank refused the request, so nothing was paid (idempotency key ${key}).`.trim();
	}
	return error;
}

/** Failed before the bank processed anything: refused (4xx), or never sent (e.g. no token could be had). */
function notProcessed(
	context: IExecuteFunctions,
	error: unknown,
	key: string,
): { status: FailedStatus; error: NodeApiError | NodeOperationError } {
	const apiFailure = apiFailureOf(error);
	if (error instanceof NodeApiError && apiFailure?.refused) {
		return { status: 'rejected', error: explainRefusal(error, apiFailure, key) };
	}
	const failure =
		error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(context.getNode(), describeError(error));
	failure.description = `${failure.description ?? ''} The payment was not sent (idempotency key ${key}).`.trim();
	return { status: 'not_sent', error: failure };
}

function stateUnknownError(
	context: IExecuteFunctions,
	payment: PaymentToSend,
	key: string,
	failure: string,
	lookup: { candidates: string[] } | { lookupFailed: string },
): NodeOperationError {
	const { xaid, reference, amount, xpid } = payment.body;
	let searched: string;
	if ('lookupFailed' in lookup) {
		searched = `Looking the payment up failed too: ${lookup.lookupFailed}`;
	} else if (lookup.candidates.length > 0) {
		searched = `${lookup.candidates.length} payment(s) of account ${String(xaid)} match reference, amount and payee (${lookup.candidates.join(', ')}), but none can be shown to be this one (made after this payment was first sent, and not reported for another item); use a unique reference per payment.`;
	} else {
		searched = `No payment of ${String(amount)} to payee ${String(xpid)} with this reference was found among the approvals and transactions of account ${String(xaid)}.`;
	}
	return new NodeOperationError(
		context.getNode(),
		`Payment state unknown — not resubmitted (reference "${String(reference)}", idempotency key ${key})`,
		{
			itemIndex: payment.itemIndex,
			description: `${failure} ${searched} It was not sent again. Check the account (Transaction → Get Many, Approval → Get Many) before paying it another way. Retry On Fail, or n8n's Retry of this execution, sends it again with the same idempotency key, which the bank never pays twice.`,
		},
	);
}

function describeError(error: unknown): string {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		return `${error.message}.`.replace(/\.\.$/, '.');
	}
	return error instanceof Error ? error.message : String(error);
}

function sentForm(payments: PaymentToSend[]): SentPayment[] {
	return payments.map(({ itemIndex, body }) => ({
		itemIndex,
		xaid: String(body.xaid),
		xpid: String(body.xpid),
		amount: Number(body.amount),
		reference: String(body.reference),
		currency: typeof body.currency === 'string' ? body.currency : undefined,
	}));
}

function unknownOutcomes(
	context: IExecuteFunctions,
	payments: PaymentToSend[],
	key: string,
	failure: string,
	lookup: (payment: PaymentToSend) => { candidates: string[] } | { lookupFailed: string },
): PaymentOutcome[] {
	return payments.map((payment) => {
		const found = lookup(payment);
		return {
			kind: 'failed',
			status: 'unknown',
			itemIndex: payment.itemIndex,
			idempotencyKey: key,
			error: stateUnknownError(context, payment, key, failure, found),
			candidates: 'candidates' in found ? found.candidates : [],
		};
	});
}

/**
 * spec §Errors rule 3: when the outcome of a request is unknown, look the payments up and report
 * what was found; never send them again.
 */
async function resolveUnknown(
	this: IExecuteFunctions,
	payments: PaymentToSend[],
	key: string,
	failure: string,
	memory: PaymentMemory,
): Promise<PaymentOutcome[]> {
	try {
		const firstAttemptAt = memory.firstAttemptAt(key, Date.now());
		const results = await lookUpPayments.call(this, sentForm(payments), firstAttemptAt, memory.claimedXtids);
		return payments.map((payment): PaymentOutcome => {
			const result = results.get(payment.itemIndex);
			if (result?.found) {
				return { kind: 'found', itemIndex: payment.itemIndex, idempotencyKey: key, found: result.payment, failure };
			}
			return unknownOutcomes(this, [payment], key, failure, () => ({ candidates: result?.candidates ?? [] }))[0];
		});
	} catch (error) {
		const lookupFailed = describeError(error);
		return unknownOutcomes(this, payments, key, failure, () => ({ lookupFailed }));
	}
}

/**
 * n8n retried a failed execution whose keys were not kept with it: a payment that matches one already
 * made may be it, so it is held back (state unknown) instead of sent with a new key. The others go,
 * with a key for just them.
 */
async function holdBackPossiblyMade(
	this: IExecuteFunctions,
	request: { key: string; payments: PaymentToSend[]; memory: PaymentMemory },
): Promise<{ held: PaymentOutcome[]; send: PaymentToSend[]; key: string }> {
	const { key, payments, memory } = request;
	const failure = 'n8n retried this execution, and the idempotency keys of the failed execution were not kept with it.';
	let candidates: Map<number, string[]>;
	try {
		candidates = await findCandidates.call(this, sentForm(payments), memory.claimedXtids);
	} catch (error) {
		const lookupFailed = describeError(error);
		return { held: unknownOutcomes(this, payments, key, failure, () => ({ lookupFailed })), send: [], key };
	}
	const possiblyMade = payments.filter((payment) => (candidates.get(payment.itemIndex) ?? []).length > 0);
	const send = payments.filter((payment) => !possiblyMade.includes(payment));
	const held = unknownOutcomes(this, possiblyMade, key, failure, (payment) => ({ candidates: candidates.get(payment.itemIndex) ?? [] }));
	const sendKey = possiblyMade.length === 0 ? key : uuidV4FromParts(['held-back', key, send.map((p) => String(p.itemIndex)).join(',')]);
	return { held, send, key: sendKey };
}

/**
 * One POST /payments with one x-idempotent-key (spec §Payments rule 2). The transport resends it
 * with the same key and body on network errors, 5xx and 429 (spec §Errors rule 2); after that the
 * payments are looked up, never resubmitted. Returns one outcome per payment.
 * `lookUpFirst`: the keys of an earlier attempt are lost (see holdBackPossiblyMade).
 */
export async function sendPayments(
	this: IExecuteFunctions,
	request: { key: string; payments: PaymentToSend[]; asBatch: boolean; memory: PaymentMemory; lookUpFirst?: boolean },
): Promise<PaymentOutcome[]> {
	const { asBatch, memory } = request;
	let { key, payments } = request;
	let held: PaymentOutcome[] = [];
	if (request.lookUpFirst) {
		({ held, send: payments, key } = await holdBackPossiblyMade.call(this, request));
		if (payments.length === 0) return held;
	}
	memory.firstAttemptAt(key, Date.now());
	let response: IDataObject;
	try {
		response = await apiRequest.call(
			this,
			paymentRequest(key, asBatch ? payments.map((payment) => payment.body) : payments[0].body, payments[0].itemIndex),
		);
	} catch (error) {
		if (apiFailureOf(error)?.outcomeUnknown) {
			return [...held, ...(await resolveUnknown.call(this, payments, key, describeError(error), memory))];
		}
		const { status, error: failure } = notProcessed(this, error, key);
		return [
			...held,
			...payments.map((payment): PaymentOutcome => ({ kind: 'failed', status, itemIndex: payment.itemIndex, idempotencyKey: key, error: failure })),
		];
	}

	return [...held, ...(await readAnswer.call(this, response, { key, payments, memory }))];
}

/**
 * Pairs the entries of the answer with the payments sent, by what the spec guarantees: one payment,
 * or counts that leave one reading (every payment accepted, or every one rejected, in order). The
 * sandbox's `index` (or an entry's reference) is a hint used when present (DECISIONS.md §Payments).
 */
function pairByAnswer(
	payments: PaymentToSend[],
	accepted: IDataObject[],
	rejected: IDataObject[],
): { acceptedAt: Map<number, IDataObject>; rejectedAt: Map<number, IDataObject> } {
	const acceptedAt = new Map<number, IDataObject>();
	const rejectedAt = new Map<number, IDataObject>();
	if (accepted.length === payments.length && rejected.length === 0) {
		accepted.forEach((entry, position) => acceptedAt.set(position, entry));
	} else if (rejected.length === payments.length && accepted.length === 0) {
		rejected.forEach((entry, position) => rejectedAt.set(position, entry));
	} else {
		const taken = () => new Set([...acceptedAt.keys(), ...rejectedAt.keys()]);
		for (const entry of accepted) {
			const position = positionOf(entry, payments, taken());
			if (position !== undefined) acceptedAt.set(position, entry);
		}
		for (const entry of rejected) {
			const position = positionOf(entry, payments, taken());
			if (position !== undefined) rejectedAt.set(position, entry);
		}
	}
	return { acceptedAt, rejectedAt };
}

const xtidOf = (entry: IDataObject) => (typeof entry.xtid === 'string' && entry.xtid !== '' ? entry.xtid : undefined);
const reasonOf = (entry: IDataObject) => (typeof entry.error === 'string' ? entry.error : 'rejected without a reason');

/**
 * spec §Payments rule 3: 202 does not mean every item was accepted. Every payment gets its outcome:
 * paired with an entry of the answer (pairByAnswer), else found among the account's records by the
 * xtids the answer named (they are this request's payments), else, when the only payments left are as
 * many as the rejections left, rejected; whatever is still open is looked up like a lost answer.
 * Accepted payments whose entry does not say whether they await approval are matched against the
 * account's approvals (spec §Approvals: by xtid, pages of 50).
 */
async function readAnswer(
	this: IExecuteFunctions,
	response: IDataObject,
	request: { key: string; payments: PaymentToSend[]; memory: PaymentMemory },
): Promise<PaymentOutcome[]> {
	const { key, payments, memory } = request;
	const requestId = typeof response?.requestId === 'string' ? response.requestId : undefined;
	const acceptedEntries = objectsIn(response?.submitted);
	const rejectedEntries = objectsIn(response?.rejected);
	const { acceptedAt, rejectedAt } = pairByAnswer(payments, acceptedEntries, rejectedEntries);
	const outcomes = new Map<number, PaymentOutcome>();
	const accept = (position: number, accepted: IDataObject) => {
		const xtid = xtidOf(accepted);
		if (xtid) memory.claimedXtids.add(xtid);
		const replayed = xtid !== undefined && memory.answered(key, xtid);
		outcomes.set(position, { kind: 'accepted', itemIndex: payments[position].itemIndex, idempotencyKey: key, accepted, requestId, replayed });
	};
	const reject = (position: number, reason: string, reasonUncertain = false) =>
		outcomes.set(position, {
			kind: 'rejected',
			itemIndex: payments[position].itemIndex,
			idempotencyKey: key,
			reason,
			requestId,
			...(reasonUncertain && { reasonUncertain }),
		});
	for (const [position, entry] of acceptedAt) accept(position, entry);
	for (const [position, entry] of rejectedAt) reject(position, reasonOf(entry));

	const open = () => payments.map((_payment, position) => position).filter((position) => !outcomes.has(position));
	const pairedEntries = new Set([...acceptedAt.values(), ...rejectedAt.values()]);
	const namedXtids = new Set(
		acceptedEntries.filter((entry) => !pairedEntries.has(entry)).flatMap((entry) => xtidOf(entry) ?? []),
	);
	const rejectionsLeft = rejectedEntries.filter((entry) => !pairedEntries.has(entry));
	const unexplained = `The bank accepted the request${requestId ? ` ${requestId}` : ''} but its answer does not say what happened to this payment.`;
	if (open().length > 0 && namedXtids.size > 0) {
		const firstAttemptAt = memory.firstAttemptAt(key, Date.now());
		try {
			const found = await lookUpPayments.call(this, sentForm(open().map((position) => payments[position])), firstAttemptAt, memory.claimedXtids, namedXtids);
			for (const position of open()) {
				const result = found.get(payments[position].itemIndex);
				if (!result?.found) continue;
				const { xtid, approvalRef, foundIn } = result.payment;
				// found among the approvals only: an approval request (spec §States and transitions row 1)
				const status = foundIn === 'approvals' ? 'pending_approval' : 'submitted';
				accept(position, { xtid, status, ...(approvalRef !== undefined && { approvalRef }) });
			}
		} catch (error) {
			this.logger.warn(`Customer Banking: pairing the answer of request ${requestId ?? key} by look-up failed: ${describeError(error)}`);
		}
	}
	const left = open();
	if (left.length > 0 && left.length === rejectionsLeft.length) {
		const reasons = [...new Set(rejectionsLeft.map(reasonOf))];
		for (const position of left) {
			if (reasons.length === 1) reject(position, reasons[0]);
			else reject(position, `one of the rejections of this request: ${reasons.join(' | ')}`, true);
		}
	}
	const stillOpen = open().map((position) => payments[position]);
	const resolved = stillOpen.length ? await resolveUnknown.call(this, stillOpen, key, unexplained, memory) : [];
	await markAwaitingApproval.call(this, payments, outcomes);
	return payments.map(
		(payment, position) => outcomes.get(position) ?? (resolved.find((outcome) => outcome.itemIndex === payment.itemIndex) as PaymentOutcome),
	);
}

/** Whether the answer itself says if the payment awaits approval (the sandbox does; the spec does not promise it). */
function saysWhetherAwaitingApproval(entry: IDataObject): boolean {
	return typeof entry.status === 'string' || typeof entry.approvalRef === 'string';
}

/**
 * spec §States and transitions: an accepted payment is an approval request (its xtid on a pending
 * approval) or sent (its xtid among the transactions). When the answer does not say which, the approvals
 * list is read (by xtid, pages of 50), then the transaction. Neither: the payment was an approval request
 * that has since been declined or expired (a replayed answer), and nothing was sent.
 */
async function markAwaitingApproval(this: IExecuteFunctions, payments: PaymentToSend[], outcomes: Map<number, PaymentOutcome>): Promise<void> {
	const silent = [...outcomes.entries()].filter(
		(entry): entry is [number, Extract<PaymentOutcome, { kind: 'accepted' }>] =>
			entry[1].kind === 'accepted' && !saysWhetherAwaitingApproval(entry[1].accepted) && xtidOf(entry[1].accepted) !== undefined,
	);
	const byAccount = new Map<string, Array<[number, Extract<PaymentOutcome, { kind: 'accepted' }>]>>();
	for (const entry of silent) {
		const xaid = String(payments[entry[0]].body.xaid);
		byAccount.set(xaid, [...(byAccount.get(xaid) ?? []), entry]);
	}
	for (const [xaid, entries] of byAccount) {
		try {
			const itemIndex = payments[entries[0][0]].itemIndex;
			const approvals = await approvalsOf.call(this, xaid, new Set(entries.map(([, outcome]) => xtidOf(outcome.accepted) as string)), itemIndex);
			for (const [, outcome] of entries) {
				const xtid = xtidOf(outcome.accepted) as string;
				const approval = approvals.get(xtid);
				if (approval) {
					outcome.accepted = { ...outcome.accepted, status: 'pending_approval', ...(approval.ref !== undefined && { approvalRef: approval.ref }) };
				} else if (await transactionExists.call(this, xtid, itemIndex)) {
					outcome.accepted = { ...outcome.accepted, status: 'submitted' };
				} else {
					outcome.accepted = {
						...outcome.accepted,
						status: 'not_sent',
						approvalCheck: 'The bank shows neither a pending approval nor a transaction for this payment: its approval was declined or has expired, and nothing was sent.',
					};
				}
			}
		} catch (error) {
			for (const [, outcome] of entries) outcome.accepted = { ...outcome.accepted, approvalCheck: `could not be read: ${describeError(error)}` };
		}
	}
}

async function transactionExists(this: IExecuteFunctions, xtid: string, itemIndex: number): Promise<boolean> {
	const read = apiRequest.call(this, { method: 'GET', path: `/transaction/${encodeURIComponent(xtid)}`, itemIndex });
	return await read.then(
		() => true,
		(error: unknown) => (apiFailureOf(error)?.kind === 'notFound' ? false : read.then(() => true)),
	);
}

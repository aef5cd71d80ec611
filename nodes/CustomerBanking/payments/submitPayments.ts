import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequest, isTransientFailure } from '../transport';
import { type FoundPayment, type LookupResult, lookUpPayments } from './lookUpBeforeResubmit';

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

export type PaymentOutcome =
	| (OutcomeBase & { kind: 'accepted'; accepted: IDataObject; requestId?: string })
	| (OutcomeBase & { kind: 'rejected'; reason: string; requestId?: string })
	/** The request failed in a way that may have processed it, and the lookup found the payment. */
	| (OutcomeBase & { kind: 'found'; found: FoundPayment; failure: string })
	| (OutcomeBase & { kind: 'failed'; error: NodeApiError | NodeOperationError });

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

/** A 4xx answer other than a rate limit: the bank refused the request, nothing was processed. */
function refusedByBank(error: unknown): error is NodeApiError {
	return error instanceof NodeApiError && /^4\d\d$/.test(String(error.httpCode)) && !isTransientFailure(error);
}

function explainRefusal(error: NodeApiError, key: string): NodeApiError {
	if (String(error.httpCode) === '422') {
		// spec §Errors rule 7 (not shown): the sandbox answers 422, DECISIONS.md §Payments
		error.message = `Idempotency key ${key} was already used for a different payment request: nothing new was paid`;
		error.description =
			'The bank refused this request because the same key was used before with another body (amount, payee, reference or other fields). The earlier payment made with this key stands. With a Custom Idempotency Key, give each payment its own key; a derived key only repeats within one execution, so the input of this node changed between attempts.';
	} else {
		error.description = `${error.description ?? ''} The bank refused the request, so nothing was paid (idempotency key ${key}).`.trim();
	}
	return error;
}

function stateUnknownError(
	context: IExecuteFunctions,
	payment: PaymentToSend,
	key: string,
	failure: string,
	lookup: LookupResult | { lookupFailed: string },
): NodeOperationError {
	const { xaid, reference, amount, xpid } = payment.body;
	let searched: string;
	if ('lookupFailed' in lookup) {
		searched = `Looking the payment up failed too: ${lookup.lookupFailed}`;
	} else if (!lookup.found && lookup.candidates.length > 1) {
		searched = `${lookup.candidates.length} payments of account ${String(xaid)} match reference, amount and payee (${lookup.candidates.join(', ')}), so which one is this payment cannot be told; use a unique reference per payment.`;
	} else {
		searched = `No payment of ${String(amount)} to payee ${String(xpid)} with this reference was found among the approvals and transactions of account ${String(xaid)}.`;
	}
	return new NodeOperationError(
		context.getNode(),
		`Payment state unknown — not resubmitted (reference "${String(reference)}", idempotency key ${key})`,
		{
			itemIndex: payment.itemIndex,
			description: `${failure} The request may have been processed. ${searched} It was not sent again. Check the account (Transaction → Get Many, Approval → Get Many) before paying it another way. Retry On Fail runs this node again in the same execution with the same idempotency key, which the bank never pays twice; a new execution makes a new key unless a Custom Idempotency Key is set.`,
		},
	);
}

function describeError(error: unknown): string {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		return `${error.message}.`.replace(/\.\.$/, '.');
	}
	return error instanceof Error ? error.message : String(error);
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
	sentAt: number,
	claimedXtids: Set<string>,
): Promise<PaymentOutcome[]> {
	const sent = payments.map(({ itemIndex, body }) => ({
		itemIndex,
		xaid: String(body.xaid),
		xpid: String(body.xpid),
		amount: Number(body.amount),
		reference: String(body.reference),
		currency: typeof body.currency === 'string' ? body.currency : undefined,
	}));
	let results: Map<number, LookupResult>;
	try {
		results = await lookUpPayments.call(this, sent, sentAt, claimedXtids);
	} catch (error) {
		const lookupFailed = describeError(error);
		return payments.map((payment) => ({
			kind: 'failed',
			itemIndex: payment.itemIndex,
			idempotencyKey: key,
			error: stateUnknownError(this, payment, key, failure, { lookupFailed }),
		}));
	}
	return payments.map((payment): PaymentOutcome => {
		const result = results.get(payment.itemIndex) as LookupResult;
		return result.found
			? { kind: 'found', itemIndex: payment.itemIndex, idempotencyKey: key, found: result.payment, failure }
			: {
					kind: 'failed',
					itemIndex: payment.itemIndex,
					idempotencyKey: key,
					error: stateUnknownError(this, payment, key, failure, result),
				};
	});
}

/**
 * One POST /payments with one x-idempotent-key (spec §Payments rule 2). The transport resends it
 * with the same key and body on network errors, 5xx and 429 (spec §Errors rule 2); after that the
 * payments are looked up, never resubmitted. Returns one outcome per payment, in order.
 * `claimedXtids`, shared by the requests of one node run, holds the xtids already reported for
 * a payment, so a look-up never reports another item's payment as this one.
 */
export async function sendPayments(
	this: IExecuteFunctions,
	request: { key: string; payments: PaymentToSend[]; asBatch: boolean; claimedXtids: Set<string> },
): Promise<PaymentOutcome[]> {
	const { key, payments, asBatch, claimedXtids } = request;
	let response: IDataObject;
	const sentAt = Date.now();
	try {
		response = await apiRequest.call(this, {
			method: 'POST',
			path: '/payments',
			body: asBatch ? payments.map((payment) => payment.body) : payments[0].body,
			headers: { 'x-idempotent-key': key },
			itemIndex: payments[0].itemIndex,
		});
	} catch (error) {
		if (refusedByBank(error)) {
			const refusal = explainRefusal(error, key);
			return payments.map((payment) => ({ kind: 'failed', itemIndex: payment.itemIndex, idempotencyKey: key, error: refusal }));
		}
		if (error instanceof NodeOperationError) {
			// raised before anything was sent (e.g. the credential has no Base URL)
			return payments.map((payment) => ({ kind: 'failed', itemIndex: payment.itemIndex, idempotencyKey: key, error }));
		}
		return await resolveUnknown.call(this, payments, key, describeError(error), sentAt, claimedXtids);
	}

	// spec §Payments rule 3: 202 does not mean every item was accepted
	const requestId = typeof response?.requestId === 'string' ? response.requestId : undefined;
	const outcomes = new Map<number, PaymentOutcome>();
	const claim = (entry: IDataObject, toOutcome: (payment: PaymentToSend) => PaymentOutcome) => {
		const position = positionOf(entry, payments, new Set(outcomes.keys()));
		if (position !== undefined && !outcomes.has(position)) outcomes.set(position, toOutcome(payments[position]));
	};
	for (const accepted of objectsIn(response?.submitted)) {
		if (typeof accepted.xtid === 'string' && accepted.xtid !== '') claimedXtids.add(accepted.xtid);
		claim(accepted, ({ itemIndex }) => ({ kind: 'accepted', itemIndex, idempotencyKey: key, accepted, requestId }));
	}
	for (const rejected of objectsIn(response?.rejected)) {
		const reason = typeof rejected.error === 'string' ? rejected.error : 'rejected without a reason';
		claim(rejected, ({ itemIndex }) => ({ kind: 'rejected', itemIndex, idempotencyKey: key, reason, requestId }));
	}

	const unaccounted = payments.filter((_payment, position) => !outcomes.has(position));
	const resolved = unaccounted.length
		? await resolveUnknown.call(
				this,
				unaccounted,
				key,
				`The bank accepted the request${requestId ? ` ${requestId}` : ''} but its answer does not say what happened to this payment.`,
				sentAt,
				claimedXtids,
			)
		: [];
	return payments.map(
		(payment, position) =>
			outcomes.get(position) ?? (resolved.find((outcome) => outcome.itemIndex === payment.itemIndex) as PaymentOutcome),
	);
}

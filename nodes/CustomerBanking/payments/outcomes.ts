import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { type ApiFailure, apiFailureOf } from '../../shared/transport';
import type { StatusFromEvidence } from '../../shared/evidence';
import type { IdempotencyKey } from './idempotencyKey';
import type { Payment } from './payment';
import type { FoundPayment } from './paymentLookUp';

interface OutcomeBase {
	payment: Payment;
	/** The key of the request this outcome comes from, and where it comes from. */
	key: IdempotencyKey;
}

/**
 * What became of a payment that has no answer of its own: `unknown`, it may have been made and was not
 * sent again; `not_sent`, nothing reached the bank (or nothing it could act on); `rejected`, the bank
 * refused the whole request.
 */
export type FailedStatus = 'unknown' | 'not_sent' | 'rejected';

export type AcceptedOutcome = OutcomeBase & {
	kind: 'accepted';
	/** The answer's entry, as the bank wrote it. */
	accepted: IDataObject;
	requestId?: string;
	replayed: boolean;
	/** What the evidence read from the bank allows the node to say (acceptedStates.ts). */
	fromEvidence?: StatusFromEvidence;
};

export type PaymentOutcome =
	/** `replayed`: the bank answered this key with this xtid before (Retry On Fail, n8n's Retry, a repeated custom key). */
	| AcceptedOutcome
	/** `reasonUncertain`: the answer did not say which of its rejections is this payment's. */
	| (OutcomeBase & {
			kind: 'rejected';
			reason: string;
			requestId?: string;
			reasonUncertain?: boolean;
	  })
	/**
	 * The answer accounts for these payments together but not for each one (an xtid-only batch answer): one
	 * of them is each of `xtids`, the others were rejected. `statement` says so; `notPaid` when none of them
	 * can have been paid. Never sent again automatically.
	 */
	| (OutcomeBase & {
			kind: 'undetermined';
			statement: string;
			xtids: string[];
			notPaid: boolean;
			sharedWith: number[];
			requestId?: string;
	  })
	/** The request failed in a way that may have processed it, and the lookup found the payment. */
	| (OutcomeBase & { kind: 'found'; found: FoundPayment; failure: string })
	/** `candidates`: for `unknown`, the account's payments that may be this one. */
	| (OutcomeBase & {
			kind: 'failed';
			status: FailedStatus;
			error: NodeApiError | NodeOperationError;
			candidates?: string[];
	  });

export function describeError(error: unknown): string {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		return `${error.message}.`.replace(/\.\.$/, '.');
	}
	return error instanceof Error ? error.message : String(error);
}

function explainRefusal(error: NodeApiError, failure: ApiFailure, key: string): NodeApiError {
	if (failure.kind === 'unprocessable') {
		// spec §Errors rule 7 (not shown): docs/bank-assumptions.md#idempotency-key-reuse
		error.message = `Idempotency key ${key} was already used for a different payment request: nothing new was paid`;
		error.description =
			'The bank refused this request because the same key was used before with another body (amount, payee, reference or other fields). The earlier payment made with this key stands. With a Custom Idempotency Key, give each payment its own key; a derived key only repeats within one execution, so the input of this node changed between attempts.';
	} else {
		error.description =
			`${error.description ?? ''} The bank refused the request, so nothing was paid (idempotency key ${key}).`.trim();
	}
	return error;
}

/**
 * The payments of a request that failed before the bank processed anything: refused (4xx), or never
 * sent (e.g. no token could be had). They share the request's error.
 */
export function notProcessedOutcomes(
	this: IExecuteFunctions,
	payments: Payment[],
	key: IdempotencyKey,
	error: unknown,
): PaymentOutcome[] {
	const apiFailure = apiFailureOf(error);
	let status: FailedStatus;
	let failure: NodeApiError | NodeOperationError;
	if (error instanceof NodeApiError && apiFailure?.refused) {
		status = 'rejected';
		failure = explainRefusal(error, apiFailure, key.key);
	} else {
		status = 'not_sent';
		failure =
			error instanceof NodeApiError || error instanceof NodeOperationError
				? error
				: new NodeOperationError(this.getNode(), describeError(error));
		failure.description =
			`${failure.description ?? ''} The payment was not sent (idempotency key ${key.key}).`.trim();
	}
	return payments.map((payment) => ({ kind: 'failed', status, payment, key, error: failure }));
}

/**
 * spec §Payments rule 1, §Errors rule 7: a key is sent with one body only. `otherBody`: the key was
 * already used in this execution with other payment details; `otherKey`: this payment was already sent
 * in this execution under another key. Either way it is not sent; when the earlier request may have
 * been processed the payment's state is unknown, never "not sent".
 */
export function keyConflictOutcomes(
	this: IExecuteFunctions,
	payments: Payment[],
	key: IdempotencyKey,
	conflict: 'otherBody' | 'otherKey',
	earlierMayHaveBeenMade: boolean,
): PaymentOutcome[] {
	const named =
		key.customKey !== undefined || key.source === 'custom'
			? `Custom Idempotency Key "${key.customKey ?? key.key}"`
			: `Idempotency key ${key.key}`;
	const message =
		conflict === 'otherBody'
			? `${named} was already used in this execution for a payment with other details: this payment was not sent`
			: `This payment was already sent in this execution under another idempotency key: it was not sent again under ${key.key}`;
	const earlier = earlierMayHaveBeenMade
		? 'The earlier request may have been processed, so this payment may already be paid in its earlier form: check the account (Transaction → Get Many, Approval → Get Many) before paying it another way.'
		: 'Nothing was paid for this item.';
	const fix =
		conflict === 'otherBody'
			? 'Give each payment its own Custom Idempotency Key; if the input or the mapping changed since the first attempt, run the changed payment in a new execution after checking the account.'
			: 'A payment keeps the key it was first sent with for the whole execution.';
	return payments.map((payment) => ({
		kind: 'failed',
		status: earlierMayHaveBeenMade ? 'unknown' : 'not_sent',
		payment,
		key,
		error: new NodeOperationError(this.getNode(), message, {
			itemIndex: payment.itemIndex,
			description: `${earlier} ${fix}`,
		}),
		...(earlierMayHaveBeenMade && { candidates: [] }),
	}));
}

/** What looking a payment up found, when it did not find the payment itself. */
export type LookUpMiss = { candidates: string[] } | { lookupFailed: string };

function stateUnknownError(
	this: IExecuteFunctions,
	payment: Payment,
	key: string,
	failure: string,
	lookup: LookUpMiss,
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
		this.getNode(),
		`Payment state unknown — not resubmitted (reference "${String(reference)}", idempotency key ${key})`,
		{
			itemIndex: payment.itemIndex,
			description: `${failure} ${searched} It was not sent again. Check the account (Transaction → Get Many, Approval → Get Many) before paying it another way. Retry On Fail, or n8n's Retry of this execution, sends it again with the same idempotency key, which the bank never pays twice.`,
		},
	);
}

/** Payments that may have been made and are not sent again (spec §Errors rule 3). */
export function unknownOutcomes(
	this: IExecuteFunctions,
	payments: Payment[],
	key: IdempotencyKey,
	failure: string,
	lookup: (payment: Payment) => LookUpMiss,
): PaymentOutcome[] {
	return payments.map((payment) => {
		const miss = lookup(payment);
		return {
			kind: 'failed',
			status: 'unknown',
			payment,
			key,
			error: stateUnknownError.call(this, payment, key.key, failure, miss),
			candidates: 'candidates' in miss ? miss.candidates : [],
		};
	});
}

/**
 * Skip Payments Already Made could not read the account (the bank or the token service failed): these
 * payments, none of them sent before in this execution, are not sent now, since whether the bank already
 * holds them is not known.
 */
export function uncheckedOutcomes(
	this: IExecuteFunctions,
	payments: Payment[],
	keyOf: (payment: Payment) => IdempotencyKey,
	error: unknown,
): PaymentOutcome[] {
	const failure =
		error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(this.getNode(), describeError(error));
	failure.description =
		`${failure.description ?? ''} Nothing was sent: the account could not be checked for payments already made (Skip Payments Already Made).`.trim();
	return payments.map((payment) => ({
		kind: 'failed',
		status: 'not_sent',
		payment,
		key: keyOf(payment),
		error: failure,
	}));
}

import type { IExecuteFunctions } from 'n8n-workflow';

import { resubmissionKey } from './idempotencyKey';
import { mayResubmit } from './rejections';
import type { PaymentMemory } from './paymentMemory';
import { type PaymentOutcome, type PaymentToSend, sendPayments } from './submitPayments';

/** spec §Errors rule 4: one resubmission at most, then the item stays rejected. */
export const MAX_RESUBMISSIONS = 1;

/** What happened to a rejected item under "Resubmit Rejected Items", for the output. */
export interface ResubmissionNote {
	resubmitted: boolean;
	/** The first request's rejection and key, when the item was resubmitted. */
	firstRejection?: string;
	firstIdempotencyKey?: string;
	notResubmittedBecause?: string;
}

/**
 * "Resubmit Rejected Items": the rejected items of one batch request that may succeed on a second
 * attempt (see rejections.ts) are sent once more, together, as a new request with a new key
 * (spec §Errors rule 4). Accepted items, items awaiting approval and payments found after an
 * error are never part of it, so nothing accepted is sent twice; declined or expired approvals
 * are never resubmitted (rule 5). Which items are resent depends only on the first request's
 * answer, which a re-run gets replayed, so a re-run resends the same items with the same key.
 */
export async function resubmitRejected(
	this: IExecuteFunctions,
	request: {
		key: string;
		payments: PaymentToSend[];
		outcomes: PaymentOutcome[];
		resubmitWhen: RegExp;
		memory: PaymentMemory;
	},
): Promise<{ outcomes: PaymentOutcome[]; notes: Map<number, ResubmissionNote> }> {
	const { key, payments, outcomes, resubmitWhen, memory } = request;
	const notes = new Map<number, ResubmissionNote>();
	const rejections = new Map<number, string>();
	const uncertain = new Set<number>();
	for (const outcome of outcomes) {
		if (outcome.kind !== 'rejected') continue;
		rejections.set(outcome.itemIndex, outcome.reason);
		if (outcome.reasonUncertain) uncertain.add(outcome.itemIndex);
	}
	const resend: PaymentToSend[] = [];
	for (const payment of payments.filter(({ itemIndex }) => rejections.has(itemIndex))) {
		if (uncertain.has(payment.itemIndex)) {
			notes.set(payment.itemIndex, {
				resubmitted: false,
				notResubmittedBecause: 'the bank\'s answer did not say which of its rejections is this payment\'s',
			});
			continue;
		}
		const verdict = mayResubmit(rejections.get(payment.itemIndex) as string, resubmitWhen);
		if (verdict.resubmit) resend.push(payment);
		else notes.set(payment.itemIndex, { resubmitted: false, notResubmittedBecause: verdict.because });
	}
	if (resend.length === 0) return { outcomes, notes };
	// derived from the first key and the items resent: a re-run of the node reuses it, never pays twice
	const newKey = resubmissionKey(key, MAX_RESUBMISSIONS, resend.map((payment) => payment.itemIndex));
	const second = await sendPayments.call(this, { key: newKey, payments: resend, asBatch: true, memory });
	for (const payment of resend) {
		notes.set(payment.itemIndex, {
			resubmitted: true,
			firstRejection: rejections.get(payment.itemIndex),
			firstIdempotencyKey: key,
		});
	}
	return {
		outcomes: outcomes.map((outcome) => second.find((retried) => retried.itemIndex === outcome.itemIndex) ?? outcome),
		notes,
	};
}

import type { PaymentOutcome } from './outcomes';
import type { Payment } from './payment';
import { mayResubmit } from './rejections';

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

type Rejected = Extract<PaymentOutcome, { kind: 'rejected' }>;

/**
 * Which rejected payments of one request are sent again (see rejections.ts), and why the others are
 * not. Only rejections are candidates: accepted items, items awaiting approval and payments found
 * after an error never are, so nothing accepted is sent twice; declined or expired approvals are
 * never resubmitted (spec §Errors rule 5). The choice depends only on the first request's answer.
 */
export function selectResubmissions(
	outcomes: PaymentOutcome[],
	resubmitWhen: RegExp,
): {
	resend: Array<{ payment: Payment; key: Rejected['key']; reason: string }>;
	notes: Map<number, ResubmissionNote>;
} {
	const notes = new Map<number, ResubmissionNote>();
	const resend: Array<{ payment: Payment; key: Rejected['key']; reason: string }> = [];
	for (const outcome of outcomes) {
		if (outcome.kind !== 'rejected') continue;
		const { itemIndex } = outcome.payment;
		if (outcome.reasonUncertain) {
			notes.set(itemIndex, {
				resubmitted: false,
				notResubmittedBecause:
					"the bank's answer did not say which of its rejections is this payment's",
			});
			continue;
		}
		const verdict = mayResubmit(outcome.reason, resubmitWhen);
		if (verdict.resubmit)
			resend.push({ payment: outcome.payment, key: outcome.key, reason: outcome.reason });
		else notes.set(itemIndex, { resubmitted: false, notResubmittedBecause: verdict.because });
	}
	return { resend, notes };
}

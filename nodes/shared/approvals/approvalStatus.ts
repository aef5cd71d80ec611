import { statusWord } from './statusVocabulary';

/**
 * What the bank's own status words say about an approval and about a transaction record, read through
 * the one vocabulary (statusVocabulary.ts): the approval trigger, the approval operations and the payment
 * code read statuses only here or there.
 */

/**
 * What an approval's own status says.
 * - `pending`: waiting for a decision (spec: "pending"; also e.g. PENDING_APPROVAL, AWAITING_APPROVAL).
 * - `approved`, `declined`, `expired`: that decision.
 * - `notApproved`: a negative decision without saying which (NOT_APPROVED, UNAUTHORISED, CANCELLED…).
 * - `notFinal`: decided in part (PARTIALLY_APPROVED): neither pending nor decided.
 * - `unknown`: a word not in the vocabulary, or none.
 */
export type ApprovalStatusMeaning =
	| 'pending'
	| 'approved'
	| 'declined'
	| 'expired'
	| 'notApproved'
	| 'notFinal'
	| 'unknown';

/**
 * What a transaction record's own status says about its payment.
 * - `held`: held for approval, not sent yet (PENDING_APPROVAL, AWAITING_APPROVAL, ON_HOLD…).
 * - `notSent`: refused, declined, expired, cancelled or failed: the money did not leave.
 * - `sent`: SENT, SETTLED, COMPLETED, BOOKED…
 * - `unknown`: any other word (PENDING alone: held or in flight?, NEW, RETURNED…), a part decision, or
 *   no status at all.
 */
export type TransactionStatusMeaning = 'held' | 'notSent' | 'sent' | 'unknown';

/** What an approval's own status says (see ApprovalStatusMeaning). */
export function approvalStatusMeaning(status: unknown): ApprovalStatusMeaning {
	const word = statusWord(status, 'approval');
	switch (word.says) {
		case 'held':
			return 'pending';
		case 'sent':
			return word.decision === 'approved' ? 'approved' : 'unknown';
		case 'refused':
			return word.decision ?? 'notApproved';
		case 'notFinal':
			return 'notFinal';
		case 'unknown':
			return 'unknown';
	}
}

/** spec §Approval: "the value pending occurs", and words that plainly say the same (PENDING_APPROVAL…). */
export function isPendingApproval(status: unknown): boolean {
	return approvalStatusMeaning(status) === 'pending';
}

/** What a transaction record's own status says (see TransactionStatusMeaning). */
export function transactionStatusMeaning(status: unknown): TransactionStatusMeaning {
	switch (statusWord(status, 'transaction').says) {
		case 'held':
			return 'held';
		case 'refused':
			return 'notSent';
		case 'sent':
			return 'sent';
		case 'notFinal':
		case 'unknown':
			return 'unknown';
	}
}

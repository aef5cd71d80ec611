/**
 * The bank's status words, sorted once. spec §States and transitions: "Approval status: the value pending
 * occurs; names of the other values are not shown", and transaction states other than sent → settled are
 * not shown either. So each word this module knows is listed with what it says, and any other word says
 * nothing known: words are compared whole, never matched by pattern (a pattern reads "NEW", "OPEN" or
 * "PARTIALLY_APPROVED" as something they do not say). docs/bank-assumptions.md#status-words
 */

/**
 * What a status word says about the payment it belongs to.
 * - `sent`: the money was sent or paid (or, for an approval, it was approved, which sends it).
 * - `held`: held for approval, nothing sent yet.
 * - `refused`: declined, expired, cancelled or failed: the money did not leave.
 * - `notFinal`: decided in part (partly approved, approved but not released): not sent, not final.
 * - `unknown`: a word not in these lists, or no word.
 */
export type StatusSays = 'sent' | 'held' | 'refused' | 'notFinal' | 'unknown';

/** Which approval decision a word names, when it names one. */
export type NamedDecision = 'approved' | 'declined' | 'expired';

export interface StatusWord {
	says: StatusSays;
	decision?: NamedDecision;
}

/** The record a status word comes from: the same word can say different things on each. */
export type StatusOf = 'approval' | 'transaction';

/** Case and separators do not matter: "PendingApproval", "pending-approval" and "PENDING_APPROVAL" are one word. */
export function normaliseWord(status: string): string {
	return status.toLowerCase().replace(/[^a-z0-9]/g, '');
}

const APPROVED = ['approved', 'authorised', 'authorized', 'fullyapproved', 'granted'];

const DECLINED = [
	'declined',
	'rejected',
	'refused',
	'denied',
	'approvaldeclined',
	'approvalrejected',
	'approvalrefused',
	'declinedbyapprover',
	'rejectedbyapprover',
];

const EXPIRED = ['expired', 'lapsed', 'timedout', 'approvalexpired'];

/** Refusals that name neither a decline nor an expiry. */
const OTHER_REFUSALS = [
	'notapproved',
	'notauthorised',
	'notauthorized',
	'unapproved',
	'disapproved',
	'unauthorised',
	'unauthorized',
	'nonauthorised',
	'nonauthorized',
	'deauthorised',
	'deauthorized',
	'notaccepted',
	'cancelled',
	'canceled',
	'withdrawn',
	'revoked',
	'void',
	'voided',
	'failed',
	'failure',
	'stopped',
	'blocked',
	'notsent',
	'notpaid',
];

/** Held for approval, on either record. */
const HELD = [
	'pendingapproval',
	'awaitingapproval',
	'waitingapproval',
	'waitingforapproval',
	'approvalpending',
	'approvalrequired',
	'approvalneeded',
	'requiresapproval',
	'needsapproval',
	'pendingauthorisation',
	'pendingauthorization',
	'awaitingauthorisation',
	'awaitingauthorization',
	'authorisationrequired',
	'authorizationrequired',
	'requiresauthorisation',
	'requiresauthorization',
	'notyetapproved',
	'onhold',
	'held',
];

/** On an approval only: the spec's own word, and words that say the same of a request awaiting a decision. */
const APPROVAL_HELD = ['pending', 'awaiting', 'waiting', 'awaitingdecision', 'pendingdecision'];

/**
 * Sent, on a transaction only. "PENDING" alone is not here: a bank may say it of a payment held or of
 * one in flight; nor "PROCESSING", "IN_PROGRESS", "NEW", "OPEN", "SUBMITTED" (the spec's word for every
 * accepted payment, held or not) or "ACCEPTED".
 */
const TRANSACTION_SENT = [
	'sent',
	'settled',
	'completed',
	'complete',
	'booked',
	'posted',
	'paid',
	'executed',
	'processed',
	'cleared',
	'confirmed',
	'released',
	'succeeded',
	'success',
	'successful',
	'done',
	'delivered',
	'debited',
	'transferred',
	'inflight',
	'pendingsettlement',
	'awaitingsettlement',
	'settling',
	'insettlement',
];

const NOT_FINAL = [
	'partiallyapproved',
	'partlyapproved',
	'partialapproval',
	'partiallyauthorised',
	'partiallyauthorized',
	'awaitingfurtherapproval',
	'approvedpendingrelease',
	'pendingrelease',
	'awaitingrelease',
];

function table(of: StatusOf): Map<string, StatusWord> {
	const words = new Map<string, StatusWord>();
	const add = (list: readonly string[], word: StatusWord) =>
		list.forEach((entry) => words.set(entry, word));
	add(HELD, { says: 'held' });
	add(NOT_FINAL, { says: 'notFinal' });
	add(APPROVED, { says: 'sent', decision: 'approved' });
	add(DECLINED, { says: 'refused', decision: 'declined' });
	add(EXPIRED, { says: 'refused', decision: 'expired' });
	add(OTHER_REFUSALS, { says: 'refused' });
	if (of === 'approval') add(APPROVAL_HELD, { says: 'held' });
	else add(TRANSACTION_SENT, { says: 'sent' });
	return words;
}

const VOCABULARY: Record<StatusOf, ReadonlyMap<string, StatusWord>> = {
	approval: table('approval'),
	transaction: table('transaction'),
};

const UNKNOWN: StatusWord = { says: 'unknown' };

/** What a record's status word says; anything that is not a listed word says nothing known. */
export function statusWord(status: unknown, of: StatusOf): StatusWord {
	if (typeof status !== 'string') return UNKNOWN;
	return VOCABULARY[of].get(normaliseWord(status)) ?? UNKNOWN;
}

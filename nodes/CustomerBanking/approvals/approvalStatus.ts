/**
 * What the bank's own status words say about an approval and about a transaction record. Pure rules, no
 * requests: the approval trigger, the approval operations and the payment code read statuses only here.
 *
 * spec §States and transitions: "Approval status: the value pending occurs; names of the other values are
 * not shown", and transaction states other than sent → settled are not shown either. So a word is read
 * for what it plainly says, and anything else (an unknown word, several meanings at once, a negation we
 * cannot place) says nothing known. A negation of approval ("NOT_APPROVED", "UNAUTHORISED",
 * "DISAPPROVED") is never an approval.
 */

/**
 * What an approval's own status says.
 * - `pending`: waiting for a decision (spec: "pending"; also e.g. PENDING_APPROVAL, AWAITING_APPROVAL).
 * - `approved`, `declined`, `expired`: that decision.
 * - `notApproved`: a negative decision without saying which (NOT_APPROVED, UNAUTHORISED, CANCELLED…).
 * - `unknown`: nothing we can read (absent, an unknown word, or words that contradict each other).
 */
export type ApprovalStatusMeaning =
	| 'pending'
	| 'approved'
	| 'declined'
	| 'expired'
	| 'notApproved'
	| 'unknown';

/**
 * What a transaction record's own status says about its payment.
 * - `held`: held for approval, not sent yet (PENDING_APPROVAL, AWAITING_APPROVAL, ON_HOLD…).
 * - `notSent`: refused, declined, expired, cancelled or failed: the money did not leave.
 * - `sent`: nothing against "the payment was sent": no status at all (spec §States and transitions: a sent
 *   payment's xtid appears among the transactions, and the record is that evidence), or a word such as
 *   SENT, SETTLED, COMPLETED, BOOKED.
 * - `unknown`: a word that says none of these (e.g. PENDING alone: held or in flight?, RETURNED).
 */
export type TransactionStatusMeaning = 'held' | 'notSent' | 'sent' | 'unknown';

/** Lower-case words joined by "_": "PendingApproval", "pending-approval", "PENDING APPROVAL" → "pending_approval". */
function words(status: string): string {
	return status
		.replace(/([a-z0-9])([A-Z])/g, '$1_$2')
		.toLowerCase()
		.replace(/[^a-z]+/g, '_')
		.replace(/^_+|_+$/g, '');
}

const word = (pattern: string) => new RegExp(`(?:^|_)(?:${pattern})(?=_|$)`);

const APPROVAL_WORD = 'approv(?:e|ed|al)?|authori[sz](?:e|ed|ation)?|accept(?:ed)?|grant(?:ed)?';
/** "not approved", "not_yet_approved", "unapproved", "disapproved", "unauthorised", "deauthorized", "non-approved". */
const NEGATED_APPROVAL = new RegExp(
	`(?:^|_)(?:not_?(?:yet_?)?|non_?|never_?|un_?|dis_?|de_?)(?:${APPROVAL_WORD})(?=_|$)`,
	'g',
);
const NOT_YET = /(?:^|_)not_?yet_?/;
const NEGATION = word('not|non|never|no');
// "ACCEPTED" is left out: banks say it of a request taken for processing, not of a decision
const APPROVED = word('approved|authori[sz]ed|granted');
const DECLINED = word('declined?|reject(?:ed)?|refused?|denied|deny');
const EXPIRED = word('expired?|lapsed?|timed_?out|time_?out');
const CANCELLED = word('cancell?ed|cancell?ation|withdrawn|revoked|voided?');
const PENDING = word(
	'pending|awaiting|waiting|open|requested|required|in_?progress|on_?hold|held|new|submitted',
);

const TRANSACTION_HELD = word('on_?hold|held|hold');
const TRANSACTION_WAITING = word(
	'pending|awaiting|waiting|requires?|required|needs?|needed|requested|for',
);
const TRANSACTION_APPROVAL = word(
	'approv(?:e|al)|authori[sz](?:e|ation)|sign(?:ature|off)?|release',
);
const TRANSACTION_NOT_SENT = word(
	'declined?|reject(?:ed)?|refused?|denied|expired?|lapsed?|cancell?ed|voided?|failed?|failure|stopped|blocked',
);
const TRANSACTION_SENT = word(
	'sent|settled|completed?|booked|posted|paid|executed|processed|processing|in_?flight|cleared|confirmed|released|succe(?:ss|ssful|eded)|done|delivered|debited|credited',
);

/** What an approval's own status says (see ApprovalStatusMeaning). */
export function approvalStatusMeaning(status: unknown): ApprovalStatusMeaning {
	if (typeof status !== 'string') return 'unknown';
	const text = words(status);
	if (text === '') return 'unknown';
	const meanings = new Set<ApprovalStatusMeaning>();
	const negated = text.match(NEGATED_APPROVAL) ?? [];
	for (const negation of negated) meanings.add(NOT_YET.test(negation) ? 'pending' : 'notApproved');
	const rest = text.replace(NEGATED_APPROVAL, '_');
	// a negation we cannot place ("NOT_DECLINED", "NO_DECISION") makes the whole word unreadable
	if (NEGATION.test(rest)) return 'unknown';
	if (APPROVED.test(rest)) meanings.add('approved');
	if (DECLINED.test(rest)) meanings.add('declined');
	if (EXPIRED.test(rest)) meanings.add('expired');
	if (CANCELLED.test(rest)) meanings.add('notApproved');
	if (PENDING.test(rest)) meanings.add('pending');
	if (meanings.size === 1) return [...meanings][0];
	const negative = [...meanings].every(
		(meaning) => meaning === 'declined' || meaning === 'expired' || meaning === 'notApproved',
	);
	if (negative && meanings.size > 1) {
		// several negative words: still negative; declined or expired only when just one of them is named
		if (meanings.has('declined') && !meanings.has('expired')) return 'declined';
		if (meanings.has('expired') && !meanings.has('declined')) return 'expired';
		return 'notApproved';
	}
	return 'unknown';
}

/** spec §Approval: "the value pending occurs", and words that plainly say the same (PENDING_APPROVAL…). */
export function isPendingApproval(status: unknown): boolean {
	return approvalStatusMeaning(status) === 'pending';
}

/** What a transaction record's own status says (see TransactionStatusMeaning). */
export function transactionStatusMeaning(status: unknown): TransactionStatusMeaning {
	if (status === undefined || status === null || status === '') return 'sent';
	if (typeof status !== 'string') return 'unknown';
	const text = words(status);
	if (text === '') return 'unknown';
	const meanings = new Set<TransactionStatusMeaning>();
	const approval = approvalStatusMeaning(status);
	const heldForApproval = TRANSACTION_APPROVAL.test(text) && TRANSACTION_WAITING.test(text);
	if (TRANSACTION_HELD.test(text) || heldForApproval || approval === 'pending') {
		// "PENDING" alone is not here: a bank may say it of a payment held or of one in flight
		if (text !== 'pending') meanings.add('held');
	}
	if (
		TRANSACTION_NOT_SENT.test(text) ||
		approval === 'declined' ||
		approval === 'expired' ||
		approval === 'notApproved'
	) {
		meanings.add('notSent');
	}
	const saysSent = TRANSACTION_SENT.test(text) || approval === 'approved';
	if (saysSent) meanings.add(NEGATION.test(text) ? 'notSent' : 'sent');
	return meanings.size === 1 ? [...meanings][0] : 'unknown';
}

/**
 * The status vocabulary: every word the package knows, compared whole after case and separators are
 * dropped, and what it says on each record. A word not listed, a word that only contains a listed one,
 * or no word at all says nothing known; so do words a bank may say of a payment held or in flight.
 */
import {
	normaliseWord,
	type StatusOf,
	type StatusSays,
	statusWord,
} from '../../../../nodes/shared/approvals/statusVocabulary';

describe('normaliseWord', () => {
	it.each([
		['PendingApproval', 'pendingapproval'],
		['pending-approval', 'pendingapproval'],
		['PENDING_APPROVAL', 'pendingapproval'],
		[' Timed Out ', 'timedout'],
		['v2.Settled', 'v2settled'],
	])('%s → %s', (word, normalised) => {
		expect(normaliseWord(word)).toBe(normalised);
	});
});

describe('statusWord', () => {
	it.each<[unknown, StatusOf, StatusSays, string?]>([
		// the spec's one word
		['pending', 'approval', 'held'],
		['PENDING_APPROVAL', 'transaction', 'held'],
		['on hold', 'approval', 'held'],
		['APPROVED', 'approval', 'sent', 'approved'],
		['Authorized', 'transaction', 'sent', 'approved'],
		['declined', 'approval', 'refused', 'declined'],
		['Rejected-By-Approver', 'approval', 'refused', 'declined'],
		['EXPIRED', 'approval', 'refused', 'expired'],
		['timed_out', 'transaction', 'refused', 'expired'],
		['cancelled', 'transaction', 'refused'],
		['FAILED', 'transaction', 'refused'],
		['partially_approved', 'approval', 'notFinal'],
		['approved_pending_release', 'transaction', 'notFinal'],
		['SETTLED', 'transaction', 'sent'],
		['in_flight', 'transaction', 'sent'],
		// words only a transaction says: on an approval they say nothing known
		['SETTLED', 'approval', 'unknown'],
		['completed', 'approval', 'unknown'],
		// words only an approval says
		['awaiting', 'approval', 'held'],
		['awaiting', 'transaction', 'unknown'],
		['pending', 'transaction', 'unknown'],
		// words a bank may say of a payment held or in flight: not known
		['SUBMITTED', 'transaction', 'unknown'],
		['PROCESSING', 'transaction', 'unknown'],
		['IN_PROGRESS', 'transaction', 'unknown'],
		['NEW', 'approval', 'unknown'],
		['OPEN', 'transaction', 'unknown'],
		['ACCEPTED', 'transaction', 'unknown'],
		// never matched by pattern
		['not_settled', 'transaction', 'unknown'],
		['settled_reversed', 'transaction', 'unknown'],
		['preapproved', 'approval', 'unknown'],
		['approved?', 'approval', 'sent', 'approved'],
		['decline', 'approval', 'unknown'],
		// not a word
		['', 'transaction', 'unknown'],
		[undefined, 'approval', 'unknown'],
		[null, 'transaction', 'unknown'],
		[1, 'approval', 'unknown'],
		[{ status: 'approved' }, 'approval', 'unknown'],
		['constructor', 'approval', 'unknown'],
		['__proto__', 'transaction', 'unknown'],
	])('%j on a record of %s says %s', (...row) => {
		// rows without a decision have three elements: read them as a rest, so jest passes no callback
		const [status, of, says, decision] = row;
		const word = statusWord(status, of);
		expect(word.says).toBe(says);
		expect(word.decision).toBe(decision);
	});
});

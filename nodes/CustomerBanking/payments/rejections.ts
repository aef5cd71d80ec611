/**
 * Why a batch item was rejected decides whether "Resubmit Rejected Items" may send it again
 * (spec §Errors rule 4: only rejected items, as a new request with a new key). The spec does not
 * show the error strings, so they are read by their words.
 */
export type RejectionKind =
	/** The same body would be rejected again: field rules, unknown or foreign account or payee, currency. */
	| 'invalid'
	/** A decision another attempt must not try to overturn: duplicate, compliance, limits, inactive account. */
	| 'refused'
	/** Not covered by the available balance: resubmitted only when the user's pattern names it. */
	| 'insufficientFunds'
	| 'other';

// first match wins: "insufficient available balance" is funds, not a field rule
const KINDS: ReadonlyArray<{ kind: RejectionKind; pattern: RegExp }> = [
	{
		kind: 'refused',
		pattern:
			/duplicate|already (?:paid|submitted|exists)|fraud|sanction|compliance|blocked|frozen|limit exceeded|over (?:the )?limit|not active|inactive|suspended|closed|dormant/i,
	},
	{ kind: 'insufficientFunds', pattern: /insufficient|not enough (?:funds|money|balance)/i },
	{
		kind: 'invalid',
		pattern:
			/must|required|invalid|not valid|at most|at least|characters|decimal|format|not found|does not exist|unknown|does not belong|not belong|currency|mismatch|not allowed/i,
	},
];

export function rejectionKind(reason: string): RejectionKind {
	return KINDS.find(({ pattern }) => pattern.test(reason))?.kind ?? 'other';
}

/** Default of "Resubmit When Reason Matches": words that say a rejection is temporary. */
export const TEMPORARY_REJECTION =
	'temporar|try again|timed? ?out|unavailable|busy|overloaded|rate limit';

/**
 * Invalid and refused items are never resubmitted, whatever the pattern says: they would be
 * rejected the same way or must not be overturned. Anything else is resubmitted when its
 * reason matches the pattern (by default: it says it is temporary).
 */
export function mayResubmit(
	reason: string,
	resubmitWhen: RegExp,
): { resubmit: true } | { resubmit: false; because: string } {
	const kind = rejectionKind(reason);
	if (kind === 'invalid') {
		return {
			resubmit: false,
			because:
				'the same payment would be rejected again: correct it and submit it as a new payment',
		};
	}
	if (kind === 'refused') {
		return {
			resubmit: false,
			because: 'the bank refused it for a reason another attempt must not try to overturn',
		};
	}
	if (resubmitWhen.test(reason)) return { resubmit: true };
	return {
		resubmit: false,
		because:
			kind === 'insufficientFunds'
				? 'insufficient funds is not resubmitted unless "Resubmit When Reason Matches" names it'
				: 'the reason does not match "Resubmit When Reason Matches"',
	};
}

/**
 * The evidence table (nodes/shared/evidence.ts): one row per kind of evidence the bank
 * can show of a payment, and the one statement it allows. Pure: no bank, no requests.
 */
import {
	type AcceptedEvidence,
	statusOfAccepted,
	type AcceptedStatus,
	EVIDENCE_TABLE,
	evidenceRowOf,
	failedRequestStatus,
	mayClaim,
	settledWithoutApprovals,
} from '../../../nodes/shared/evidence';

const XTID = '7f1c2a9e-1b7d-4c55-9a51-6d2f3b8e0a11';

type Row = [
	string,
	Pick<AcceptedEvidence, 'approval' | 'transaction' | 'differs'>,
	AcceptedStatus,
	RegExp | undefined,
];

const approval = (status?: string) => ({ read: 'record' as const, ref: 'ref-1', status });
const transaction = (status?: string) => ({ read: 'record' as const, status });
const notRead = { read: 'notRead' as const };
const none = { read: 'none' as const };
const missing = { read: 'missing' as const };

const ROWS: Row[] = [
	// the approval holds it
	[
		'a pending approval',
		{ approval: approval('pending'), transaction: notRead },
		'pending_approval',
		undefined,
	],
	[
		'a pending approval in other words',
		{ approval: approval('AWAITING_APPROVAL'), transaction: missing },
		'pending_approval',
		undefined,
	],
	[
		'a pending approval, its transaction saying sent',
		{ approval: approval('pending'), transaction: transaction('SETTLED') },
		'accepted',
		/contradict/,
	],
	// the approval decided
	[
		'approved, its transaction sent',
		{ approval: approval('approved'), transaction: transaction('sent') },
		'sent',
		undefined,
	],
	[
		'approved, no transaction shown yet',
		{ approval: approval('AUTHORISED'), transaction: missing },
		'sent',
		undefined,
	],
	[
		'approved, its transaction in an unknown word',
		{ approval: approval('approved'), transaction: transaction('NEW') },
		'sent',
		undefined,
	],
	[
		'approved, its transaction failed',
		{ approval: approval('approved'), transaction: transaction('FAILED') },
		'not_sent',
		/approved, but its transaction says "FAILED"/,
	],
	[
		'approved, its transaction still held',
		{ approval: approval('APPROVED'), transaction: transaction('PENDING_APPROVAL') },
		'accepted',
		/contradict/,
	],
	[
		'declined',
		{ approval: approval('declined'), transaction: missing },
		'not_sent',
		/not given \(the bank says "declined"\)/,
	],
	[
		"expired (another bank's word)",
		{ approval: approval('LAPSED'), transaction: notRead },
		'not_sent',
		/"LAPSED"/,
	],
	[
		'not approved, without saying how',
		{ approval: approval('NOT_APPROVED'), transaction: missing },
		'not_sent',
		/"NOT_APPROVED"/,
	],
	[
		'declined, but its transaction says sent',
		{ approval: approval('REJECTED'), transaction: transaction('sent') },
		'accepted',
		/contradict/,
	],
	[
		'partly approved',
		{ approval: approval('PARTIALLY_APPROVED'), transaction: missing },
		'accepted',
		/not final/,
	],
	[
		'partly approved, its transaction saying sent',
		{ approval: approval('PARTIALLY_APPROVED'), transaction: transaction('sent') },
		'accepted',
		/not final/,
	],
	// the approval's word says nothing known: the transaction decides
	[
		'an approval in an unknown word, its transaction sent',
		{ approval: approval('OPEN'), transaction: transaction('sent') },
		'sent',
		undefined,
	],
	[
		'an approval in an unknown word, its transaction refused',
		{ approval: approval('OPEN'), transaction: transaction('CANCELLED') },
		'not_sent',
		/"CANCELLED"/,
	],
	[
		'an approval in an unknown word, no transaction',
		{ approval: approval('OPEN'), transaction: missing },
		'accepted',
		/its approval says "OPEN"/,
	],
	// no approval shown
	[
		'no approval, its transaction sent',
		{ approval: none, transaction: transaction('COMPLETED') },
		'sent',
		undefined,
	],
	[
		'no approval read, its transaction pending settlement',
		{ approval: notRead, transaction: transaction('PENDING_SETTLEMENT') },
		'sent',
		undefined,
	],
	[
		'no approval, its transaction failed',
		{ approval: none, transaction: transaction('failed') },
		'not_sent',
		/"failed"/,
	],
	[
		'no approval, its transaction held',
		{ approval: none, transaction: transaction('ON_HOLD') },
		'accepted',
		/no pending approval of it is shown/,
	],
	[
		'no approval, its transaction in an unknown word',
		{ approval: none, transaction: transaction('IN_PROGRESS') },
		'accepted',
		/"IN_PROGRESS"/,
	],
	[
		'no approval, its transaction "submitted" (the spec\'s word for held and sent alike)',
		{ approval: none, transaction: transaction('submitted') },
		'accepted',
		/"submitted"/,
	],
	[
		'no approval, its transaction without a status',
		{ approval: none, transaction: transaction(undefined) },
		'accepted',
		/no status/,
	],
	[
		'no approval, no transaction (not shown yet)',
		{ approval: none, transaction: missing },
		'accepted',
		/no transaction of it is shown: it may not be shown yet, or its approval may have been declined or may have expired/,
	],
	// records that are not this payment's
	[
		"the approval the answer named is another payment's",
		{ approval: { read: 'other', ref: 'ref-2', xtid: 'x-2' }, transaction: missing },
		'accepted',
		/another payment \(x-2\)/,
	],
	[
		'the approval the answer named is not shown',
		{ approval: { read: 'missing', ref: 'ref-3' }, transaction: missing },
		'accepted',
		/does not show the approval ref-3/,
	],
	[
		'the transaction read answered with another record',
		{ approval: none, transaction: { read: 'other', xtid: 'x-9' } },
		'accepted',
		/another transaction \(x-9\)/,
	],
	[
		'a pending approval, the transaction read answered with another record',
		{ approval: approval('pending'), transaction: { read: 'other', xtid: 'x-9' } },
		'pending_approval',
		undefined,
	],
	[
		'its records show other details (the answer may name another payment)',
		{
			approval: approval('pending'),
			transaction: notRead,
			differs: 'other details (reference "B", amount 2)',
		},
		'accepted',
		/may name another payment/,
	],
	// reads that failed
	[
		'both reads failed',
		{
			approval: { read: 'failed', why: 'HTTP 500' },
			transaction: { read: 'failed', why: 'HTTP 503' },
		},
		'accepted',
		/could not be read \(HTTP 500\).*could not be read \(HTTP 503\)/,
	],
];

describe('the statement for an accepted payment: one row per evidence', () => {
	it('has a test row for every row of the evidence table', () => {
		const tested = new Set(
			ROWS.map(([, evidence]) => evidenceRowOf({ xtid: XTID, ...evidence }).evidence),
		);
		expect(EVIDENCE_TABLE.map((row) => row.evidence).filter((row) => !tested.has(row))).toEqual([]);
	});

	it("marks a payment whose record shows another payment's details, and one whose record shows its own", () => {
		const ofAnother = statusOfAccepted({
			xtid: XTID,
			approval: none,
			transaction: transaction('sent'),
			differs: 'other details (reference "B", amount 2)',
		});
		expect(ofAnother).toMatchObject({ status: 'accepted', ofAnother: true });
		expect(ofAnother.shown).toBeUndefined();
		expect(
			statusOfAccepted({
				xtid: XTID,
				approval: none,
				transaction: transaction('sent'),
				shows: true,
			}),
		).toMatchObject({ status: 'sent', shown: true });
	});

	it.each(ROWS)('%s → %s', (_name, evidence, status, check) => {
		const statement = statusOfAccepted({ xtid: XTID, ...evidence });
		expect(statement.status).toBe(status);
		if (check === undefined) expect(statement.check).toBeUndefined();
		else expect(statement.check).toMatch(check);
		if (statement.status === 'accepted')
			expect(statement.check).toMatch(
				/^The bank accepted this payment .*Nothing shows whether it was sent/,
			);
	});

	it("reports the bank's words and the approval's ref only from records of this payment", () => {
		expect(
			statusOfAccepted({
				xtid: XTID,
				approval: approval('approved'),
				transaction: transaction('sent'),
			}).fields,
		).toEqual({ approvalRef: 'ref-1', approvalStatus: 'approved', transactionStatus: 'sent' });
		expect(
			statusOfAccepted({
				xtid: XTID,
				approval: { read: 'other', ref: 'ref-2', xtid: 'x-2' },
				transaction: { read: 'other', xtid: 'x-9' },
			}).fields,
		).toEqual({});
	});

	it.each<[string, Pick<AcceptedEvidence, 'approval' | 'transaction' | 'differs'>, boolean]>([
		['a transaction that says sent', { approval: notRead, transaction: transaction('sent') }, true],
		[
			'a transaction that says failed',
			{ approval: notRead, transaction: transaction('FAILED') },
			true,
		],
		['an approval read by its ref', { approval: approval('pending'), transaction: notRead }, true],
		[
			'a transaction in an unknown word',
			{ approval: notRead, transaction: transaction('NEW') },
			false,
		],
		[
			'a transaction that says held',
			{ approval: notRead, transaction: transaction('ON_HOLD') },
			false,
		],
		['no transaction', { approval: notRead, transaction: missing }, false],
		[
			"an approval the answer named that is another payment's",
			{ approval: { read: 'other', ref: 'r', xtid: 'x' }, transaction: missing },
			false,
		],
	])('%s settles it without reading the approvals: %s', (_name, evidence, settled) => {
		expect(settledWithoutApprovals({ xtid: XTID, ...evidence })).toBe(settled);
	});
});

describe('what a failed payment request proves', () => {
	it.each<[string, Parameters<typeof failedRequestStatus>[0], 'rejected' | 'unknown' | 'not_sent']>(
		[
			[
				"a refusal of the key's only request",
				{
					refused: true,
					keyInUse: false,
					outcomeUnknown: false,
					earlierAttemptMayHaveBeenMade: false,
				},
				'rejected',
			],
			[
				'409: the key is in use by another request',
				{
					refused: true,
					keyInUse: true,
					outcomeUnknown: false,
					earlierAttemptMayHaveBeenMade: false,
				},
				'unknown',
			],
			[
				'a refusal after an earlier attempt that may have been made',
				{
					refused: true,
					keyInUse: false,
					outcomeUnknown: false,
					earlierAttemptMayHaveBeenMade: true,
				},
				'unknown',
			],
			[
				'no answer, or 5xx, or a rate limit',
				{
					refused: false,
					keyInUse: false,
					outcomeUnknown: true,
					earlierAttemptMayHaveBeenMade: false,
				},
				'unknown',
			],
			[
				'nothing reached the bank (no token)',
				{
					refused: false,
					keyInUse: false,
					outcomeUnknown: false,
					earlierAttemptMayHaveBeenMade: false,
				},
				'not_sent',
			],
		],
	)('%s → %s', (_name, evidence, status) => {
		expect(failedRequestStatus(evidence)).toBe(status);
	});
});

describe('which record a look-up may claim as this payment', () => {
	it.each<[string, string[], string[], boolean]>([
		['the one match, named by an answer to this key', ['a'], ['a'], true],
		[
			'the one match, never named (an earlier identical payment looks the same, whatever its time)',
			['a'],
			[],
			false,
		],
		['the one match, another key named another', ['a'], ['b'], false],
		['two matches, one named', ['a', 'b'], ['a'], false],
		['no match', [], ['a'], false],
	])('%s → %s', (_name, candidates, named, claimed) => {
		expect(mayClaim(candidates, new Set(named))).toBe(claimed);
	});
});

/**
 * One truth about a payment across the nodes (issue 39): random evidence of one payment (its approval's
 * status word, or no approval shown; its transaction's status word, none, or no transaction shown) read by
 * Submit and Get Status (the evidence table), by Skip Payments Already Made (an earlier payment found in
 * the lists) and by the Approval Trigger (an approval that left the pending list). They must land on the
 * same kind of answer: sent, waiting, refused, or not known. The one difference in words, not in truth,
 * is named in KNOWN_DIFFERENCES; any other disagreement fails with the shrunk evidence.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { judgeDecision } from '../../../nodes/CustomerBankingApprovalTrigger/approvalEvents';
import { holdsMoney } from '../../../nodes/CustomerBanking/payments/earlierPayments';
import {
	type AcceptedEvidence,
	type AcceptedStatus,
	statusOfAccepted,
} from '../../../nodes/shared/evidence';
import { approvalStatusMeaning } from '../../../nodes/shared/approvals/approvalStatus';

type Kind = 'sent' | 'waiting' | 'refused' | 'unknown';

const SUBMIT_KIND: Record<AcceptedStatus, Kind> = {
	sent: 'sent',
	pending_approval: 'waiting',
	not_sent: 'refused',
	accepted: 'unknown',
};

const APPROVAL_WORDS = [
	'pending',
	'APPROVED',
	'approved',
	'DECLINED',
	'EXPIRED',
	'REJECTED',
	'CANCELLED',
	'PARTIALLY_APPROVED',
	'ZORBLED',
];
const TRANSACTION_WORDS = [
	'SENT',
	'SETTLED',
	'COMPLETED',
	'FAILED',
	'DECLINED',
	'PENDING_APPROVAL',
	'PENDING',
	'ZORBLED',
];

interface Shown {
	/** undefined: the bank no longer shows the approval. */
	approval?: { status?: string };
	/** undefined: no transaction of the payment is shown. */
	transaction?: { status?: string };
}

const word = (words: string[]) => fc.option(fc.constantFrom(...words), { nil: undefined });
const shownArbitrary: fc.Arbitrary<Shown> = fc.record({
	approval: fc.option(fc.record({ status: word(APPROVAL_WORDS) }), { nil: undefined }),
	transaction: fc.option(fc.record({ status: word(TRANSACTION_WORDS) }), { nil: undefined }),
});

/** Every combination of what the bank may show of one payment, with the words above. */
const EVERY_SHOWN: Shown[] = (() => {
	const approvals = [undefined, ...[undefined, ...APPROVAL_WORDS].map((status) => ({ status }))];
	const transactions = [
		undefined,
		...[undefined, ...TRANSACTION_WORDS].map((status) => ({ status })),
	];
	return approvals.flatMap((approval) =>
		transactions.map((transaction) => ({ approval, transaction })),
	);
})();

function submitKind({ approval, transaction }: Shown): Kind {
	const evidence: AcceptedEvidence = {
		xtid: 'x-1',
		approval: approval ? { read: 'record', ref: 'r-1', status: approval.status } : { read: 'none' },
		transaction: transaction ? { read: 'record', status: transaction.status } : { read: 'missing' },
	};
	return SUBMIT_KIND[statusOfAccepted(evidence).status];
}

function triggerKind({ approval, transaction }: Shown): Kind {
	const judgement = judgeDecision(
		'x-1',
		approval ? ({ ref: 'r-1', xtid: 'x-1', ...approval } as IDataObject) : undefined,
		transaction ? ({ xtid: 'x-1', ...transaction } as IDataObject) : undefined,
	);
	if (judgement.kind === 'pending') return 'waiting';
	if (judgement.kind === 'unclear') return 'unknown';
	return judgement.decision === 'approved' ? 'sent' : 'refused';
}

/**
 * Where the Approval Trigger answers otherwise than Submit, and why that is the same truth: an approval
 * decided in part is not decided, so the trigger emits no decision yet where Submit says "not known".
 */
const KNOWN_DIFFERENCES: ReadonlyArray<{ when: string; applies: (shown: Shown) => boolean }> = [
	{
		when: 'the approval is decided in part',
		applies: ({ approval }) => approvalStatusMeaning(approval?.status) === 'notFinal',
	},
];

describe('one truth about a payment: every node reads the same evidence the same way', () => {
	it('Skip Payments Already Made holds an earlier payment as money unless Submit says it was refused', () => {
		fc.assert(
			fc.property(shownArbitrary, (shown) => {
				fc.pre(shown.approval !== undefined || shown.transaction !== undefined);
				const found = {
					xtid: 'x-1',
					foundIn: shown.transaction ? ('transactions' as const) : ('approvals' as const),
					...(shown.approval && { approvalRef: 'r-1', approvalStatus: shown.approval.status }),
					...(shown.transaction?.status !== undefined && {
						transactionStatus: shown.transaction.status,
					}),
				};
				const approvalListed = shown.approval !== undefined;
				// the look-up reads no approval it did not list: compare with Submit's reading of the same
				const submit = submitKind(approvalListed ? shown : { transaction: shown.transaction });
				expect(holdsMoney(found)).toBe(submit !== 'refused');
			}),
		);
	});

	it('the Approval Trigger decides as Submit states, apart from the named differences (every combination)', () => {
		const disagreements = EVERY_SHOWN.filter(
			(shown) =>
				// the trigger judges approvals that left the pending list
				approvalStatusMeaning(shown.approval?.status) !== 'pending' &&
				!KNOWN_DIFFERENCES.some((difference) => difference.applies(shown)) &&
				triggerKind(shown) !== submitKind(shown),
		);
		expect(
			disagreements.map((shown) => ({
				shown,
				trigger: triggerKind(shown),
				submit: submitKind(shown),
			})),
		).toEqual([]);
	});

	it.each(KNOWN_DIFFERENCES.map((difference) => [difference.when, difference] as const))(
		'a named difference is a real one: %s',
		(_when, difference) => {
			const differing = EVERY_SHOWN.filter(
				(shown) =>
					difference.applies(shown) &&
					approvalStatusMeaning(shown.approval?.status) !== 'pending' &&
					triggerKind(shown) !== submitKind(shown),
			);
			expect(differing.length).toBeGreaterThan(0);
		},
	);
});

import fc from 'fast-check';

import { holdsMoney, stateOf } from '../../../../nodes/CustomerBanking/payments/earlierPayments';
import type { FoundPayment } from '../../../../nodes/CustomerBanking/payments/paymentLookUp';
import { type AcceptedEvidence, statusOfAccepted } from '../../../../nodes/shared/evidence';

const found = (fields: Partial<FoundPayment>): FoundPayment => ({
	xtid: 'x',
	foundIn: 'transactions',
	...fields,
});

describe('holdsMoney and stateOf: what an earlier matching record says, read with the evidence table', () => {
	it.each<[string, FoundPayment, boolean, string]>([
		[
			'a transaction without a status (it says nothing known: it may hold money)',
			found({}),
			true,
			'not known (its transaction says no status)',
		],
		['a settled transaction', found({ transactionStatus: 'SETTLED' }), true, 'sent'],
		[
			'a transaction held for approval, with no approval shown',
			found({ transactionStatus: 'PENDING_APPROVAL' }),
			true,
			'not known (its transaction says "PENDING_APPROVAL")',
		],
		[
			'a failed transaction',
			found({ transactionStatus: 'FAILED' }),
			false,
			'not sent (its transaction says "FAILED")',
		],
		[
			'a transaction with a word nobody knows',
			found({ transactionStatus: 'ZORBLED' }),
			true,
			'not known (its transaction says "ZORBLED")',
		],
		[
			'a pending approval',
			found({ foundIn: 'approvals', approvalStatus: 'pending' }),
			true,
			'waiting for approval',
		],
		[
			'an approved approval, its transaction not listed',
			found({ foundIn: 'approvals', approvalStatus: 'APPROVED' }),
			true,
			'sent',
		],
		[
			'a declined approval',
			found({ foundIn: 'approvals', approvalStatus: 'DECLINED' }),
			false,
			'not sent (its approval says "DECLINED")',
		],
		[
			'an expired approval',
			found({ foundIn: 'approvals', approvalStatus: 'expired' }),
			false,
			'not sent (its approval says "expired")',
		],
		[
			'an approval without a status',
			found({ foundIn: 'approvals' }),
			true,
			'not known (its approval says no status)',
		],
		[
			'a declined approval whose transaction says it was sent: a contradiction, it may hold money',
			found({ foundIn: 'transactions', approvalStatus: 'DECLINED', transactionStatus: 'SENT' }),
			true,
			'not known (its approval says "DECLINED"; its transaction says "SENT")',
		],
		[
			'a declined approval whose transaction is still held: not sent, as Submit says',
			found({
				foundIn: 'transactions',
				approvalStatus: 'DECLINED',
				transactionStatus: 'PENDING_APPROVAL',
			}),
			false,
			'not sent (its approval says "DECLINED"; its transaction says "PENDING_APPROVAL")',
		],
		[
			'an approval decided in part, its transaction sent: not known, as Submit says',
			found({
				foundIn: 'transactions',
				approvalStatus: 'PARTIALLY_APPROVED',
				transactionStatus: 'SENT',
			}),
			true,
			'not known (its approval says "PARTIALLY_APPROVED"; its transaction says "SENT")',
		],
	])('%s', (_name, record, holds, state) => {
		expect(holdsMoney(record)).toBe(holds);
		expect(stateOf(record)).toBe(state);
	});
});

const APPROVAL_WORDS = [
	'pending',
	'APPROVED',
	'DECLINED',
	'expired',
	'PARTIALLY_APPROVED',
	'CANCELLED',
	'ZORBLED',
];
const TRANSACTION_WORDS = [
	'SENT',
	'SETTLED',
	'FAILED',
	'PENDING_APPROVAL',
	'PENDING',
	'REJECTED',
	'ZORBLED',
];

describe('one truth: a re-run reads an earlier payment as Submit reads the same records', () => {
	const word = (words: string[]) => fc.option(fc.constantFrom(...words), { nil: undefined });
	const records = fc.record({
		approval: fc.option(fc.record({ ref: fc.constant('r-1'), status: word(APPROVAL_WORDS) }), {
			nil: undefined,
		}),
		transaction: fc.option(fc.record({ status: word(TRANSACTION_WORDS) }), { nil: undefined }),
	});

	it('for any approval and transaction words, shown or not: the same state, and money held unless Submit says not sent', () => {
		fc.assert(
			fc.property(records, ({ approval, transaction }) => {
				fc.pre(approval !== undefined || transaction !== undefined);
				const record: FoundPayment = {
					xtid: 'x-1',
					foundIn: transaction === undefined ? 'approvals' : 'transactions',
					...(approval !== undefined && {
						approvalRef: approval.ref,
						approvalStatus: approval.status,
					}),
					...(transaction?.status !== undefined && { transactionStatus: transaction.status }),
				};
				const evidence: AcceptedEvidence = {
					xtid: 'x-1',
					approval:
						approval === undefined
							? { read: 'notRead' }
							: { read: 'record', ref: approval.ref, status: approval.status },
					transaction:
						transaction === undefined
							? { read: 'notRead' }
							: { read: 'record', status: transaction.status },
				};
				const submit = statusOfAccepted(evidence).status;
				expect(holdsMoney(record)).toBe(submit !== 'not_sent');
				const words: Record<string, string> = {
					sent: 'sent',
					pending_approval: 'waiting for approval',
					not_sent: 'not sent',
					accepted: 'not known',
				};
				expect(stateOf(record).startsWith(words[submit])).toBe(true);
			}),
		);
	});
});

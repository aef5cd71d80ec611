import { NodeOperationError, type INode } from 'n8n-workflow';

import type { IdempotencyKey } from '../../../../nodes/CustomerBanking/payments/idempotencyKey';
import type { PaymentOutcome } from '../../../../nodes/CustomerBanking/payments/outcomes';
import type { Payment } from '../../../../nodes/CustomerBanking/payments/payment';
import { TEMPORARY_REJECTION } from '../../../../nodes/CustomerBanking/payments/rejections';
import { selectResubmissions } from '../../../../nodes/CustomerBanking/payments/resubmission';

const byDefault = new RegExp(TEMPORARY_REJECTION, 'i');
const node = { id: 'n', name: 'Pay', type: 'x', typeVersion: 1, position: [0, 0], parameters: {} };

const payment = (itemIndex: number): Payment => ({
	itemIndex,
	body: { xaid: 'a1', xpid: 'p1', amount: 1, reference: `INV-${itemIndex}` },
});
const key = (itemIndex: number): IdempotencyKey => ({ key: `key-${itemIndex}`, source: 'derived' });
const base = (itemIndex: number) => ({ payment: payment(itemIndex), key: key(itemIndex) });
const rejected = (
	itemIndex: number,
	reason: string,
	reasonUncertain?: boolean,
): PaymentOutcome => ({
	...base(itemIndex),
	kind: 'rejected',
	reason,
	...(reasonUncertain ? { reasonUncertain } : {}),
});

describe('which rejected payments are sent again (Resubmit Rejected Items, spec §Errors rules 4 and 5)', () => {
	it('a temporary rejection is sent again with the key and reason of the first request', () => {
		const { resend, notes } = selectResubmissions(
			[rejected(0, 'Service temporarily unavailable')],
			byDefault,
		);
		expect(resend).toEqual([
			{ payment: payment(0), key: key(0), reason: 'Service temporarily unavailable' },
		]);
		expect(notes.size).toBe(0);
	});

	it.each([
		['payee pye_1 not found on account a1', 'the same payment would be rejected again'],
		['Duplicate payment', 'the bank refused it for a reason'],
		['Processing error', 'does not match "Resubmit When Reason Matches"'],
	])('%j is not sent again, and the output says why', (reason, because) => {
		const { resend, notes } = selectResubmissions([rejected(3, reason)], byDefault);
		expect(resend).toEqual([]);
		expect(notes.get(3)).toEqual({
			resubmitted: false,
			notResubmittedBecause: expect.stringContaining(because),
		});
	});

	it('a rejection the answer did not tie to this payment is never sent again, whatever the pattern', () => {
		const { resend, notes } = selectResubmissions(
			[rejected(1, 'Service temporarily unavailable', true)],
			/.*/,
		);
		expect(resend).toEqual([]);
		expect(notes.get(1)).toEqual({
			resubmitted: false,
			notResubmittedBecause:
				"the bank's answer did not say which of its rejections is this payment's",
		});
	});

	it('accepted, undetermined, found and failed payments are never candidates, so nothing accepted is sent twice', () => {
		const outcomes: PaymentOutcome[] = [
			{ ...base(0), kind: 'accepted', accepted: { xtid: 't0' }, replayed: false },
			{
				...base(1),
				kind: 'undetermined',
				statement: 'one of these was paid',
				xtids: ['t1'],
				notPaid: false,
				sharedWith: [2],
			},
			{
				...base(2),
				kind: 'found',
				found: {} as Extract<PaymentOutcome, { kind: 'found' }>['found'],
				failure: 'the connection was closed unexpectedly',
			},
			{
				...base(3),
				kind: 'failed',
				status: 'unknown',
				error: new NodeOperationError(node as INode, 'timed out'),
			},
			rejected(4, 'Service temporarily unavailable'),
		];
		const { resend, notes } = selectResubmissions(outcomes, /.*/);
		expect(resend.map((entry) => entry.payment.itemIndex)).toEqual([4]);
		expect([...notes.keys()]).toEqual([]);
	});
});

/**
 * Approval → Get, Get Many, Get by Payment with Simplify: the approval in the package's words and what
 * it says of its payment, read through the evidence table as Submit and Get Status read the same record.
 */
import type { IDataObject } from 'n8n-workflow';

import { withPaymentState } from '../../../../../nodes/CustomerBanking/actions/approval/paymentState';

const approval = (status?: unknown): IDataObject => ({
	ref: 'ap-1',
	xtid: 'tx-1',
	parent_xaid: 'acc-1',
	...(status !== undefined && { status }),
});

describe('withPaymentState: what an approval says of its payment', () => {
	it.each([
		['pending', 'waiting for approval'],
		['PENDING_APPROVAL', 'waiting for approval'],
		// spec §States and transitions: approved → the payment is sent
		['APPROVED', 'sent'],
		['DECLINED', 'not sent (its approval says "DECLINED")'],
		['EXPIRED', 'not sent (its approval says "EXPIRED")'],
		['PARTIALLY_APPROVED', 'not known (its approval says "PARTIALLY_APPROVED")'],
		['ZORBLED', 'not known (its approval says "ZORBLED")'],
		[undefined, 'not known (its approval says no status)'],
		[7, 'not known (its approval says no status)'],
	])('status %p → %s', (status, state) => {
		expect(withPaymentState({ approvalId: 'ap-1' }, approval(status))).toEqual({
			approvalId: 'ap-1',
			paymentState: state,
		});
	});

	it("the payment's ID from the record's transaction when the top level has none", () => {
		const nested = { ref: 'ap-2', status: 'ZORBLED', transaction: { xtid: 'tx-9' } };
		expect(withPaymentState({}, nested).paymentState).toBe(
			'not known (its approval says "ZORBLED")',
		);
	});
});

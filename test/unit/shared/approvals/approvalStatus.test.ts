import {
	approvalStatusMeaning,
	isPendingApproval,
	transactionStatusMeaning,
} from '../../../../nodes/shared/approvals/approvalStatus';

describe('approvalStatusMeaning', () => {
	it.each([
		['pending', 'pending'],
		['PENDING', 'pending'],
		['PENDING_APPROVAL', 'pending'],
		['AwaitingApproval', 'pending'],
		['approval required', 'pending'],
		['NOT_YET_APPROVED', 'pending'],
		['approved', 'approved'],
		['APPROVED', 'approved'],
		['AUTHORISED', 'approved'],
		['Authorized', 'approved'],
		['declined', 'declined'],
		['REJECTED', 'declined'],
		['DECLINED_BY_APPROVER', 'declined'],
		['APPROVAL_DECLINED', 'declined'],
		['expired', 'expired'],
		['LAPSED', 'expired'],
		['TIMED_OUT', 'expired'],
		['APPROVAL_EXPIRED', 'expired'],
		['NOT_APPROVED', 'notApproved'],
		['NOTAPPROVED', 'notApproved'],
		['not-approved', 'notApproved'],
		['DISAPPROVED', 'notApproved'],
		['UNAPPROVED', 'notApproved'],
		['UNAUTHORISED', 'notApproved'],
		['unauthorized', 'notApproved'],
		['NON_AUTHORISED', 'notApproved'],
		['DEAUTHORIZED', 'notApproved'],
		['NOT_ACCEPTED', 'notApproved'],
		['CANCELLED', 'notApproved'],
		['FAILED', 'notApproved'],
		['PARTIALLY_APPROVED', 'notFinal'],
		['PartlyApproved', 'notFinal'],
		['APPROVED_PENDING_RELEASE', 'notFinal'],
	])('%s → %s', (status, meaning) => {
		expect(approvalStatusMeaning(status)).toBe(meaning);
	});

	it.each([
		[undefined],
		[null],
		[''],
		['   '],
		[42],
		[{ status: 'approved' }],
		['DONE'],
		['ACCEPTED'],
		['NEW'],
		['OPEN'],
		['REQUESTED'],
		['IN_PROGRESS'],
		['submitted'],
		['DECLINED_EXPIRED'],
		['REJECTED_NOT_APPROVED'],
		['NOT_DECLINED'],
		['NOT_EXPIRED'],
		['NO_DECISION'],
		['APPROVED_THEN_DECLINED'],
		['approval'],
	])('%p says nothing known', (status) => {
		expect(approvalStatusMeaning(status)).toBe('unknown');
	});

	it('never reads a negation of approval as approved', () => {
		const prefixes = ['NOT_', 'NOT', 'not-', 'NON_', 'NON', 'UN', 'DIS', 'DE', 'NEVER_', 'Not'];
		const approvals = ['APPROVED', 'AUTHORISED', 'AUTHORIZED', 'Approved', 'GRANTED'];
		for (const prefix of prefixes) {
			for (const approval of approvals) {
				for (const status of [
					prefix + approval,
					`PAYMENT_${prefix}${approval}`,
					`${prefix}${approval}_BY_BANK`,
				]) {
					expect([status, approvalStatusMeaning(status)]).not.toEqual([status, 'approved']);
					expect([status, approvalStatusMeaning(status)]).not.toEqual([status, 'pending']);
				}
			}
		}
	});
});

describe('isPendingApproval', () => {
	it('is true for what says pending only', () => {
		expect(isPendingApproval('pending')).toBe(true);
		expect(isPendingApproval('PENDING_APPROVAL')).toBe(true);
		for (const status of [
			'approved',
			'NOT_APPROVED',
			'declined',
			'expired',
			undefined,
			'',
			'DONE',
		]) {
			expect(isPendingApproval(status)).toBe(false);
		}
	});
});

describe('transactionStatusMeaning', () => {
	it.each([
		[undefined, 'unknown'],
		[null, 'unknown'],
		['', 'unknown'],
		['sent', 'sent'],
		['PENDING_SETTLEMENT', 'sent'],
		['settled', 'sent'],
		['COMPLETED', 'sent'],
		['BOOKED', 'sent'],
		['in flight', 'sent'],
		['APPROVED', 'sent'],
		['PENDING_APPROVAL', 'held'],
		['AWAITING_APPROVAL', 'held'],
		['ON_HOLD', 'held'],
		['onHold', 'held'],
		['HELD', 'held'],
		['REQUIRES_AUTHORISATION', 'held'],
		['pending_authorization', 'held'],
		['DECLINED', 'notSent'],
		['REFUSED', 'notSent'],
		['EXPIRED', 'notSent'],
		['CANCELLED', 'notSent'],
		['canceled', 'notSent'],
		['REJECTED', 'notSent'],
		['FAILED', 'notSent'],
		['NOT_APPROVED', 'notSent'],
		['UNAUTHORISED', 'notSent'],
		['NOT_SENT', 'notSent'],
		['PENDING', 'unknown'],
		['RETURNED', 'unknown'],
		['FOO', 'unknown'],
		[7, 'unknown'],
		['SENT_THEN_CANCELLED', 'unknown'],
		['ON_HOLD_SETTLED', 'unknown'],
		['NEW', 'unknown'],
		['IN_PROGRESS', 'unknown'],
		['OPEN', 'unknown'],
		['REQUESTED', 'unknown'],
		['submitted', 'unknown'],
		['PROCESSING', 'unknown'],
		['ACCEPTED', 'unknown'],
		['PARTIALLY_APPROVED', 'unknown'],
	])('%p → %s', (status, meaning) => {
		expect(transactionStatusMeaning(status)).toBe(meaning);
	});
});

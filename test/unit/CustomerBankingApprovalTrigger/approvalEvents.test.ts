import { judgeDecision } from '../../../nodes/CustomerBankingApprovalTrigger/approvalEvents';

const approval = (status?: string) => ({ ref: 'r', xtid: 'x', status });
const transaction = (status?: string) => ({ xtid: 'x', ...(status !== undefined && { status }) });

describe('judgeDecision: the approval and its transaction record together', () => {
	it.each([
		// the approval's own status names the decision, the record does not contradict it
		['approved', 'sent', 'approved'],
		['AUTHORISED', undefined, 'approved'],
		['declined', null, 'declined'],
		['declined', 'DECLINED', 'declined'],
		['REJECTED', 'PENDING_APPROVAL', 'declined'],
		['expired', 'EXPIRED', 'expired'],
		['LAPSED', null, 'expired'],
		['NOT_APPROVED', null, 'not_sent'],
		['DISAPPROVED', 'DECLINED', 'not_sent'],
		// the approval says nothing known: the record decides when its own status says it
		['DONE', 'settled', 'approved'],
		['DONE', undefined, 'approved'],
		['DONE', 'DECLINED', 'declined'],
		['DONE', 'EXPIRED', 'expired'],
		['DONE', 'CANCELLED', 'not_sent'],
	])('approval %p, transaction %p → %s', (approvalStatus, transactionStatus, decision) => {
		const record = transactionStatus === null ? undefined : transaction(transactionStatus);
		expect(judgeDecision(approval(approvalStatus), record)).toEqual({ kind: 'decided', decision });
	});

	it.each([
		['approved', null],
		['approved', 'PENDING_APPROVAL'],
		['APPROVED', 'DECLINED'],
		['approved', 'PENDING'],
		['declined', 'sent'],
		['EXPIRED', undefined],
		['UNAUTHORISED', 'settled'],
		['DONE', null],
		['DONE', 'ON_HOLD'],
		['DONE', 'RETURNED'],
		[undefined, null],
	])(
		'approval %p, transaction %p → unclear, never approved',
		(approvalStatus, transactionStatus) => {
			const record = transactionStatus === null ? undefined : transaction(transactionStatus);
			const judgement = judgeDecision(approval(approvalStatus), record);
			expect(judgement).toEqual({
				kind: 'unclear',
				note: expect.stringMatching(/^Not known whether the payment was sent/),
			});
		},
	);

	it('an approval the bank no longer shows: the record alone', () => {
		expect(judgeDecision(undefined, transaction('sent'))).toEqual({
			kind: 'decided',
			decision: 'approved',
		});
		expect(judgeDecision(undefined, transaction('PENDING_APPROVAL'))).toMatchObject({
			kind: 'unclear',
		});
		expect(judgeDecision(undefined, undefined)).toMatchObject({
			kind: 'unclear',
			note: expect.stringContaining('the bank no longer shows the approval'),
		});
	});

	it('pending stays pending', () => {
		expect(judgeDecision(approval('pending'), transaction('sent'))).toEqual({ kind: 'pending' });
		expect(judgeDecision(approval('PENDING_APPROVAL'), undefined)).toEqual({ kind: 'pending' });
	});
});

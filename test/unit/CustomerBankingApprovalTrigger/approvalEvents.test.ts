import {
	decidedEvent,
	describeApproval,
	judgeDecision,
	simplifiedEvent,
} from '../../../nodes/CustomerBankingApprovalTrigger/approvalEvents';

const approval = (status?: string) => ({ ref: 'r', xtid: 'x', status });
const transaction = (status?: string) => ({ xtid: 'x', ...(status !== undefined && { status }) });

describe('judgeDecision: the approval and its transaction record together', () => {
	it.each([
		// the approval's own status names the decision, the record does not contradict it
		['approved', 'sent', 'approved'],
		['AUTHORISED', undefined, 'approved'],
		// spec §States and transitions: approved → the payment is sent; no record says otherwise
		['approved', null, 'approved'],
		['approved', 'PENDING', 'approved'],
		// a record without a status word says nothing against the refusal
		['EXPIRED', undefined, 'expired'],
		['declined', null, 'declined'],
		['declined', 'DECLINED', 'declined'],
		['REJECTED', 'PENDING_APPROVAL', 'declined'],
		['expired', 'EXPIRED', 'expired'],
		['LAPSED', null, 'expired'],
		['NOT_APPROVED', null, 'not_sent'],
		['DISAPPROVED', 'DECLINED', 'not_sent'],
		// approved, then its transaction refused or failed: the money did not leave, as Submit states it
		['APPROVED', 'DECLINED', 'not_sent'],
		['approved', 'FAILED', 'not_sent'],
		// the approval says nothing known: the record decides when its own status says it
		['DONE', 'settled', 'approved'],
		['DONE', 'DECLINED', 'declined'],
		['DONE', 'EXPIRED', 'expired'],
		['DONE', 'CANCELLED', 'not_sent'],
	])('approval %p, transaction %p → %s', (approvalStatus, transactionStatus, decision) => {
		const record = transactionStatus === null ? undefined : transaction(transactionStatus);
		expect(judgeDecision('x', approval(approvalStatus), record)).toEqual({
			kind: 'decided',
			decision,
		});
	});

	it.each([
		['approved', 'PENDING_APPROVAL'],
		['declined', 'sent'],
		// a record without a status word, of an approval whose word is not known: not evidence of sent
		['DONE', undefined],
		['UNAUTHORISED', 'settled'],
		['DONE', null],
		['DONE', 'ON_HOLD'],
		['DONE', 'RETURNED'],
		[undefined, null],
	])(
		'approval %p, transaction %p → unclear, never approved',
		(approvalStatus, transactionStatus) => {
			const record = transactionStatus === null ? undefined : transaction(transactionStatus);
			const judgement = judgeDecision('x', approval(approvalStatus), record);
			expect(judgement).toEqual({
				kind: 'unclear',
				note: expect.stringMatching(
					/^The bank accepted this payment \(transaction ID x\), but .*Nothing shows whether it was sent/,
				),
			});
		},
	);

	it('an approval the bank no longer shows: the record alone', () => {
		expect(judgeDecision('x', undefined, transaction('sent'))).toEqual({
			kind: 'decided',
			decision: 'approved',
		});
		expect(judgeDecision('x', undefined, transaction('PENDING_APPROVAL'))).toMatchObject({
			kind: 'unclear',
		});
		expect(judgeDecision('x', undefined, undefined)).toMatchObject({
			kind: 'unclear',
			note: expect.stringContaining('no approval of it is shown'),
		});
	});

	it('pending stays pending', () => {
		expect(judgeDecision('x', approval('pending'), transaction('sent'))).toEqual({
			kind: 'pending',
		});
		expect(judgeDecision('x', approval('PENDING_APPROVAL'), undefined)).toEqual({
			kind: 'pending',
		});
	});
});

describe("the events' fields: the package's plain names; the bank's records with Simplify off only", () => {
	const record = {
		ref: 'r1',
		xtid: 't1',
		parent_xaid: 'a1',
		status: 'approved',
		transaction: { xtid: 't1', xpid: 'p1', amount: 2400, currency: 'GBP', reference: 'INV-1' },
		meta: { approvers: ['Ann'], expiresAt: '2026-11-30T04:42:17.188Z' },
	};
	const sent = { xtid: 't1', xaid: 'a1', status: 'settled' };

	it("describeApproval names each identifier plainly and lifts the payment's details", () => {
		expect(describeApproval(record)).toEqual({
			approvalId: 'r1',
			transactionId: 't1',
			accountId: 'a1',
			bankStatus: 'approved',
			amount: 2400,
			currency: 'GBP',
			payeeId: 'p1',
			reference: 'INV-1',
			approvers: ['Ann'],
			expiresAt: '2026-11-30T04:42:17.188Z',
		});
	});

	it("Simplify leaves the bank's records out and keeps every other field", () => {
		const event = decidedEvent(
			'r1',
			{ xtid: 't1', account: 'a1' },
			{ approval: record, transaction: sent, judgement: { kind: 'decided', decision: 'approved' } },
			'approved',
		);
		expect(event).toEqual(expect.objectContaining({ approval: record, transaction: sent }));
		const simplified = simplifiedEvent(event);
		expect(simplified).toEqual({
			event: 'approvalDecided',
			decision: 'approved',
			...describeApproval(record),
			transactionStatus: 'settled',
		});
		expect(event).toHaveProperty('approval');
	});

	it('an approval the bank no longer shows: its IDs as remembered, under the same names', () => {
		expect(
			simplifiedEvent(
				decidedEvent(
					'r1',
					{ xtid: 't1', account: 'a1' },
					{ judgement: { kind: 'unclear', note: 'n' } },
					'undetermined',
					'n',
				),
			),
		).toEqual({
			event: 'approvalDecided',
			decision: 'undetermined',
			approvalId: 'r1',
			transactionId: 't1',
			accountId: 'a1',
			bankStatus: null,
			transactionStatus: null,
			note: 'n',
		});
	});
});

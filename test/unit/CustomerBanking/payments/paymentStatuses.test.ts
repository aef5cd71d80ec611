import {
	nextStepOf,
	STATUS_OUTPUTS,
	outputOfStatus,
	PAYMENT_STATUSES,
	type PaymentStatus,
} from '../../../../nodes/CustomerBanking/payments/paymentStatuses';

const statuses = Object.keys(PAYMENT_STATUSES) as PaymentStatus[];

describe('payment statuses: each has one output by outcome and a next step', () => {
	it.each<[PaymentStatus, string]>([
		['sent', 'Sent'],
		['replayed', 'Made Before'],
		['found_after_error', 'To Check'],
		['pending_approval', 'To Approve'],
		['already_made', 'Made Before'],
		['rejected', 'Not Paid'],
		['not_sent', 'Not Paid'],
		['invalid', 'Not Paid'],
		['valid', 'Not Paid'],
		['accepted', 'To Check'],
		['undetermined', 'To Check'],
		['unknown', 'To Check'],
	])('%s → %s', (status, output) => {
		expect(STATUS_OUTPUTS[outputOfStatus(status)]).toBe(output);
		expect(nextStepOf(status)).toMatch(/^[A-Z].{20,}\.$/);
	});

	it('the table above names every status there is', () => {
		expect(statuses).toHaveLength(12);
	});

	it('an item without a known status needs checking: nothing says it was not paid', () => {
		for (const status of [undefined, '', 'paid', 'SUBMITTED', 42, 'toString', '__proto__'])
			expect(STATUS_OUTPUTS[outputOfStatus(status)]).toBe('To Check');
	});

	it('never says "sent" for an outcome an approval may hold, nor "not paid" for one that may be paid', () => {
		const sent = statuses.filter((status) => STATUS_OUTPUTS[outputOfStatus(status)] === 'Sent');
		expect(sent).not.toContain('pending_approval');
		expect(sent).not.toContain('accepted');
		expect(sent).toEqual(['sent']);
		const notPaid = statuses.filter(
			(status) => STATUS_OUTPUTS[outputOfStatus(status)] === 'Not Paid',
		);
		for (const mayBePaid of ['unknown', 'undetermined', 'accepted', 'already_made'])
			expect(notPaid).not.toContain(mayBePaid);
	});
});

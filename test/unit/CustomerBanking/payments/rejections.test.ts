import {
	mayResubmit,
	rejectionKind,
	TEMPORARY_REJECTION,
} from '../../../../nodes/CustomerBanking/payments/rejections';

const byDefault = new RegExp(TEMPORARY_REJECTION, 'i');

describe('rejection reasons (Resubmit Rejected Items)', () => {
	it.each([
		// the sandbox's per-item rejections (test/sandbox/payments/model.ts)
		['amount must have at most 2 decimals', 'invalid'],
		['xaid is required', 'invalid'],
		['description must be at most 140 characters', 'invalid'],
		['reference must be 6-18 characters for GBP', 'invalid'],
		['account 3f1c… does not exist or does not belong to the caller', 'invalid'],
		['payee pye_1 not found on account 3f1c…', 'invalid'],
		['currency EUR does not match the account and payee currency GBP', 'invalid'],
		['account 3f1c… is not active (status SUSPENDED)', 'refused'],
		['insufficient available balance on account 3f1c…', 'insufficientFunds'],
		// wordings a real bank may use
		['Duplicate payment', 'refused'],
		['Daily limit exceeded', 'refused'],
		['Rejected by compliance screening', 'refused'],
		['Service temporarily unavailable', 'other'],
		['Processing error', 'other'],
	])('"%s" is %s', (reason, kind) => {
		expect(rejectionKind(reason)).toBe(kind);
	});

	it('resubmits by default only what says it is temporary', () => {
		expect(mayResubmit('Service temporarily unavailable', byDefault)).toEqual({ resubmit: true });
		expect(mayResubmit('Upstream timed out, try again', byDefault)).toEqual({ resubmit: true });
		expect(mayResubmit('Processing error', byDefault)).toEqual({
			resubmit: false,
			because: 'the reason does not match "Resubmit When Reason Matches"',
		});
		expect(mayResubmit('insufficient available balance on account x', byDefault)).toEqual({
			resubmit: false,
			because:
				'insufficient funds is not resubmitted unless "Resubmit When Reason Matches" names it',
		});
	});

	it('never resubmits invalid or refused items, whatever the pattern says', () => {
		const everything = /.*/;
		expect(mayResubmit('payee pye_1 not found on account x', everything)).toMatchObject({
			resubmit: false,
		});
		expect(mayResubmit('Duplicate payment', everything)).toMatchObject({ resubmit: false });
		expect(mayResubmit('account x is not active (status SUSPENDED)', everything)).toMatchObject({
			resubmit: false,
		});
		expect(mayResubmit('insufficient available balance on account x', /insufficient/i)).toEqual({
			resubmit: true,
		});
		expect(mayResubmit('Processing error', everything)).toEqual({ resubmit: true });
	});
});

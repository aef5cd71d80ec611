import { accountLabel, matchesFilter, payeeLabel } from '../../../../nodes/shared/methods/labels';

describe('what the account and payee pickers show', () => {
	it.each([
		[
			{ xaid: 'a1', displayName: 'Main GBP', currency: 'GBP', accountNumber: '12 34 5678' },
			'Main GBP · GBP · ••5678',
		],
		[
			{ xaid: 'a1', name: 'Ops', currency: 'EUR', iban: 'DE89 3704 0044 0532 0130 00' },
			'Ops · EUR · ••3000',
		],
		[{ xaid: 'a1', currency: 'GBP' }, 'a1 · GBP'],
		[{ xaid: 'a1', displayName: '' }, 'a1'],
	])('account %j: %s', (account, label) => {
		expect(accountLabel(account)).toBe(label);
	});

	it.each([
		[
			{
				xpid: 'p1',
				displayName: 'Acme Supplies Ltd',
				currency: 'EUR',
				iban: 'FR7630006000011234567894432',
			},
			'Acme Supplies Ltd · EUR · ••4432',
		],
		[{ xpid: 'p1', name: 'Acme' }, 'Acme'],
		[{ xpid: 'p1' }, 'p1'],
	])('payee %j: %s', (payee, label) => {
		expect(payeeLabel(payee)).toBe(label);
	});

	it.each([
		[undefined, ['anything'], true],
		['', ['anything'], true],
		['MAIN', ['Main GBP · GBP', 'a1'], true],
		['a1', ['Main GBP', 'A1'], true],
		['ops', ['Main GBP', 'a1'], false],
		['1', [1, null, { id: '1' }], false],
	])('search %j over %j: %s', (filter, values, matches) => {
		expect(matchesFilter(filter, values)).toBe(matches);
	});
});

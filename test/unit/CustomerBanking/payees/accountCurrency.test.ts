/** The account's currency, read once per account and execution against a scripted bank; a failure is not remembered. */
jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

import { getAccountCurrency } from '../../../../nodes/CustomerBanking/payees/accountCurrency';
import { fails, ok, scriptedBank } from '../../../helpers/scriptedBank';

describe('getAccountCurrency', () => {
	it('reads each account once per execution, upper-cased', async () => {
		const bank = scriptedBank((call) => ok({ xaid: call.path, currency: 'gbp' }));
		const reads = await Promise.all([
			getAccountCurrency.call(bank.context, 'acc-1', 0),
			getAccountCurrency.call(bank.context, 'acc-1', 1),
			getAccountCurrency.call(bank.context, 'acc-2', 2),
		]);
		expect(reads).toEqual(['GBP', 'GBP', 'GBP']);
		expect(bank.calls.map((call) => call.path)).toEqual(['/account/acc-1', '/account/acc-2']);
	});

	it('another execution (another context) reads it again', async () => {
		const first = scriptedBank(() => ok({ currency: 'EUR' }));
		const second = scriptedBank(() => ok({ currency: 'USD' }));
		expect(await getAccountCurrency.call(first.context, 'acc-1', 0)).toBe('EUR');
		expect(await getAccountCurrency.call(second.context, 'acc-1', 0)).toBe('USD');
	});

	it('an account without a currency gives an empty one', async () => {
		const bank = scriptedBank(() => ok({}));
		expect(await getAccountCurrency.call(bank.context, 'acc-1', 0)).toBe('');
	});

	it('a failed read is not remembered: the next item asks again', async () => {
		const bank = scriptedBank(() => fails(404));
		await expect(getAccountCurrency.call(bank.context, 'acc-1', 0)).rejects.toThrow();
		bank.setScript(() => ok({ currency: 'GBP' }));
		expect(await getAccountCurrency.call(bank.context, 'acc-1', 1)).toBe('GBP');
		expect(bank.calls).toHaveLength(2);
	});
});

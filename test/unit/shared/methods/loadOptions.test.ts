/** The trigger's account options in n8n-core's LoadOptionsContext, the bank scripted: every account, labelled, by xaid. */
import { getAccounts } from '../../../../nodes/shared/methods/loadOptions';
import { createLoadOptionsContext } from '../../../helpers/n8nContext';
import { page, scriptedBankCredentials, scriptRequests } from '../../../helpers/scriptedBank';

describe('getAccounts', () => {
	it('every account of every page, as "name · currency · ••last four" → xaid', async () => {
		const accounts = Array.from({ length: 501 }, (_entry, index) => ({
			xaid: `acc-${index}`,
			name: `Account ${index}`,
			currency: 'GBP',
			accountNumber: `0000${String(index).padStart(4, '0')}`,
		}));
		const { context } = createLoadOptionsContext({ credentials: scriptedBankCredentials() });
		const bank = scriptRequests(context, (call) => page(accounts, call.qs));
		const options = await getAccounts.call(context);
		expect(options).toHaveLength(501);
		expect(options[0]).toEqual({ name: 'Account 0 · GBP · ••0000', value: 'acc-0' });
		expect(options[500].value).toBe('acc-500');
		expect(bank.calls.length).toBeGreaterThan(1);
	});
});

/**
 * The account and payee pickers in n8n-core's LoadOptionsContext, the bank scripted: every record
 * listed with its label, searched in the label and the IDs; payees of the account picked, or of every
 * account when what is picked is no account ID yet (a picker never fails on what the run will refuse).
 */
import type { IDataObject } from 'n8n-workflow';

import { searchAccounts, searchPayees } from '../../../../nodes/CustomerBanking/methods/listSearch';
import { createLoadOptionsContext } from '../../../helpers/n8nContext';
import { page, scriptedBankCredentials, scriptRequests } from '../../../helpers/scriptedBank';

const ACCOUNT = '7b0e3c1d-2f4a-4b6c-8d9e-0a1b2c3d4e5f';
const ACCOUNTS: IDataObject[] = [
	{ xaid: ACCOUNT, name: 'Main', currency: 'GBP', accountNumber: '12341234' },
	{ xaid: 'acc-2', name: 'Euro', currency: 'EUR', iban: 'DE89370400440532013000' },
];
const PAYEES: IDataObject[] = [
	{ xpid: 'p-1', name: 'Acme Ltd', currency: 'GBP' },
	{ xpid: 'p-2', name: 'Globex', currency: 'EUR' },
];

function picker(currentParameters: IDataObject = {}) {
	const { context } = createLoadOptionsContext({
		credentials: scriptedBankCredentials(),
		parameters: { resource: 'payment', operation: 'submit', ...currentParameters },
		currentParameters,
	});
	const bank = scriptRequests(context, (call) =>
		page(call.path.endsWith('/payees') || call.path === '/payees' ? PAYEES : ACCOUNTS, call.qs),
	);
	return { context, bank };
}

describe('searchAccounts', () => {
	it('every account with its label, its xaid as the value', async () => {
		const { context } = picker();
		const { results } = await searchAccounts.call(context);
		expect(results.map((result) => result.value)).toEqual([ACCOUNT, 'acc-2']);
		expect(results[0].name).toMatch(/^Main · GBP/);
	});

	it.each<[string, string[]]>([
		['main', [ACCOUNT]],
		['EUR', ['acc-2']],
		['DE8937', ['acc-2']],
		['acc-2', ['acc-2']],
		['nothing like it', []],
	])('searched for %s', async (filter, values) => {
		const { context } = picker();
		const { results } = await searchAccounts.call(context, filter);
		expect(results.map((result) => result.value)).toEqual(values);
	});
});

describe('searchPayees', () => {
	it('the payees of the account picked', async () => {
		const { context, bank } = picker({ account: { __rl: true, mode: 'id', value: ACCOUNT } });
		const { results } = await searchPayees.call(context, 'acme');
		expect(results).toEqual([{ name: expect.stringMatching(/^Acme Ltd/) as string, value: 'p-1' }]);
		expect(bank.calls[0].path).toBe(`/account/${ACCOUNT}/payees`);
	});

	it.each<[string, IDataObject]>([
		['nothing picked', {}],
		['text that is no account ID', { account: { __rl: true, mode: 'id', value: 'acc 1' } }],
		['an expression', { account: { __rl: true, mode: 'id', value: '={{ $json.accountId }}' } }],
	])('%s: the payees of every account', async (_case, parameters) => {
		const { context, bank } = picker(parameters);
		const { results } = await searchPayees.call(context);
		expect(results.map((result) => result.value)).toEqual(['p-1', 'p-2']);
		expect(bank.calls[0].path).toBe('/payees');
	});
});

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { getAccounts } from '../../nodes/shared/methods/loadOptions';
import { searchAccounts, searchPayees } from '../../nodes/CustomerBanking/methods/listSearch';
import { createLoadOptionsContext } from '../helpers/n8nContext';
import { credentialsFor } from '../helpers/sandboxCredentials';
import { type Sandbox, startSandbox } from '../sandbox';

let sandbox: Sandbox;
let credentials: ICredentialDataDecryptedObject;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	credentials = credentialsFor(sandbox);
});
afterAll(async () => await sandbox.close());

const contextWith = (parameters: Record<string, unknown> = {}) =>
	createLoadOptionsContext({ credentials, parameters });

describe('account and payee pickers (resource locator lists, options)', () => {
	it('getAccounts: "display name · currency · last digits" → xaid, for every account of the workspace', async () => {
		const { context } = contextWith();
		const options = await getAccounts.call(context);
		const { gbp, eur, suspended } = sandbox.seeded.accounts;
		expect(options).toEqual(
			expect.arrayContaining([
				{ name: 'Operating account (GBP) · GBP · ••6819', value: gbp },
				{ name: 'Euro account (EUR) · EUR · ••3000', value: eur },
				{ name: 'Dormant account (GBP) · GBP · ••6820', value: suspended },
			]),
		);
		expect(options).toHaveLength(5);
	});

	it('searchAccounts: the same labels, filtered by what the user types (name, currency, number)', async () => {
		const { context } = contextWith();
		const all = await searchAccounts.call(context);
		expect(all.results).toHaveLength(5);
		const euro = await searchAccounts.call(context, 'EURO');
		expect(euro.results).toEqual([
			{ name: 'Euro account (EUR) · EUR · ••3000', value: sandbox.seeded.accounts.eur },
		]);
		const byNumber = await searchAccounts.call(context, '31926819');
		expect(byNumber.results.map((result) => result.value)).toEqual([sandbox.seeded.accounts.gbp]);
		expect(await searchAccounts.call(context, 'no such account')).toEqual({ results: [] });
	});

	it('searchPayees: the payees of the selected account, or of every account when none is selected', async () => {
		const { context: forEur, requests } = contextWith({
			account: { __rl: true, mode: 'list', value: sandbox.seeded.accounts.eur },
		});
		const eurPayees = await searchPayees.call(forEur);
		expect(eurPayees.results).toEqual([
			{ name: 'Berlin Parts GmbH · EUR · ••6199', value: sandbox.seeded.payees.eur },
		]);
		expect(requests.at(-1)?.url).toBe(
			`${sandbox.baseUrl}/account/${sandbox.seeded.accounts.eur}/payees?page=0&limit=100`,
		);

		const { context: anyAccount } = contextWith();
		const all = await searchPayees.call(anyAccount);
		expect(all.results.map((result) => result.name)).toEqual(
			expect.arrayContaining([
				'Acme Supplies Ltd · GBP · ••9911',
				'Hudson Freight Inc · USD · ••6789',
				'Maple Logistics Ltd · CAD · ••4567',
			]),
		);
		const filtered = await searchPayees.call(anyAccount, 'hudson');
		expect(filtered.results).toEqual([
			{ name: 'Hudson Freight Inc · USD · ••6789', value: sandbox.seeded.payees.usd },
		]);
	});
});

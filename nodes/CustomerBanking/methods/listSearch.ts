import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { apiRequestAllItems } from '../transport';
import { accountLabel, matchesFilter, payeeLabel } from './labels';

export async function searchAccounts(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const accounts = await apiRequestAllItems.call(this, { path: '/accounts', returnAll: true });
	const results = accounts
		.map((account) => ({ account, name: accountLabel(account) }))
		.filter(({ account, name }) =>
			matchesFilter(filter, [name, account.name, account.iban, account.accountNumber, account.xaid]),
		)
		.map(({ account, name }) => ({ name, value: account.xaid as string }));
	return { results };
}

/** The account currently picked in the node, when the operation shows an account picker. */
function selectedAccount(context: ILoadOptionsFunctions): string | undefined {
	try {
		const xaid = context.getNodeParameter('account', undefined, { extractValue: true });
		return typeof xaid === 'string' && xaid !== '' ? xaid : undefined;
	} catch {
		return undefined;
	}
}

export async function searchPayees(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const xaid = selectedAccount(this);
	const path = xaid ? `/account/${encodeURIComponent(xaid)}/payees` : '/payees';
	const payees = await apiRequestAllItems.call(this, { path, returnAll: true });
	const results = payees
		.map((payee) => ({ payee, name: payeeLabel(payee) }))
		.filter(({ payee, name }) =>
			matchesFilter(filter, [name, payee.name, payee.iban, payee.accountNumber, payee.xpid]),
		)
		.map(({ payee, name }) => ({ name, value: payee.xpid as string }));
	return { results };
}

import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { ENDPOINTS, requestAll } from '../../shared/transport';
import { checkId } from '../../shared/validation/ids';
import { accountLabel, matchesFilter, payeeLabel } from '../../shared/methods/labels';

export async function searchAccounts(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const accounts = await requestAll.call(this, ENDPOINTS.accounts.at({}), {
		returnAll: true,
		// a picker: the user sees the list and can search again
		ifShrinking: 'accept',
	});
	const results = accounts
		.map((account) => ({ account, name: accountLabel(account) }))
		.filter(({ account, name }) =>
			matchesFilter(filter, [
				name,
				account.name,
				account.iban,
				account.accountNumber,
				account.xaid,
			]),
		)
		.map(({ account, name }) => ({ name, value: account.xaid as string }));
	return { results };
}

/**
 * The account currently picked in the node, when the operation shows an account picker and it holds
 * an account ID. Anything else (nothing picked, an expression not resolved while editing, text that
 * is no ID) lists every payee instead: a picker must not fail on what the execution will refuse.
 */
function selectedAccount(this: ILoadOptionsFunctions): string | undefined {
	try {
		const checked = checkId(
			this.getNodeParameter('account', undefined, { extractValue: true }),
			'uuid',
		);
		return checked.valid ? checked.id : undefined;
	} catch {
		return undefined;
	}
}

export async function searchPayees(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const xaid = selectedAccount.call(this);
	const payees = await requestAll.call(this, ENDPOINTS.payees.at(xaid ? { xaid } : {}), {
		returnAll: true,
		ifShrinking: 'accept',
	});
	const results = payees
		.map((payee) => ({ payee, name: payeeLabel(payee) }))
		.filter(({ payee, name }) =>
			matchesFilter(filter, [name, payee.name, payee.iban, payee.accountNumber, payee.xpid]),
		)
		.map(({ payee, name }) => ({ name, value: payee.xpid as string }));
	return { results };
}

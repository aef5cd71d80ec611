import type { IExecuteFunctions } from 'n8n-workflow';

import { ENDPOINTS, request } from '../../shared/transport';

// One GET /account/{xaid} per account per execution: the currency decides the payee rules
const currencyCache = new WeakMap<IExecuteFunctions, Map<string, Promise<string>>>();

/** The account's currency (spec §Accounts), read once per account and execution. */
export async function getAccountCurrency(
	this: IExecuteFunctions,
	xaid: string,
	itemIndex: number,
): Promise<string> {
	const byAccount = currencyCache.get(this) ?? new Map<string, Promise<string>>();
	currencyCache.set(this, byAccount);
	let currency = byAccount.get(xaid);
	if (!currency) {
		currency = request
			.call(this, ENDPOINTS.account.at({ xaid }), { itemIndex })
			.then((account) => String(account.currency ?? '').toUpperCase());
		byAccount.set(xaid, currency);
		// a failed look-up is not remembered: the next item asks again and gets its own error
		currency.catch(() => byAccount.delete(xaid));
	}
	return await currency;
}

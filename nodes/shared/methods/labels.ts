import type { IDataObject } from 'n8n-workflow';

function lastFour(account: IDataObject): string {
	const number = String(account.accountNumber || account.iban || '').replace(/\s/g, '');
	return number ? `••${number.slice(-4)}` : '';
}

function join(parts: unknown[]): string {
	return parts.filter((part) => typeof part === 'string' && part !== '').join(' · ');
}

/** "Main GBP · GBP · ••1234": what users recognise an account by. */
export function accountLabel(account: IDataObject): string {
	const name = account.displayName || account.name || account.xaid;
	return join([name, account.currency, lastFour(account)]);
}

/** "Acme Supplies Ltd · EUR · ••4432". */
export function payeeLabel(payee: IDataObject): string {
	const name = payee.displayName || payee.name || payee.xpid;
	return join([name, payee.currency, lastFour(payee)]);
}

/** Case-insensitive match of a search box text against a label and the raw identifiers. */
export function matchesFilter(filter: string | undefined, values: unknown[]): boolean {
	if (!filter) return true;
	const needle = filter.toLowerCase();
	return values.some((value) => typeof value === 'string' && value.toLowerCase().includes(needle));
}

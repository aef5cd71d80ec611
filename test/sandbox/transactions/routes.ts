import { findAccount } from '../accounts/model';
import { SCOPES } from '../auth';
import { type ApiRoute, LIST_PAGES, paginate, uuidParam } from '../http';
import { listOf } from '../state';
import type { BankVariants } from '../variants';
import { findTransaction, type TransactionRecord, transactionView } from './model';

/** A transaction as this bank answers it: the `createdTimes: false` variant carries no created/updated. */
function answerView(variants: BankVariants) {
	return (record: TransactionRecord) => {
		const { created, updated, ...untimed } = transactionView(record);
		return variants.createdTimes ? { ...untimed, created, updated } : untimed;
	};
}

// spec §Endpoints §Transactions
export const transactionRoutes: ApiRoute[] = [
	{
		method: 'GET',
		path: '/transactions',
		scopes: [SCOPES.readTransactions],
		handle: ({ bank, caller, query }) => ({
			status: 200,
			body: paginate(listOf(caller.workspace.transactions), query, LIST_PAGES, answerView(bank.variants)),
		}),
	},
	{
		method: 'GET',
		path: '/transaction/{xtid}',
		scopes: [SCOPES.readTransactions],
		handle: ({ bank, caller, params }) => ({
			status: 200,
			body: answerView(bank.variants)(findTransaction(caller.workspace, uuidParam(params, 'xtid'))),
		}),
	},
	{
		method: 'GET',
		path: '/account/{xaid}/transactions',
		scopes: [SCOPES.readTransactions],
		handle: ({ bank, caller, params, query }) => {
			const account = findAccount(caller.workspace, uuidParam(params, 'xaid'), bank.variants.unknownAccount);
			const transactions = listOf(caller.workspace.transactions, (t) => t.xaid === account.xaid);
			return { status: 200, body: paginate(transactions, query, LIST_PAGES, answerView(bank.variants)) };
		},
	},
];

import { findAccount } from '../accounts/model';
import { SCOPES } from '../auth';
import { type ApiRoute, LIST_PAGES, paginate, uuidParam } from '../http';
import { listOf } from '../state';
import { findTransaction, transactionView } from './model';

// spec §Endpoints §Transactions
export const transactionRoutes: ApiRoute[] = [
	{
		method: 'GET',
		path: '/transactions',
		scopes: [SCOPES.readTransactions],
		handle: ({ caller, query }) => ({
			status: 200,
			body: paginate(listOf(caller.workspace.transactions), query, LIST_PAGES, transactionView),
		}),
	},
	{
		method: 'GET',
		path: '/transaction/{xtid}',
		scopes: [SCOPES.readTransactions],
		handle: ({ caller, params }) => ({
			status: 200,
			body: transactionView(findTransaction(caller.workspace, uuidParam(params, 'xtid'))),
		}),
	},
	{
		method: 'GET',
		path: '/account/{xaid}/transactions',
		scopes: [SCOPES.readTransactions],
		handle: ({ caller, params, query }) => {
			const account = findAccount(caller.workspace, uuidParam(params, 'xaid'));
			const transactions = listOf(caller.workspace.transactions, (t) => t.xaid === account.xaid);
			return { status: 200, body: paginate(transactions, query, LIST_PAGES, transactionView) };
		},
	},
];

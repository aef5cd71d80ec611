import { SCOPES } from '../auth';
import { type ApiRoute, LIST_PAGES, paginate, uuidParam } from '../http';
import { listOf } from '../state';
import { accountView, balanceView, findAccount } from './model';

// spec §Endpoints §Accounts
export const accountRoutes: ApiRoute[] = [
	{
		method: 'GET',
		path: '/accounts',
		scopes: [SCOPES.readAccounts],
		handle: ({ caller, query }) => ({
			status: 200,
			body: paginate(listOf(caller.workspace.accounts), query, LIST_PAGES, accountView),
		}),
	},
	{
		method: 'GET',
		path: '/account/{xaid}',
		scopes: [SCOPES.readAccounts],
		handle: ({ bank, caller, params }) => ({
			status: 200,
			body: accountView(
				findAccount(caller.workspace, uuidParam(params, 'xaid'), bank.variants.unknownAccount),
			),
		}),
	},
	{
		method: 'GET',
		path: '/account/{xaid}/balance',
		scopes: [SCOPES.readAccounts],
		handle: ({ bank, caller, params }) => ({
			status: 200,
			body: balanceView(
				findAccount(caller.workspace, uuidParam(params, 'xaid'), bank.variants.unknownAccount),
			),
		}),
	},
];

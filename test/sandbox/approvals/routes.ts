import { findAccount } from '../accounts/model';
import { SCOPES } from '../auth';
import { type ApiRoute, LIST_PAGES, paginate, uuidParam } from '../http';
import { listOf } from '../state';
import { approvalView, findApproval } from './model';

// spec §Endpoints §Approvals: read only; every status is listed (DECISIONS.md §Approvals)
export const approvalRoutes: ApiRoute[] = [
	{
		method: 'GET',
		path: '/approvals',
		scopes: [SCOPES.readApprovals],
		handle: ({ caller, query }) => ({
			status: 200,
			body: paginate(listOf(caller.workspace.approvals), query, LIST_PAGES, approvalView),
		}),
	},
	{
		method: 'GET',
		path: '/approval/{ref}',
		scopes: [SCOPES.readApprovals],
		handle: ({ caller, params }) => ({
			status: 200,
			body: approvalView(findApproval(caller.workspace, uuidParam(params, 'ref'))),
		}),
	},
	{
		method: 'GET',
		path: '/account/{xaid}/approvals',
		scopes: [SCOPES.readApprovals],
		handle: ({ caller, params, query }) => {
			const account = findAccount(caller.workspace, uuidParam(params, 'xaid'));
			const approvals = listOf(caller.workspace.approvals, (a) => a.parent_xaid === account.xaid);
			return { status: 200, body: paginate(approvals, query, LIST_PAGES, approvalView) };
		},
	},
];

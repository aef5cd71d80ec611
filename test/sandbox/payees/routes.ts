import { findAccount } from '../accounts/model';
import { SCOPES } from '../auth';
import { type ApiRoute, type RouteContext, PAYEE_PAGES, paginate } from '../http';
import { listOf } from '../state';
import { createPayee, findPayee, payeeView, requireActive, updatePayee, upsertPayee } from './model';

/** Payee endpoints on an account: 401 unknown/foreign account, then 429 when it is not ACTIVE. */
function activeAccount({ caller, params }: RouteContext) {
	const account = findAccount(caller.workspace, params.xaid);
	requireActive(account); // spec §Errors 429
	return account;
}

// spec §Endpoints §Payees; statuses 201 created / 200 otherwise (DECISIONS.md §Payees)
export const payeeRoutes: ApiRoute[] = [
	{
		method: 'GET',
		path: '/payees',
		scopes: [SCOPES.readPayees],
		handle: ({ caller, query }) => ({
			status: 200,
			body: paginate(listOf(caller.workspace.payees), query, PAYEE_PAGES, payeeView),
		}),
	},
	{
		method: 'GET',
		path: '/payee/{xpid}',
		scopes: [SCOPES.readPayees],
		handle: ({ caller, params }) => ({ status: 200, body: payeeView(findPayee(caller.workspace, params.xpid)) }),
	},
	{
		method: 'GET',
		path: '/account/{xaid}/payees',
		scopes: [SCOPES.readPayees],
		handle: (ctx) => {
			const account = activeAccount(ctx);
			const payees = listOf(ctx.caller.workspace.payees, (p) => p.xaid === account.xaid);
			return { status: 200, body: paginate(payees, ctx.query, PAYEE_PAGES, payeeView) };
		},
	},
	{
		method: 'POST',
		path: '/account/{xaid}/payees',
		scopes: [SCOPES.createPayee],
		handle: (ctx) => {
			const account = activeAccount(ctx);
			return { status: 201, body: payeeView(createPayee(ctx.bank, ctx.caller.workspace, account, ctx.body())) };
		},
	},
	{
		method: 'PUT',
		path: '/account/{xaid}/payees/{xpid}',
		scopes: [SCOPES.updatePayee],
		handle: (ctx) => {
			const account = activeAccount(ctx);
			const payee = findPayee(ctx.caller.workspace, ctx.params.xpid, account.xaid);
			return { status: 200, body: payeeView(updatePayee(ctx.bank, account, payee, ctx.body())) };
		},
	},
	{
		method: 'POST',
		path: '/account/{xaid}/payee',
		scopes: [SCOPES.createPayee, SCOPES.updatePayee], // spec §Upsert rule 3
		handle: (ctx) => {
			const account = activeAccount(ctx);
			const { payee, created } = upsertPayee(ctx.bank, ctx.caller.workspace, account, ctx.body());
			return { status: created ? 201 : 200, body: payeeView(payee) };
		},
	},
];

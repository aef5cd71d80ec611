import { findAccount } from '../accounts/model';
import { SCOPES } from '../auth';
import { type ApiRoute, type RouteContext, PAYEE_PAGES, paginate } from '../http';
import { listOf } from '../state';
import {
	createPayee,
	findPayee,
	type PayeeRecord,
	payeeView,
	requireActive,
	updatePayee,
	upsertPayee,
} from './model';

/** Payee endpoints on an account: 401 (or 404, variant unknownAccount) unknown/foreign account, then 429 when not ACTIVE. */
function activeAccount({ bank, caller, params }: RouteContext) {
	const account = findAccount(caller.workspace, params.xaid, bank.variants.unknownAccount);
	requireActive(account); // spec §Errors 429
	return account;
}

/** spec §Payees: the envelope is "not shown": `{ total, results }`, or the page alone (`payeeListEnvelope: 'bareArray'`). */
function payeePage({ bank, query }: RouteContext, payees: PayeeRecord[]) {
	const page = paginate(payees, query, PAYEE_PAGES, payeeView);
	return bank.variants.payeeListEnvelope === 'bareArray' ? page.results : page;
}

// spec §Endpoints §Payees; statuses 201 created / 200 otherwise (DECISIONS.md §Payees)
export const payeeRoutes: ApiRoute[] = [
	{
		method: 'GET',
		path: '/payees',
		scopes: [SCOPES.readPayees],
		handle: (ctx) => ({ status: 200, body: payeePage(ctx, listOf(ctx.caller.workspace.payees)) }),
	},
	{
		method: 'GET',
		path: '/payee/{xpid}',
		scopes: [SCOPES.readPayees],
		handle: ({ caller, params }) => ({
			status: 200,
			body: payeeView(findPayee(caller.workspace, params.xpid)),
		}),
	},
	{
		method: 'GET',
		path: '/account/{xaid}/payees',
		scopes: [SCOPES.readPayees],
		handle: (ctx) => {
			const account = activeAccount(ctx);
			const payees = listOf(ctx.caller.workspace.payees, (p) => p.xaid === account.xaid);
			return { status: 200, body: payeePage(ctx, payees) };
		},
	},
	{
		method: 'POST',
		path: '/account/{xaid}/payees',
		scopes: [SCOPES.createPayee],
		handle: (ctx) => {
			const account = activeAccount(ctx);
			return {
				status: 201,
				body: payeeView(createPayee(ctx.bank, ctx.caller.workspace, account, ctx.body())),
			};
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

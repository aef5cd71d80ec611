import { findAccount } from '../accounts/model';
import { SCOPES } from '../auth';
import { type ApiRoute, LIST_PAGES, paginate, uuidParam } from '../http';
import { listOf } from '../state';
import { notFound } from '../errors';
import type { Bank, Workspace } from '../state';
import type { BankVariants } from '../variants';
import { visibleToReads } from '../visibility';
import { findTransaction, type TransactionRecord, transactionView } from './model';

const visible = (bank: Bank) => (record: TransactionRecord) =>
	visibleToReads(bank, { requestId: record.requestId, createdMs: Date.parse(record.created) });

function findVisibleTransaction(bank: Bank, workspace: Workspace, xtid: string): TransactionRecord {
	const transaction = findTransaction(workspace, xtid);
	if (!visible(bank)(transaction)) throw notFound(`transaction ${xtid} not found`);
	return transaction;
}

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
			body: paginate(
				listOf(caller.workspace.transactions, visible(bank)),
				query,
				LIST_PAGES,
				answerView(bank.variants),
			),
		}),
	},
	{
		method: 'GET',
		path: '/transaction/{xtid}',
		scopes: [SCOPES.readTransactions],
		handle: ({ bank, caller, params }) => ({
			status: 200,
			body: answerView(bank.variants)(
				findVisibleTransaction(bank, caller.workspace, uuidParam(params, 'xtid')),
			),
		}),
	},
	{
		method: 'GET',
		path: '/account/{xaid}/transactions',
		scopes: [SCOPES.readTransactions],
		handle: ({ bank, caller, params, query }) => {
			const account = findAccount(
				caller.workspace,
				uuidParam(params, 'xaid'),
				bank.variants.unknownAccount,
			);
			const transactions = listOf(
				caller.workspace.transactions,
				(t) => t.xaid === account.xaid && visible(bank)(t),
			);
			return {
				status: 200,
				body: paginate(transactions, query, LIST_PAGES, answerView(bank.variants)),
			};
		},
	},
];

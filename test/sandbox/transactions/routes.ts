import { findAccount } from '../accounts/model';
import { SCOPES } from '../auth';
import { type ApiRoute, LIST_PAGES, paginate, uuidParam } from '../http';
import { inListOrder, listOf } from '../state';
import { notFound } from '../errors';
import type { Bank, Workspace } from '../state';
import type { BankVariants } from '../variants';
import { bankTime } from '../times';
import { visibleToReads } from '../visibility';
import { findTransaction, type TransactionRecord, transactionView } from './model';

const visible = (bank: Bank) => (record: TransactionRecord) =>
	visibleToReads(bank, { requestId: record.requestId, createdMs: Date.parse(record.created) });

function findVisibleTransaction(bank: Bank, workspace: Workspace, xtid: string): TransactionRecord {
	const transaction = findTransaction(workspace, xtid);
	if (!visible(bank)(transaction)) throw notFound(`transaction ${xtid} not found`);
	return transaction;
}

/**
 * A transaction as this bank answers it: its status in the bank's words, its times as the bank writes
 * them, or (`createdTimes: false`) no created/updated.
 */
function answerView(variants: BankVariants) {
	return (record: TransactionRecord) => {
		const { created, updated, ...untimed } = transactionView(record);
		const status = variants.transactionStatusWords[record.status] ?? record.status;
		const times = { created: bankTime(variants, created), updated: bankTime(variants, updated) };
		return variants.createdTimes ? { ...untimed, status, ...times } : { ...untimed, status };
	};
}

/**
 * GET /transaction/{xtid}: the record, or with `transactionById: 'anyRecord'` (a broken cache in front of
 * the bank) the newest outgoing transaction the workspace shows when this one is not shown.
 */
function transactionAt(bank: Bank, workspace: Workspace, xtid: string): TransactionRecord {
	try {
		return findVisibleTransaction(bank, workspace, xtid);
	} catch (error) {
		const shown = listOf(
			workspace.transactions,
			(t) => t.direction === 'outgoing' && visible(bank)(t),
		);
		const newest = shown[shown.length - 1];
		if (bank.variants.transactionById === 'anyRecord' && newest !== undefined) return newest;
		throw error;
	}
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
				inListOrder(bank, listOf(caller.workspace.transactions, visible(bank))),
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
				transactionAt(bank, caller.workspace, uuidParam(params, 'xtid')),
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
				body: paginate(
					inListOrder(bank, transactions),
					query,
					LIST_PAGES,
					answerView(bank.variants),
				),
			};
		},
	},
];

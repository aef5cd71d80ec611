import { findAccount } from '../accounts/model';
import { SCOPES } from '../auth';
import { type ApiRoute, LIST_PAGES, paginate, uuidParam } from '../http';
import { inListOrder, listOf } from '../state';
import { notFound } from '../errors';
import type { Bank, Workspace } from '../state';
import type { BankVariants } from '../variants';
import { bankTime } from '../times';
import { visibleToReads } from '../visibility';
import { type ApprovalRecord, type ApprovalStatus, approvalView, findApproval } from './model';

/** The `approvalStatusNames: 'other'` variant: a bank naming decided approvals its own way (pending as in the spec). */
const OTHER_STATUS_NAMES: Record<ApprovalStatus, string> = {
	pending: 'pending',
	approved: 'AUTHORISED',
	declined: 'REJECTED',
	expired: 'LAPSED',
};

/**
 * The `approvalStatusNames: 'negations'` variant: decided names that negate approval, which a careless
 * reader takes for approvals (DECISIONS.md §Approvals).
 */
const NEGATION_STATUS_NAMES: Record<ApprovalStatus, string> = {
	pending: 'pending',
	approved: 'APPROVED',
	declined: 'DISAPPROVED',
	expired: 'NOT_APPROVED',
};

const STATUS_NAMES = {
	sandbox: undefined,
	other: OTHER_STATUS_NAMES,
	negations: NEGATION_STATUS_NAMES,
} as const;

/**
 * An approval as this bank answers it: its status names, with or without `meta.created`, with the
 * payment's details or (`approvalRecord: 'bare'`) only what spec §Approval states: ref, xtid,
 * parent_xaid, status, the transaction it relates to (its xtid) and a meta object (variants.ts).
 */
function answerView(variants: BankVariants) {
	return (record: ApprovalRecord) => {
		const view = approvalView(record);
		const meta = variants.approvalRecord === 'bare' ? { created: view.meta.created } : view.meta;
		const named = STATUS_NAMES[variants.approvalStatusNames]?.[record.status] ?? record.status;
		return {
			...view,
			status: variants.approvalStatusWords[record.status] ?? named,
			...(variants.approvalRecord === 'bare' && { transaction: view.xtid }),
			meta: variants.createdTimes
				? { ...meta, ...('created' in meta && { created: bankTime(variants, meta.created) }) }
				: Object.fromEntries(Object.entries(meta).filter(([key]) => key !== 'created')),
		};
	};
}

/** Approvals a list shows: every status, or (`approvalList: 'pendingOnly'`) those still pending; none not yet visible. */
function listed(bank: Bank, approval: ApprovalRecord): boolean {
	return (
		(bank.variants.approvalList === 'allStatuses' || approval.status === 'pending') &&
		visibleToReads(bank, approval)
	);
}

function findVisibleApproval(bank: Bank, workspace: Workspace, ref: string): ApprovalRecord {
	const approval = findApproval(workspace, ref);
	if (!visibleToReads(bank, approval)) throw notFound(`approval ${ref} not found`);
	return approval;
}

// spec §Endpoints §Approvals: read only; lists show every status unless approvalList says otherwise (DECISIONS.md §Approvals)
export const approvalRoutes: ApiRoute[] = [
	{
		method: 'GET',
		path: '/approvals',
		scopes: [SCOPES.readApprovals],
		handle: ({ bank, caller, query }) => {
			const approvals = listOf(caller.workspace.approvals, (a) => listed(bank, a));
			return {
				status: 200,
				body: paginate(inListOrder(bank, approvals), query, LIST_PAGES, answerView(bank.variants)),
			};
		},
	},
	{
		method: 'GET',
		path: '/approval/{ref}',
		scopes: [SCOPES.readApprovals],
		// any status, whatever the lists show
		handle: ({ bank, caller, params }) => ({
			status: 200,
			body: answerView(bank.variants)(
				findVisibleApproval(bank, caller.workspace, uuidParam(params, 'ref')),
			),
		}),
	},
	{
		method: 'GET',
		path: '/account/{xaid}/approvals',
		scopes: [SCOPES.readApprovals],
		handle: ({ bank, caller, params, query }) => {
			const account = findAccount(
				caller.workspace,
				uuidParam(params, 'xaid'),
				bank.variants.unknownAccount,
			);
			const approvals = listOf(
				caller.workspace.approvals,
				(a) => a.parent_xaid === account.xaid && listed(bank, a),
			);
			return {
				status: 200,
				body: paginate(inListOrder(bank, approvals), query, LIST_PAGES, answerView(bank.variants)),
			};
		},
	},
];

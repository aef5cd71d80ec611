import type { IDataObject } from 'n8n-workflow';

import {
	apiFailureOf,
	type AccountScope,
	type BankingContext,
	type EndpointCall,
	ENDPOINTS,
	type ListOptions,
	request,
	requestAll,
} from '../transport';
import { isPendingApproval } from './approvalStatus';
import { nonEmptyText, objectOf } from '../records';

/**
 * What an approval record holds and how it is read: the approval operations, the payment look-up and
 * the Approval Trigger know approvals only through this module (and the status words of approvalStatus.ts).
 */

/** spec §Approvals: "The approvals list is also used with a page size of 50" (finding a payment's approval). */
const SEARCH_PAGE_SIZE = 50;

/** spec §Approval: "the value pending occurs", and words that plainly say the same (approvalStatus.ts). */
export function isPending(approval: IDataObject): boolean {
	return isPendingApproval(approval.status);
}

/**
 * The payment an approval is about: its details sit in `transaction` or at the top level of the record; the
 * spec leaves them "not shown" (docs/bank-assumptions.md#approval-record).
 */
export function approvalPayment(approval: IDataObject): IDataObject {
	return { ...approval, ...objectOf(approval.transaction) };
}

/** The xtid of the approval's payment (spec §Approval: the record carries it). */
export function approvalXtid(approval: IDataObject): string | undefined {
	return nonEmptyText(approvalPayment(approval).xtid) ?? nonEmptyText(approval.xtid);
}

/** The account of the approval's payment: `parent_xaid`, else the payment's `xaid`. */
export function approvalAccount(approval: IDataObject): string | undefined {
	return nonEmptyText(approval.parent_xaid) ?? nonEmptyText(approvalPayment(approval).xaid);
}

/** GET one record; undefined when the bank answers 404 (it no longer shows it). Other failures throw. */
async function readOrMissing(
	this: BankingContext,
	endpoint: EndpointCall,
	itemIndex?: number,
): Promise<IDataObject | undefined> {
	const read = request.call(this, endpoint, { itemIndex });
	return await read.then(
		(record) => record,
		(error: unknown) => (apiFailureOf(error)?.kind === 'notFound' ? undefined : read),
	);
}

/** spec §Approvals: GET /approval/{ref}, or undefined when the bank no longer shows it. */
export async function readApproval(this: BankingContext, ref: string, itemIndex?: number) {
	return await readOrMissing.call(this, ENDPOINTS.approval.at({ ref }), itemIndex);
}

/** spec §Transactions: the record of an approval's payment, or undefined when the bank shows none. */
export async function readPaymentTransaction(
	this: BankingContext,
	xtid: string,
	itemIndex?: number,
) {
	return await readOrMissing.call(this, ENDPOINTS.transaction.at({ xtid }), itemIndex);
}

/** The approvals of every account, or of one (`scope`). */
export async function listApprovals(
	this: BankingContext,
	scope: AccountScope,
	options: ListOptions<IDataObject>,
): Promise<IDataObject[]> {
	return await requestAll.call(this, ENDPOINTS.approvals.at(scope), options);
}

/**
 * spec §Approvals: "clients find the approval of a payment by matching xtid", reading pages of 50;
 * the approvals read until `found` says the search is over (or the list ends).
 */
export async function searchApprovals(
	this: BankingContext,
	scope: AccountScope,
	found: (approval: IDataObject) => boolean,
	itemIndex?: number,
): Promise<IDataObject[]> {
	return await listApprovals.call(this, scope, {
		returnAll: true,
		pageSize: SEARCH_PAGE_SIZE,
		until: found,
		itemIndex,
		// an approval not found leaves its payment's state open ("accepted"), never a wrong one
		ifShrinking: 'accept',
	});
}

/**
 * The approvals of the given payments (xtids) in one account, by xtid, found as searchApprovals does: for
 * payments whose state their answer does not show.
 */
export async function approvalsOfPayments(
	this: BankingContext,
	xaid: string,
	xtids: ReadonlySet<string>,
	itemIndex: number,
): Promise<Map<string, IDataObject>> {
	const found = new Map<string, IDataObject>();
	const note = (approval: IDataObject) => {
		const xtid = approvalXtid(approval);
		if (xtid !== undefined && xtids.has(xtid)) found.set(xtid, approval);
		return found.size === xtids.size;
	};
	await searchApprovals.call(this, { xaid }, note, itemIndex);
	return found;
}

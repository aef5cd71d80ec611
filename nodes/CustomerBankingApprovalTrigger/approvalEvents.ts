import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { apiFailureOf, apiRequest, apiRequestAllItems } from '../CustomerBanking/transport';

export const APPROVAL_EVENTS = ['approvalRequested', 'approvalDecided'] as const;
export type ApprovalEvent = (typeof APPROVAL_EVENTS)[number];

/**
 * How a decided approval ended. spec §States and transitions: approved → the payment is sent and its
 * xtid appears among the transactions; declined or expired → not sent. The names of decided statuses
 * are not shown, so the decision rests on the transaction, and the bank's status is passed on as given.
 */
export type Decision = 'approved' | 'declined' | 'expired' | 'not_sent';

/** What the trigger remembers between polls: the approvals it knows as pending. */
interface KnownApproval {
	xtid: string | null;
	account: string | null;
}

export interface ApprovalState {
	/** False until the first poll has taken the baseline. */
	baselineTaken: boolean;
	pending: Record<string, KnownApproval>;
}

const STATE = 'approvals';

function text(value: unknown): string | null {
	return typeof value === 'string' && value !== '' ? value : null;
}

function objectOf(value: unknown): IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as IDataObject) : {};
}

export function readState(staticData: IDataObject): ApprovalState {
	const stored = objectOf(staticData[STATE]);
	const pending: Record<string, KnownApproval> = {};
	for (const [ref, known] of Object.entries(objectOf(stored.pending))) {
		const entry = objectOf(known);
		pending[ref] = { xtid: text(entry.xtid), account: text(entry.account) };
	}
	return { baselineTaken: stored.baselineTaken === true, pending };
}

/**
 * A new object every time: n8n marks static data as changed only when a key of an object it loaded is
 * set, not when an object assigned later is edited in place (n8n-workflow's observable object).
 */
export function writeState(staticData: IDataObject, state: ApprovalState): void {
	staticData[STATE] = { baselineTaken: state.baselineTaken, pending: { ...state.pending } };
}

// spec §Approval: "the value pending occurs"; other names are not shown.
export function isPending(approval: IDataObject): boolean {
	return typeof approval.status === 'string' && approval.status.toLowerCase() === 'pending';
}

/** The payment an approval is about: its `transaction` (DECISIONS.md §Approvals) or the record itself. */
function paymentOf(approval: IDataObject): IDataObject {
	return { ...approval, ...objectOf(approval.transaction) };
}

/** ref, xtid, account and whatever else the record carries about the payment (spec: "not shown"). */
export function describeApproval(approval: IDataObject): IDataObject {
	const payment = paymentOf(approval);
	const meta = objectOf(approval.meta);
	const details: IDataObject = {
		ref: text(approval.ref),
		xtid: text(approval.xtid) ?? text(payment.xtid),
		account: text(approval.parent_xaid) ?? text(payment.xaid),
		bankStatus: text(approval.status),
	};
	for (const [name, value] of Object.entries({
		amount: payment.amount,
		currency: payment.currency,
		payee: payment.xpid ?? payment.payeeName,
		reference: payment.reference,
		approvers: meta.approvers,
		expiresAt: meta.expiresAt,
	})) {
		if (value !== undefined && value !== null && value !== '') details[name] = value as IDataObject[string];
	}
	return details;
}

/** One pass over the approvals list in pages of 500 (spec §Pagination: max 500), per account or for all. */
export async function listApprovals(this: IPollFunctions, accounts: string[]): Promise<IDataObject[]> {
	const paths = accounts.length === 0 ? ['/approvals'] : accounts.map((xaid) => `/account/${encodeURIComponent(xaid)}/approvals`);
	const lists: IDataObject[][] = [];
	for (const path of paths) lists.push(await apiRequestAllItems.call(this, { path, returnAll: true, pageSize: 500 }));
	return lists.flat();
}

/** GET one record; undefined when the bank answers 404 (it no longer shows it). Other failures fail the poll. */
async function readOrMissing(this: IPollFunctions, path: string): Promise<IDataObject | undefined> {
	const read = apiRequest.call(this, { method: 'GET', path });
	return await read.then(
		(record) => record,
		(error: unknown) => (apiFailureOf(error)?.kind === 'notFound' ? undefined : read),
	);
}

export type DecidedApproval =
	| { stillPending: true }
	| { stillPending: false; decision: Decision; approval?: IDataObject; transaction?: IDataObject };

/**
 * An approval that left the pending list, read again: still pending (a list that moved while it was
 * read), or decided. Approved when its xtid is a transaction (spec §States and transitions); a status
 * that says approved while no transaction is visible yet is treated as still pending, to be read again.
 */
export async function readDecision(this: IPollFunctions, ref: string, known: KnownApproval): Promise<DecidedApproval> {
	const approval = await readOrMissing.call(this, `/approval/${encodeURIComponent(ref)}`);
	if (approval && isPending(approval)) return { stillPending: true };
	const xtid = (approval && (text(approval.xtid) ?? text(paymentOf(approval).xtid))) ?? known.xtid;
	const transaction = xtid ? await readOrMissing.call(this, `/transaction/${encodeURIComponent(xtid)}`) : undefined;
	if (transaction) return { stillPending: false, decision: 'approved', approval, transaction };
	const status = text(approval?.status) ?? '';
	if (/approv|authori[sz]/i.test(status)) return { stillPending: true };
	const decision: Decision = /declin|reject|refus|deny|denied/i.test(status)
		? 'declined'
		: /expir|laps|time/i.test(status)
			? 'expired'
			: 'not_sent';
	return { stillPending: false, decision, approval };
}

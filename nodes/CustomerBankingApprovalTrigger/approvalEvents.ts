import { createHash } from 'crypto';
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import {
	approvalAccount,
	approvalPayment,
	isPending,
	listApprovals,
	readApproval,
	readPaymentTransaction,
} from '../shared/approvals/approvalRecords';
import { approvalStatusMeaning } from '../shared/approvals/approvalStatus';
import { statusOfAccepted } from '../shared/evidence';
import { PLAIN_NAMES } from '../shared/outputNames';
import { nonEmptyText, objectOf } from '../shared/records';

export type ApprovalEvent = 'approvalRequested' | 'approvalDecided';

/**
 * How a decided approval ended, as far as the bank's answers say it (spec §States and transitions:
 * approved → the payment is sent and its xtid appears among the transactions; declined or expired →
 * not sent). `not_sent`: declined or expired without saying which. `undetermined`: the answers stayed
 * silent or contradicted each other for UNDETERMINED_AFTER_POLLS polls; the bank's words are passed on.
 */
export type Decision = 'approved' | 'declined' | 'expired' | 'not_sent' | 'undetermined';

/** Polls an approval that left pending is watched while its evidence is unclear (≥ 10 minutes: n8n polls at most once a minute). */
export const UNDETERMINED_AFTER_POLLS = 10;

/**
 * Decided approvals remembered as handled, at most (12 characters each, about 75 kB): enough for a bank
 * listing thousands of decided approvals; beyond it, approvals never seen pending are no longer reported.
 */
export const MAX_SETTLED = 5000;

interface KnownApproval {
	xtid: string | null;
	account: string | null;
}

interface WatchedApproval extends KnownApproval {
	/** Polls so far with unclear evidence. */
	polls: number;
}

/** What the trigger remembers between polls (n8n static data of the node). */
export interface ApprovalState {
	/** False until the first poll has taken the baseline. */
	baselineTaken: boolean;
	/** Approvals known as pending. */
	pending: Record<string, KnownApproval>;
	/** Approvals that left pending, whose decision the bank's answers do not tell yet. */
	watched: Record<string, WatchedApproval>;
	/**
	 * Digests of decided approvals the bank lists that need no report: in the baseline, or reported. An
	 * entry missing from one poll's list is kept one more poll (`settledMissing`), then forgotten.
	 */
	settled: string[];
	settledMissing: string[];
	/** The bank listed more decided approvals than MAX_SETTLED: approvals never seen pending are not reported. */
	settledOverflow: boolean;
}

const STATE = 'approvals';

const text = (value: unknown): string | null => nonEmptyText(value) ?? null;

function textsOf(value: unknown): string[] {
	return Array.isArray(value)
		? value.filter((entry): entry is string => typeof entry === 'string')
		: [];
}

/** Short digest of an approval's ref: what `settled` stores. */
export function settledKey(ref: string): string {
	return createHash('sha256').update(ref).digest('hex').slice(0, 12);
}

export function readState(staticData: IDataObject): ApprovalState {
	const stored = objectOf(staticData[STATE]);
	const known = (entry: unknown): KnownApproval => ({
		xtid: text(objectOf(entry).xtid),
		account: text(objectOf(entry).account),
	});
	const pending: Record<string, KnownApproval> = {};
	for (const [ref, entry] of Object.entries(objectOf(stored.pending))) pending[ref] = known(entry);
	const watched: Record<string, WatchedApproval> = {};
	for (const [ref, entry] of Object.entries(objectOf(stored.watched))) {
		const polls = Number(objectOf(entry).polls);
		watched[ref] = { ...known(entry), polls: Number.isSafeInteger(polls) && polls > 0 ? polls : 0 };
	}
	return {
		baselineTaken: stored.baselineTaken === true,
		pending,
		watched,
		settled: textsOf(stored.settled),
		settledMissing: textsOf(stored.settledMissing),
		settledOverflow: stored.settledOverflow === true,
	};
}

/**
 * A new object every time: n8n marks static data as changed only when a key of an object it loaded is
 * set, not when an object assigned later is edited in place (n8n-workflow's observable object).
 */
export function writeState(staticData: IDataObject, state: ApprovalState): void {
	staticData[STATE] = {
		baselineTaken: state.baselineTaken,
		pending: { ...state.pending },
		watched: { ...state.watched },
		settled: [...state.settled],
		settledMissing: [...state.settledMissing],
		settledOverflow: state.settledOverflow,
	};
}

/**
 * The approval's, payment's and account's IDs under the names every node's outputs give them
 * (shared/outputNames.ts), and whatever else the record carries about the payment (spec: "not shown").
 */
export function describeApproval(approval: IDataObject): IDataObject {
	const payment = approvalPayment(approval);
	const meta = objectOf(approval.meta);
	const details: IDataObject = {
		[PLAIN_NAMES.ref]: text(approval.ref),
		[PLAIN_NAMES.xtid]: text(approval.xtid) ?? text(payment.xtid),
		[PLAIN_NAMES.parent_xaid]: approvalAccount(approval) ?? null,
		bankStatus: text(approval.status),
	};
	for (const [name, value] of Object.entries({
		amount: payment.amount,
		currency: payment.currency,
		[PLAIN_NAMES.xpid]: payment.xpid,
		payeeName: payment.payeeName,
		reference: payment.reference,
		approvers: meta.approvers,
		expiresAt: meta.expiresAt,
	})) {
		if (value !== undefined && value !== null && value !== '')
			details[name] = value as IDataObject[string];
	}
	return details;
}

/** One pass over the approvals list in its largest pages, per account or for all. */
export async function listAllApprovals(
	this: IPollFunctions,
	accounts: string[],
): Promise<IDataObject[]> {
	const scopes = accounts.length === 0 ? [{}] : accounts.map((xaid) => ({ xaid }));
	const lists: IDataObject[][] = [];
	// a record a shrinking list skips is read by its own ID or listed at the next poll (approvalPoll.ts)
	for (const scope of scopes)
		lists.push(await listApprovals.call(this, scope, { returnAll: true, ifShrinking: 'accept' }));
	return lists.flat();
}

export type Judgement =
	| { kind: 'pending' }
	| { kind: 'decided'; decision: Exclude<Decision, 'undetermined'> }
	| { kind: 'unclear'; note: string };

/**
 * Which refusal: the approval's own word when it says one; the transaction's word only where the
 * approval says nothing known (an approved payment whose transaction was refused was not declined).
 */
function refusalWord(
	approval: IDataObject | undefined,
	transaction: IDataObject | undefined,
): Exclude<Decision, 'approved' | 'undetermined'> {
	const approvalSaid = approvalStatusMeaning(approval?.status);
	const said =
		approvalSaid === 'unknown' ? approvalStatusMeaning(transaction?.status) : approvalSaid;
	return said === 'declined' || said === 'expired' ? said : 'not_sent';
}

/**
 * What an approval that is no longer pending and its transaction record (if the bank shows one) say
 * together: the evidence table's status (shared/evidence.ts), so that the trigger decides as Submit,
 * Get Status and Skip Payments Already Made state the same records. An approval decided in part is not
 * decided yet: it stays pending here, where the table says "not known".
 */
export function judgeDecision(
	xtid: string | null,
	approval: IDataObject | undefined,
	transaction: IDataObject | undefined,
): Judgement {
	const said = approval ? approvalStatusMeaning(approval.status) : 'unknown';
	if (said === 'pending' || said === 'notFinal') return { kind: 'pending' };
	const known = statusOfAccepted({
		xtid: xtid ?? 'not shown',
		approval: approval
			? {
					read: 'record',
					ref: text(approval.ref) ?? undefined,
					status: text(approval.status) ?? undefined,
				}
			: { read: 'none' },
		transaction: transaction
			? { read: 'record', status: text(transaction.status) ?? undefined }
			: { read: 'missing' },
	});
	switch (known.status) {
		case 'sent':
			return { kind: 'decided', decision: 'approved' };
		case 'not_sent':
			return { kind: 'decided', decision: refusalWord(approval, transaction) };
		case 'pending_approval':
			return { kind: 'pending' };
		case 'accepted':
			return { kind: 'unclear', note: String(known.check) };
	}
}

export interface ReadDecision {
	judgement: Judgement;
	approval?: IDataObject;
	transaction?: IDataObject;
}

/**
 * An approval that left the pending list (or is listed decided), with its transaction. `listed`: the
 * record as the list showed it, which saves reading it again (docs/bank-assumptions.md#approval-lists).
 */
export async function readDecision(
	this: IPollFunctions,
	ref: string,
	known: KnownApproval,
	listed?: IDataObject,
): Promise<ReadDecision> {
	const approval = listed ?? (await readApproval.call(this, ref));
	if (approval && isPending(approval)) return { judgement: { kind: 'pending' }, approval };
	const xtid =
		(approval && (text(approval.xtid) ?? text(approvalPayment(approval).xtid))) ?? known.xtid;
	const transaction = xtid ? await readPaymentTransaction.call(this, xtid) : undefined;
	return { judgement: judgeDecision(xtid, approval, transaction), approval, transaction };
}

/**
 * The fields of an event that hold the bank's records as it sent them, under its own names: an event
 * has them with Simplify off only.
 */
const BANK_RECORDS = ['approval', 'transaction'] as const;

/** The event as Simplify shows it: every field under the package's plain names, the bank's records left out. */
export function simplifiedEvent(event: IDataObject): IDataObject {
	const simplified = { ...event };
	for (const field of BANK_RECORDS) delete simplified[field];
	return simplified;
}

/** The Approval Decided event for a decision, with everything the bank said. */
export function decidedEvent(
	ref: string,
	known: KnownApproval,
	read: ReadDecision,
	decision: Decision,
	note?: string,
): IDataObject {
	const { approval, transaction } = read;
	return {
		event: 'approvalDecided',
		decision,
		...(approval
			? describeApproval(approval)
			: {
					[PLAIN_NAMES.ref]: ref,
					[PLAIN_NAMES.xtid]: known.xtid,
					[PLAIN_NAMES.parent_xaid]: known.account,
					bankStatus: null,
				}),
		transactionStatus: transaction ? (text(transaction.status) ?? null) : null,
		...(note !== undefined && { note }),
		...(approval && { approval }),
		...(transaction && { transaction }),
	};
}

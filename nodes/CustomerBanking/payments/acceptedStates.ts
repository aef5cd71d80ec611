import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	approvalPayment,
	approvalsOfPayments,
	approvalXtid,
	readApproval,
	readPaymentTransaction,
} from '../../shared/approvals/approvalRecords';
import { echoesAgree } from './answerPairing';
import {
	type AcceptedEvidence,
	statusOfAccepted,
	type AcceptedStatus,
	type ApprovalEvidence,
	settledWithoutApprovals,
	type TransactionEvidence,
} from '../../shared/evidence';
import { type AcceptedOutcome, describeError, type PaymentOutcome } from './outcomes';
import type { Payment } from './payment';
import { nonEmptyText } from '../../shared/records';

/**
 * What the bank shows of payments it accepted: the evidence of each accepted payment's state, read from
 * its approval and its transaction (spec §States and transitions), and the status it allows
 * (evidence.ts). The answer's own words for the state are never taken for it: the spec calls every
 * accepted payment "submitted", held for approval or not.
 */

export const xtidOf = (entry: IDataObject) =>
	typeof entry.xtid === 'string' && entry.xtid !== '' ? entry.xtid : undefined;

/** One xtid whose state is read: the accounts it may be in, and the payment it is taken for, if known. */
interface Subject {
	xtid: string;
	accounts: string[];
	itemIndex: number;
	/** The payment the answer pairs it with: a record showing other details is not taken for it. */
	body?: IDataObject;
	/** The approval the answer named for it (not promised by the spec): read first, never believed alone. */
	approvalRef?: string;
}

/**
 * What a record of this xtid shows of the payment it is taken for: other details (`differs`), or its
 * reference and amount (`shows`: the record is this payment's).
 */
function compare(evidence: AcceptedEvidence, record: IDataObject, body: IDataObject | undefined) {
	if (body === undefined) return;
	if (!echoesAgree(record, body))
		evidence.differs ??= `other details (reference ${JSON.stringify(record.reference ?? null)}, amount ${JSON.stringify(record.amount ?? null)})`;
	else if (record.reference !== undefined && record.amount !== undefined) evidence.shows = true;
}

function approvalEvidence(subject: Subject, approval: IDataObject, ref?: string): ApprovalEvidence {
	const xtid = approvalXtid(approval);
	const named = ref ?? nonEmptyText(approval.ref);
	if (xtid !== subject.xtid) return { read: 'other', ref: named ?? '', xtid };
	return { read: 'record', ref: named, status: nonEmptyText(approval.status) };
}

/** The approval the answer named, read by its ref. */
async function readNamedApproval(
	this: IExecuteFunctions,
	subject: Subject,
	ref: string,
): Promise<{ approval: ApprovalEvidence; record?: IDataObject }> {
	try {
		const record = await readApproval.call(this, ref, subject.itemIndex);
		if (record === undefined) return { approval: { read: 'missing', ref } };
		return { approval: approvalEvidence(subject, record, ref), record };
	} catch (error) {
		return { approval: { read: 'failed', why: describeError(error) } };
	}
}

/** GET /transaction/{xtid}: believed only when the record carries that xtid (docs/bank-assumptions.md#not-found-records). */
async function readTransaction(
	this: IExecuteFunctions,
	subject: Subject,
): Promise<{ transaction: TransactionEvidence; record?: IDataObject }> {
	try {
		const record = await readPaymentTransaction.call(this, subject.xtid, subject.itemIndex);
		if (record === undefined) return { transaction: { read: 'missing' } };
		const xtid = nonEmptyText(record.xtid);
		if (xtid !== subject.xtid) return { transaction: { read: 'other', xtid } };
		return { transaction: { read: 'record', status: nonEmptyText(record.status) }, record };
	} catch (error) {
		return { transaction: { read: 'failed', why: describeError(error) } };
	}
}

/**
 * The evidence of each subject's state: the approval its answer named, else its transaction; when
 * neither settles it, the approvals of its accounts (spec §Approvals: found by matching xtid, pages of 50).
 */
async function gatherEvidence(
	this: IExecuteFunctions,
	subjects: Subject[],
): Promise<Map<Subject, AcceptedEvidence>> {
	const gathered = new Map<Subject, AcceptedEvidence>();
	for (const subject of subjects) {
		const evidence: AcceptedEvidence = {
			xtid: subject.xtid,
			approval: { read: 'notRead' },
			transaction: { read: 'notRead' },
		};
		if (subject.approvalRef !== undefined) {
			const named = await readNamedApproval.call(this, subject, subject.approvalRef);
			evidence.approval = named.approval;
			if (named.record && named.approval.read === 'record')
				compare(evidence, approvalPayment(named.record), subject.body);
		}
		if (
			!(
				evidence.approval.read === 'record' &&
				statusOfAccepted(evidence).status === 'pending_approval'
			)
		) {
			const read = await readTransaction.call(this, subject);
			evidence.transaction = read.transaction;
			if (read.record) compare(evidence, read.record, subject.body);
		}
		gathered.set(subject, evidence);
	}
	await searchApprovalLists.call(this, subjects, gathered);
	return gathered;
}

/** The approvals lists of the subjects' accounts, for those whose state is not settled yet. */
async function searchApprovalLists(
	this: IExecuteFunctions,
	subjects: Subject[],
	gathered: Map<Subject, AcceptedEvidence>,
): Promise<void> {
	const open = subjects.filter(
		(subject) => !settledWithoutApprovals(gathered.get(subject) as AcceptedEvidence),
	);
	const found = new Map<string, IDataObject>();
	const failed = new Map<string, string>();
	for (const xaid of new Set(open.flatMap((subject) => subject.accounts))) {
		const sought = open.filter(
			(subject) => subject.accounts.includes(xaid) && !found.has(subject.xtid),
		);
		if (sought.length === 0) continue;
		try {
			const approvals = await approvalsOfPayments.call(
				this,
				xaid,
				new Set(sought.map((subject) => subject.xtid)),
				sought[0].itemIndex,
			);
			approvals.forEach((approval, xtid) => found.set(xtid, approval));
		} catch (error) {
			for (const subject of sought) failed.set(subject.xtid, describeError(error));
		}
	}
	for (const subject of open) {
		const evidence = gathered.get(subject) as AcceptedEvidence;
		const approval = found.get(subject.xtid);
		const why = failed.get(subject.xtid);
		if (approval !== undefined) {
			evidence.approval = approvalEvidence(subject, approval);
			compare(evidence, approvalPayment(approval), subject.body);
		} else if (why !== undefined) {
			if (evidence.approval.read === 'notRead') evidence.approval = { read: 'failed', why };
		} else if (evidence.approval.read === 'notRead') {
			evidence.approval = { read: 'none' };
		}
	}
}

/**
 * Payment → Get Status: what the bank shows of one payment, read by its transaction ID in its account,
 * as the evidence table reads it after Submit (the same reads, the same status).
 */
export async function paymentEvidence(
	this: IExecuteFunctions,
	xtid: string,
	xaid: string,
	itemIndex: number,
): Promise<AcceptedEvidence> {
	const subject: Subject = { xtid, accounts: [xaid], itemIndex };
	const evidence = await gatherEvidence.call(this, [subject]);
	return evidence.get(subject) as AcceptedEvidence;
}

const NO_XTID =
	'The bank accepted this payment, but its answer names no transaction ID, so its state cannot be read. Check the account (Transaction → Get Many, Approval → Get Many) before acting on it.';

/** Reads from the bank the state of every accepted payment, and states it as the evidence allows. */
export async function confirmAcceptedStates(
	this: IExecuteFunctions,
	outcomes: PaymentOutcome[],
): Promise<void> {
	const accepted = outcomes.filter(
		(outcome): outcome is AcceptedOutcome => outcome.kind === 'accepted',
	);
	const subjects = new Map<AcceptedOutcome, Subject>();
	for (const outcome of accepted) {
		const xtid = xtidOf(outcome.accepted);
		if (xtid === undefined) {
			outcome.fromEvidence = { status: 'accepted', fields: {}, check: NO_XTID };
			continue;
		}
		subjects.set(outcome, {
			xtid,
			accounts: [String(outcome.payment.body.xaid)],
			itemIndex: outcome.payment.itemIndex,
			body: outcome.payment.body,
			approvalRef: nonEmptyText(outcome.accepted.approvalRef),
		});
	}
	const evidence = await gatherEvidence.call(this, [...subjects.values()]);
	for (const [outcome, subject] of subjects)
		outcome.fromEvidence = statusOfAccepted(evidence.get(subject) as AcceptedEvidence);
}

const STATE_WORDS: Record<AcceptedStatus, (xtid: string) => string> = {
	pending_approval: (xtid) => `waiting for approval (transaction ID ${xtid}), not paid yet`,
	sent: (xtid) => `paid (transaction ID ${xtid})`,
	not_sent: (xtid) => `not paid: refused or failed (transaction ID ${xtid})`,
	accepted: (xtid) => `accepted by the bank (transaction ID ${xtid}), its state not known`,
};

/**
 * Payments an answer accounts for only together (`lead` says why): as many as its xtids and rejections
 * left, with nothing to tell which is which, or (`contradicts`) an answer that contradicts itself. Each
 * xtid's state is read (evidence.ts), and one statement says what is known of them all. Never sent again
 * automatically. `notPaid` (none of them paid) only when every payment is
 * accounted for: by a distinct xtid that is not paid, or, in an answer that adds up, by a rejection.
 */
export async function accountedTogether(
	this: IExecuteFunctions,
	lead: string,
	payments: Payment[],
	{ xtids, reasons, contradicts }: { xtids: string[]; reasons: string[]; contradicts: boolean },
): Promise<{ statement: string; xtids: string[]; notPaid: boolean; sharedWith: number[] }> {
	const accounts = [...new Set(payments.map((payment) => String(payment.body.xaid)))];
	const subjects = xtids.map(
		(xtid): Subject => ({ xtid, accounts, itemIndex: payments[0].itemIndex }),
	);
	const evidence = await gatherEvidence.call(this, subjects);
	const states = subjects.map(
		(subject) => statusOfAccepted(evidence.get(subject) as AcceptedEvidence).status,
	);
	const sharedWith = payments.map((payment) => payment.itemIndex);
	// the xtids speak for as many payments as they are; the rest are refused only by an answer that adds up
	const accountedFor = xtids.length + (contradicts ? 0 : reasons.length);
	const notPaid =
		accountedFor >= payments.length &&
		states.every((state) => state === 'pending_approval' || state === 'not_sent');
	const named = xtids.map((xtid, index) => STATE_WORDS[states[index]](xtid));
	const listed =
		named.length === 0
			? ' It names no payment the bank accepted.'
			: ` ${named.length > 1 ? 'They include payments' : 'One of them is'} ${named.join('; ')}.`;
	const said = [...new Set(reasons)].join(' | ');
	const refusals =
		reasons.length === 0
			? ''
			: contradicts
				? ` It also lists as rejected: ${said}.`
				: ` The other${reasons.length > 1 ? 's were' : ' was'} rejected (${said}).`;
	return {
		statement: `${lead}${listed}${refusals} ${notPaid ? 'None of them has been paid.' : 'One of them may have been paid.'} None was sent again: check them in the account before paying any of them again.`,
		xtids,
		notPaid,
		sharedWith,
	};
}

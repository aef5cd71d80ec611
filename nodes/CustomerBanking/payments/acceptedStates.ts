import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	approvalsOfPayments,
	readApproval,
	readPaymentTransaction,
} from '../approvals/approvalRecords';
import { approvalStatusMeaning, transactionStatusMeaning } from '../approvals/approvalStatus';
import { type AcceptedOutcome, describeError, type PaymentOutcome } from './outcomes';
import type { Payment } from './payment';

/**
 * What the bank shows of payments it accepted: each accepted payment's state read from its approval or
 * its transaction (spec §States and transitions), and what is known of payments an answer accounts for
 * only together.
 */

export const xtidOf = (entry: IDataObject) =>
	typeof entry.xtid === 'string' && entry.xtid !== '' ? entry.xtid : undefined;

/**
 * Whether the answer itself says if the payment awaits approval: the sandbox's words (DECISIONS.md
 * §Payments) or an approval reference. The spec promises neither; any other word is read from the bank.
 */
function saysWhetherAwaitingApproval(entry: IDataObject): boolean {
	return (
		entry.status === 'submitted' ||
		entry.status === 'pending_approval' ||
		typeof entry.approvalRef === 'string'
	);
}

const saysAwaitingApproval = (entry: IDataObject) =>
	entry.status === 'pending_approval' || typeof entry.approvalRef === 'string';

/**
 * Accepted payments whose state must be read from the bank: the answer does not say whether they await
 * approval, or it says they do, which may be an old answer replayed for a key used before (the spec's
 * rule 1 returns "the original result"): the approval may have been decided since.
 */
function needsReading(outcome: PaymentOutcome): outcome is AcceptedOutcome {
	if (outcome.kind !== 'accepted' || xtidOf(outcome.accepted) === undefined) return false;
	return !saysWhetherAwaitingApproval(outcome.accepted) || saysAwaitingApproval(outcome.accepted);
}

const NOT_YET_VISIBLE =
	'The bank accepted this payment, but shows neither an approval nor a transaction for it: it may not be visible yet, or its approval may have been declined or may have expired. Nothing shows it was paid, nor that it was not. Read it later (Transaction → Get, Approval → Get by Payment) before acting on it.';

/**
 * spec §States and transitions: an accepted payment is an approval request (its xtid on an approval)
 * or sent (its xtid among the transactions). Each state is reported only from what the bank shows of
 * it (approvals/approvalStatus.ts): the approval's own status (pending, approved and sent, or declined /
 * expired and not sent); else the transaction's own status; else, when neither can be read yet, the
 * payment stays "accepted" and is never reported as not sent.
 */
function stateFromApproval(approval: { ref?: string; status?: string }): IDataObject {
	const fields = {
		...(approval.ref !== undefined && { approvalRef: approval.ref }),
		...(approval.status !== undefined && { approvalStatus: approval.status }),
	};
	switch (approvalStatusMeaning(approval.status)) {
		case 'pending':
			return { status: 'pending_approval', ...fields };
		case 'approved':
			return { status: 'submitted', ...fields };
		case 'declined':
		case 'expired':
		case 'notApproved':
			return {
				status: 'not_sent',
				...fields,
				approvalCheck: `Its approval was not given (the bank says "${String(approval.status)}"): nothing was sent.`,
			};
		default:
			return {
				status: 'accepted',
				...fields,
				approvalCheck: `The bank shows its approval with the status "${String(approval.status ?? '')}", which does not say whether it was approved.`,
			};
	}
}

function stateFromTransaction(transaction: IDataObject | undefined): IDataObject {
	if (transaction === undefined) return { status: 'accepted', approvalCheck: NOT_YET_VISIBLE };
	const status = typeof transaction.status === 'string' ? transaction.status : undefined;
	const fields = status !== undefined ? { transactionStatus: status } : {};
	switch (transactionStatusMeaning(status)) {
		case 'sent':
			return { status: 'submitted', ...fields };
		case 'held':
			return { status: 'pending_approval', ...fields };
		case 'notSent':
			return {
				status: 'not_sent',
				...fields,
				approvalCheck: `Its transaction says "${String(status)}": nothing was sent.`,
			};
		default:
			return {
				status: 'accepted',
				...fields,
				approvalCheck: `Its transaction's status "${String(status)}" does not say whether it was sent.`,
			};
	}
}

/** Reads from the bank the state of each accepted payment whose answer does not settle it (needsReading). */
export async function confirmAcceptedStates(
	this: IExecuteFunctions,
	outcomes: PaymentOutcome[],
): Promise<void> {
	const toRead = outcomes.filter(needsReading);
	// an answer that names its approval: that approval is read, whatever the lists show
	for (const outcome of toRead.filter((entry) => typeof entry.accepted.approvalRef === 'string')) {
		await readNamedApproval.call(this, outcome);
	}
	const byAccount = new Map<string, AcceptedOutcome[]>();
	for (const outcome of toRead.filter((entry) => typeof entry.accepted.approvalRef !== 'string')) {
		const xaid = String(outcome.payment.body.xaid);
		byAccount.set(xaid, [...(byAccount.get(xaid) ?? []), outcome]);
	}
	for (const [xaid, accepted] of byAccount) {
		try {
			await readAccountStates.call(this, xaid, accepted);
		} catch (error) {
			for (const outcome of accepted)
				outcome.accepted = {
					...outcome.accepted,
					approvalCheck: `could not be read: ${describeError(error)}`,
				};
		}
	}
}

/** The state of a payment whose answer named its approval: that approval, read by its ref. */
async function readNamedApproval(this: IExecuteFunctions, outcome: AcceptedOutcome): Promise<void> {
	const ref = outcome.accepted.approvalRef as string;
	try {
		const approval = await readApproval.call(this, ref, outcome.payment.itemIndex);
		outcome.accepted = {
			...outcome.accepted,
			...(approval
				? stateFromApproval({
						ref,
						status: typeof approval.status === 'string' ? approval.status : undefined,
					})
				: { status: 'accepted', approvalCheck: NOT_YET_VISIBLE }),
		};
	} catch (error) {
		outcome.accepted = {
			...outcome.accepted,
			approvalCheck: `could not be read: ${describeError(error)}`,
		};
	}
}

/** The states of one account's accepted payments: its approvals list, else each one's transaction. */
async function readAccountStates(
	this: IExecuteFunctions,
	xaid: string,
	accepted: AcceptedOutcome[],
): Promise<void> {
	const { itemIndex } = accepted[0].payment;
	const approvals = await approvalsOfPayments.call(
		this,
		xaid,
		new Set(accepted.map((outcome) => xtidOf(outcome.accepted) as string)),
		itemIndex,
	);
	for (const outcome of accepted) {
		const xtid = xtidOf(outcome.accepted) as string;
		const approval = approvals.get(xtid);
		const transaction = approval
			? undefined
			: await readPaymentTransaction.call(this, xtid, itemIndex);
		outcome.accepted = {
			...outcome.accepted,
			...(approval ? stateFromApproval(approval) : stateFromTransaction(transaction)),
		};
	}
}

const STATE_WORDS: Record<string, (xtid: string) => string> = {
	pending_approval: (xtid) => `waiting for approval (transaction ID ${xtid}), not paid yet`,
	submitted: (xtid) => `paid (transaction ID ${xtid})`,
	not_sent: (xtid) => `not paid: its approval was refused (transaction ID ${xtid})`,
	accepted: (xtid) => `accepted by the bank (transaction ID ${xtid}), its state not visible yet`,
};

/**
 * Payments the answer accounts for only together: as many as its remaining xtids and rejections, with
 * nothing to tell which is which. Each xtid's state is read (approval, else transaction), and one
 * statement says what is known of them all.
 */
export async function accountedTogether(
	this: IExecuteFunctions,
	payments: Payment[],
	xtids: string[],
	reasons: string[],
): Promise<{ statement: string; xtids: string[]; notPaid: boolean; sharedWith: number[] }> {
	const states = await statesOf.call(this, payments, xtids);
	const sharedWith = payments.map((payment) => payment.itemIndex);
	const notPaid = [...states.values()].every(
		(state) => state === 'pending_approval' || state === 'not_sent',
	);
	const accepted = xtids.map((xtid) => STATE_WORDS[states.get(xtid) as string](xtid));
	const refusals =
		reasons.length === 0
			? ''
			: ` The other${reasons.length > 1 ? 's were' : ' was'} rejected (${[...new Set(reasons)].join(' | ')}).`;
	return {
		statement: `The bank's answer does not say which of items ${sharedWith.join(', ')} is which: ${accepted.length > 1 ? 'they include payments' : 'one of them is'} ${accepted.join('; ')}.${refusals} ${notPaid ? 'None of them has been paid.' : 'One of them may have been paid.'} Check them in the account before paying any of them again.`,
		xtids,
		notPaid,
		sharedWith,
	};
}

/** Each xtid's state: from its account's approvals where one shows it, else from its transaction. */
async function statesOf(
	this: IExecuteFunctions,
	payments: Payment[],
	xtids: string[],
): Promise<Map<string, string>> {
	const states = new Map<string, string>();
	for (const xaid of new Set(payments.map((payment) => String(payment.body.xaid)))) {
		const { itemIndex } = payments[0];
		const approvals = await approvalsOfPayments.call(
			this,
			xaid,
			new Set(xtids.filter((xtid) => !states.has(xtid))),
			itemIndex,
		);
		for (const [xtid, approval] of approvals)
			states.set(xtid, String(stateFromApproval(approval).status));
	}
	for (const xtid of xtids.filter((candidate) => !states.has(candidate))) {
		states.set(
			xtid,
			String(
				stateFromTransaction(await readPaymentTransaction.call(this, xtid, payments[0].itemIndex))
					.status,
			),
		);
	}
	return states;
}

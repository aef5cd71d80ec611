import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { approvalsOfPayments, readApproval, readPaymentTransaction } from '../approvals/approvalRecords';
import type { IdempotencyKey } from './idempotencyKey';
import { type AcceptedOutcome, describeError, type PaymentOutcome } from './outcomes';
import type { Payment } from './payment';
import { approvalStatusMeaning, transactionStatusMeaning } from '../approvals/approvalStatus';
import type { LookupResult } from './paymentLookUp';

/** What reading an answer needs of the payment run it belongs to. */
export interface AnswerReader {
	readonly context: IExecuteFunctions;
	/** Notes that the bank answered `key` with `xtid`; true when it had done so before (a replay). */
	noteAnswer(key: string, xtid: string): boolean;
	/** Looks the payments up among the records with these xtids (see PaymentRun.lookUp). */
	lookUp(payments: Payment[], key: string, onlyXtids: ReadonlySet<string>): Promise<Map<number, LookupResult>>;
	/** Looks up payments whose outcome is unknown and reports what was found (see PaymentRun.resolveUnknown). */
	resolveUnknown(payments: Payment[], key: IdempotencyKey, failure: string): Promise<PaymentOutcome[]>;
}

function objectsIn(value: unknown): IDataObject[] {
	return Array.isArray(value)
		? (value.filter((entry) => typeof entry === 'object' && entry !== null && !Array.isArray(entry)) as IDataObject[])
		: [];
}

/**
 * Which payment of the request an answer entry is about: its `index` (DECISIONS.md §Payments),
 * else the only payment, else the one unclaimed payment with the same reference (and amount).
 */
function positionOf(entry: IDataObject, payments: Payment[], claimed: Set<number>): number | undefined {
	const index = entry.index;
	if (typeof index === 'number' && Number.isInteger(index) && index >= 0 && index < payments.length) return index;
	if (payments.length === 1) return 0;
	const candidates = payments
		.map((payment, position) => ({ payment, position }))
		.filter(
			({ payment, position }) =>
				!claimed.has(position) &&
				payment.body.reference === entry.reference &&
				(entry.amount === undefined || payment.body.amount === entry.amount),
		);
	return candidates.length === 1 ? candidates[0].position : undefined;
}

/**
 * Pairs the entries of the answer with the payments sent, by what the spec guarantees: one payment,
 * or counts that leave one reading (every payment accepted, or every one rejected, in order). The
 * sandbox's `index` (or an entry's reference) is a hint used when present (DECISIONS.md §Payments).
 */
function pairByAnswer(
	payments: Payment[],
	accepted: IDataObject[],
	rejected: IDataObject[],
): { acceptedAt: Map<number, IDataObject>; rejectedAt: Map<number, IDataObject> } {
	const acceptedAt = new Map<number, IDataObject>();
	const rejectedAt = new Map<number, IDataObject>();
	if (accepted.length === payments.length && rejected.length === 0) {
		accepted.forEach((entry, position) => acceptedAt.set(position, entry));
	} else if (rejected.length === payments.length && accepted.length === 0) {
		rejected.forEach((entry, position) => rejectedAt.set(position, entry));
	} else {
		const taken = () => new Set([...acceptedAt.keys(), ...rejectedAt.keys()]);
		for (const entry of accepted) {
			const position = positionOf(entry, payments, taken());
			if (position !== undefined) acceptedAt.set(position, entry);
		}
		for (const entry of rejected) {
			const position = positionOf(entry, payments, taken());
			if (position !== undefined) rejectedAt.set(position, entry);
		}
	}
	return { acceptedAt, rejectedAt };
}

const xtidOf = (entry: IDataObject) => (typeof entry.xtid === 'string' && entry.xtid !== '' ? entry.xtid : undefined);
const reasonOf = (entry: IDataObject) => (typeof entry.error === 'string' ? entry.error : 'rejected without a reason');

/**
 * spec §Payments rule 3: 202 does not mean every item was accepted. Every payment gets its outcome:
 * paired with an entry of the answer (pairByAnswer), else found among the account's records by the
 * xtids the answer named (they are this request's payments), else, when the only payments left are as
 * many as the rejections left, rejected; whatever is still open is looked up like a lost answer.
 * Accepted payments whose entry does not say whether they await approval are matched against the
 * account's approvals (spec §Approvals: by xtid, pages of 50).
 */
export async function readAnswer(
	run: AnswerReader,
	response: IDataObject,
	request: { key: IdempotencyKey; payments: Payment[] },
): Promise<PaymentOutcome[]> {
	const { key, payments } = request;
	const requestId = typeof response?.requestId === 'string' ? response.requestId : undefined;
	const acceptedEntries = objectsIn(response?.submitted);
	const rejectedEntries = objectsIn(response?.rejected);
	const { acceptedAt, rejectedAt } = pairByAnswer(payments, acceptedEntries, rejectedEntries);
	const outcomes = new Map<number, PaymentOutcome>();
	const accept = (position: number, accepted: IDataObject) => {
		const xtid = xtidOf(accepted);
		const replayed = xtid !== undefined && run.noteAnswer(key.key, xtid);
		outcomes.set(position, { kind: 'accepted', payment: payments[position], key, accepted, requestId, replayed });
	};
	const reject = (position: number, reason: string, reasonUncertain = false) =>
		outcomes.set(position, {
			kind: 'rejected',
			payment: payments[position],
			key,
			reason,
			requestId,
			...(reasonUncertain && { reasonUncertain }),
		});
	for (const [position, entry] of acceptedAt) accept(position, entry);
	for (const [position, entry] of rejectedAt) reject(position, reasonOf(entry));

	const open = () => payments.map((_payment, position) => position).filter((position) => !outcomes.has(position));
	const pairedEntries = new Set([...acceptedAt.values(), ...rejectedAt.values()]);
	const namedXtids = new Set(
		acceptedEntries.filter((entry) => !pairedEntries.has(entry)).flatMap((entry) => xtidOf(entry) ?? []),
	);
	const rejectionsLeft = rejectedEntries.filter((entry) => !pairedEntries.has(entry));
	const unexplained = `The bank accepted the request${requestId ? ` ${requestId}` : ''} but its answer does not say what happened to this payment.`;
	if (open().length > 0 && namedXtids.size > 0) {
		try {
			const found = await run.lookUp(open().map((position) => payments[position]), key.key, namedXtids);
			for (const position of open()) {
				const result = found.get(payments[position].itemIndex);
				if (!result?.found) continue;
				const { xtid, approvalRef, foundIn } = result.payment;
				// found among the approvals only: an approval request (spec §States and transitions row 1)
				const status = foundIn === 'approvals' ? 'pending_approval' : 'submitted';
				accept(position, { xtid, status, ...(approvalRef !== undefined && { approvalRef }) });
			}
		} catch (error) {
			run.context.logger.warn(`Customer Banking: pairing the answer of request ${requestId ?? key.key} by look-up failed: ${describeError(error)}`);
		}
	}
	const left = open();
	if (left.length > 0 && left.length === rejectionsLeft.length) {
		const reasons = [...new Set(rejectionsLeft.map(reasonOf))];
		for (const position of left) {
			if (reasons.length === 1) reject(position, reasons[0]);
			else reject(position, `one of the rejections of this request: ${reasons.join(' | ')}`, true);
		}
	}
	const xtidsLeft = [...namedXtids].filter(
		(xtid) => ![...outcomes.values()].some((outcome) => outcome.kind === 'accepted' && xtidOf(outcome.accepted) === xtid),
	);
	if (open().length > 0 && xtidsLeft.length > 0 && open().length === xtidsLeft.length + rejectionsLeft.length) {
		if (open().length === 1) accept(open()[0], { xtid: xtidsLeft[0] });
		else {
			const together = open().map((position) => payments[position]);
			const group = await accountedTogether.call(run.context, together, xtidsLeft, rejectionsLeft.map(reasonOf)).catch(() => undefined);
			if (group) {
				for (const position of open()) {
					outcomes.set(position, { kind: 'undetermined', payment: payments[position], key, requestId, ...group });
				}
			}
		}
	}
	const stillOpen = open().map((position) => payments[position]);
	const resolved = stillOpen.length ? await run.resolveUnknown(stillOpen, key, unexplained) : [];
	await confirmAcceptedStates.call(run.context, [...outcomes.values()]);
	return payments.map(
		(payment, position) => outcomes.get(position) ?? (resolved.find((outcome) => outcome.payment === payment) as PaymentOutcome),
	);
}

/**
 * Whether the answer itself says if the payment awaits approval: the sandbox's words (DECISIONS.md
 * §Payments) or an approval reference. The spec promises neither; any other word is read from the bank.
 */
function saysWhetherAwaitingApproval(entry: IDataObject): boolean {
	return entry.status === 'submitted' || entry.status === 'pending_approval' || typeof entry.approvalRef === 'string';
}

const saysAwaitingApproval = (entry: IDataObject) => entry.status === 'pending_approval' || typeof entry.approvalRef === 'string';

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
	const fields = { ...(approval.ref !== undefined && { approvalRef: approval.ref }), ...(approval.status !== undefined && { approvalStatus: approval.status }) };
	switch (approvalStatusMeaning(approval.status)) {
		case 'pending':
			return { status: 'pending_approval', ...fields };
		case 'approved':
			return { status: 'submitted', ...fields };
		case 'declined':
		case 'expired':
		case 'notApproved':
			return { status: 'not_sent', ...fields, approvalCheck: `Its approval was not given (the bank says "${String(approval.status)}"): nothing was sent.` };
		default:
			return { status: 'accepted', ...fields, approvalCheck: `The bank shows its approval with the status "${String(approval.status ?? '')}", which does not say whether it was approved.` };
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
			return { status: 'not_sent', ...fields, approvalCheck: `Its transaction says "${String(status)}": nothing was sent.` };
		default:
			return { status: 'accepted', ...fields, approvalCheck: `Its transaction's status "${String(status)}" does not say whether it was sent.` };
	}
}

async function confirmAcceptedStates(this: IExecuteFunctions, outcomes: PaymentOutcome[]): Promise<void> {
	const toRead = outcomes.filter(needsReading);
	// an answer that names its approval: that approval is read, whatever the lists show
	for (const outcome of toRead.filter((entry) => typeof entry.accepted.approvalRef === 'string')) {
		const ref = outcome.accepted.approvalRef as string;
		try {
			const approval = await readApproval.call(this, ref, outcome.payment.itemIndex);
			outcome.accepted = {
				...outcome.accepted,
				...(approval ? stateFromApproval({ ref, status: typeof approval.status === 'string' ? approval.status : undefined }) : { status: 'accepted', approvalCheck: NOT_YET_VISIBLE }),
			};
		} catch (error) {
			outcome.accepted = { ...outcome.accepted, approvalCheck: `could not be read: ${describeError(error)}` };
		}
	}
	const byAccount = new Map<string, AcceptedOutcome[]>();
	for (const outcome of toRead.filter((entry) => typeof entry.accepted.approvalRef !== 'string')) {
		const xaid = String(outcome.payment.body.xaid);
		byAccount.set(xaid, [...(byAccount.get(xaid) ?? []), outcome]);
	}
	for (const [xaid, accepted] of byAccount) {
		try {
			const { itemIndex } = accepted[0].payment;
			const approvals = await approvalsOfPayments.call(this, xaid, new Set(accepted.map((outcome) => xtidOf(outcome.accepted) as string)), itemIndex);
			for (const outcome of accepted) {
				const xtid = xtidOf(outcome.accepted) as string;
				const approval = approvals.get(xtid);
				const transaction = approval ? undefined : await readPaymentTransaction.call(this, xtid, itemIndex);
				outcome.accepted = { ...outcome.accepted, ...(approval ? stateFromApproval(approval) : stateFromTransaction(transaction)) };
			}
		} catch (error) {
			for (const outcome of accepted) outcome.accepted = { ...outcome.accepted, approvalCheck: `could not be read: ${describeError(error)}` };
		}
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
async function accountedTogether(
	this: IExecuteFunctions,
	payments: Payment[],
	xtids: string[],
	reasons: string[],
): Promise<{ statement: string; xtids: string[]; notPaid: boolean; sharedWith: number[] }> {
	const states = new Map<string, string>();
	for (const xaid of new Set(payments.map((payment) => String(payment.body.xaid)))) {
		const { itemIndex } = payments[0];
		const approvals = await approvalsOfPayments.call(this, xaid, new Set(xtids.filter((xtid) => !states.has(xtid))), itemIndex);
		for (const [xtid, approval] of approvals) states.set(xtid, String(stateFromApproval(approval).status));
	}
	for (const xtid of xtids.filter((candidate) => !states.has(candidate))) {
		states.set(xtid, String(stateFromTransaction(await readPaymentTransaction.call(this, xtid, payments[0].itemIndex)).status));
	}
	const sharedWith = payments.map((payment) => payment.itemIndex);
	const notPaid = [...states.values()].every((state) => state === 'pending_approval' || state === 'not_sent');
	const accepted = xtids.map((xtid) => STATE_WORDS[states.get(xtid) as string](xtid));
	const refusals = reasons.length === 0 ? '' : ` The other${reasons.length > 1 ? 's were' : ' was'} rejected (${[...new Set(reasons)].join(' | ')}).`;
	return {
		statement: `The bank's answer does not say which of items ${sharedWith.join(', ')} is which: ${accepted.length > 1 ? 'they include payments' : 'one of them is'} ${accepted.join('; ')}.${refusals} ${notPaid ? 'None of them has been paid.' : 'One of them may have been paid.'} Check them in the account before paying any of them again.`,
		xtids,
		notPaid,
		sharedWith,
	};
}


import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { accountedTogether, confirmAcceptedStates, xtidOf } from './acceptedStates';
import type { IdempotencyKey } from './idempotencyKey';
import { describeError, type PaymentOutcome } from './outcomes';
import type { Payment } from './payment';
import type { LookupResult } from './paymentLookUp';

/** What reading an answer needs of the payment run it belongs to. */
export interface AnswerReader {
	readonly context: IExecuteFunctions;
	/** Notes that the bank answered `key` with `xtid`; true when it had done so before (a replay). */
	noteAnswer(key: string, xtid: string): boolean;
	/** Looks the payments up among the records with these xtids (see PaymentRun.lookUp). */
	lookUp(
		payments: Payment[],
		key: string,
		onlyXtids: ReadonlySet<string>,
	): Promise<Map<number, LookupResult>>;
	/** Looks up payments whose outcome is unknown and reports what was found (see PaymentRun.resolveUnknown). */
	resolveUnknown(
		payments: Payment[],
		key: IdempotencyKey,
		failure: string,
	): Promise<PaymentOutcome[]>;
}

function objectsIn(value: unknown): IDataObject[] {
	return Array.isArray(value)
		? (value.filter(
				(entry) => typeof entry === 'object' && entry !== null && !Array.isArray(entry),
			) as IDataObject[])
		: [];
}

/**
 * Which payment of the request an answer entry is about: its `index` (DECISIONS.md §Payments),
 * else the only payment, else the one unclaimed payment with the same reference (and amount).
 */
function positionOf(
	entry: IDataObject,
	payments: Payment[],
	claimed: Set<number>,
): number | undefined {
	const index = entry.index;
	if (typeof index === 'number' && Number.isInteger(index) && index >= 0 && index < payments.length)
		return index;
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

const reasonOf = (entry: IDataObject) =>
	typeof entry.error === 'string' ? entry.error : 'rejected without a reason';

/** One answer being read: the payments of the request and the outcomes found so far, by position. */
class Reading {
	readonly outcomes = new Map<number, PaymentOutcome>();

	constructor(
		readonly run: AnswerReader,
		readonly key: IdempotencyKey,
		readonly payments: Payment[],
		readonly requestId: string | undefined,
	) {}

	/** The positions still without an outcome. */
	open(): number[] {
		return this.payments
			.map((_payment, position) => position)
			.filter((position) => !this.outcomes.has(position));
	}

	accept(position: number, accepted: IDataObject): void {
		const { key, payments, requestId } = this;
		const xtid = xtidOf(accepted);
		const replayed = xtid !== undefined && this.run.noteAnswer(key.key, xtid);
		this.outcomes.set(position, {
			kind: 'accepted',
			payment: payments[position],
			key,
			accepted,
			requestId,
			replayed,
		});
	}

	reject(position: number, reason: string, reasonUncertain = false): void {
		const { key, payments, requestId } = this;
		const uncertain = reasonUncertain && { reasonUncertain };
		this.outcomes.set(position, {
			kind: 'rejected',
			payment: payments[position],
			key,
			reason,
			requestId,
			...uncertain,
		});
	}
}

/** Step 2: the open payments found among the account's records by the xtids the answer named. */
async function pairByLookUp(reading: Reading, namedXtids: Set<string>): Promise<void> {
	const { run, key, payments, requestId } = reading;
	if (reading.open().length === 0 || namedXtids.size === 0) return;
	try {
		const found = await run.lookUp(
			reading.open().map((position) => payments[position]),
			key.key,
			namedXtids,
		);
		for (const position of reading.open()) {
			const result = found.get(payments[position].itemIndex);
			if (!result?.found) continue;
			const { xtid, approvalRef, foundIn } = result.payment;
			// found among the approvals only: an approval request (spec §States and transitions row 1)
			const status = foundIn === 'approvals' ? 'pending_approval' : 'submitted';
			reading.accept(position, { xtid, status, ...(approvalRef !== undefined && { approvalRef }) });
		}
	} catch (error) {
		run.context.logger.warn(
			`Customer Banking: pairing the answer of request ${requestId ?? key.key} by look-up failed: ${describeError(error)}`,
		);
	}
}

/** Step 3: as many payments left as rejections left: they are the rejected ones. */
function rejectTheRest(reading: Reading, rejectionsLeft: IDataObject[]): void {
	const left = reading.open();
	if (left.length === 0 || left.length !== rejectionsLeft.length) return;
	const reasons = [...new Set(rejectionsLeft.map(reasonOf))];
	for (const position of left) {
		if (reasons.length === 1) reading.reject(position, reasons[0]);
		else
			reading.reject(
				position,
				`one of the rejections of this request: ${reasons.join(' | ')}`,
				true,
			);
	}
}

/**
 * Step 4: as many payments left as the xtids and rejections left: one payment takes the one xtid;
 * several are accounted for together (acceptedStates.ts accountedTogether).
 */
async function accountTogether(
	reading: Reading,
	namedXtids: Set<string>,
	rejectionsLeft: IDataObject[],
): Promise<void> {
	const { run, key, payments, requestId } = reading;
	const outcomes = [...reading.outcomes.values()];
	const xtidsLeft = [...namedXtids].filter(
		(xtid) =>
			!outcomes.some((outcome) => outcome.kind === 'accepted' && xtidOf(outcome.accepted) === xtid),
	);
	const open = reading.open();
	if (
		open.length === 0 ||
		xtidsLeft.length === 0 ||
		open.length !== xtidsLeft.length + rejectionsLeft.length
	)
		return;
	if (open.length === 1) return reading.accept(open[0], { xtid: xtidsLeft[0] });
	const together = open.map((position) => payments[position]);
	const reasons = rejectionsLeft.map(reasonOf);
	const group = await accountedTogether
		.call(run.context, together, xtidsLeft, reasons)
		.catch(() => undefined);
	if (!group) return;
	for (const position of open) {
		reading.outcomes.set(position, {
			kind: 'undetermined',
			payment: payments[position],
			key,
			requestId,
			...group,
		});
	}
}

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
	const reading = new Reading(run, key, payments, requestId);
	const acceptedEntries = objectsIn(response?.submitted);
	const rejectedEntries = objectsIn(response?.rejected);
	// step 1: the entries of the answer that pair with a payment
	const { acceptedAt, rejectedAt } = pairByAnswer(payments, acceptedEntries, rejectedEntries);
	for (const [position, entry] of acceptedAt) reading.accept(position, entry);
	for (const [position, entry] of rejectedAt) reading.reject(position, reasonOf(entry));
	const pairedEntries = new Set([...acceptedAt.values(), ...rejectedAt.values()]);
	const unpaired = acceptedEntries.filter((entry) => !pairedEntries.has(entry));
	const namedXtids = new Set(unpaired.flatMap((entry) => xtidOf(entry) ?? []));
	const rejectionsLeft = rejectedEntries.filter((entry) => !pairedEntries.has(entry));
	await pairByLookUp(reading, namedXtids);
	rejectTheRest(reading, rejectionsLeft);
	await accountTogether(reading, namedXtids, rejectionsLeft);
	// step 5: whatever is still open is looked up like a lost answer
	const unexplained = `The bank accepted the request${requestId ? ` ${requestId}` : ''} but its answer does not say what happened to this payment.`;
	const stillOpen = reading.open().map((position) => payments[position]);
	const resolved = stillOpen.length ? await run.resolveUnknown(stillOpen, key, unexplained) : [];
	await confirmAcceptedStates.call(run.context, [...reading.outcomes.values()]);
	return payments.map(
		(payment, position) =>
			reading.outcomes.get(position) ??
			(resolved.find((outcome) => outcome.payment === payment) as PaymentOutcome),
	);
}

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { accountedTogether, confirmAcceptedStates, xtidOf } from './acceptedStates';
import { type AnswerEntry, contradictionOf, echoesAgree, pairEntries } from './answerPairing';
import type { IdempotencyKey } from './idempotencyKey';
import { type AcceptedOutcome, describeError, type PaymentOutcome } from './outcomes';
import type { Payment } from './payment';
import type { LookUpFinding } from './paymentLookUp';
import { isPlainObject } from '../../shared/records';

/**
 * What reading an answer needs besides the bank's records: noting an xtid the bank answered a key with
 * (true when it had done so before: a replay), and looking payments up among their accounts' records
 * (only records with these xtids may be claimed).
 */
export interface AnswerDependencies {
	readonly context: IExecuteFunctions;
	noteAnswer(key: string, xtid: string): boolean;
	lookUp(
		payments: Payment[],
		namedForThisKey: ReadonlySet<string>,
	): Promise<Map<number, LookUpFinding>>;
}

/**
 * What an answer says of each payment of its request, by position; `open`: the payments it does not
 * account for, to be looked up like a lost answer (`unexplained` says why).
 */
export interface AnswerRead {
	outcomes: Array<PaymentOutcome | undefined>;
	open: Payment[];
	unexplained: string;
}

function objectsIn(value: unknown): IDataObject[] {
	return Array.isArray(value) ? (value.filter(isPlainObject) as IDataObject[]) : [];
}

const reasonOf = (entry: IDataObject) =>
	typeof entry.error === 'string' ? entry.error : 'rejected without a reason';

/** One answer being read: the payments of the request and the outcomes found so far, by position. */
class Reading {
	readonly outcomes = new Map<number, PaymentOutcome>();

	constructor(
		readonly run: AnswerDependencies,
		readonly key: IdempotencyKey,
		readonly payments: Payment[],
		readonly requestId: string | undefined,
		/** Whether each xtid was answered before, noted once per answer (a second reading asks again). */
		readonly replays: Map<string, boolean>,
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
		if (xtid !== undefined && !this.replays.has(xtid))
			this.replays.set(xtid, this.run.noteAnswer(key.key, xtid));
		const replayed = xtid !== undefined && this.replays.get(xtid) === true;
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
			namedXtids,
		);
		for (const position of reading.open()) {
			const finding = found.get(payments[position].itemIndex);
			if (!finding?.found) continue;
			reading.accept(position, { xtid: finding.payment.xtid });
		}
	} catch (error) {
		run.context.logger.warn(
			`Customer Banking: pairing the answer of request ${requestId ?? key.key} by look-up failed: ${describeError(error)}`,
		);
	}
}

/**
 * Step 3: as many payments left as rejections left, and no echoed detail of a rejection contradicting
 * any of them: they are the rejected ones.
 */
function rejectTheRest(reading: Reading, rejectionsLeft: IDataObject[]): void {
	const left = reading.open();
	if (left.length === 0 || left.length !== rejectionsLeft.length) return;
	const fits = rejectionsLeft.every((entry) =>
		left.every((position) => echoesAgree(entry, reading.payments[position].body)),
	);
	if (!fits) return;
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
	const lead = `The bank's answer does not say which of items ${together.map((payment) => payment.itemIndex).join(', ')} is which.`;
	const group = await accountedTogether
		.call(run.context, lead, together, { xtids: xtidsLeft, reasons, contradicts: false })
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
 * An answer that contradicts itself (answerPairing.ts contradictionOf): no payment of the request is
 * taken for any of its entries. Each says what the answer names, and none is sent again.
 */
async function contradictoryAnswer(
	reading: Reading,
	contradiction: string,
	accepted: IDataObject[],
	rejected: IDataObject[],
): Promise<AnswerRead> {
	const { run, key, payments, requestId } = reading;
	const xtids = [...new Set(accepted.flatMap((entry) => xtidOf(entry) ?? []))];
	for (const xtid of xtids) run.noteAnswer(key.key, xtid);
	const lead = `The bank's answer${requestId ? ` to request ${requestId}` : ''} contradicts itself: ${contradiction}.`;
	const group = await accountedTogether
		.call(run.context, lead, payments, {
			xtids,
			reasons: rejected.map(reasonOf),
			contradicts: true,
		})
		.catch((error: unknown) => ({
			statement: `${lead} The state of the payments it names could not be read (${describeError(error)}). None was sent again: check the account before paying any of them again.`,
			xtids,
			notPaid: false,
			sharedWith: payments.map((payment) => payment.itemIndex),
		}));
	const outcomes = payments.map(
		(payment): PaymentOutcome => ({ kind: 'undetermined', payment, key, requestId, ...group }),
	);
	return { outcomes, open: [], unexplained: lead };
}

/**
 * Every payment of the request paired with what the answer says of it: first the entries `paired`
 * (answerPairing.ts), then the payments found among the account's records by the xtids the answer named
 * (they are this request's payments), then, when the only payments left are as many as the rejections
 * left, rejected; then those accounted for only together. Payments still open have no outcome yet.
 */
async function pairAll(
	reading: Reading,
	paired: Map<number, AnswerEntry>,
	accepted: IDataObject[],
	rejected: IDataObject[],
): Promise<void> {
	for (const [position, { kind, entry }] of paired) {
		if (kind === 'accepted') reading.accept(position, entry);
		else reading.reject(position, reasonOf(entry));
	}
	const pairedEntries = new Set([...paired.values()].map(({ entry }) => entry));
	const unpaired = accepted.filter((entry) => !pairedEntries.has(entry));
	const namedXtids = new Set(unpaired.flatMap((entry) => xtidOf(entry) ?? []));
	const rejectionsLeft = rejected.filter((entry) => !pairedEntries.has(entry));
	await pairByLookUp(reading, namedXtids);
	rejectTheRest(reading, rejectionsLeft);
	await accountTogether(reading, namedXtids, rejectionsLeft);
}

const acceptedIn = (reading: Reading) =>
	[...reading.outcomes.values()].filter(
		(outcome): outcome is AcceptedOutcome => outcome.kind === 'accepted',
	);

/**
 * spec §Payments rule 3: 202 does not mean every item was accepted. An answer that contradicts itself
 * accounts for no payment (contradictoryAnswer). Otherwise every payment is paired with what the answer
 * says of it (pairAll), and the state of every accepted payment is read from the bank. When a record read
 * shows another payment's details, or a pairing by the order alone is not confirmed by a record showing
 * the payment's own details, the answer is read again without positions, order or echoes, by the records
 * alone. Whatever is still open is left to be looked up like a lost answer.
 */
export async function readAnswer(
	run: AnswerDependencies,
	response: IDataObject,
	request: { key: IdempotencyKey; payments: Payment[] },
): Promise<AnswerRead> {
	const { key, payments } = request;
	const requestId = typeof response?.requestId === 'string' ? response.requestId : undefined;
	const replays = new Map<string, boolean>();
	let reading = new Reading(run, key, payments, requestId, replays);
	const acceptedEntries = objectsIn(response?.submitted);
	const rejectedEntries = objectsIn(response?.rejected);
	const contradiction = contradictionOf(
		payments.length,
		acceptedEntries,
		rejectedEntries,
		response?.rejectedCount,
	);
	if (contradiction !== undefined)
		return await contradictoryAnswer(reading, contradiction, acceptedEntries, rejectedEntries);
	const entries: AnswerEntry[] = [
		...acceptedEntries.map((entry): AnswerEntry => ({ kind: 'accepted', entry })),
		...rejectedEntries.map((entry): AnswerEntry => ({ kind: 'rejected', entry })),
	];
	const { pairs, byOrderAlone } = pairEntries(
		payments.map((payment) => payment.body),
		entries,
	);
	await pairAll(reading, pairs, acceptedEntries, rejectedEntries);
	await confirmAcceptedStates.call(run.context, acceptedIn(reading));
	const unconfirmed = (outcome: AcceptedOutcome) =>
		byOrderAlone.has(payments.indexOf(outcome.payment)) && outcome.fromEvidence?.shown !== true;
	if (
		pairs.size > 0 &&
		acceptedIn(reading).some((outcome) => outcome.fromEvidence?.ofAnother || unconfirmed(outcome))
	) {
		reading = new Reading(run, key, payments, requestId, replays);
		await pairAll(reading, new Map(), acceptedEntries, rejectedEntries);
		await confirmAcceptedStates.call(run.context, acceptedIn(reading));
	}
	const unexplained = `The bank accepted the request${requestId ? ` ${requestId}` : ''} but its answer does not say what happened to this payment.`;
	return {
		outcomes: payments.map((_payment, position) => reading.outcomes.get(position)),
		open: reading.open().map((position) => payments[position]),
		unexplained,
	};
}

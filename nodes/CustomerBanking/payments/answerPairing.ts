import type { IDataObject } from 'n8n-workflow';

import { toMinorUnits } from '../validation/amount';

/**
 * Which entry of a payment answer is which payment of the request. spec §Payments promises only `xtid` on
 * accepted entries, `error` on rejected ones and `rejectedCount`; a position, echoed details and the
 * order are a bank's own choice (docs/bank-assumptions.md#payment-answer-entries). They are used only when they agree with each
 * other and with the request; every echoed detail is evidence against a pairing it contradicts.
 */

export interface AnswerEntry {
	kind: 'accepted' | 'rejected';
	entry: IDataObject;
}

/** An answer that cannot be read as it stands: it says more, or other, than the request allows. */
export function contradictionOf(
	paymentCount: number,
	accepted: IDataObject[],
	rejected: IDataObject[],
	rejectedCount: unknown,
): string | undefined {
	if (accepted.length + rejected.length > paymentCount) {
		const both =
			accepted.length > 0 && rejected.length > 0
				? ', so a payment may be both accepted and rejected'
				: '';
		return `it names more outcomes than payments sent (${paymentCount} sent; ${accepted.length} accepted, ${rejected.length} rejected)${both}`;
	}
	const xtids = accepted.flatMap((entry) => (typeof entry.xtid === 'string' ? [entry.xtid] : []));
	const repeated = xtids.find((xtid, index) => xtids.indexOf(xtid) !== index);
	if (repeated !== undefined) return `it names transaction ${repeated} for two payments`;
	if (typeof rejectedCount === 'number' && rejectedCount !== rejected.length)
		return `its rejectedCount is ${rejectedCount} but it lists ${rejected.length} rejection${rejected.length === 1 ? '' : 's'}`;
	return undefined;
}

const ECHOED = ['reference', 'xaid', 'xpid', 'currency'] as const;

/** Whether every detail the entry echoes is the payment's (an amount in cents; a detail not echoed says nothing). */
export function echoesAgree(entry: IDataObject, body: IDataObject): boolean {
	for (const field of ECHOED) {
		if (entry[field] === undefined || (field === 'currency' && body.currency === undefined))
			continue;
		if (entry[field] !== body[field]) return false;
	}
	if (entry.amount === undefined) return true;
	const amount = typeof entry.amount === 'string' ? Number(entry.amount) : entry.amount;
	return (
		typeof amount === 'number' &&
		Number.isFinite(amount) &&
		toMinorUnits(amount) === toMinorUnits(Number(body.amount))
	);
}

const echoes = (entry: IDataObject) =>
	[...ECHOED, 'amount'].some((field) => entry[field] !== undefined);

/**
 * Pairing by position: every entry carries a whole `index`, and read from 0 or from 1 (not both) the
 * positions are distinct, within the request and agree with every echo.
 */
function byPosition(
	bodies: IDataObject[],
	entries: AnswerEntry[],
): Map<number, AnswerEntry> | undefined {
	if (entries.length === 0) return undefined;
	const indexes = entries.map(({ entry }) => entry.index);
	if (!indexes.every((index) => typeof index === 'number' && Number.isInteger(index)))
		return undefined;
	const readings = [0, 1].flatMap((from) => {
		const positions = (indexes as number[]).map((index) => index - from);
		const fits =
			new Set(positions).size === positions.length &&
			positions.every(
				(position, at) =>
					position >= 0 &&
					position < bodies.length &&
					echoesAgree(entries[at].entry, bodies[position]),
			);
		return fits ? [new Map(positions.map((position, at) => [position, entries[at]]))] : [];
	});
	return readings.length === 1 ? readings[0] : undefined;
}

/** Pairing by order: one outcome for every payment, all of one kind, every echo agreeing. */
function byOrder(
	bodies: IDataObject[],
	entries: AnswerEntry[],
): Map<number, AnswerEntry> | undefined {
	if (entries.length !== bodies.length) return undefined;
	if (new Set(entries.map(({ kind }) => kind)).size !== 1) return undefined;
	if (!entries.every(({ entry }, position) => echoesAgree(entry, bodies[position])))
		return undefined;
	return new Map(entries.map((entry, position) => [position, entry]));
}

/** Pairing by echoes: an entry whose echoes fit one payment only, and no other entry fits only that one. */
function byEchoes(bodies: IDataObject[], entries: AnswerEntry[]): Map<number, AnswerEntry> {
	const only = new Map<number, AnswerEntry[]>();
	for (const answer of entries) {
		if (!echoes(answer.entry)) continue;
		const fitting = bodies
			.map((body, position) => ({ body, position }))
			.filter(({ body }) => echoesAgree(answer.entry, body));
		if (fitting.length === 1)
			only.set(fitting[0].position, [...(only.get(fitting[0].position) ?? []), answer]);
	}
	const paired = new Map<number, AnswerEntry>();
	for (const [position, answers] of only)
		if (answers.length === 1) paired.set(position, answers[0]);
	return paired;
}

export interface Pairing {
	pairs: Map<number, AnswerEntry>;
	/**
	 * Positions paired by the order alone (no position, no echoed reference): the spec does not promise an
	 * order, so these hold only once a record of the payment confirms them.
	 */
	byOrderAlone: Set<number>;
}

/**
 * The entries of a consistent answer (contradictionOf found nothing) paired with the payments they are
 * about, by position; else by order; else as far as echoes tell. One payment with one entry that does
 * not contradict it is that entry's. Entries left unpaired are for the caller to account for.
 */
export function pairEntries(bodies: IDataObject[], entries: AnswerEntry[]): Pairing {
	const none = new Set<number>();
	if (bodies.length === 1 && entries.length === 1) {
		const pairs = new Map<number, AnswerEntry>();
		if (echoesAgree(entries[0].entry, bodies[0])) pairs.set(0, entries[0]);
		return { pairs, byOrderAlone: none };
	}
	const byPositions = byPosition(bodies, entries);
	if (byPositions) return { pairs: byPositions, byOrderAlone: none };
	const ordered = byOrder(bodies, entries);
	if (ordered) {
		const alone = [...ordered].filter(([, { entry }]) => entry.reference === undefined);
		return { pairs: ordered, byOrderAlone: new Set(alone.map(([position]) => position)) };
	}
	return { pairs: byEchoes(bodies, entries), byOrderAlone: none };
}

import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import type { SignatureScheme } from './signature';

/**
 * Which deliveries were taken, per trigger node, so one delivery starts exactly one execution, or gets an
 * answer that makes the bank send it again.
 *
 * In memory, per n8n instance: every webhook call gets its own copy of the static data, read from the
 * database (n8n 2.41.1 `live-webhooks.js`), so concurrent copies of a delivery cannot see each other
 * there. A key is claimed synchronously, before any `await`, so two copies cannot both see it as new.
 * A claimed key is "in flight" until its delivery either hands its execution to n8n (`settle`) or
 * fails (`release`): a copy arriving meanwhile is asked to come back later, since nobody knows yet
 * whether the event will run. Keys are kept in the order they were claimed, which is also the order
 * they expire in: pruning looks at the oldest entries only, so a delivery costs the same whatever the
 * ledger holds.
 *
 * In static data, the most recent settled keys (`PERSISTED_KEYS`), for what memory cannot cover: an n8n
 * restart, another webhook instance. Only settled keys: a key written there while its delivery is still
 * in flight would be saved by any other delivery answered meanwhile, and a failure after that would
 * leave the bank's retry recognised as a duplicate of an event that never ran. n8n saves static data
 * written in `webhook()` when it answers the call (`live-webhooks.js` response callback): at once for a
 * delivery the node answers itself, after the execution for one it emits (deliverySteps.ts
 * `handedOver`).
 */
export type ClaimResult = 'claimed' | 'inFlight' | 'duplicate' | 'full';

/** Per node; at ~100 bytes a key, about 5 MB at the limit. */
export const LEDGER_CAPACITY = 50_000;

/** How many of the most recent keys are kept in static data, rewritten on every emitted delivery. */
export const PERSISTED_KEYS = 500;

/** How long a copy of a delivery still being processed is asked to wait before the bank sends it again. */
export const IN_FLIGHT_RETRY_AFTER_SECONDS = 5;

/** [key, Unix seconds its execution was handed to n8n], oldest first. */
export type TakenKey = [string, number];

interface Entry {
	/** Unix seconds it was claimed. */
	at: number;
	settled: boolean;
}

export class DeliveryLedger {
	/** key → when it was claimed and whether it ran; Map iteration order is insertion order. */
	private readonly entries = new Map<string, Entry>();
	/** The last keys settled, oldest first, between PERSISTED_KEYS and twice that many. */
	private recentKeys: TakenKey[] = [];

	constructor(private readonly capacity = LEDGER_CAPACITY) {}

	get size(): number {
		return this.entries.size;
	}

	/** The most recent keys settled, oldest first, at most PERSISTED_KEYS. */
	recent(): TakenKey[] {
		return this.recentKeys.slice(-PERSISTED_KEYS);
	}

	/**
	 * Claims `key` unless it was claimed within `keepSeconds`. When the ledger is full, the oldest key
	 * is forgotten only if it ran more than `mustKeepSeconds` ago (a key kept beyond that is kept while
	 * there is room); otherwise nothing is dropped (a dropped key could be emitted twice): the answer is
	 * 'full' and the caller asks the bank to deliver again later.
	 */
	claim(
		key: string,
		nowSeconds: number,
		keepSeconds: number,
		mustKeepSeconds = keepSeconds,
	): ClaimResult {
		this.prune(nowSeconds - keepSeconds);
		const entry = this.entries.get(key);
		if (entry) return entry.settled ? 'duplicate' : 'inFlight';
		if (this.entries.size >= this.capacity && !this.forgetOldest(nowSeconds - mustKeepSeconds))
			return 'full';
		this.entries.set(key, { at: nowSeconds, settled: false });
		return 'claimed';
	}

	/** The key's execution was handed to n8n: copies are duplicates from now on, and it may be persisted. */
	settle(key: string, nowSeconds: number): void {
		const entry = this.entries.get(key);
		if (entry) entry.settled = true;
		this.recentKeys.push([key, nowSeconds]);
		if (this.recentKeys.length >= 2 * PERSISTED_KEYS) this.recentKeys = this.recent();
	}

	/** Gives a key back after its delivery failed, so a retry of it is processed. */
	release(key: string): void {
		const entry = this.entries.get(key);
		if (entry && !entry.settled) this.entries.delete(key);
	}

	private prune(oldestKept: number): void {
		for (const [key, entry] of this.entries) {
			if (entry.at >= oldestKept) return;
			this.entries.delete(key);
		}
	}

	private forgetOldest(oldestThatMustStay: number): boolean {
		const oldest = this.entries.entries().next();
		if (oldest.done) return true;
		const [key, entry] = oldest.value;
		if (!entry.settled || entry.at >= oldestThatMustStay) return false;
		this.entries.delete(key);
		return true;
	}
}

// One ledger per trigger node (workflow id + node id) for the life of this n8n instance.
const ledgers = new Map<string, DeliveryLedger>();

export function ledgerFor(workflowId: string, nodeId: string): DeliveryLedger {
	const owner = JSON.stringify([workflowId, nodeId]);
	let ledger = ledgers.get(owner);
	if (!ledger) {
		ledger = new DeliveryLedger();
		ledgers.set(owner, ledger);
	}
	return ledger;
}

/**
 * The key a delivery is deduplicated on, from signed content only: the delivery id inside the
 * verified body, else the verified body itself (an unsigned header could be changed freely). Hashed,
 * so every key has the same small size whatever the sender puts in its ids.
 */
export function deliveryKey(signedDeliveryId: string | undefined, rawBody: Buffer): string {
	const hash = createHash('sha256');
	if (signedDeliveryId) hash.update('id\0').update(signedDeliveryId, 'utf8');
	else hash.update('body\0').update(rawBody);
	return hash.digest('base64url').slice(0, 22);
}

const PERSISTED = 'recentDeliveries';

/**
 * The keys are saved in one string, "<key> <Unix seconds>" pairs joined by ",", oldest first: n8n wraps
 * every object inside static data in a change-tracking proxy each time it builds the workflow (several
 * times per call, n8n-workflow `observable-object.js`), so PERSISTED_KEYS pairs saved as arrays would
 * cost that many proxies each time, while a string costs none. Keys are base64url, so neither
 * separator occurs in them. Pairs saved as [key, seconds] arrays are read too, so keys saved in that
 * form by an earlier version of this node are still recognised.
 */
function persistedKeys(staticData: IDataObject): TakenKey[] {
	const stored = staticData[PERSISTED];
	if (typeof stored === 'string') {
		return stored
			.split(',')
			.map((pair): TakenKey => {
				const [key, at, ...rest] = pair.split(' ');
				return [key, rest.length === 0 && at !== '' ? Number(at) : NaN];
			})
			.filter(([key, at]) => key !== '' && Number.isFinite(at));
	}
	if (!Array.isArray(stored)) return [];
	return stored.filter(
		(entry): entry is TakenKey =>
			Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'number',
	);
}

/** Whether the static data (as saved by this or another n8n instance) remembers the key as still retained. */
export function persistedAsTaken(
	staticData: IDataObject,
	key: string,
	nowSeconds: number,
	retentionSeconds: number,
): boolean {
	return persistedKeys(staticData).some(
		([taken, at]) => taken === key && at >= nowSeconds - retentionSeconds,
	);
}

/**
 * Writes the most recent keys into the static data: those saved there (by this or another instance)
 * merged with those this instance took, newest PERSISTED_KEYS kept, both lists being oldest first.
 */
export function persistRecentKeys(staticData: IDataObject, ledger: DeliveryLedger): void {
	const saved = persistedKeys(staticData);
	const mine = ledger.recent();
	const merged: TakenKey[] = [];
	const seen = new Set<string>();
	let i = 0;
	let j = 0;
	while (i < saved.length || j < mine.length) {
		const next =
			j >= mine.length || (i < saved.length && saved[i][1] <= mine[j][1]) ? saved[i++] : mine[j++];
		if (seen.has(next[0])) continue;
		seen.add(next[0]);
		merged.push(next);
	}
	staticData[PERSISTED] = merged
		.slice(-PERSISTED_KEYS)
		.map(([key, at]) => `${key} ${at}`)
		.join(',');
}

/**
 * How long a key is kept: twice the replay window, and at least 15 minutes so a bank's retries of a
 * failed delivery (re-signed with a fresh timestamp, same body) are still recognised.
 */
export function retentionSecondsFor(toleranceSeconds: number): number {
	return Math.max(toleranceSeconds * 2, 15 * 60);
}

/**
 * How long a key is kept when the raw body alone is signed: nothing signed says when such a delivery
 * was sent, so a captured one can be sent again at any time with a fresh timestamp, and only the ledger
 * recognises it. Kept this long while the ledger has room (beyond `retentionSecondsFor`, the oldest go
 * first when it is full, so a busy trigger is never refused for it).
 */
export const REPLAYABLE_KEEP_SECONDS = 24 * 60 * 60;

export interface Retention {
	/** How long a key is recognised while the ledger has room. */
	keepSeconds: number;
	/** How long a key is recognised whatever the ledger holds. */
	mustKeepSeconds: number;
}

export function retentionFor(
	scheme: Pick<SignatureScheme, 'signedContent' | 'toleranceSeconds'>,
): Retention {
	const mustKeepSeconds = retentionSecondsFor(scheme.toleranceSeconds);
	const keepSeconds =
		scheme.signedContent === 'body'
			? Math.max(REPLAYABLE_KEEP_SECONDS, mustKeepSeconds)
			: mustKeepSeconds;
	return { keepSeconds, mustKeepSeconds };
}

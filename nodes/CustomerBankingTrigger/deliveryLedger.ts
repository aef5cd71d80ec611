import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/**
 * Which deliveries were taken, per trigger node, so one delivery starts at most one execution.
 *
 * In memory, per n8n instance: every webhook call gets its own copy of the static data, read from the
 * database (n8n 2.41.1 `live-webhooks.js`), so concurrent copies of a delivery cannot see each other
 * there. A key is taken synchronously, before any `await`, so they cannot both see it as new; a delivery
 * that then fails gives its key back, so the bank's retry is processed. Keys are kept in the order they
 * were taken, which is also the order they expire in: pruning looks at the oldest entries only, so a
 * delivery costs the same whatever the ledger holds.
 *
 * In static data, the most recent keys (`PERSISTED_KEYS`), for what memory cannot cover: an n8n restart,
 * another webhook instance. n8n saves static data written in `webhook()` only when the call answers the
 * HTTP request itself (`noWebhookResponse`: saved right after the call; with `onReceived` and an
 * execution, 2.41.1 saves after the runner has cleared the "changed" flag, i.e. never), so the trigger
 * answers deliveries itself.
 */
export type ClaimResult = 'claimed' | 'duplicate' | 'full';

/** Per node; at ~100 bytes a key, about 5 MB at the limit. */
export const LEDGER_CAPACITY = 50_000;

/** How many of the most recent keys are kept in static data, rewritten on every emitted delivery. */
export const PERSISTED_KEYS = 500;

/** [key, Unix seconds taken], oldest first. */
export type TakenKey = [string, number];

export class DeliveryLedger {
	/** key → Unix seconds it was taken; Map iteration order is insertion order. */
	private readonly takenAt = new Map<string, number>();
	/** The last keys taken, oldest first, between PERSISTED_KEYS and twice that many. */
	private recentKeys: TakenKey[] = [];

	constructor(private readonly capacity = LEDGER_CAPACITY) {}

	get size(): number {
		return this.takenAt.size;
	}

	/** The most recent keys taken, oldest first, at most PERSISTED_KEYS. */
	recent(): TakenKey[] {
		return this.recentKeys.slice(-PERSISTED_KEYS);
	}

	/**
	 * Takes `key` unless it was taken within `retentionSeconds`. When the ledger is full of keys that
	 * are all still inside their retention, nothing is dropped (a dropped key could be emitted twice):
	 * the answer is 'full' and the caller asks the bank to deliver again later.
	 */
	claim(key: string, nowSeconds: number, retentionSeconds: number): ClaimResult {
		this.prune(nowSeconds - retentionSeconds);
		if (this.takenAt.has(key)) return 'duplicate';
		if (this.takenAt.size >= this.capacity) return 'full';
		this.takenAt.set(key, nowSeconds);
		this.recentKeys.push([key, nowSeconds]);
		if (this.recentKeys.length >= 2 * PERSISTED_KEYS) this.recentKeys = this.recent();
		return 'claimed';
	}

	/** Gives a key back after its delivery failed, so a retry of it is processed. */
	release(key: string): void {
		this.takenAt.delete(key);
		this.recentKeys = this.recentKeys.filter(([taken]) => taken !== key);
	}

	private prune(oldestKept: number): void {
		for (const [key, takenAt] of this.takenAt) {
			if (takenAt >= oldestKept) return;
			this.takenAt.delete(key);
		}
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

function persistedKeys(staticData: IDataObject): TakenKey[] {
	const stored = staticData[PERSISTED];
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
		const next = j >= mine.length || (i < saved.length && saved[i][1] <= mine[j][1]) ? saved[i++] : mine[j++];
		if (seen.has(next[0])) continue;
		seen.add(next[0]);
		merged.push(next);
	}
	staticData[PERSISTED] = merged.slice(-PERSISTED_KEYS);
}

/**
 * How long a key is kept: twice the replay window, and at least 15 minutes so a bank's retries of a
 * failed delivery (re-signed with a fresh timestamp, same body) are still recognised.
 */
export function retentionSecondsFor(toleranceSeconds: number): number {
	return Math.max(toleranceSeconds * 2, 15 * 60);
}

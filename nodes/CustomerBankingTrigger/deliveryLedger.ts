import { createHash } from 'crypto';

/**
 * Which deliveries this n8n process has taken, per trigger node, so one delivery starts at most one
 * execution. Held in memory, not in the node's static data: n8n 2.41.1 never saves static data written
 * inside `webhook()` (its workflow runner wraps the same static data again, which clears the "changed"
 * flag before the save), and every webhook call reads its own copy from the database, so a ledger kept
 * there is neither shared by concurrent copies nor kept.
 *
 * A key is taken synchronously, before any `await`, so concurrent copies of one delivery cannot both
 * see it as new; a delivery that then fails gives its key back, so the bank's retry is processed.
 * Keys are kept in the order they were taken, which is also the order they expire in: pruning looks at
 * the oldest entries only, so a delivery costs the same whatever the ledger holds.
 */
export type ClaimResult = 'claimed' | 'duplicate' | 'full';

/** Per node; at ~100 bytes a key, about 5 MB at the limit. */
export const LEDGER_CAPACITY = 50_000;

export class DeliveryLedger {
	/** key → Unix seconds it was taken; Map iteration order is insertion order. */
	private readonly takenAt = new Map<string, number>();

	constructor(private readonly capacity = LEDGER_CAPACITY) {}

	get size(): number {
		return this.takenAt.size;
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
		return 'claimed';
	}

	/** Gives a key back after its delivery failed, so a retry of it is processed. */
	release(key: string): void {
		this.takenAt.delete(key);
	}

	private prune(oldestKept: number): void {
		for (const [key, takenAt] of this.takenAt) {
			if (takenAt >= oldestKept) return;
			this.takenAt.delete(key);
		}
	}
}

// One ledger per trigger node (workflow id + node id) for the life of this n8n process.
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
 * verified body, else a hash of the verified body (an unsigned header could be changed freely).
 */
export function deliveryKey(signedDeliveryId: string | undefined, rawBody: Buffer): string {
	if (signedDeliveryId) return `id:${signedDeliveryId}`;
	return `sha256:${createHash('sha256').update(rawBody).digest('hex')}`;
}

/**
 * How long a key is kept: twice the replay window, and at least 15 minutes so a bank's retries of a
 * failed delivery (re-signed with a fresh timestamp, same body) are still recognised.
 */
export function retentionSecondsFor(toleranceSeconds: number): number {
	return Math.max(toleranceSeconds * 2, 15 * 60);
}

import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

/**
 * Back-pressure: the deliveries a trigger node accepted whose answer has not been sent yet, per trigger
 * node, in the memory of the n8n instance that received them.
 *
 * The trigger lets n8n answer an accepted delivery when its execution has ended (webhook response mode
 * 'lastNode', shared/n8nInternals.ts 1.). So the end of a delivery's HTTP response (express' 'close',
 * also when the sender hangs up) marks the end of the execution it started, as far as anything a node
 * can see tells. A delivery holds its place from the moment it is accepted (before its transaction is fetched) until then; when all
 * places are taken, a new delivery waits for one (first come, first served) for at most
 * PLACE_WAIT_SECONDS, and only then is asked to come back later and not emitted, so n8n never holds
 * more executions of this trigger than the bound, however fast the bank delivers, and a short burst
 * above the bound runs without the bank having to retry (a bank with finite retries gives up on a
 * delivery refused too often: a lost event).
 *
 * The static data of each running delivery's webhook call is kept too: n8n saves it only when it
 * answers, so each is brought up to date whenever another delivery is handed over (a call that ends
 * last must not save an older list of taken deliveries over a newer one).
 */
export const DEFAULT_MAX_RUNNING = 10;
export const MAX_RUNNING_LIMIT = 1_000;

/**
 * How long a delivery waits for a place before it is asked to come back. The spec does not show how
 * long the bank waits for an answer (spec §Events rule 4 shows no retry policy); the nodes assume about
 * 5 s (docs/bank-assumptions.md#delivery-retries). 3 s leaves a bank like that time to get the 503 before it hangs up,
 * and is still long enough for a place to come free in a burst of short executions.
 */
export const PLACE_WAIT_SECONDS = 3;

/** How long a delivery refused for lack of room is asked to wait before the bank sends it again. */
export const BUSY_RETRY_AFTER_SECONDS = 5;

/** One accepted delivery's place; freeing a place twice, or one given back meanwhile, does nothing. */
export interface Place {
	readonly key: string;
	readonly staticData: IDataObject;
}

/** A delivery waiting for a place; `place` is set when one is handed to it. */
interface Waiter {
	readonly key: string;
	readonly staticData: IDataObject;
	readonly limit: number;
	place?: Place;
	wake(): void;
}

export class RunningDeliveries {
	private readonly places = new Map<string, Place>();

	private readonly waiters: Waiter[] = [];

	get size(): number {
		return this.places.size;
	}

	/** Whether a delivery with this key holds a place: accepted, and not answered yet. */
	has(key: string): boolean {
		return this.places.has(key);
	}

	/**
	 * A place for the delivery: at once when fewer than `limit` deliveries hold one and none is waiting,
	 * otherwise a freed place once the deliveries that came before it have theirs; undefined when none
	 * came within `waitMs`.
	 */
	async take(
		key: string,
		staticData: IDataObject,
		limit: number,
		waitMs: number,
	): Promise<Place | undefined> {
		let wake = () => {};
		const woken = new Promise<void>((resolve) => (wake = resolve));
		const waiter: Waiter = { key, staticData, limit, wake };
		this.waiters.push(waiter);
		this.handOver();
		if (waiter.place) return waiter.place;
		await Promise.race([woken, sleep(waitMs)]);
		// a place handed over after the wait ran out but before this resumed is still taken
		if (waiter.place) return waiter.place;
		// out of the queue, so a place freed later goes to a delivery still waiting for it
		this.waiters.splice(this.waiters.indexOf(waiter), 1);
		return undefined;
	}

	/** Gives the place back, handing it to the first waiting delivery if the bound allows. */
	free(place: Place): void {
		if (this.places.get(place.key) !== place) return;
		this.places.delete(place.key);
		this.handOver();
	}

	/** Places to the waiting deliveries, first come first served, while the bound allows. */
	private handOver(): void {
		while (this.waiters.length > 0 && this.places.size < this.waiters[0].limit) {
			const waiter = this.waiters.shift() as Waiter;
			const place: Place = { key: waiter.key, staticData: waiter.staticData };
			this.places.set(waiter.key, place);
			waiter.place = place;
			waiter.wake();
		}
	}

	/** The static data of every delivery holding a place. */
	staticDataOfRunning(): IDataObject[] {
		return [...this.places.values()].map((place) => place.staticData);
	}
}

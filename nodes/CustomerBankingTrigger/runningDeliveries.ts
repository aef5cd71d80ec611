import type { IDataObject } from 'n8n-workflow';

/**
 * Back-pressure: the deliveries a trigger node accepted whose answer has not been sent yet, per trigger
 * node, in the memory of the n8n process that received them.
 *
 * The trigger lets n8n answer an accepted delivery when its execution has ended (webhook response mode
 * 'lastNode': both lines' `webhook-helpers.js` wait for `getPostExecutePromise` and only then call the
 * response callback; in queue mode the process that received the webhook waits for the worker the same
 * way). So the end of a delivery's HTTP response (express' 'close', also when the sender hangs up)
 * marks the end of the execution it started, as far as anything a node can see tells. A delivery holds
 * its place from the moment it is accepted (before its transaction is fetched) until then; when all
 * places are taken, new deliveries are asked to come back later and are not emitted, so n8n never
 * holds more executions of this trigger than the bound, however fast the bank delivers.
 *
 * The static data of each running delivery's webhook call is kept too: n8n saves it only when it
 * answers, so each is brought up to date whenever another delivery is handed over (a call that ends
 * last must not save an older list of taken deliveries over a newer one).
 */
export const DEFAULT_MAX_RUNNING = 10;
export const MAX_RUNNING_LIMIT = 1_000;

/** How long a delivery refused for lack of room is asked to wait before the bank sends it again. */
export const BUSY_RETRY_AFTER_SECONDS = 5;

/** One accepted delivery's place; freeing a place twice, or one given back meanwhile, does nothing. */
export interface Place {
	readonly key: string;
	readonly staticData: IDataObject;
}

export class RunningDeliveries {
	private readonly places = new Map<string, Place>();

	get size(): number {
		return this.places.size;
	}

	/** Whether a delivery with this key holds a place: accepted, and not answered yet. */
	has(key: string): boolean {
		return this.places.has(key);
	}

	/** A place for the delivery, or undefined when `limit` deliveries already hold one. */
	take(key: string, staticData: IDataObject, limit: number): Place | undefined {
		if (this.places.size >= limit || this.places.has(key)) return undefined;
		const place: Place = { key, staticData };
		this.places.set(key, place);
		return place;
	}

	free(place: Place): void {
		if (this.places.get(place.key) === place) this.places.delete(place.key);
	}

	/** The static data of every delivery holding a place. */
	staticDataOfRunning(): IDataObject[] {
		return [...this.places.values()].map((place) => place.staticData);
	}
}

// One per trigger node (workflow id + node id) for the life of this n8n process.
const running = new Map<string, RunningDeliveries>();

export function runningFor(workflowId: string, nodeId: string): RunningDeliveries {
	const owner = JSON.stringify([workflowId, nodeId]);
	let deliveries = running.get(owner);
	if (!deliveries) {
		deliveries = new RunningDeliveries();
		running.set(owner, deliveries);
	}
	return deliveries;
}

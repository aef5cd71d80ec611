import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { afterRunStarts, whenAnswerEnds } from '../shared/n8nInternals';
import { TriggerNodeRegistry } from '../shared/triggerNodeRegistry';
import {
	DeliveryLedger,
	deliveryKey,
	IN_FLIGHT_RETRY_AFTER_SECONDS,
	persistedAsEnded,
	persistEnded,
	persistRecentKeys,
	retentionFor,
} from './deliveryLedger';
import type { HandedOver } from './deliveryLedger';
import { acknowledge, Answer, deferDelivery } from './deliverySteps';
import type { DeliveryFacts, VerifiedDelivery } from './deliverySteps';
import {
	BUSY_RETRY_AFTER_SECONDS,
	DEFAULT_MAX_RUNNING,
	PLACE_WAIT_SECONDS,
	RunningDeliveries,
} from './runningDeliveries';
import type { Place } from './runningDeliveries';
import { isUsableMaxRunning, readMaxRunning } from './triggerParameters';

/** What a trigger node keeps in memory about its deliveries. */
interface DeliveryBooks {
	ledger: DeliveryLedger;
	running: RunningDeliveries;
}

const booksOfNodes = new TriggerNodeRegistry<DeliveryBooks>(() => ({
	ledger: new DeliveryLedger(),
	running: new RunningDeliveries(),
}));

function maxRunning(this: IWebhookFunctions): number {
	const value = readMaxRunning.call(this);
	return isUsableMaxRunning(value) ? value : DEFAULT_MAX_RUNNING;
}

/**
 * One delivery taken: its key claimed in the ledger and a place among the running deliveries, owned
 * until the delivery is settled. It gives both back itself: the place when n8n's answer to the
 * delivery ends (or at once, when the bank hung up while it waited), the key when the delivery fails
 * before its execution is handed to n8n (`settle`).
 *
 * Retries and replays keep their delivery id (docs/bank-assumptions.md#delivery-retries): the key is claimed before any
 * await (also before waiting for a place), so copies arriving while this one waits or runs cannot
 * start another execution. Until a delivery's execution has ended, a copy is asked to come back (it is
 * not "received": the first copy may still fail). The answers that make a bank send a delivery again
 * are 503 with Retry-After: the spec does not show the bank's retry policy (spec §Events rule 4), so
 * the node only ever asks, and never answers "received" for an event that did not run.
 */
export class Admission {
	private place?: Place;

	/** Set once its execution is handed to n8n. */
	private handedOver?: HandedOver;

	/** n8n's response to the delivery has ended (answered, failed, or the bank hung up). */
	private closed: boolean;

	private constructor(
		private readonly call: IWebhookFunctions,
		private readonly key: string,
		private readonly books: DeliveryBooks,
		private readonly staticData: IDataObject,
	) {
		// n8n ends the response once the execution ended (or failed), or when the bank hung up (maybe
		// already, while the delivery was verified); only an answer n8n finished sending says it ended
		this.closed = whenAnswerEnds(call, (answered) => {
			this.closed = true;
			if (this.place) books.running.free(this.place);
			if (answered) this.answered();
		});
	}

	/** Takes the delivery once, or answers why not. */
	static async take(
		call: IWebhookFunctions,
		facts: DeliveryFacts,
		delivery: VerifiedDelivery,
	): Promise<Answer | Admission> {
		const key = deliveryKey(facts, delivery.rawBody);
		const staticData = call.getWorkflowStaticData('node');
		const books = booksOfNodes.of(call);
		const refusal = claim(call, key, books, staticData, delivery);
		if (refusal) return refusal;
		const admission = new Admission(call, key, books, staticData);
		if (await admission.takePlace()) return admission;
		books.ledger.release(key);
		return deferDelivery.call(
			call,
			BUSY_RETRY_AFTER_SECONDS,
			'too many executions running; send again later',
		);
	}

	/**
	 * A place among the running deliveries, waiting up to PLACE_WAIT_SECONDS for one; false when none
	 * came. The key stays claimed while the delivery waits, so a copy arriving meanwhile is asked to
	 * come back.
	 */
	private async takePlace(): Promise<boolean> {
		const { running } = this.books;
		const place = await running.take(
			this.key,
			this.staticData,
			maxRunning.call(this.call),
			PLACE_WAIT_SECONDS * 1000,
		);
		if (!place) return false;
		// The bank hung up while this waited: the delivery still runs, since the bank's retry of it is
		// then a duplicate (the event runs once) while not running it could lose the event, if that was
		// the bank's last try. Nothing will tell when its execution ends, so its place is given back now.
		if (this.closed) running.free(place);
		else this.place = place;
		return true;
	}

	/**
	 * Hands the execution that starts with `output()` to n8n. When `output()` fails (a NodeApiError from
	 * the transport: n8n answers 500 and the bank retries), the key and the place are given back first,
	 * so that retry, and any copy told to wait meanwhile, is processed.
	 */
	async settle(output: () => Promise<IDataObject>): Promise<IWebhookResponseData> {
		const produced = output();
		produced.catch(() => {
			this.books.ledger.release(this.key);
			if (this.place) this.books.running.free(this.place);
		});
		return this.handOver(await produced);
	}

	/**
	 * Nothing of the node's can fail after this point: n8n starts the execution with the data returned
	 * and answers the bank when it has ended, saving the static data first if it is marked changed
	 * (n8nInternals.ts 1. and 2.). Only now is the key handed over, so recognised as a duplicate in this
	 * instance, and written into the static data of every call still waiting for its answer, so
	 * whichever n8n saves last holds it: as ended into this call's own (n8n saves that only once this
	 * execution has ended), as running into the others' until n8n has answered this one (`answered`).
	 *
	 * n8n 2.41.1 starts the run in the same tick as this call returns, and that clears the "changed"
	 * mark of the static data written here (n8nInternals.ts 4.), so the keys are written again once the
	 * run has started.
	 */
	private handOver(output: IDataObject): IWebhookResponseData {
		const { key, staticData } = this;
		const { ledger, running } = this.books;
		this.handedOver = ledger.handOver(key, Math.floor(Date.now() / 1000));
		for (const data of new Set([staticData, ...running.staticDataOfRunning()])) {
			persistRecentKeys(data, ledger, data === staticData ? key : undefined);
		}
		afterRunStarts(() => persistRecentKeys(staticData, ledger, key));
		return { workflowData: [[{ json: output }]] };
	}

	/**
	 * n8n answered the delivery, which it does once the execution has ended: from now on it is written
	 * as ended into the static data of every call still waiting for its answer, so whichever n8n saves
	 * last holds it. Its own call's static data was saved just before the answer, already saying so.
	 */
	private answered(): void {
		const { handedOver } = this;
		if (!handedOver) return;
		const { ledger, running } = this.books;
		ledger.ended(handedOver);
		for (const data of running.staticDataOfRunning()) persistEnded(data, ledger, handedOver);
	}
}

/** Claims the delivery's key in the ledger, or answers why this copy does not run. */
function claim(
	call: IWebhookFunctions,
	key: string,
	{ ledger, running }: DeliveryBooks,
	staticData: IDataObject,
	delivery: VerifiedDelivery,
): Answer | undefined {
	const { nowSeconds } = delivery;
	const retention = retentionFor(delivery.scheme);
	const beingProcessed = () =>
		deferDelivery.call(call, IN_FLIGHT_RETRY_AFTER_SECONDS, 'the same delivery is being processed');
	if (running.has(key)) return beingProcessed();
	// its execution ended before an n8n restart, or on another n8n webhook instance (queue mode)
	if (persistedAsEnded(staticData, key, nowSeconds, retention.keepSeconds))
		return acknowledge('duplicate delivery');
	const claimed = ledger.claim(key, nowSeconds, retention.keepSeconds, retention.mustKeepSeconds);
	if (claimed === 'duplicate') return acknowledge('duplicate delivery');
	if (claimed === 'inFlight') return beingProcessed();
	if (claimed === 'full') {
		call.logger.warn(
			'Customer Banking Trigger: too many deliveries inside the replay window; asked the bank to retry',
		);
		return deferDelivery.call(call, 60, 'too many deliveries; send again later');
	}
	return undefined;
}

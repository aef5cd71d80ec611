import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

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
import { acknowledge, Answer, deferDelivery } from './answers';
import type { DeliveryFacts, VerifiedDelivery } from './deliverySteps';
import { bankWordOf } from './events';
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
 * Admits a verified delivery: the item its execution starts with (from `output()`, called once the
 * delivery has a place among the running deliveries), or the answer that tells the bank why not.
 *
 * Retries and replays keep their delivery id (docs/bank-assumptions.md#delivery-retries): the key is
 * claimed before any await (also before waiting for a place), so copies arriving while this one waits
 * or runs cannot start another execution. Until a delivery's execution has ended, a copy is asked to
 * come back (it is not "received": the first copy may still fail). The answers that make a bank send a
 * delivery again are 503 with Retry-After: the spec does not show the bank's retry policy (spec §Events
 * rule 4), so the node only ever asks, and never answers "received" for an event that did not run.
 * When `output()` fails (a NodeApiError from the transport: n8n answers 500 and the bank retries), it
 * is thrown on, after the key and the place were given back.
 */
export async function admit(
	call: IWebhookFunctions,
	facts: DeliveryFacts,
	delivery: VerifiedDelivery,
	output: () => Promise<IDataObject>,
): Promise<Answer | IDataObject> {
	const key = deliveryKey({ ...facts, event: bankWordOf(facts.event) }, delivery.rawBody);
	const staticData = call.getWorkflowStaticData('node');
	const books = booksOfNodes.of(call);
	const refusal = claim(call, key, books, staticData, delivery);
	if (refusal) return refusal;
	return await new Admission(call, key, books, staticData).run(output);
}

/** A delivery whose key is claimed: it owns the key and, once it has one, a place (`release`). */
class Admission {
	private place?: Place;

	/** Set once its execution is handed to n8n. */
	private handedOver?: HandedOver;

	/** n8n's response to the delivery has ended (answered, failed, or the bank hung up). */
	private closed: boolean;

	/** `run` has returned or thrown. */
	private ended = false;

	private keyReleased = false;

	constructor(
		private readonly call: IWebhookFunctions,
		private readonly key: string,
		private readonly books: DeliveryBooks,
		private readonly staticData: IDataObject,
	) {
		// n8n ends the response once the execution ended (or failed), or when the bank hung up (maybe
		// already, while the delivery was verified); only an answer n8n finished sending says it ended
		this.closed = whenAnswerEnds(call, (answered) => {
			this.closed = true;
			this.release();
			if (answered) this.answered();
		});
	}

	/** The admission's one exit: whatever it returns or throws, `release` has seen it end. */
	async run(output: () => Promise<IDataObject>): Promise<Answer | IDataObject> {
		try {
			if (!(await this.takePlace()))
				return deferDelivery.call(
					this.call,
					BUSY_RETRY_AFTER_SECONDS,
					'too many executions running; send again later',
				);
			const item = await output();
			this.handOver();
			return item;
		} finally {
			this.ended = true;
			this.release();
		}
	}

	/**
	 * The one place the delivery lets go of what it holds, called whenever that may have changed. The
	 * place goes back once n8n's answer has ended (also when the bank hung up: the delivery still runs,
	 * as not running it could lose the event, but nothing will tell when its execution ends), or when
	 * the admission ended without handing the execution over. The key goes back then, once (a second
	 * release could take back the key of a retry claimed since), so the bank's retry is processed.
	 */
	private release(): void {
		const failed = this.ended && !this.handedOver;
		if (this.place && (this.closed || failed)) {
			this.books.running.free(this.place);
			this.place = undefined;
		}
		if (failed && !this.keyReleased) {
			this.keyReleased = true;
			this.books.ledger.release(this.key);
		}
	}

	/**
	 * A place among the running deliveries, waiting up to PLACE_WAIT_SECONDS for one; false when none
	 * came. The key stays claimed while the delivery waits, so a copy arriving meanwhile is asked to
	 * come back.
	 */
	private async takePlace(): Promise<boolean> {
		const place = await this.books.running.take(
			this.key,
			this.staticData,
			maxRunning.call(this.call),
			PLACE_WAIT_SECONDS * 1000,
		);
		this.place = place;
		this.release();
		return place !== undefined;
	}

	/**
	 * Nothing of the node's can fail after this point: n8n starts the execution with the item returned
	 * and answers the bank when it has ended, saving the static data first if it is marked changed
	 * (n8nInternals.ts 1. and 2.). Only now is the key handed over, so recognised as a duplicate in this
	 * instance, and written into the static data of every call still waiting for its answer, so
	 * whichever n8n saves last holds it: as ended into this call's own (n8n saves that only once this
	 * execution has ended), as running into the others' until n8n has answered this one (`answered`).
	 *
	 * n8n 2.41.1 starts the run in the same tick as `webhook()` returns, and that clears the "changed"
	 * mark of the static data written here (n8nInternals.ts 4.), so the keys are written again once the
	 * run has started.
	 */
	private handOver(): void {
		const { key, staticData } = this;
		const { ledger, running } = this.books;
		this.handedOver = ledger.handOver(key, Math.floor(Date.now() / 1000));
		for (const data of new Set([staticData, ...running.staticDataOfRunning()])) {
			persistRecentKeys(data, ledger, data === staticData ? key : undefined);
		}
		afterRunStarts(() => persistRecentKeys(staticData, ledger, key));
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

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiFailureOf, apiRequest } from '../transport';
import {
	batchKey,
	type IdempotencyKey,
	itemKey,
	type KeyScope,
	keyScopeOf,
	resubmissionKey,
	uuidV4FromParts,
} from './idempotencyKey';
import { describeError, notProcessedOutcomes, type PaymentOutcome, unknownOutcomes } from './outcomes';
import { type Payment, paymentRequest } from './payment';
import { findCandidates, type LookupResult, lookUpPayments } from './paymentLookUp';
import { PaymentMemory } from './paymentMemory';
import { readAnswer } from './readAnswer';
import { MAX_RESUBMISSIONS, type ResubmissionNote, selectResubmissions } from './resubmission';

/**
 * The payments one run of the node sends: the keys' scope (keyScopeOf), what the node remembers of
 * the keys it sent and the transactions it reported (PaymentMemory, kept in the node's execution
 * context), and sending, looking up and resubmitting. Every outcome carries its payment and the key it
 * was sent with, with that key's source.
 */
export class PaymentRun {
	readonly scope: KeyScope;

	private remembered?: PaymentMemory;

	constructor(readonly context: IExecuteFunctions) {
		this.scope = keyScopeOf(context);
	}

	// read when the first payment is sent, so a run that sends nothing leaves the node's memory as it was
	private get memory(): PaymentMemory {
		this.remembered ??= PaymentMemory.of(this.context);
		return this.remembered;
	}

	/** The key of a payment sent in a request of its own (Submit, or Submit Batch with a custom key). */
	keyOf(payment: Payment): IdempotencyKey {
		return itemKey(this.scope, payment.itemIndex, payment.customKey);
	}

	/** The key of the `batchIndex`th batch request of Submit Batch, holding these items. */
	batchKeyOf(batchIndex: number, itemIndexes: readonly number[]): IdempotencyKey {
		return batchKey(this.scope, batchIndex, itemIndexes);
	}

	/**
	 * One POST /payments with one x-idempotent-key (spec §Payments rule 2), the payments as one object
	 * or, `asBatch`, an array. The transport resends it with the same key and body on network errors,
	 * 5xx and 429 (spec §Errors rule 2); after that the payments are looked up, never resubmitted.
	 * Returns one outcome per payment. When n8n retried an execution whose keys were lost, payments that
	 * may already have been made are held back first (holdBackPossiblyMade).
	 */
	async send(payments: Payment[], key: IdempotencyKey, asBatch: boolean): Promise<PaymentOutcome[]> {
		if (!this.scope.keysLost) return await this.sendRequest(payments, key, asBatch);
		const { held, send, sendKey } = await this.holdBackPossiblyMade(payments, key);
		return send.length === 0 ? held : [...held, ...(await this.sendRequest(send, sendKey, asBatch))];
	}

	/**
	 * "Resubmit Rejected Items": the rejected payments of one request that may succeed on a second
	 * attempt (resubmission.ts) are sent once more, together, as a new request with a new key (spec
	 * §Errors rule 4). The key is derived from the first request's key and the items resent, so a re-run
	 * of the node, which gets the first answer replayed, resends the same items with the same key.
	 */
	async resubmitRejected(
		outcomes: PaymentOutcome[],
		resubmitWhen: RegExp,
	): Promise<{ outcomes: PaymentOutcome[]; notes: Map<number, ResubmissionNote> }> {
		const { resend, notes } = selectResubmissions(outcomes, resubmitWhen);
		if (resend.length === 0) return { outcomes, notes };
		const first = resend[0].key;
		const key: IdempotencyKey = {
			...first,
			key: resubmissionKey(first.key, MAX_RESUBMISSIONS, resend.map(({ payment }) => payment.itemIndex)),
			source: 'resubmission',
		};
		const second = await this.sendRequest(resend.map(({ payment }) => payment), key, true);
		for (const { payment, reason } of resend) {
			notes.set(payment.itemIndex, { resubmitted: true, firstRejection: reason, firstIdempotencyKey: first.key });
		}
		return {
			outcomes: outcomes.map((outcome) => second.find((retried) => retried.payment === outcome.payment) ?? outcome),
			notes,
		};
	}

	/** Notes that the bank answered `key` with `xtid`, which is then reported; true when it had answered so before. */
	noteAnswer(key: string, xtid: string): boolean {
		this.memory.claimedXtids.add(xtid);
		return this.memory.answered(key, xtid);
	}

	/**
	 * The payments of the request sent with `key`, looked up among their accounts' records made since
	 * the key was first sent and not reported for another payment (paymentLookUp.ts); `onlyXtids`: the
	 * answer named these xtids without saying whose.
	 */
	async lookUp(payments: Payment[], key: string, onlyXtids?: ReadonlySet<string>): Promise<Map<number, LookupResult>> {
		const firstAttemptAt = this.memory.firstAttemptAt(key, Date.now());
		return await lookUpPayments.call(this.context, payments, firstAttemptAt, this.memory.claimedXtids, onlyXtids);
	}

	/**
	 * spec §Errors rule 3: when the outcome of a request is unknown, look the payments up and report
	 * what was found; never send them again.
	 */
	async resolveUnknown(payments: Payment[], key: IdempotencyKey, failure: string): Promise<PaymentOutcome[]> {
		try {
			const results = await this.lookUp(payments, key.key);
			return payments.map((payment): PaymentOutcome => {
				const result = results.get(payment.itemIndex);
				if (result?.found) return { kind: 'found', payment, key, found: result.payment, failure };
				return unknownOutcomes(this.context, [payment], key, failure, () => ({ candidates: result?.candidates ?? [] }))[0];
			});
		} catch (error) {
			const lookupFailed = describeError(error);
			return unknownOutcomes(this.context, payments, key, failure, () => ({ lookupFailed }));
		}
	}

	private async sendRequest(payments: Payment[], key: IdempotencyKey, asBatch: boolean): Promise<PaymentOutcome[]> {
		this.memory.firstAttemptAt(key.key, Date.now());
		let response: IDataObject;
		try {
			response = await apiRequest.call(
				this.context,
				paymentRequest(key.key, asBatch ? payments.map((payment) => payment.body) : payments[0].body, payments[0].itemIndex),
			);
		} catch (error) {
			if (apiFailureOf(error)?.outcomeUnknown) return await this.resolveUnknown(payments, key, describeError(error));
			return notProcessedOutcomes(this.context, payments, key, error);
		}
		return await readAnswer(this, response, { key, payments });
	}

	/**
	 * n8n retried a failed execution whose keys were not kept with it: a payment that matches one already
	 * made may be it, so it is held back (state unknown) instead of sent with a new key. The others go,
	 * with a key for just them.
	 */
	private async holdBackPossiblyMade(
		payments: Payment[],
		key: IdempotencyKey,
	): Promise<{ held: PaymentOutcome[]; send: Payment[]; sendKey: IdempotencyKey }> {
		const failure = 'n8n retried this execution, and the idempotency keys of the failed execution were not kept with it.';
		let candidates: Map<number, string[]>;
		try {
			candidates = await findCandidates.call(this.context, payments, this.memory.claimedXtids);
		} catch (error) {
			const lookupFailed = describeError(error);
			return { held: unknownOutcomes(this.context, payments, key, failure, () => ({ lookupFailed })), send: [], sendKey: key };
		}
		const candidatesOf = (payment: Payment) => candidates.get(payment.itemIndex) ?? [];
		const possiblyMade = payments.filter((payment) => candidatesOf(payment).length > 0);
		const send = payments.filter((payment) => !possiblyMade.includes(payment));
		const held = unknownOutcomes(this.context, possiblyMade, key, failure, (payment) => ({ candidates: candidatesOf(payment) }));
		const sendKey =
			possiblyMade.length === 0
				? key
				: { ...key, key: uuidV4FromParts(['held-back', key.key, send.map((payment) => String(payment.itemIndex)).join(',')]) };
		return { held, send, sendKey };
	}
}

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiFailureOf, ENDPOINTS, request } from '../../shared/transport';
import { type IdempotencyKey, type KeyScope, keyScopeOf, resubmissionKey } from './idempotencyKey';
import {
	describeError,
	keyConflictOutcomes,
	notProcessedOutcomes,
	type PaymentOutcome,
	uncheckedOutcomes,
	unknownOutcomes,
} from './outcomes';
import type { Payment } from './payment';
import { bodyDigest } from './paymentIdentity';
import {
	findCandidates,
	type FoundPayment,
	type LookupResult,
	lookUpPayments,
	paymentsAlreadyAtBank,
} from './paymentLookUp';
import { PaymentMemory } from './paymentMemory';
import {
	afterKeysLost,
	type BeforeSending,
	type PaymentStep,
	PaymentPlanner,
	type PlannedRequest,
	requestBodyOf,
} from './paymentPlan';
import { failedRequestStatus } from '../../shared/evidence';
import { readAnswer } from './readAnswer';
import { MAX_RESUBMISSIONS, type ResubmissionNote, selectResubmissions } from './resubmission';
import type { SpendingLimits } from './spendingLimits';

/**
 * The executor of the payments one run of the node sends: PaymentPlanner (paymentPlan.ts) decides
 * what to send under which key and what to look up, from what the node remembers of this execution
 * (PaymentMemory, kept in the node's execution context) and what the bank showed; this class performs
 * each step: sending, looking up and resubmitting. Every outcome carries its payment and the key it was
 * sent with, with that key's source. Submit and Submit Batch share it.
 */
export class PaymentRun {
	readonly scope: KeyScope;

	readonly planner: PaymentPlanner;

	private remembered?: PaymentMemory;

	/** xtids the account lists showed before this run sent anything: an answer naming one is a repeat. */
	private readonly heldBeforeSending = new Set<string>();
	/** Per item checked at the bank: what the check read (paymentLookUp.ts coverageNote). */
	readonly checkedAtBank = new Map<number, string>();

	/**
	 * `skipAlreadyMade` (Skip Payments Already Made): payments the bank already holds are not sent, and
	 * keys come from the payments' details instead of this execution.
	 */
	constructor(
		readonly context: IExecuteFunctions,
		readonly skipAlreadyMade: boolean,
		/** Look Back: how many days back Skip Payments Already Made reads; 0 reads every record. */
		private readonly lookBackDays = 0,
	) {
		this.scope = keyScopeOf.call(context);
		this.planner = new PaymentPlanner(this.scope, skipAlreadyMade, () => this.memory);
	}

	/**
	 * Skip Payments Already Made: the payments not sent before in this execution whose details (account,
	 * payee, amount, currency, reference) match a payment the bank shows (spec §Errors rule 3: approvals
	 * and transactions, matching on reference): made, on its way or waiting for approval, or refused
	 * earlier, which is not sent again automatically either (spec §Errors rule 5). Every xtid the lists
	 * show is kept: the bank answering one of them later is a payment made before.
	 */
	private async checkAtBank(payments: Payment[]): Promise<BeforeSending> {
		const atBank = new Map<Payment, FoundPayment[]>();
		if (payments.length === 0) return { atBank, unchecked: [] };
		let read: Awaited<ReturnType<typeof paymentsAlreadyAtBank>>;
		try {
			read = await paymentsAlreadyAtBank.call(this.context, payments, this.lookBackDays);
		} catch (error) {
			const keyOf = (payment: Payment) => this.keyOf(payment);
			return {
				atBank,
				unchecked: uncheckedOutcomes.call(this.context, payments, keyOf, error),
			};
		}
		read.listed.forEach((xtid) => this.heldBeforeSending.add(xtid));
		read.lookedAt.forEach((note, itemIndex) => this.checkedAtBank.set(itemIndex, note));
		for (const payment of payments) {
			const earlier = read.matches.get(payment.itemIndex) ?? [];
			if (earlier.length > 0) atBank.set(payment, earlier);
		}
		return { atBank, unchecked: [] };
	}

	/**
	 * The steps of this run for these valid payments, in input order (PaymentPlanner): keys checked
	 * against their bodies, the bank's records read when Skip Payments Already Made is on, then the plan.
	 */
	async steps(
		payments: Payment[],
		limits: SpendingLimits,
		planNew: (fresh: Payment[]) => PlannedRequest[],
	): Promise<PaymentStep[]> {
		const { usable, conflicts } = this.planner.screen(payments);
		const beforeSending = await this.checkAtBank(this.planner.toCheckAtBank(usable));
		return this.planner.steps(
			usable,
			conflicts,
			beforeSending,
			limits,
			this.context.getContext('node'),
			planNew,
		);
	}

	/** The outcomes of one step; undefined for a payment not sent (over a limit, or already made). */
	async perform(step: PaymentStep): Promise<PaymentOutcome[] | undefined> {
		switch (step.kind) {
			case 'send':
				return await this.send(step.request.members, step.request.key, step.request.asBatch);
			case 'known':
				return step.outcomes;
			case 'keyConflict':
				return keyConflictOutcomes.call(
					this.context,
					[step.payment],
					step.key,
					step.conflict,
					step.earlierMayHaveBeenMade,
				);
			case 'holdBack':
				return await this.holdBack(step.payments, step.why);
			case 'overLimit':
			case 'alreadyMade':
				return undefined;
		}
	}

	/**
	 * Payments sent before in this execution that are not sent again now (plan's `held`, or over a limit
	 * now): they may have been made, so they are looked up (spec §Errors rule 3) and reported as found or
	 * unknown.
	 */
	async holdBack(payments: Payment[], why: string): Promise<PaymentOutcome[]> {
		const outcomes: PaymentOutcome[] = [];
		const byKey = new Map<string, Payment[]>();
		for (const payment of payments) {
			const key = this.planner.firstKeyOf(payment) as string;
			byKey.set(key, [...(byKey.get(key) ?? []), payment]);
		}
		for (const [key, members] of byKey) {
			outcomes.push(
				...(await this.resolveUnknown(members, { key, source: this.planner.ownKeySource }, why)),
			);
		}
		return outcomes;
	}

	// read when the first payment is sent, so a run that sends nothing leaves the node's memory as it was
	private get memory(): PaymentMemory {
		this.remembered ??= PaymentMemory.of(this.context);
		return this.remembered;
	}

	/** The key of a payment sent in a request of its own (Submit, or Submit Batch with a custom key). */
	keyOf(payment: Payment): IdempotencyKey {
		return this.planner.keyOf(payment);
	}

	/** The key of the `batchIndex`th batch request of Submit Batch, holding these payments. */
	batchKeyOf(batchIndex: number, members: readonly Payment[]): IdempotencyKey {
		return this.planner.batchKeyOf(batchIndex, members);
	}

	/**
	 * One POST /payments with one x-idempotent-key (spec §Payments rule 2), the payments as one object
	 * or, `asBatch`, an array. The transport resends it with the same key and body on network errors,
	 * 5xx and 429 (spec §Errors rule 2); after that the payments are looked up, never resubmitted.
	 * Returns one outcome per payment. When n8n retried an execution whose keys were lost, payments that
	 * may already have been made are held back first (holdBackPossiblyMade).
	 */
	async send(
		payments: Payment[],
		key: IdempotencyKey,
		asBatch: boolean,
	): Promise<PaymentOutcome[]> {
		if (!this.scope.keysLost) return await this.sendRequest(payments, key, asBatch);
		const { held, send, sendKey } = await this.holdBackPossiblyMade(payments, key);
		return send.length === 0
			? held
			: [...held, ...(await this.sendRequest(send, sendKey, asBatch))];
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
		const positions = resend.map(({ payment }) =>
			outcomes.findIndex((outcome) => outcome.payment === payment),
		);
		const key: IdempotencyKey = {
			...first,
			key: resubmissionKey(first.key, MAX_RESUBMISSIONS, positions),
			source: 'resubmission',
		};
		const second = await this.sendRequest(
			resend.map(({ payment }) => payment),
			key,
			true,
		);
		for (const { payment, reason } of resend) {
			notes.set(payment.itemIndex, {
				resubmitted: true,
				firstRejection: reason,
				firstIdempotencyKey: first.key,
			});
		}
		return {
			outcomes: outcomes.map(
				(outcome) => second.find((retried) => retried.payment === outcome.payment) ?? outcome,
			),
			notes,
		};
	}

	/**
	 * Notes that the bank answered `key` with `xtid`, which is then reported; true when the payment was
	 * made before: the bank had answered this key with it, or the account's lists showed it before this
	 * run sent anything.
	 */
	noteAnswer(key: string, xtid: string): boolean {
		this.memory.claimedXtids.add(xtid);
		const answeredBefore = this.memory.answered(key, xtid);
		return answeredBefore || this.heldBeforeSending.has(xtid);
	}

	/**
	 * The payments of the request sent with `key`, looked up among their accounts' records not reported
	 * for another payment (paymentLookUp.ts); `namedForThisKey`: xtids the bank answered this key with,
	 * the only records that may be claimed.
	 */
	async lookUp(
		payments: Payment[],
		namedForThisKey?: ReadonlySet<string>,
	): Promise<Map<number, LookupResult>> {
		return await lookUpPayments.call(
			this.context,
			payments,
			this.memory.claimedXtids,
			namedForThisKey,
		);
	}

	/**
	 * spec §Errors rule 3: when the outcome of a request is unknown, look the payments up and report
	 * what was found (only what the bank answered this key with may be claimed); never send them again.
	 */
	async resolveUnknown(
		payments: Payment[],
		key: IdempotencyKey,
		failure: string,
	): Promise<PaymentOutcome[]> {
		try {
			const named = new Set(this.memory.request(key.key)?.xtids ?? []);
			const results = await this.lookUp(payments, named);
			return payments.map((payment): PaymentOutcome => {
				const result = results.get(payment.itemIndex);
				if (result?.found) return { kind: 'found', payment, key, found: result.payment, failure };
				return unknownOutcomes.call(this.context, [payment], key, failure, () => ({
					candidates: result?.candidates ?? [],
				}))[0];
			});
		} catch (error) {
			const lookupFailed = describeError(error);
			return unknownOutcomes.call(this.context, payments, key, failure, () => ({ lookupFailed }));
		}
	}

	private async sendRequest(
		payments: Payment[],
		key: IdempotencyKey,
		asBatch: boolean,
	): Promise<PaymentOutcome[]> {
		const body = requestBodyOf(payments, asBatch);
		const identities = this.planner.identified
			? payments.map((payment) => this.planner.identityOf(payment))
			: [];
		const { request: sent, first } = this.memory.recordAttempt(key.key, {
			body: bodyDigest(body),
			members: identities,
			asBatch,
		});
		// an earlier run's attempt with this key may have been processed: a refusal now does not undo it
		const earlierMayHaveBeenMade = !first && sent.possiblyMade;
		let response: IDataObject;
		try {
			response = await request.call(this.context, ENDPOINTS.payments.at({}), {
				body,
				idempotencyKey: key.key,
				itemIndex: payments[0].itemIndex,
			});
		} catch (error) {
			const failure = apiFailureOf(error);
			const keyInUse = failure?.kind === 'conflict';
			const status = failedRequestStatus({
				refused: failure?.refused === true,
				keyInUse,
				outcomeUnknown: failure?.outcomeUnknown === true,
				earlierAttemptMayHaveBeenMade: earlierMayHaveBeenMade,
			});
			if (status === 'unknown') {
				const why = keyInUse
					? `${describeError(error)} The bank says this idempotency key is in use by another request (another execution, or an earlier attempt still being processed), which may pay it.`
					: earlierMayHaveBeenMade
						? `${describeError(error)} An earlier attempt with this idempotency key, in an earlier run of this node, may have been processed.`
						: describeError(error);
				return await this.resolveUnknown(payments, key, why);
			}
			// only a refusal the bank answered proves nothing was made; any other failure keeps the key as it is
			if (status === 'rejected') this.memory.markMadeNothing(key.key);
			return notProcessedOutcomes.call(this.context, payments, key, error);
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
		const failure =
			'n8n retried this execution, and the idempotency keys of the failed execution were not kept with it.';
		let candidates: Map<number, string[]>;
		try {
			candidates = await findCandidates.call(this.context, payments, this.memory.claimedXtids);
		} catch (error) {
			const lookupFailed = describeError(error);
			return {
				held: unknownOutcomes.call(this.context, payments, key, failure, () => ({ lookupFailed })),
				send: [],
				sendKey: key,
			};
		}
		const { possiblyMade, send, sendKey } = afterKeysLost(payments, key, candidates);
		const held = unknownOutcomes.call(this.context, possiblyMade, key, failure, (payment) => ({
			candidates: candidates.get(payment.itemIndex) ?? [],
		}));
		return { held, send, sendKey };
	}
}

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
	lookUpPayments,
	paymentsAlreadyAtBank,
} from './paymentLookUp';
import { PaymentMemory } from './paymentMemory';
import {
	afterKeysLost,
	type BeforeSending,
	type Grouping,
	keyOf,
	type Keying,
	type PaymentStep,
	paymentsToCheckAtBank,
	planPayments,
	type PlannedRequest,
	plannedRequests,
	requestBodyOf,
} from './paymentPlan';
import { failedRequestStatus } from '../../shared/evidence';
import { type AnswerDependencies, readAnswer } from './readAnswer';
import { MAX_RESUBMISSIONS, type ResubmissionNote, selectResubmissions } from './resubmission';
import type { SpendingLimits } from './spendingLimits';

/** How one run of Submit or Submit Batch goes, as its form says. */
export interface RunOptions {
	/** Skip Payments Already Made: what the bank holds is not sent; keys come from the details. */
	skipAlreadyMade: boolean;
	/** Look Back: how many days back Skip Payments Already Made reads; 0 reads every record. */
	lookBackDays: number;
	limits: SpendingLimits;
	grouping: Grouping;
	/** Resubmit Rejected Items: the rejection reasons sent once more. */
	resubmitWhen?: RegExp;
}

/** One step of a run and its outcomes; none for a payment not sent (over a limit, or already made). */
export interface PerformedStep {
	step: PaymentStep;
	outcomes?: PaymentOutcome[];
	/** Resubmit Rejected Items: what happened to each rejected item of the step. */
	resubmission?: ReadonlyMap<number, ResubmissionNote>;
}

export interface PerformedRun {
	/** The steps performed, in input order. */
	steps: PerformedStep[];
	/** Per item checked at the bank: what the check read (paymentLookUp.ts coverageNote). */
	checkedAtBank: ReadonlyMap<number, string>;
}

/**
 * The executor of the payments one run of the node sends, for Submit and Submit Batch alike: it reads
 * what the node remembers of this execution (PaymentMemory, kept in the node's execution context) and,
 * with Skip Payments Already Made, what the bank shows; planPayments (paymentPlan.ts) decides from that
 * what to send under which key and what to look up; the executor performs each step: sending, looking
 * up and resubmitting. Every outcome carries its payment and the key it was sent with, with that key's
 * source.
 */
export class PaymentRun {
	private readonly scope: KeyScope;

	constructor(private readonly context: IExecuteFunctions) {
		this.scope = keyScopeOf.call(context);
	}

	/** Validate Only: the requests these payments would go in, under their keys; nothing read or sent. */
	requestsOf(
		payments: Payment[],
		{ skipAlreadyMade, grouping }: Pick<RunOptions, 'skipAlreadyMade' | 'grouping'>,
	): PlannedRequest[] {
		return plannedRequests(payments, { scope: this.scope, skipAlreadyMade }, grouping);
	}

	/**
	 * Sends these valid payments: the node's memory read (only when there are payments, so a run that
	 * sends nothing leaves it as it was), the bank checked (Skip Payments Already Made), the plan made and
	 * its spending kept before anything is sent, then each step in input order. Without Continue On
	 * Fail the run stops after the first step that failed: later payments stay unsent, as n8n does item
	 * by item.
	 */
	async execute(payments: Payment[], options: RunOptions): Promise<PerformedRun> {
		if (payments.length === 0) return { steps: [], checkedAtBank: new Map() };
		const keying: Keying = { scope: this.scope, skipAlreadyMade: options.skipAlreadyMade };
		const memory = PaymentMemory.of(this.context);
		const toCheck = paymentsToCheckAtBank(payments, keying, memory);
		const checked = await this.checkAtBank(toCheck, keying, options.lookBackDays);
		const planned = { ...options, payments, keying, memory, spent: memory.spent };
		const plan = planPayments({ ...planned, atBank: checked });
		memory.spent = plan.spentAfter;
		const { keysLost } = this.scope;
		const sending = new Sending(this.context, memory, plan.identities, checked.listed, keysLost);
		const steps: PerformedStep[] = [];
		for (const step of plan.steps) {
			const performed = await sending.perform(step, options.resubmitWhen);
			steps.push(performed);
			const failed = performed.outcomes?.some((outcome) => outcome.kind === 'failed') === true;
			if (failed && !this.context.continueOnFail()) break;
		}
		return { steps, checkedAtBank: checked.lookedAt };
	}

	/**
	 * Skip Payments Already Made: the payments not sent before in this execution whose details (account,
	 * payee, amount, currency, reference) match a payment the bank shows (spec §Errors rule 3: approvals
	 * and transactions, matching on reference): made, on its way or waiting for approval, or refused
	 * earlier, which is not sent again automatically either (spec §Errors rule 5). Every xtid the lists
	 * show is kept (`listed`): the bank answering one of them later is a payment made before.
	 */
	private async checkAtBank(
		payments: Payment[],
		keying: Keying,
		lookBackDays: number,
	): Promise<BeforeSending & { listed: Set<string>; lookedAt: Map<number, string> }> {
		const atBank = new Map<Payment, FoundPayment[]>();
		const nothing = { atBank, unchecked: [], listed: new Set<string>(), lookedAt: new Map() };
		if (payments.length === 0) return nothing;
		let read: Awaited<ReturnType<typeof paymentsAlreadyAtBank>>;
		try {
			read = await paymentsAlreadyAtBank.call(this.context, payments, lookBackDays);
		} catch (error) {
			const keyed = (payment: Payment) => keyOf(keying, payment);
			const unchecked = uncheckedOutcomes.call(this.context, payments, keyed, error);
			return { ...nothing, unchecked };
		}
		for (const payment of payments) {
			const earlier = read.matches.get(payment.itemIndex) ?? [];
			if (earlier.length > 0) atBank.set(payment, earlier);
		}
		return { atBank, unchecked: [], listed: read.listed, lookedAt: read.lookedAt };
	}
}

/** The steps of one run being performed: its memory, its payments' identities, what the bank listed. */
class Sending {
	constructor(
		private readonly context: IExecuteFunctions,
		private readonly memory: PaymentMemory,
		private readonly identities: ReadonlyMap<Payment, string>,
		/** xtids the account lists showed before this run sent anything: an answer naming one is a repeat. */
		private readonly heldBeforeSending: ReadonlySet<string>,
		private readonly keysLost: boolean,
	) {}

	/** One step: its outcomes, and for a request with Resubmit Rejected Items on, its resubmission. */
	async perform(step: PaymentStep, resubmitWhen: RegExp | undefined): Promise<PerformedStep> {
		switch (step.kind) {
			case 'send': {
				const { members, key, asBatch } = step.request;
				const outcomes = await this.send(members, key, asBatch);
				if (resubmitWhen === undefined) return { step, outcomes };
				return { step, ...(await this.resubmitRejected(outcomes, resubmitWhen)) };
			}
			case 'known':
				return { step, outcomes: step.outcomes };
			case 'keyConflict': {
				const { payment, key, conflict, earlierMayHaveBeenMade: earlier } = step;
				const outcomes = keyConflictOutcomes.call(this.context, [payment], key, conflict, earlier);
				return { step, outcomes };
			}
			case 'holdBack':
				return { step, outcomes: await this.resolveUnknown([step.payment], step.key, step.why) };
			case 'overLimit':
			case 'alreadyMade':
				return { step };
		}
	}

	/**
	 * One POST /payments with one x-idempotent-key (spec §Payments rule 2), the payments as one object
	 * or, `asBatch`, an array. The transport resends it with the same key and body on network errors,
	 * 5xx and 429 (spec §Errors rule 2); after that the payments are looked up, never resubmitted.
	 * Returns one outcome per payment. When n8n retried an execution whose keys were lost, payments that
	 * may already have been made are held back first (holdBackPossiblyMade).
	 */
	private async send(
		payments: Payment[],
		key: IdempotencyKey,
		asBatch: boolean,
	): Promise<PaymentOutcome[]> {
		if (!this.keysLost) return await this.sendRequest(payments, key, asBatch);
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
	private async resubmitRejected(
		outcomes: PaymentOutcome[],
		resubmitWhen: RegExp,
	): Promise<{ outcomes: PaymentOutcome[]; resubmission: Map<number, ResubmissionNote> }> {
		const { resend, notes } = selectResubmissions(outcomes, resubmitWhen);
		if (resend.length === 0) return { outcomes, resubmission: notes };
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
			resubmission: notes,
		};
	}

	/**
	 * What reading an answer needs of this run: noting that the bank answered `key` with `xtid`, which
	 * is then reported (a repeat when the bank had answered this key with it, or the account's lists
	 * showed it before this run sent anything), and looking payments up among their accounts' records
	 * not reported for another payment (paymentLookUp.ts), claiming only `namedForThisKey`.
	 */
	private get answers(): AnswerDependencies {
		return {
			context: this.context,
			noteAnswer: (key, xtid) => {
				this.memory.claimedXtids.add(xtid);
				const answeredBefore = this.memory.answered(key, xtid);
				return answeredBefore || this.heldBeforeSending.has(xtid);
			},
			lookUp: async (payments, namedForThisKey) =>
				await lookUpPayments.call(
					this.context,
					payments,
					this.memory.claimedXtids,
					namedForThisKey,
				),
		};
	}

	/**
	 * spec §Errors rule 3: when the outcome of a request is unknown, look the payments up and report
	 * what was found (only what the bank answered this key with may be claimed); never send them again.
	 */
	private async resolveUnknown(
		payments: Payment[],
		key: IdempotencyKey,
		failure: string,
	): Promise<PaymentOutcome[]> {
		try {
			const named = new Set(this.memory.request(key.key)?.xtids ?? []);
			const findings = await this.answers.lookUp(payments, named);
			return payments.map((payment): PaymentOutcome => {
				const finding = findings.get(payment.itemIndex);
				if (finding?.found) return { kind: 'found', payment, key, found: finding.payment, failure };
				return unknownOutcomes.call(this.context, [payment], key, failure, () => ({
					candidates: finding?.candidates ?? [],
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
		const { request: sent, first } = this.memory.recordAttempt(key.key, {
			body: bodyDigest(body),
			members: payments.map((payment) => this.identities.get(payment) as string),
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
		const read = await readAnswer(this.answers, response, { key, payments });
		const resolved = read.open.length
			? await this.resolveUnknown(read.open, key, read.unexplained)
			: [];
		return payments.map(
			(payment, position) =>
				read.outcomes[position] ?? (resolved[read.open.indexOf(payment)] as PaymentOutcome),
		);
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

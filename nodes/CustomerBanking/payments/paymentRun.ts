import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiFailureOf, apiRequest } from '../transport';
import {
	batchKey,
	detailsKey,
	type IdempotencyKey,
	itemKey,
	type KeyScope,
	keyScopeOf,
	resubmissionKey,
	uuidV4FromParts,
} from './idempotencyKey';
import {
	describeError,
	keyConflictOutcomes,
	notProcessedOutcomes,
	type PaymentOutcome,
	uncheckedOutcomes,
	unknownOutcomes,
} from './outcomes';
import { type Payment, paymentRequest } from './payment';
import { bodyDigest, paymentIdentities } from './paymentIdentity';
import {
	findCandidates,
	type FoundPayment,
	type LookupResult,
	lookUpPayments,
	paymentsAlreadyAtBank,
} from './paymentLookUp';
import { PaymentMemory, type SentRequest } from './paymentMemory';
import { failedRequestStatus } from './evidence';
import { readAnswer } from './readAnswer';
import { MAX_RESUBMISSIONS, type ResubmissionNote, selectResubmissions } from './resubmission';
import { type SpendingLimits, withinLimits } from './spendingLimits';

/** One request to send: its payments in the order they go, and its key. */
export interface PlannedRequest {
	members: Payment[];
	key: IdempotencyKey;
	/** An array body (Submit Batch's requests), or one payment object. */
	asBatch: boolean;
}

/**
 * What a run does, in input order: send a request, report outcomes already known (a key used with
 * another body), refuse a payment over a spending limit, or look up payments sent before that are not
 * sent again now.
 */
export type PaymentStep =
	| { kind: 'send'; request: PlannedRequest }
	| { kind: 'known'; outcomes: PaymentOutcome[] }
	| { kind: 'overLimit'; payment: Payment; reason: string }
	| { kind: 'holdBack'; payments: Payment[]; why: string }
	/** Skip Payments Already Made: the bank shows a payment with these details already; not sent. */
	| { kind: 'alreadyMade'; payment: Payment; earlier: FoundPayment[] };

const HELD_WITH_OTHERS =
	'It was sent earlier in this execution in one request with other payments that are not all in this run of the node, so that request cannot be repeated as it was, and the payment is not sent under another key.';
const HELD_OVER_LIMIT =
	'It is over a spending limit now, and was sent earlier in this execution, so it is not sent again.';

const firstItemOf = (step: PaymentStep): number => {
	const payments =
		step.kind === 'send'
			? step.request.members
			: step.kind === 'known'
				? step.outcomes.map((o) => o.payment)
				: step.kind === 'overLimit' || step.kind === 'alreadyMade'
					? [step.payment]
					: step.payments;
	return Math.min(...payments.map((payment) => payment.itemIndex));
};

const requestBodyOf = (members: Payment[], asBatch: boolean) =>
	asBatch ? members.map((payment) => payment.body) : members[0].body;

/**
 * The payments one run of the node sends: the keys' scope (keyScopeOf), what the node remembers of
 * the keys it sent and the transactions it reported (PaymentMemory, kept in the node's execution
 * context), and sending, looking up and resubmitting. Every outcome carries its payment and the key it
 * was sent with, with that key's source.
 */
export class PaymentRun {
	readonly scope: KeyScope;

	private remembered?: PaymentMemory;

	private identities = new Map<Payment, string>();

	/** xtids the account lists showed before this run sent anything: an answer naming one is a repeat. */
	private readonly heldBeforeSending = new Set<string>();

	/**
	 * `skipAlreadyMade` (Skip Payments Already Made): payments the bank already holds are not sent, and
	 * keys come from the payments' details instead of this execution.
	 */
	constructor(
		readonly context: IExecuteFunctions,
		readonly skipAlreadyMade: boolean,
	) {
		this.scope = keyScopeOf.call(context);
	}

	/** Which payment each one is, across the runs of this node in this execution (paymentIdentity.ts). */
	private identify(payments: readonly Payment[]): void {
		this.identities = paymentIdentities(payments, this.scope.runIndex);
	}

	/** What the spending limits count a payment as: its custom key (the bank pays one key once), else its identity. */
	private limitIdOf(payment: Payment): string {
		return payment.customKey !== undefined ? this.keyOf(payment).key : this.identityOf(payment);
	}

	private identityOf(payment: Payment): string {
		const identity = this.identities.get(payment);
		if (identity === undefined)
			throw new Error(`payment of item ${payment.itemIndex} was not identified`);
		return identity;
	}

	/**
	 * Whether this payment was sent before in this execution in a request that may have been processed:
	 * it then goes again only under that key. A request the bank refused (and no attempt of it lost) made
	 * nothing, so its payments are new ones again.
	 */
	private mayHaveBeenMade(payment: Payment): boolean {
		return this.firstRequestOf(payment)?.request.possiblyMade === true;
	}

	private firstRequestOf(payment: Payment): { key: string; request: SentRequest } | undefined {
		const key = this.memory.keyOfPayment(this.identityOf(payment));
		const request = key === undefined ? undefined : this.memory.request(key);
		return key !== undefined && request !== undefined ? { key, request } : undefined;
	}

	/** What the spending limits count as already paid: payments of this execution that may have been made. */
	private mayHaveBeenMadeById(limitId: string): boolean {
		const key = this.memory.keyOfPayment(limitId) ?? limitId;
		return this.memory.request(key)?.possiblyMade === true;
	}

	/**
	 * spec §Payments rule 1, §Errors rule 7: one key, one body. A payment whose custom key was already used
	 * for another body, in this run or an earlier one of this execution, is refused before anything is
	 * sent; so is a payment sent before under another key than the one it has now.
	 */
	private screen(payments: Payment[]): { usable: Payment[]; conflicts: PaymentOutcome[] } {
		const bodies = new Map<string, string>();
		const usable: Payment[] = [];
		const conflicts: PaymentOutcome[] = [];
		for (const payment of payments) {
			if (payment.customKey === undefined) {
				usable.push(payment);
				continue;
			}
			const key = this.keyOf(payment);
			const body = bodyDigest(payment.body);
			const earlier = this.memory.request(key.key);
			const boundTo =
				bodies.get(key.key) ?? (earlier?.members.length === 1 ? earlier.body : undefined);
			const first = this.firstRequestOf(payment);
			if (boundTo !== undefined && boundTo !== body) {
				conflicts.push(
					...keyConflictOutcomes.call(
						this.context,
						[payment],
						key,
						'otherBody',
						earlier?.possiblyMade === true,
					),
				);
			} else if (first !== undefined && first.key !== key.key && first.request.possiblyMade) {
				conflicts.push(...keyConflictOutcomes.call(this.context, [payment], key, 'otherKey', true));
			} else {
				bodies.set(key.key, body);
				usable.push(payment);
			}
		}
		return { usable, conflicts };
	}

	/**
	 * The requests of this run, in input order. A payment sent before in this execution goes again only
	 * in the request it was first sent in, with that key and that body, and only when every payment of
	 * that request is here again; otherwise it is held back (`held`) and looked up, never sent under a new
	 * key. Whatever else `planNew` groups; a new request whose key was already sent with another body is
	 * refused before anything is sent.
	 */
	private plan(
		payments: Payment[],
		planNew: (fresh: Payment[]) => PlannedRequest[],
	): { requests: PlannedRequest[]; held: Payment[]; conflicts: PaymentOutcome[] } {
		const byIdentity = new Map(payments.map((payment) => [this.identityOf(payment), payment]));
		const planned = new Set<Payment>();
		const { requests, held } = this.planSentBefore(payments, byIdentity, planned);
		const fresh = planNew(payments.filter((payment) => !planned.has(payment)));
		const conflicts = this.planNewRequests(fresh, byIdentity, requests);
		requests.sort(
			(a, b) =>
				Math.min(...a.members.map((m) => m.itemIndex)) -
				Math.min(...b.members.map((m) => m.itemIndex)),
		);
		return { requests, held, conflicts };
	}

	/**
	 * The payments sent before in this execution: each request again, with its key, when all its
	 * payments are here; otherwise the payment is held back. Marks each one `planned`.
	 */
	private planSentBefore(
		payments: Payment[],
		byIdentity: ReadonlyMap<string, Payment>,
		planned: Set<Payment>,
	): { requests: PlannedRequest[]; held: Payment[] } {
		const requests: PlannedRequest[] = [];
		const held: Payment[] = [];
		for (const payment of payments) {
			const first =
				payment.customKey === undefined && this.mayHaveBeenMade(payment)
					? this.firstRequestOf(payment)
					: undefined;
			if (first === undefined || planned.has(payment)) continue;
			const members = first.request.members.map((identity) => byIdentity.get(identity));
			if (
				members.every((member): member is Payment => member !== undefined && !planned.has(member))
			) {
				members.forEach((member) => planned.add(member));
				requests.push({
					members,
					key: { key: first.key, source: this.ownKeySource },
					asBatch: first.request.asBatch,
				});
			} else {
				planned.add(payment);
				held.push(payment);
			}
		}
		return { requests, held };
	}

	/**
	 * The new requests, added to `requests`; one whose key was already sent with another body gets a
	 * key of its own when that key was its by position only, and is refused otherwise.
	 */
	private planNewRequests(
		fresh: PlannedRequest[],
		byIdentity: ReadonlyMap<string, Payment>,
		requests: PlannedRequest[],
	): PaymentOutcome[] {
		const conflicts: PaymentOutcome[] = [];
		for (const request of fresh) {
			const body = bodyDigest(requestBodyOf(request.members, request.asBatch));
			const sent = this.memory.request(request.key.key);
			if (sent?.body === undefined || sent.body === body) {
				requests.push(request);
			} else if (request.key.source === 'derived' && this.freesItsKey(sent, byIdentity)) {
				// another request's key by position only (the items moved, or that request made nothing):
				// these payments were never sent, so they get a key of their own
				requests.push({
					...request,
					key: { key: uuidV4FromParts(['rekeyed', request.key.key, body]), source: 'derived' },
				});
			} else {
				conflicts.push(
					...keyConflictOutcomes.call(
						this.context,
						request.members,
						request.key,
						'otherBody',
						sent.possiblyMade,
					),
				);
			}
		}
		return conflicts;
	}

	/**
	 * Whether the request first sent under a derived key leaves that key to others: it made nothing, or
	 * its payments are all in this run, under their own first key. Otherwise one of them may be the
	 * payment now planned under the key, changed since (another amount, payee or reference).
	 */
	private freesItsKey(sent: SentRequest, present: ReadonlyMap<string, Payment>): boolean {
		return (
			!sent.possiblyMade ||
			(sent.members.length > 0 && sent.members.every((identity) => present.has(identity)))
		);
	}

	/**
	 * Skip Payments Already Made: the payments not sent before in this execution whose details (account,
	 * payee, amount, currency, reference) match a payment the bank shows (spec §Errors rule 3: approvals
	 * and transactions, matching on reference): made, on its way or waiting for approval, or refused
	 * earlier, which is not sent again automatically either (spec §Errors rule 5). Every xtid the lists
	 * show is kept: the bank answering one of them later is a payment made before.
	 */
	private async alreadyAtBank(
		payments: Payment[],
	): Promise<{ found: Map<Payment, FoundPayment[]>; unchecked: PaymentOutcome[] }> {
		const fresh = payments.filter((payment) => !this.mayHaveBeenMade(payment));
		const found = new Map<Payment, FoundPayment[]>();
		if (!this.skipAlreadyMade || fresh.length === 0) return { found, unchecked: [] };
		let read: Awaited<ReturnType<typeof paymentsAlreadyAtBank>>;
		try {
			read = await paymentsAlreadyAtBank.call(this.context, fresh);
		} catch (error) {
			const keyOf = (payment: Payment) => this.keyOf(payment);
			return { found, unchecked: uncheckedOutcomes.call(this.context, fresh, keyOf, error) };
		}
		read.listed.forEach((xtid) => this.heldBeforeSending.add(xtid));
		for (const payment of fresh) {
			const earlier = read.matches.get(payment.itemIndex) ?? [];
			if (earlier.length > 0) found.set(payment, earlier);
		}
		return { found, unchecked: [] };
	}

	/**
	 * The steps of this run for these valid payments, in input order: keys checked against their bodies
	 * (screen), payments the bank already holds left out (alreadyAtBank), the spending limits applied (a
	 * payment sent before that is over a limit now is looked up, not reported "not sent"), then the
	 * requests planned (plan).
	 */
	async steps(
		payments: Payment[],
		limits: SpendingLimits,
		planNew: (fresh: Payment[]) => PlannedRequest[],
	): Promise<PaymentStep[]> {
		this.identify(payments);
		const { usable, conflicts } = this.screen(payments);
		const { found: atBank, unchecked } = await this.alreadyAtBank(usable);
		const notSent = new Set(unchecked.map((outcome) => outcome.payment));
		const { allowed, refused } = withinLimits.call(
			this.context,
			usable.filter((payment) => !atBank.has(payment) && !notSent.has(payment)),
			limits,
			{
				idOf: (payment) => this.limitIdOf(payment),
				alreadyPaid: (id) => this.mayHaveBeenMadeById(id),
			},
		);
		const plan = this.plan(allowed, planNew);
		const heldOverLimit = refused.filter(({ payment }) => this.mayHaveBeenMade(payment));
		const steps: PaymentStep[] = [
			...[...conflicts, ...plan.conflicts, ...unchecked].map(
				(outcome): PaymentStep => ({ kind: 'known', outcomes: [outcome] }),
			),
			...[...atBank].map(
				([payment, earlier]): PaymentStep => ({ kind: 'alreadyMade', payment, earlier }),
			),
			...refused
				.filter((entry) => !heldOverLimit.includes(entry))
				.map(({ payment, reason }): PaymentStep => ({ kind: 'overLimit', payment, reason })),
			...heldOverLimit.map(
				({ payment }): PaymentStep => ({
					kind: 'holdBack',
					payments: [payment],
					why: HELD_OVER_LIMIT,
				}),
			),
			...plan.held.map(
				(payment): PaymentStep => ({
					kind: 'holdBack',
					payments: [payment],
					why: HELD_WITH_OTHERS,
				}),
			),
			...plan.requests.map((request): PaymentStep => ({ kind: 'send', request })),
		];
		return steps.sort((a, b) => firstItemOf(a) - firstItemOf(b));
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
			const key = this.memory.keyOfPayment(this.identityOf(payment)) as string;
			byKey.set(key, [...(byKey.get(key) ?? []), payment]);
		}
		for (const [key, members] of byKey) {
			outcomes.push(
				...(await this.resolveUnknown(members, { key, source: this.ownKeySource }, why)),
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
		if (payment.customKey === undefined && this.skipAlreadyMade)
			return detailsKey(bodyDigest(payment.body), false);
		return itemKey(this.scope, payment.itemIndex, payment.customKey);
	}

	/** The key of the `batchIndex`th batch request of Submit Batch, holding these payments. */
	batchKeyOf(batchIndex: number, members: readonly Payment[]): IdempotencyKey {
		if (this.skipAlreadyMade)
			return detailsKey(bodyDigest(requestBodyOf([...members], true)), true);
		return batchKey(
			this.scope,
			batchIndex,
			members.map((member) => member.itemIndex),
		);
	}

	/** The source of the keys this run derives itself. */
	private get ownKeySource(): IdempotencyKey['source'] {
		return this.skipAlreadyMade ? 'details' : 'derived';
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
		const identities =
			this.identities.size > 0 ? payments.map((payment) => this.identityOf(payment)) : [];
		const { request: sent, first } = this.memory.recordAttempt(key.key, {
			body: bodyDigest(body),
			members: identities,
			asBatch,
		});
		// an earlier run's attempt with this key may have been processed: a refusal now does not undo it
		const earlierMayHaveBeenMade = !first && sent.possiblyMade;
		let response: IDataObject;
		try {
			response = await apiRequest.call(
				this.context,
				paymentRequest(key.key, body, payments[0].itemIndex),
			);
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
		const candidatesOf = (payment: Payment) => candidates.get(payment.itemIndex) ?? [];
		const possiblyMade = payments.filter((payment) => candidatesOf(payment).length > 0);
		const send = payments.filter((payment) => !possiblyMade.includes(payment));
		const held = unknownOutcomes.call(this.context, possiblyMade, key, failure, (payment) => ({
			candidates: candidatesOf(payment),
		}));
		const sendKey =
			possiblyMade.length === 0
				? key
				: {
						...key,
						key: uuidV4FromParts([
							'held-back',
							key.key,
							send.map((payment) => String(payment.itemIndex)).join(','),
						]),
					};
		return { held, send, sendKey };
	}
}

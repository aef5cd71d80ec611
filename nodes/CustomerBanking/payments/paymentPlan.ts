import {
	batchKey,
	detailsKey,
	type IdempotencyKey,
	itemKey,
	type KeyScope,
	uuidV4FromParts,
} from './idempotencyKey';
import type { PaymentOutcome } from './outcomes';
import { holdsMoney } from './earlierPayments';
import type { Payment } from './payment';
import { bodyDigest, paymentIdentities } from './paymentIdentity';
import type { FoundPayment } from './paymentLookUp';
import type { PaymentMemory, SentRequest } from './paymentMemory';
import { type Spent, type SpendingLimits, withinLimits } from './spendingLimits';

/** One request to send: its payments in the order they go, and its key. */
export interface PlannedRequest {
	members: Payment[];
	key: IdempotencyKey;
	/** An array body (Submit Batch's requests), or one payment object. */
	asBatch: boolean;
}

/**
 * What a run does, in input order: send a request, report outcomes already known (a look-up before
 * sending that failed), refuse a payment whose key was used with another body or that was sent before
 * under another key, refuse a payment over a spending limit, or look up payments sent before that are
 * not sent again now.
 */
export type PaymentStep =
	| { kind: 'send'; request: PlannedRequest }
	| { kind: 'known'; outcomes: PaymentOutcome[] }
	| {
			kind: 'keyConflict';
			payment: Payment;
			key: IdempotencyKey;
			conflict: 'otherBody' | 'otherKey';
			earlierMayHaveBeenMade: boolean;
	  }
	| { kind: 'overLimit'; payment: Payment; reason: string }
	| { kind: 'holdBack'; payment: Payment; key: IdempotencyKey; why: string }
	/** Skip Payments Already Made: the bank shows a payment with these details already; not sent. */
	| { kind: 'alreadyMade'; payment: Payment; earlier: FoundPayment[] };

export const HELD_WITH_OTHERS =
	'It was sent earlier in this execution in one request with other payments that are not all in this run of the node, so that request cannot be repeated as it was, and the payment is not sent under another key.';
export const HELD_OVER_LIMIT =
	'It is over a spending limit now, and was sent earlier in this execution, so it is not sent again.';

export const firstItemOf = (step: PaymentStep): number => {
	const payments =
		step.kind === 'send'
			? step.request.members
			: step.kind === 'known'
				? step.outcomes.map((o) => o.payment)
				: [step.payment];
	return Math.min(...payments.map((payment) => payment.itemIndex));
};

export const requestBodyOf = (members: Payment[], asBatch: boolean) =>
	asBatch ? members.map((payment) => payment.body) : members[0].body;

/** What the bank showed before anything was sent (Skip Payments Already Made), for the plan. */
export interface BeforeSending {
	/** Payments the bank already shows, with the records that match them. */
	atBank: ReadonlyMap<Payment, FoundPayment[]>;
	/** Outcomes of payments that could not be checked (the look-up failed): not sent. */
	unchecked: PaymentOutcome[];
}

/** Where a run's keys come from: this execution (`scope`), or the payments' details (Skip Payments Already Made). */
export interface Keying {
	scope: KeyScope;
	skipAlreadyMade: boolean;
}

/** How new payments go into requests: one per request (Submit), or in batches of `batchSize` (Submit Batch). */
export interface Grouping {
	batchSize?: number;
}

/**
 * The key of a payment sent in a request of its own (Submit, or Submit Batch with a custom key or sent
 * again). One sent again after refusals (`refused`: the IDs of those refused payments, sorted) has a key
 * of those refusals: a re-run that finds the same refusals (the new payment not shown yet) sends it
 * under the same key, which the bank pays once.
 */
export function keyOf(keying: Keying, payment: Payment, refused?: string[]): IdempotencyKey {
	if (refused !== undefined)
		return {
			key: uuidV4FromParts(['send-again', bodyDigest(payment.body), ...refused]),
			source: 'details',
		};
	if (payment.customKey === undefined && keying.skipAlreadyMade)
		return detailsKey(bodyDigest(payment.body), false);
	return itemKey(keying.scope, payment.itemIndex, payment.customKey);
}

/** The key of the `batchIndex`th batch request of Submit Batch, holding these payments. */
function batchKeyOf(keying: Keying, batchIndex: number, members: Payment[]): IdempotencyKey {
	if (keying.skipAlreadyMade) return detailsKey(bodyDigest(requestBodyOf(members, true)), true);
	const itemIndexes = members.map((member) => member.itemIndex);
	return batchKey(keying.scope, batchIndex, itemIndexes);
}

/**
 * The requests of new payments, in input order (what Validate Only shows, too): Submit's one per
 * payment; Submit Batch's items without a custom key in batches of `batchSize` with a derived key (spec
 * §Payments rule 2: one key per batch), and each item with a custom key, or sent again after a refusal
 * (`refusedBefore`), alone with its own key. A batch key covers the whole batch, so it could not protect
 * one invoice that moves to another batch.
 */
export function plannedRequests(
	payments: Payment[],
	keying: Keying,
	{ batchSize }: Grouping,
	refusedBefore: ReadonlyMap<Payment, string[]> = new Map(),
): PlannedRequest[] {
	const alone = (payment: Payment) =>
		batchSize === undefined || payment.customKey !== undefined || refusedBefore.has(payment);
	const batches: Payment[][] = [];
	const batched = payments.filter((payment) => !alone(payment));
	for (let start = 0; start < batched.length; start += batchSize ?? 1)
		batches.push(batched.slice(start, start + (batchSize ?? 1)));
	const requests = [
		...batches.map((members) => ({ members, asBatch: true })),
		...payments.filter(alone).map((payment) => ({ members: [payment], asBatch: false })),
	].sort((a, b) => a.members[0].itemIndex - b.members[0].itemIndex);
	return requests.map(({ members, asBatch }, index) => ({
		members,
		asBatch,
		key: asBatch
			? batchKeyOf(keying, index, members)
			: keyOf(keying, members[0], refusedBefore.get(members[0])),
	}));
}

/** Everything one plan is made from; nothing of n8n, no requests. */
export interface PlanInput {
	/** The valid payments of the run, in input order. */
	payments: Payment[];
	keying: Keying;
	/** What the node remembers of this execution: read, never written here. */
	memory: PaymentMemory;
	atBank: BeforeSending;
	limits: SpendingLimits;
	/** What this execution may already have paid (spendingLimits.ts). */
	spent: Spent;
	grouping: Grouping;
}

export interface Plan {
	steps: PaymentStep[];
	/** `spent` with the payments this plan sends: the executor keeps it before sending. */
	spentAfter: Spent;
	/** Which payment each one is, across the runs of this node in this execution (paymentIdentity.ts). */
	identities: ReadonlyMap<Payment, string>;
}

/**
 * The plan of one run of Submit or Submit Batch, with no requests and no n8n: from the payments, what the
 * node remembers of this execution (PaymentMemory) and what the bank showed before sending, which
 * requests go under which keys, which payments are looked up instead, and which are not sent
 * (Planning.planSteps). PaymentRun performs the plan.
 */
export function planPayments(input: PlanInput): Plan {
	const planning = new Planning(input.keying, input.memory, input.payments);
	const { usable, conflicts } = planning.screen(input.payments);
	return { ...planning.planSteps(usable, conflicts, input), identities: planning.identities };
}

/**
 * Skip Payments Already Made: the payments to look up among the bank's records before sending, those
 * the plan may send that were not sent before in this execution (a payment sent before goes again only
 * under its key).
 */
export function paymentsToCheckAtBank(
	payments: Payment[],
	keying: Keying,
	memory: PaymentMemory,
): Payment[] {
	if (!keying.skipAlreadyMade) return [];
	const planning = new Planning(keying, memory, payments);
	return planning.screen(payments).usable.filter((payment) => !planning.mayHaveBeenMade(payment));
}

/** One plan being made: the payments' identities, and the memory of this execution it reads. */
class Planning {
	readonly identities: Map<Payment, string>;

	/**
	 * Send Again If Refused: the payments sent again because every payment the bank shows with their
	 * details was refused, each with the IDs of those refused payments (sorted).
	 */
	private readonly refusedBefore = new Map<Payment, string[]>();

	constructor(
		private readonly keying: Keying,
		private readonly memory: PaymentMemory,
		payments: readonly Payment[],
	) {
		this.identities = paymentIdentities(payments, keying.scope.runIndex);
	}

	private identityOf(payment: Payment): string {
		const identity = this.identities.get(payment);
		if (identity === undefined)
			throw new Error(`payment of item ${payment.itemIndex} was not identified`);
		return identity;
	}

	private keyOf(payment: Payment): IdempotencyKey {
		return keyOf(this.keying, payment, this.refusedBefore.get(payment));
	}

	/** What the spending limits count a payment as: its custom key (the bank pays one key once), else its identity. */
	private limitIdOf(payment: Payment): string {
		return payment.customKey !== undefined ? this.keyOf(payment).key : this.identityOf(payment);
	}

	/**
	 * Whether this payment was sent before in this execution in a request that may have been processed:
	 * it then goes again only under that key. A request the bank refused (and no attempt of it lost) made
	 * nothing, so its payments are new ones again.
	 */
	mayHaveBeenMade(payment: Payment): boolean {
		return this.firstRequestOf(payment)?.request.possiblyMade === true;
	}

	/** The key a payment was first sent with in this execution. */
	private firstKeyOf(payment: Payment): string | undefined {
		return this.memory.keyOfPayment(this.identityOf(payment));
	}

	private firstRequestOf(payment: Payment): { key: string; request: SentRequest } | undefined {
		const key = this.firstKeyOf(payment);
		const request = key === undefined ? undefined : this.memory.request(key);
		return key !== undefined && request !== undefined ? { key, request } : undefined;
	}

	/** What the spending limits count as already paid: payments of this execution that may have been made. */
	private mayHaveBeenMadeById(limitId: string): boolean {
		const key = this.memory.keyOfPayment(limitId) ?? limitId;
		return this.memory.request(key)?.possiblyMade === true;
	}

	/** The source of the keys this run derives itself. */
	private get ownKeySource(): IdempotencyKey['source'] {
		return this.keying.skipAlreadyMade ? 'details' : 'derived';
	}

	/** A payment sent before that is not sent again now: looked up under the key it was first sent with. */
	private holdBack(payment: Payment, why: string): PaymentStep {
		const key = { key: this.firstKeyOf(payment) as string, source: this.ownKeySource };
		return { kind: 'holdBack', payment, key, why };
	}

	/**
	 * spec §Payments rule 1, §Errors rule 7: one key, one body. A payment whose custom key was already used
	 * for another body, in this run or an earlier one of this execution, is refused before anything is
	 * sent; so is a payment sent before under another key than the one it has now.
	 */
	screen(payments: Payment[]): { usable: Payment[]; conflicts: PaymentStep[] } {
		const bodies = new Map<string, string>();
		const usable: Payment[] = [];
		const conflicts: PaymentStep[] = [];
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
				conflicts.push({
					kind: 'keyConflict',
					payment,
					key,
					conflict: 'otherBody',
					earlierMayHaveBeenMade: earlier?.possiblyMade === true,
				});
			} else if (first !== undefined && first.key !== key.key && first.request.possiblyMade) {
				conflicts.push({
					kind: 'keyConflict',
					payment,
					key,
					conflict: 'otherKey',
					earlierMayHaveBeenMade: true,
				});
			} else {
				bodies.set(key.key, body);
				usable.push(payment);
			}
		}
		return { usable, conflicts };
	}

	/**
	 * The steps of this run for the payments `screen` left usable, in input order, with the key conflicts
	 * it found: payments the bank already holds left out, the spending limits applied (a payment sent
	 * before that is over a limit now is looked up, not reported "not sent"), then the requests planned.
	 */
	planSteps(
		usable: Payment[],
		conflicts: PaymentStep[],
		{ atBank: { atBank: shown, unchecked }, limits, spent, grouping }: PlanInput,
	): { steps: PaymentStep[]; spentAfter: Spent } {
		const atBank = this.withoutSentAgain(shown);
		const notSent = new Set(unchecked.map((outcome) => outcome.payment));
		const { allowed, refused, spentAfter } = withinLimits(
			usable.filter((payment) => !atBank.has(payment) && !notSent.has(payment)),
			limits,
			{
				idOf: (payment) => this.limitIdOf(payment),
				alreadyPaid: (id) => this.mayHaveBeenMadeById(id),
			},
			spent,
		);
		const plan = this.plan(allowed, grouping);
		const heldOverLimit = refused.filter(({ payment }) => this.mayHaveBeenMade(payment));
		const steps: PaymentStep[] = [
			...conflicts,
			...plan.conflicts,
			...unchecked.map((outcome): PaymentStep => ({ kind: 'known', outcomes: [outcome] })),
			...[...atBank].map(
				([payment, earlier]): PaymentStep => ({ kind: 'alreadyMade', payment, earlier }),
			),
			...refused
				.filter((entry) => !heldOverLimit.includes(entry))
				.map(({ payment, reason }): PaymentStep => ({ kind: 'overLimit', payment, reason })),
			...heldOverLimit.map(({ payment }) => this.holdBack(payment, HELD_OVER_LIMIT)),
			...plan.held.map((payment) => this.holdBack(payment, HELD_WITH_OTHERS)),
			...plan.requests.map((request): PaymentStep => ({ kind: 'send', request })),
		];
		return { steps: steps.sort((a, b) => firstItemOf(a) - firstItemOf(b)), spentAfter };
	}

	/**
	 * What the bank shows, less the payments sent again (Send Again If Refused): those whose every
	 * matching record says it was refused (earlierPayments.ts holdsMoney; a state it cannot read
	 * holds money). They are noted in `refusedBefore` and planned as new.
	 */
	private withoutSentAgain(
		shown: ReadonlyMap<Payment, FoundPayment[]>,
	): ReadonlyMap<Payment, FoundPayment[]> {
		const atBank = new Map(shown);
		for (const [payment, earlier] of shown) {
			if (!payment.sendAgainIfRefused || earlier.some(holdsMoney)) continue;
			atBank.delete(payment);
			this.refusedBefore.set(payment, earlier.map((found) => found.xtid).sort());
		}
		return atBank;
	}

	/**
	 * The requests of this run, in input order. A payment sent before in this execution goes again only
	 * in the request it was first sent in, with that key and that body, and only when every payment of
	 * that request is here again; otherwise it is held back (`held`) and looked up, never sent under a new
	 * key. The others are grouped as new (plannedRequests); a new request whose key was already sent with
	 * another body is refused before anything is sent.
	 */
	private plan(
		payments: Payment[],
		grouping: Grouping,
	): { requests: PlannedRequest[]; held: Payment[]; conflicts: PaymentStep[] } {
		const byIdentity = new Map(payments.map((payment) => [this.identityOf(payment), payment]));
		const planned = new Set<Payment>();
		const { requests, held } = this.planSentBefore(payments, byIdentity, planned);
		const fresh = plannedRequests(
			payments.filter((payment) => !planned.has(payment)),
			this.keying,
			grouping,
			this.refusedBefore,
		);
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
	): PaymentStep[] {
		const conflicts: PaymentStep[] = [];
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
					...request.members.map(
						(payment): PaymentStep => ({
							kind: 'keyConflict',
							payment,
							key: request.key,
							conflict: 'otherBody',
							earlierMayHaveBeenMade: sent.possiblyMade,
						}),
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
}

/**
 * n8n retried a failed execution whose keys were not kept with it: of one planned request, the payments
 * the account shows a match for (`candidates`, by item) may be made and are held back; the others go,
 * under a key for just them when some were held back.
 */
export function afterKeysLost(
	payments: Payment[],
	key: IdempotencyKey,
	candidates: ReadonlyMap<number, string[]>,
): { possiblyMade: Payment[]; send: Payment[]; sendKey: IdempotencyKey } {
	const possiblyMade = payments.filter(
		(payment) => (candidates.get(payment.itemIndex) ?? []).length > 0,
	);
	const send = payments.filter((payment) => !possiblyMade.includes(payment));
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
	return { possiblyMade, send, sendKey };
}

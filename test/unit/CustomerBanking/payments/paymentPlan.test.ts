/**
 * Payment planning (nodes/CustomerBanking/payments/paymentPlan.ts) without a bank and without n8n: from
 * the payments, what the node remembers of this execution, what the bank showed and what was spent,
 * which requests go under which keys (Submit, Submit Batch, Validate Only), which payments are looked up
 * instead, which are not sent, and what is spent after.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	batchKey,
	detailsKey,
	itemKey,
	type KeyScope,
} from '../../../../nodes/CustomerBanking/payments/idempotencyKey';
import type { PaymentOutcome } from '../../../../nodes/CustomerBanking/payments/outcomes';
import type { Payment } from '../../../../nodes/CustomerBanking/payments/payment';
import { PaymentMemory } from '../../../../nodes/CustomerBanking/payments/paymentMemory';
import {
	afterKeysLost,
	type BeforeSending,
	HELD_OVER_LIMIT,
	HELD_WITH_OTHERS,
	keyOf,
	type Keying,
	type Plan,
	type PaymentStep,
	paymentsToCheckAtBank,
	planPayments,
	type PlannedRequest,
	plannedRequests,
	requestBodyOf,
} from '../../../../nodes/CustomerBanking/payments/paymentPlan';
import { bodyDigest } from '../../../../nodes/CustomerBanking/payments/paymentIdentity';
import type { FoundPayment } from '../../../../nodes/CustomerBanking/payments/paymentLookUp';
import type {
	Spent,
	SpendingLimits,
} from '../../../../nodes/CustomerBanking/payments/spendingLimits';

const SCOPE: KeyScope = {
	executionId: 'exec-1',
	keysLost: false,
	workflowId: 'wf-1',
	nodeId: 'node-1',
	runIndex: 0,
};
const DERIVED: Keying = { scope: SCOPE, skipAlreadyMade: false };
const DETAILS: Keying = { scope: SCOPE, skipAlreadyMade: true };

const payment = (itemIndex: number, fields: IDataObject = {}, customKey?: string): Payment => ({
	itemIndex,
	body: {
		xaid: 'acc',
		xpid: 'payee',
		amount: 10 + itemIndex,
		reference: `INV-${itemIndex}`,
		...fields,
	},
	...(customKey !== undefined && { customKey }),
});

const NOTHING_AT_BANK: BeforeSending = { atBank: new Map(), unchecked: [] };

interface PlanOptions {
	batchSize?: number;
	limits?: SpendingLimits;
	beforeSending?: BeforeSending;
	skipAlreadyMade?: boolean;
	spent?: Spent;
}

/** One execution's node memory, shared by the runs planned over it. */
class Execution {
	readonly memory: IDataObject = {};

	/** Plans a run: Submit's one request per payment, or Submit Batch's batches of `batchSize`. */
	plan(payments: Payment[], options: PlanOptions = {}): Plan {
		const memory = new PaymentMemory(this.memory);
		const spent = options.spent ?? memory.spent;
		const before = JSON.stringify(this.memory);
		const plan = planPayments({
			payments,
			keying: options.skipAlreadyMade ? DETAILS : DERIVED,
			memory,
			atBank: options.beforeSending ?? NOTHING_AT_BANK,
			limits: options.limits ?? {},
			spent,
			grouping: { batchSize: options.batchSize },
		});
		// planning reads the memory, never writes it
		expect(JSON.stringify(this.memory)).toBe(before);
		return plan;
	}

	/** What the executor notes when it sends a request: its key, body and payments. */
	sent(plan: Plan, request: PlannedRequest): void {
		new PaymentMemory(this.memory).recordAttempt(request.key.key, {
			body: bodyDigest(requestBodyOf(request.members, request.asBatch)),
			members: request.members.map((member) => plan.identities.get(member) as string),
			asBatch: request.asBatch,
		});
	}

	/** Plans and "sends" every request, as a run that got no answer would leave the memory. */
	sendAll(payments: Payment[], options: PlanOptions = {}): PlannedRequest[] {
		const plan = this.plan(payments, options);
		const requests = plan.steps.flatMap((step) => (step.kind === 'send' ? [step.request] : []));
		for (const request of requests) this.sent(plan, request);
		new PaymentMemory(this.memory).spent = plan.spentAfter;
		return requests;
	}
}

const kinds = (steps: PaymentStep[]) => steps.map((step) => step.kind);
const sendKeys = (steps: PaymentStep[]) =>
	steps.flatMap((step) => (step.kind === 'send' ? [step.request.key.key] : []));

describe('payment planning: what to send, under which key, what to look up', () => {
	it('new payments: one request each, in input order, under keys from this execution', () => {
		const { steps } = new Execution().plan([payment(1), payment(0)]);
		expect(kinds(steps)).toEqual(['send', 'send']);
		const requests = steps.map((step) => (step.kind === 'send' ? step.request : undefined));
		expect(requests.map((request) => request?.members[0].itemIndex)).toEqual([0, 1]);
		expect(requests.map((request) => request?.key.source)).toEqual(['derived', 'derived']);
		expect(new Set(sendKeys(steps)).size).toBe(2);
	});

	it('Retry On Fail: each payment goes again under the key it was first sent with', () => {
		const execution = new Execution();
		const first = execution.sendAll([payment(0), payment(1)]);
		const { steps } = execution.plan([payment(0), payment(1)]);
		expect(sendKeys(steps)).toEqual(first.map((request) => request.key.key));
	});

	it('a payment whose items moved keeps its first key; the item now at its old position gets another', () => {
		const execution = new Execution();
		const [firstA] = execution.sendAll([payment(0, { reference: 'A', amount: 10 })]);
		const { steps } = execution.plan([
			payment(0, { reference: 'NEW' }),
			payment(1, { reference: 'A', amount: 10 }),
		]);
		const keys = sendKeys(steps);
		expect(keys[1]).toBe(firstA.key.key);
		expect(keys[0]).not.toBe(firstA.key.key);
	});

	it('a request the bank refused made nothing: its payment is planned as a new one', () => {
		const execution = new Execution();
		const [first] = execution.sendAll([payment(0)]);
		const again = payment(0);
		// a payment that may have been made is not looked up before sending: it goes again under its key
		const toCheck = () =>
			paymentsToCheckAtBank([again], DETAILS, new PaymentMemory(execution.memory));
		expect(toCheck()).toEqual([]);
		new PaymentMemory(execution.memory).markMadeNothing(first.key.key);
		expect(toCheck()).toEqual([again]);
	});

	it('a payment sent in a batch whose other payments are not all here again is looked up, never sent under another key', () => {
		const execution = new Execution();
		execution.sendAll([payment(0), payment(1)], { batchSize: 2 });
		const { steps } = execution.plan([payment(0)], { batchSize: 2 });
		const [batch] = new Execution().sendAll([payment(0), payment(1)], { batchSize: 2 });
		expect(steps).toEqual([
			{ kind: 'holdBack', payment: payment(0), key: batch.key, why: HELD_WITH_OTHERS },
		]);
	});

	it('the same batch again goes as it was, under its key', () => {
		const execution = new Execution();
		const [batch] = execution.sendAll([payment(0), payment(1)], { batchSize: 2 });
		const { steps } = execution.plan([payment(0), payment(1)], { batchSize: 2 });
		expect(steps).toEqual([
			{
				kind: 'send',
				request: { ...batch, key: { key: batch.key.key, source: 'derived' } },
			},
		]);
	});

	it('one Custom Idempotency Key for two bodies: the second is refused before anything is sent', () => {
		const { steps } = new Execution().plan([
			payment(0, {}, 'INV-1'),
			payment(1, { amount: 99 }, 'INV-1'),
		]);
		expect(kinds(steps)).toEqual(['send', 'keyConflict']);
		expect(steps[1]).toMatchObject({
			conflict: 'otherBody',
			earlierMayHaveBeenMade: false,
			payment: { itemIndex: 1 },
		});
	});

	it('a Custom Idempotency Key sent before with another body: refused, and the earlier one may have been paid', () => {
		const execution = new Execution();
		execution.sendAll([payment(0, {}, 'INV-1')]);
		const { steps } = execution.plan([payment(0, { amount: 99 }, 'INV-1')]);
		expect(steps[0]).toMatchObject({
			kind: 'keyConflict',
			conflict: 'otherBody',
			earlierMayHaveBeenMade: true,
		});
	});

	it('over Maximum Amount: not sent; sent before and over it now: looked up, not reported "not sent"', () => {
		const execution = new Execution();
		const [first] = execution.sendAll([payment(0, { amount: 500 })]);
		const { steps } = execution.plan([payment(0, { amount: 500 }), payment(1, { amount: 600 })], {
			limits: { maxAmount: 100 },
		});
		expect(steps).toEqual([
			{
				kind: 'holdBack',
				payment: payment(0, { amount: 500 }),
				key: first.key,
				why: HELD_OVER_LIMIT,
			},
			{
				kind: 'overLimit',
				payment: payment(1, { amount: 600 }),
				reason: expect.stringMatching(/over the Maximum Amount of 100/),
			},
		]);
	});

	it('Skip Payments Already Made: looks up only payments not sent before, and leaves out those the bank shows', () => {
		const execution = new Execution();
		execution.sendAll([payment(0)]);
		const payments = [payment(0), payment(1), payment(2)];
		const memory = new PaymentMemory(execution.memory);
		const toCheck = paymentsToCheckAtBank(payments, DETAILS, memory);
		expect(toCheck.map((one) => one.itemIndex)).toEqual([1, 2]);
		expect(paymentsToCheckAtBank(payments, DERIVED, memory)).toEqual([]);
	});

	it('Skip Payments Already Made: a payment the bank shows is not sent; keys come from the details', () => {
		const payments = [payment(0), payment(1)];
		const earlier = [{ xtid: 'x-1', foundIn: 'transactions' as const }];
		const { steps } = new Execution().plan(payments, {
			skipAlreadyMade: true,
			beforeSending: { atBank: new Map([[payments[0], earlier]]), unchecked: [] },
		});
		expect(steps[0]).toEqual({ kind: 'alreadyMade', payment: payments[0], earlier });
		expect(steps[1]).toMatchObject({ kind: 'send', request: { key: { source: 'details' } } });
	});

	describe('Send Again If Refused', () => {
		const declined = {
			xtid: 'x-declined',
			foundIn: 'approvals' as const,
			approvalStatus: 'declined',
		};
		const failed = {
			xtid: 'x-failed',
			foundIn: 'transactions' as const,
			transactionStatus: 'FAILED',
		};
		const waiting = { xtid: 'x-waiting', foundIn: 'approvals' as const, approvalStatus: 'pending' };
		const unreadable = { xtid: 'x-odd', foundIn: 'approvals' as const, approvalStatus: 'ON_HOLD' };
		const again = (itemIndex: number): Payment => ({
			...payment(itemIndex),
			sendAgainIfRefused: true,
		});

		function planWith(payments: Payment[], shown: Array<[number, FoundPayment[]]>) {
			const atBank = new Map(shown.map(([index, earlier]) => [payments[index], earlier]));
			const { steps } = new Execution().plan(payments, {
				skipAlreadyMade: true,
				beforeSending: { atBank, unchecked: [] },
			});
			return { steps, kinds: steps.map((step) => step.kind) };
		}

		it.each([
			['declined', [declined], 'send'],
			['declined and failed', [declined, failed], 'send'],
			['declined, and another waiting for approval', [declined, waiting], 'alreadyMade'],
			['a state no vocabulary names', [unreadable], 'alreadyMade'],
			['waiting for approval', [waiting], 'alreadyMade'],
		])('earlier payments %s: %s', (_name, earlier, kind) => {
			expect(planWith([again(0)], [[0, earlier]]).kinds).toEqual([kind]);
		});

		it('only the item that asks: the same refusal on an item without it is not sent', () => {
			const { kinds } = planWith(
				[payment(0), again(1)],
				[
					[0, [declined]],
					[1, [{ ...declined, xtid: 'x-declined-1' }]],
				],
			);
			expect(kinds).toEqual(['alreadyMade', 'send']);
		});

		it('the key: of the payment and its refusals, not the details key; the same refusals give the same key', () => {
			const key = (earlier: FoundPayment[]) => {
				const { steps } = planWith([again(0)], [[0, earlier]]);
				return steps[0].kind === 'send' ? steps[0].request.key.key : undefined;
			};
			const fromDetails = keyOf(DETAILS, payment(0)).key;
			expect(key([declined])).toEqual(key([declined]));
			expect(key([declined])).not.toEqual(fromDetails);
			expect(key([declined, failed])).toEqual(key([failed, declined]));
			expect(key([declined, failed])).not.toEqual(key([declined]));
		});
	});

	it("n8n's Retry without the failed execution's keys: payments the account shows a match for are held back, the others go under a key for just them", () => {
		const key = { key: 'key-1', source: 'derived' as const };
		const payments = [payment(0), payment(1), payment(2)];
		const held = afterKeysLost(payments, key, new Map([[1, ['x-1']]]));
		expect(held.possiblyMade).toEqual([payments[1]]);
		expect(held.send).toEqual([payments[0], payments[2]]);
		expect(held.sendKey.key).not.toBe('key-1');
		expect(held.sendKey.source).toBe('derived');
		const none = afterKeysLost(payments, key, new Map());
		expect(none).toEqual({ possiblyMade: [], send: payments, sendKey: key });
	});
});

const NO_MEMORY = () => new PaymentMemory({});
const requestsIn = (steps: PaymentStep[]) =>
	steps.flatMap((step) => (step.kind === 'send' ? [step.request] : []));
const shape = (requests: PlannedRequest[]) =>
	requests.map((request) => [
		request.members.map((member) => member.itemIndex),
		request.asBatch,
		request.key.key,
	]);

describe('planPayments: grouping and keys, for Submit, Submit Batch and Validate Only alike', () => {
	const five = [payment(0), payment(1), payment(2, {}, 'INV-CUSTOM'), payment(3), payment(4)];
	const custom = itemKey(SCOPE, 2, 'INV-CUSTOM').key;
	const batchBody = (...items: number[]) =>
		bodyDigest(
			requestBodyOf(
				items.map((item) => five[item]),
				true,
			),
		);

	it.each<[string, Keying, number | undefined, Array<[number[], boolean, string]>]>([
		[
			'Submit: one request per payment, each under the key of its item',
			DERIVED,
			undefined,
			[
				[[0], false, itemKey(SCOPE, 0).key],
				[[1], false, itemKey(SCOPE, 1).key],
				[[2], false, custom],
				[[3], false, itemKey(SCOPE, 3).key],
				[[4], false, itemKey(SCOPE, 4).key],
			],
		],
		[
			'Submit, Skip Payments Already Made: keys from each body; a custom key stays',
			DETAILS,
			undefined,
			[
				[[0], false, detailsKey(bodyDigest(five[0].body), false).key],
				[[1], false, detailsKey(bodyDigest(five[1].body), false).key],
				[[2], false, custom],
				[[3], false, detailsKey(bodyDigest(five[3].body), false).key],
				[[4], false, detailsKey(bodyDigest(five[4].body), false).key],
			],
		],
		[
			'Submit Batch: batches of 2; the custom key alone under its key; a batch key counts the requests before it',
			DERIVED,
			2,
			[
				[[0, 1], true, batchKey(SCOPE, 0, [0, 1]).key],
				[[2], false, custom],
				[[3, 4], true, batchKey(SCOPE, 2, [3, 4]).key],
			],
		],
		[
			'Submit Batch, Skip Payments Already Made: batch keys from the batch bodies',
			DETAILS,
			2,
			[
				[[0, 1], true, detailsKey(batchBody(0, 1), true).key],
				[[2], false, custom],
				[[3, 4], true, detailsKey(batchBody(3, 4), true).key],
			],
		],
		[
			'Submit Batch of 100: one batch around the custom key',
			DERIVED,
			100,
			[
				[[0, 1, 3, 4], true, batchKey(SCOPE, 0, [0, 1, 3, 4]).key],
				[[2], false, custom],
			],
		],
	])('%s', (_case, keying, batchSize, expected) => {
		const plan = planPayments({
			payments: five,
			keying,
			memory: NO_MEMORY(),
			atBank: NOTHING_AT_BANK,
			limits: {},
			spent: {},
			grouping: { batchSize },
		});
		expect(shape(requestsIn(plan.steps))).toEqual(expected);
		// Validate Only shows the same requests under the same keys
		expect(shape(plannedRequests(five, keying, { batchSize }))).toEqual(expected);
	});
});

describe('planPayments: spending limits, and what is spent after', () => {
	const plan = (payments: Payment[], limits: SpendingLimits, spent: Spent) =>
		planPayments({
			payments,
			keying: DERIVED,
			memory: NO_MEMORY(),
			atBank: NOTHING_AT_BANK,
			limits,
			spent,
			grouping: {},
		});

	it.each<[string, number[], SpendingLimits, string[]]>([
		['no limits', [60, 50], {}, ['send', 'send']],
		['Maximum Amount 55', [60, 50], { maxAmount: 55 }, ['overLimit', 'send']],
		[
			'Maximum Total 100, in input order',
			[60, 50, 40],
			{ maxTotal: 100 },
			['send', 'overLimit', 'send'],
		],
	])('%s', (_case, amounts, limits, expected) => {
		const payments = amounts.map((amount, item) => payment(item, { amount }));
		const spent: Spent = {};
		const { steps, spentAfter, identities } = plan(payments, limits, spent);
		expect(kinds(steps)).toEqual(expected);
		// what was spent is read, never written: the executor keeps spentAfter
		expect(spent).toEqual({});
		const sent = requestsIn(steps).map((request) => request.members[0]);
		expect(spentAfter).toEqual({
			acc: Object.fromEntries(sent.map((member) => [identities.get(member), member.body.amount])),
		});
	});

	it('what an earlier run of the execution may have paid counts first, and stays in what is spent after', () => {
		const execution = new Execution();
		execution.sendAll([payment(0, { amount: 60 })]);
		const kept = new PaymentMemory(execution.memory).spent;
		const { steps, spentAfter } = execution.plan([payment(1, { amount: 50 })], {
			limits: { maxTotal: 100 },
		});
		expect(steps).toEqual([
			{
				kind: 'overLimit',
				payment: payment(1, { amount: 50 }),
				reason: expect.stringMatching(/to 110, over the Maximum Total/) as string,
			},
		]);
		expect(spentAfter).toEqual(kept);
	});

	it('a payment with a custom key counts under its key, which the bank pays once', () => {
		const one = payment(0, { amount: 30 }, 'INV-1');
		const { spentAfter } = plan([one], {}, { other: { x: 5 } });
		expect(spentAfter).toEqual({ other: { x: 5 }, acc: { [keyOf(DERIVED, one).key]: 30 } });
	});

	it('payments the bank could not be checked for are reported as known, not sent, not counted', () => {
		const payments = [payment(0), payment(1)];
		const unchecked = { payment: payments[1], kind: 'failed' } as PaymentOutcome;
		const { steps, spentAfter } = planPayments({
			payments,
			keying: DETAILS,
			memory: NO_MEMORY(),
			atBank: { atBank: new Map(), unchecked: [unchecked] },
			limits: {},
			spent: {},
			grouping: {},
		});
		expect(steps).toEqual([
			expect.objectContaining({ kind: 'send' }),
			{ kind: 'known', outcomes: [unchecked] },
		]);
		expect(Object.keys(spentAfter.acc)).toHaveLength(1);
	});
});

describe('planPayments: key conflicts, refused before anything is sent', () => {
	it('a payment sent before under its derived key, now with a Custom Idempotency Key: not sent under another key', () => {
		const execution = new Execution();
		execution.sendAll([payment(0)]);
		const { steps } = execution.plan([payment(0, {}, 'INV-1')]);
		expect(steps).toEqual([
			expect.objectContaining({
				kind: 'keyConflict',
				conflict: 'otherKey',
				earlierMayHaveBeenMade: true,
			}),
		]);
	});

	it('a batch whose key went with other payments that are not here: both refused, the earlier may have been paid', () => {
		const execution = new Execution();
		execution.sendAll([payment(0), payment(1)], { batchSize: 2 });
		const { steps } = execution.plan([payment(0, { amount: 7 }), payment(1, { amount: 8 })], {
			batchSize: 2,
		});
		expect(steps).toEqual([
			expect.objectContaining({
				kind: 'keyConflict',
				conflict: 'otherBody',
				earlierMayHaveBeenMade: true,
			}),
			expect.objectContaining({
				kind: 'keyConflict',
				conflict: 'otherBody',
				earlierMayHaveBeenMade: true,
			}),
		]);
	});

	it('the same, when the bank refused that batch (it made nothing): the new batch gets a key of its own', () => {
		const execution = new Execution();
		const [first] = execution.sendAll([payment(0), payment(1)], { batchSize: 2 });
		new PaymentMemory(execution.memory).markMadeNothing(first.key.key);
		const { steps } = execution.plan([payment(0, { amount: 7 }), payment(1, { amount: 8 })], {
			batchSize: 2,
		});
		expect(kinds(steps)).toEqual(['send']);
		expect(sendKeys(steps)[0]).not.toBe(first.key.key);
	});
});

/**
 * Payment planning (nodes/CustomerBanking/payments/paymentPlan.ts) without a bank: from the payments and
 * what the node remembers of this execution, which requests go under which keys, which payments are looked
 * up instead, and which are not sent.
 */
import type { IDataObject } from 'n8n-workflow';

import type { KeyScope } from '../../../../nodes/CustomerBanking/payments/idempotencyKey';
import type { Payment } from '../../../../nodes/CustomerBanking/payments/payment';
import { PaymentMemory } from '../../../../nodes/CustomerBanking/payments/paymentMemory';
import {
	afterKeysLost,
	type BeforeSending,
	HELD_OVER_LIMIT,
	HELD_WITH_OTHERS,
	type PaymentStep,
	PaymentPlanner,
	type PlannedRequest,
	requestBodyOf,
} from '../../../../nodes/CustomerBanking/payments/paymentPlan';
import { bodyDigest } from '../../../../nodes/CustomerBanking/payments/paymentIdentity';
import type { FoundPayment } from '../../../../nodes/CustomerBanking/payments/paymentLookUp';
import type { SpendingLimits } from '../../../../nodes/CustomerBanking/payments/spendingLimits';

const SCOPE: KeyScope = {
	executionId: 'exec-1',
	keysLost: false,
	workflowId: 'wf-1',
	nodeId: 'node-1',
	runIndex: 0,
};

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

/** One execution's node memory, shared by the runs planned over it. */
class Execution {
	readonly memory: IDataObject = {};

	planner(skipAlreadyMade = false): PaymentPlanner {
		return new PaymentPlanner(SCOPE, skipAlreadyMade, () => new PaymentMemory(this.memory));
	}

	/** Plans a run: Submit's one request per payment, or Submit Batch's batches of `batchSize`. */
	plan(
		payments: Payment[],
		options: {
			batchSize?: number;
			limits?: SpendingLimits;
			beforeSending?: BeforeSending;
			skipAlreadyMade?: boolean;
		} = {},
	): { steps: PaymentStep[]; planner: PaymentPlanner } {
		const planner = this.planner(options.skipAlreadyMade);
		const { usable, conflicts } = planner.screen(payments);
		const planNew = (fresh: Payment[]): PlannedRequest[] =>
			options.batchSize === undefined
				? fresh.map((one) => ({ members: [one], key: planner.keyOf(one), asBatch: false }))
				: [fresh.slice(0, options.batchSize), fresh.slice(options.batchSize)]
						.filter((members) => members.length > 0)
						.map((members, index) => ({
							members,
							key: planner.batchKeyOf(index, members),
							asBatch: true,
						}));
		const steps = planner.steps(
			usable,
			conflicts,
			options.beforeSending ?? NOTHING_AT_BANK,
			options.limits ?? {},
			this.memory,
			planNew,
		);
		return { steps, planner };
	}

	/** What the executor notes when it sends a request: its key, body and payments. */
	sent(planner: PaymentPlanner, request: PlannedRequest): void {
		new PaymentMemory(this.memory).recordAttempt(request.key.key, {
			body: bodyDigest(requestBodyOf(request.members, request.asBatch)),
			members: request.members.map((member) => planner.identityOf(member)),
			asBatch: request.asBatch,
		});
	}

	/** Plans and "sends" every request, as a run that got no answer would leave the memory. */
	sendAll(payments: Payment[], options: { batchSize?: number } = {}): PlannedRequest[] {
		const { steps, planner } = this.plan(payments, options);
		const requests = steps.flatMap((step) => (step.kind === 'send' ? [step.request] : []));
		for (const request of requests) this.sent(planner, request);
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
		expect(execution.plan([again]).planner.mayHaveBeenMade(again)).toBe(true);
		new PaymentMemory(execution.memory).markMadeNothing(first.key.key);
		expect(execution.plan([again]).planner.mayHaveBeenMade(again)).toBe(false);
	});

	it('a payment sent in a batch whose other payments are not all here again is looked up, never sent under another key', () => {
		const execution = new Execution();
		execution.sendAll([payment(0), payment(1)], { batchSize: 2 });
		const { steps } = execution.plan([payment(0)], { batchSize: 2 });
		expect(steps).toEqual([{ kind: 'holdBack', payments: [payment(0)], why: HELD_WITH_OTHERS }]);
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
		execution.sendAll([payment(0, { amount: 500 })]);
		const { steps } = execution.plan([payment(0, { amount: 500 }), payment(1, { amount: 600 })], {
			limits: { maxAmount: 100 },
		});
		expect(steps).toEqual([
			{ kind: 'holdBack', payments: [payment(0, { amount: 500 })], why: HELD_OVER_LIMIT },
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
		const planner = execution.planner(true);
		const { usable } = planner.screen([payment(0), payment(1), payment(2)]);
		expect(planner.toCheckAtBank(usable).map((one) => one.itemIndex)).toEqual([1, 2]);
		expect(execution.planner(false).toCheckAtBank(usable)).toEqual([]);
	});

	it('Skip Payments Already Made: a payment the bank shows is not sent; keys come from the details', () => {
		const execution = new Execution();
		const planner = execution.planner(true);
		const payments = [payment(0), payment(1)];
		const { usable, conflicts } = planner.screen(payments);
		const earlier = [{ xtid: 'x-1', foundIn: 'transactions' as const }];
		const steps = planner.steps(
			usable,
			conflicts,
			{ atBank: new Map([[payments[0], earlier]]), unchecked: [] },
			{},
			execution.memory,
			(fresh) => fresh.map((one) => ({ members: [one], key: planner.keyOf(one), asBatch: false })),
		);
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
			const planner = new Execution().planner(true);
			const { usable, conflicts } = planner.screen(payments);
			const atBank = new Map(shown.map(([index, earlier]) => [payments[index], earlier]));
			const steps = planner.steps(usable, conflicts, { atBank, unchecked: [] }, {}, {}, (fresh) =>
				fresh.map((one) => ({ members: [one], key: planner.keyOf(one), asBatch: false })),
			);
			return { planner, steps, kinds: steps.map((step) => step.kind) };
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
			const detailsKey = new Execution().planner(true).keyOf(payment(0)).key;
			expect(key([declined])).toEqual(key([declined]));
			expect(key([declined])).not.toEqual(detailsKey);
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

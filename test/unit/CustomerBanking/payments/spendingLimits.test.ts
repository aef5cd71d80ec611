/**
 * Spending limits: Maximum Amount per payment and Maximum Total per Execution per account, in cents,
 * counting what earlier runs of the execution may already have paid (remembered in the node's
 * execution context) and a resend of one payment once.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	type LimitLedger,
	type Spent,
	type SpendingLimits,
	withinLimits,
} from '../../../../nodes/CustomerBanking/payments/spendingLimits';

interface P {
	itemIndex: number;
	body: IDataObject;
	id: string;
}

const pay = (itemIndex: number, amount: number, xaid = 'acc-1', id = `p${itemIndex}`): P => ({
	itemIndex,
	body: { xaid, amount },
	id,
});

/** A ledger where the ids in `paid` may have been paid by an earlier run. */
function ledger(paid: string[] = []): LimitLedger<P> {
	return { idOf: (payment) => payment.id, alreadyPaid: (id) => paid.includes(id) };
}

/** What the node keeps between runs of one execution: what its runs spent. */
interface Kept {
	spent: Spent;
}

function decide(
	payments: P[],
	limits: SpendingLimits,
	paid: string[] = [],
	memory: Kept = { spent: {} },
) {
	const before = JSON.stringify(memory.spent);
	const { allowed, refused, spentAfter } = withinLimits(
		payments,
		limits,
		ledger(paid),
		memory.spent,
	);
	// what was spent is read, never changed: the caller keeps what is spent after
	expect(JSON.stringify(memory.spent)).toBe(before);
	memory.spent = spentAfter;
	return {
		allowed: allowed.map((payment) => payment.itemIndex),
		refused: refused.map(({ payment, reason }) => [payment.itemIndex, reason] as const),
		memory,
	};
}

describe('withinLimits', () => {
	it.each<[string, P[], SpendingLimits, number[], number[]]>([
		['no limits: everything goes', [pay(0, 1e6), pay(1, 5)], {}, [0, 1], []],
		[
			'Maximum Amount: equal goes, a cent over does not',
			[pay(0, 100), pay(1, 100.01)],
			{ maxAmount: 100 },
			[0],
			[1],
		],
		[
			'Maximum Total: in input order, until the next would pass it',
			[pay(0, 60), pay(1, 40), pay(2, 0.01)],
			{ maxTotal: 100 },
			[0, 1],
			[2],
		],
		[
			'a refused payment does not use up the total',
			[pay(0, 60), pay(1, 50), pay(2, 40)],
			{ maxTotal: 100 },
			[0, 2],
			[1],
		],
		[
			'the total is per account',
			[pay(0, 100, 'acc-1'), pay(1, 100, 'acc-2')],
			{ maxTotal: 100 },
			[0, 1],
			[],
		],
		[
			'amounts in cents: 0.1 + 0.2 is within 0.3',
			[pay(0, 0.1), pay(1, 0.2)],
			{ maxTotal: 0.3 },
			[0, 1],
			[],
		],
		[
			'the same payment twice in the input counts once',
			[pay(0, 80, 'acc-1', 'same'), pay(1, 80, 'acc-1', 'same')],
			{ maxTotal: 100 },
			[0, 1],
			[],
		],
	])('%s', (_case, payments, limits, allowed, refused) => {
		const decided = decide(payments, limits);
		expect(decided.allowed).toEqual(allowed);
		expect(decided.refused.map(([itemIndex]) => itemIndex)).toEqual(refused);
	});

	it('says why a payment is refused, with the figures', () => {
		expect(decide([pay(0, 150)], { maxAmount: 100 }).refused).toEqual([
			[0, 'Amount 150 is over the Maximum Amount of 100: not sent'],
		]);
		expect(decide([pay(0, 70), pay(1, 40)], { maxTotal: 100 }).refused).toEqual([
			[
				1,
				"Paying 40 would bring this execution's payments from account acc-1 to 110, over the Maximum Total per Execution of 100: not sent",
			],
		]);
	});

	it('what an earlier run may have paid counts first, also when it is not in this run', () => {
		const memory: Kept = { spent: {} };
		expect(decide([pay(0, 70)], { maxTotal: 100 }, [], memory).allowed).toEqual([0]);
		// the next run: p0 may have been paid; a new payment of 40 would pass 100
		const next = decide([pay(1, 40)], { maxTotal: 100 }, ['p0'], memory);
		expect(next.allowed).toEqual([]);
		expect(next.refused[0][1]).toMatch(/to 110, over the Maximum Total/);
	});

	it('a payment an earlier run may have paid is resent (same key) without counting twice, while the total allows', () => {
		const memory: Kept = { spent: {} };
		decide([pay(0, 70)], { maxTotal: 100 }, [], memory);
		expect(decide([pay(0, 70), pay(1, 30)], { maxTotal: 100 }, ['p0'], memory).allowed).toEqual([
			0, 1,
		]);
	});

	it('a payment that may have been paid is not resent once the limit was lowered below what was paid', () => {
		const memory: Kept = { spent: {} };
		decide([pay(0, 70)], { maxTotal: 100 }, [], memory);
		expect(decide([pay(0, 70)], { maxTotal: 50 }, ['p0'], memory).allowed).toEqual([]);
	});

	it('a payment allowed earlier that made nothing is decided again under the limits of now', () => {
		const memory: Kept = { spent: {} };
		decide([pay(0, 70)], { maxTotal: 100 }, [], memory);
		// p0 made nothing (not alreadyPaid): it does not count, and is decided afresh
		expect(decide([pay(0, 70), pay(1, 30)], { maxTotal: 100 }, [], memory).allowed).toEqual([0, 1]);
		expect(decide([pay(0, 70)], { maxAmount: 50 }, [], memory).allowed).toEqual([]);
	});

	it('returns what is spent after: the amounts allowed, per account and payment', () => {
		const memory: Kept = { spent: {} };
		decide([pay(0, 70, 'acc-1'), pay(1, 5, 'acc-2')], { maxTotal: 100 }, [], memory);
		expect(memory.spent).toEqual({ 'acc-1': { p0: 70 }, 'acc-2': { p1: 5 } });
		// a payment an earlier run may have paid is kept with its amount, whatever the limits now
		decide([pay(2, 500, 'acc-1', 'p2')], { maxAmount: 10 }, [], memory);
		decide([pay(2, 500, 'acc-1', 'p2')], { maxAmount: 10 }, ['p2'], memory);
		expect(memory.spent['acc-1']).toEqual({ p0: 70, p2: 500 });
	});
});

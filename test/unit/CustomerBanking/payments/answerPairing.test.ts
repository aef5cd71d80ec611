/**
 * Which entry of a payment answer is which payment (nodes/CustomerBanking/payments/answerPairing.ts):
 * positions, echoes and the order are used only where they agree with each other and with the request.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	type AnswerEntry,
	contradictionOf,
	echoesAgree,
	pairEntries,
} from '../../../../nodes/CustomerBanking/payments/answerPairing';

const body = (reference: string, amount: number): IDataObject => ({
	xaid: 'acc',
	xpid: 'payee',
	amount,
	reference,
});
const A = body('INV-A', 10);
const B = body('INV-B', 20);
const C = body('INV-C', 30);

const accepted = (entry: IDataObject): AnswerEntry => ({ kind: 'accepted', entry });
const rejected = (entry: IDataObject): AnswerEntry => ({ kind: 'rejected', entry });

/** The pairing as position → the entry's xtid or error. */
function pairs(bodies: IDataObject[], entries: AnswerEntry[]): Record<number, string> {
	return Object.fromEntries(
		[...pairEntries(bodies, entries).pairs].map(([position, { entry }]) => [
			position,
			String(entry.xtid ?? entry.error),
		]),
	);
}

describe('pairing answer entries with the payments of the request', () => {
	it.each<[string, IDataObject[], AnswerEntry[], Record<number, string>]>([
		['one payment, one entry', [A], [accepted({ xtid: 'x' })], { 0: 'x' }],
		[
			'one payment, one entry echoing another reference',
			[A],
			[accepted({ xtid: 'x', reference: 'INV-B' })],
			{},
		],
		[
			'positions from 0',
			[A, B],
			[accepted({ index: 1, xtid: 'x' }), rejected({ index: 0, error: 'e' })],
			{ 0: 'e', 1: 'x' },
		],
		[
			'positions from 1 (the only reading within the request)',
			[A, B],
			[accepted({ index: 1, xtid: 'x' }), rejected({ index: 2, error: 'e' })],
			{ 0: 'x', 1: 'e' },
		],
		[
			'positions from 1, echoes agreeing',
			[A, B],
			[
				accepted({ index: 1, xtid: 'x', reference: 'INV-A' }),
				rejected({ index: 2, error: 'e', reference: 'INV-B' }),
			],
			{ 0: 'x', 1: 'e' },
		],
		[
			'positions read either way, echoes deciding',
			[A, B, C],
			[
				accepted({ index: 1, xtid: 'x', reference: 'INV-A' }),
				rejected({ index: 2, error: 'e', reference: 'INV-B' }),
			],
			{ 0: 'x', 1: 'e' },
		],
		[
			'positions read either way, no echoes: not used',
			[A, B, C],
			[accepted({ index: 1, xtid: 'x' }), rejected({ index: 2, error: 'e' })],
			{},
		],
		[
			'a position repeated: positions not used, echoes pair',
			[A, B],
			[
				accepted({ index: 0, xtid: 'x', reference: 'INV-B' }),
				rejected({ index: 0, error: 'e', reference: 'INV-A' }),
			],
			{ 0: 'e', 1: 'x' },
		],
		[
			'a position contradicted by its echo: positions not used, echoes pair',
			[A, B],
			[
				accepted({ index: 0, xtid: 'x', reference: 'INV-B', amount: 20 }),
				rejected({ index: 1, error: 'e', reference: 'INV-A' }),
			],
			{ 0: 'e', 1: 'x' },
		],
		[
			'some entries without a position',
			[A, B],
			[accepted({ index: 0, xtid: 'x' }), rejected({ error: 'e' })],
			{},
		],
		[
			'all accepted, in order',
			[A, B],
			[accepted({ xtid: 'x' }), accepted({ xtid: 'y' })],
			{ 0: 'x', 1: 'y' },
		],
		[
			'all accepted, echoes showing another order',
			[A, B],
			[accepted({ xtid: 'x', reference: 'INV-B' }), accepted({ xtid: 'y', reference: 'INV-A' })],
			{ 0: 'y', 1: 'x' },
		],
		[
			'mixed outcomes, no positions, no echoes: nothing paired',
			[A, B],
			[accepted({ xtid: 'x' }), rejected({ error: 'e' })],
			{},
		],
		[
			'echoes that fit two payments alike pair with neither',
			[A, { ...A }],
			[accepted({ xtid: 'x', reference: 'INV-A' }), rejected({ error: 'e', reference: 'INV-A' })],
			{},
		],
		[
			'an amount echoed as text',
			[A, B],
			[
				accepted({ xtid: 'x', reference: 'INV-B', amount: '20.00' }),
				rejected({ error: 'e', reference: 'INV-A', amount: '10' }),
			],
			{ 0: 'e', 1: 'x' },
		],
	])('%s', (_name, bodies, entries, expected) => {
		expect(pairs(bodies, entries)).toEqual(expected);
	});
});

describe('pairs made by the order alone', () => {
	it('are marked to be confirmed by a record, unless the entries echo the reference', () => {
		const bare = pairEntries([A, B], [accepted({ xtid: 'x' }), accepted({ xtid: 'y' })]);
		expect([...bare.byOrderAlone]).toEqual([0, 1]);
		const echoed = pairEntries(
			[A, B],
			[accepted({ xtid: 'x', reference: 'INV-A' }), accepted({ xtid: 'y', reference: 'INV-B' })],
		);
		expect([...echoed.byOrderAlone]).toEqual([]);
		const positioned = pairEntries(
			[A, B],
			[accepted({ index: 0, xtid: 'x' }), accepted({ index: 1, xtid: 'y' })],
		);
		expect([...positioned.byOrderAlone]).toEqual([]);
	});
});

describe('an answer that contradicts itself', () => {
	it.each<[string, number, IDataObject[], IDataObject[], unknown, RegExp | undefined]>([
		['as many outcomes as payments', 2, [{ xtid: 'x' }], [{ error: 'e' }], 1, undefined],
		['fewer outcomes than payments (the rest are looked up)', 3, [{ xtid: 'x' }], [], 0, undefined],
		[
			'one payment accepted and rejected',
			1,
			[{ xtid: 'x' }],
			[{ error: 'try again' }],
			1,
			/more outcomes than payments.*both accepted and rejected/,
		],
		[
			'one payment accepted twice',
			1,
			[{ xtid: 'x' }, { xtid: 'y' }],
			[],
			0,
			/more outcomes than payments sent \(1 sent; 2 accepted, 0 rejected\)$/,
		],
		[
			'one transaction named for two payments',
			2,
			[{ xtid: 'x' }, { xtid: 'x' }],
			[],
			0,
			/transaction x for two payments/,
		],
		[
			'rejectedCount disagreeing with the rejections',
			2,
			[{ xtid: 'x' }],
			[{ error: 'e' }],
			2,
			/rejectedCount is 2 but it lists 1 rejection$/,
		],
		[
			'rejectedCount not a number: not evidence',
			2,
			[{ xtid: 'x' }],
			[{ error: 'e' }],
			'1',
			undefined,
		],
	])('%s', (_name, count, accept, reject, rejectedCount, expected) => {
		const found = contradictionOf(count, accept, reject, rejectedCount);
		if (expected === undefined) expect(found).toBeUndefined();
		else expect(found).toMatch(expected);
	});
});

describe('echoed details', () => {
	it("agree when every detail echoed is the payment's; a detail not echoed says nothing", () => {
		expect(echoesAgree({}, A)).toBe(true);
		expect(echoesAgree({ reference: 'INV-A', amount: 10, xaid: 'acc', xpid: 'payee' }, A)).toBe(
			true,
		);
		expect(echoesAgree({ amount: 10.01 }, A)).toBe(false);
		expect(echoesAgree({ xpid: 'other' }, A)).toBe(false);
		expect(echoesAgree({ currency: 'EUR' }, A)).toBe(true);
		expect(echoesAgree({ currency: 'EUR' }, { ...A, currency: 'GBP' })).toBe(false);
		expect(echoesAgree({ amount: 'ten' }, A)).toBe(false);
	});
});

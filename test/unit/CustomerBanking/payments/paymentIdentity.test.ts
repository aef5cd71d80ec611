/**
 * What makes two bodies, and two payments, the same: field order and undefined fields do not matter,
 * any value does; a payment's identity is its body, its run and which of the identical bodies it is,
 * never its position in the input. At the bank: the same details (account, payee, amount, currency,
 * reference), between items of one input and against a record that may leave details out.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Payment } from '../../../../nodes/CustomerBanking/payments/payment';
import {
	bodyDigest,
	matchesRecord,
	paymentIdentities,
	repeatsInInput,
	soughtFor,
} from '../../../../nodes/CustomerBanking/payments/paymentIdentity';

const BODY = { xaid: 'acc-1', xpid: 'payee-1', amount: 10, reference: 'INV-0001' };

describe('bodyDigest', () => {
	it.each<[string, IDataObject | IDataObject[], IDataObject | IDataObject[]]>([
		[
			'another field order',
			BODY,
			{ reference: 'INV-0001', amount: 10, xpid: 'payee-1', xaid: 'acc-1' },
		],
		['an undefined field', BODY, { ...BODY, description: undefined }],
		[
			'nested objects in another order',
			{ ...BODY, extra: { a: 1, b: 2 } },
			{ ...BODY, extra: { b: 2, a: 1 } },
		],
	])('the same with %s', (_case, one, other) => {
		expect(bodyDigest(one)).toBe(bodyDigest(other));
	});

	it.each<[string, IDataObject | IDataObject[], IDataObject | IDataObject[]]>([
		['another amount', BODY, { ...BODY, amount: 10.01 }],
		['an amount as text', BODY, { ...BODY, amount: '10' }],
		['a null field', BODY, { ...BODY, description: null }],
		['one more field', BODY, { ...BODY, currency: 'GBP' }],
		['a batch of it', BODY, [BODY]],
		['the batch in another order', [BODY, { ...BODY, amount: 2 }], [{ ...BODY, amount: 2 }, BODY]],
		['a key that only looks the same', { 'a,b': 1 }, { a: 1, b: 1 }],
	])('different with %s', (_case, one, other) => {
		expect(bodyDigest(one)).not.toBe(bodyDigest(other));
	});
});

describe('paymentIdentities', () => {
	const at = (itemIndex: number, body: IDataObject = BODY): Payment => ({ itemIndex, body });

	it('identical bodies are told apart by their order among themselves, not by their position', () => {
		const [first, other, second] = [at(0), at(1, { ...BODY, amount: 5 }), at(2)];
		const ids = paymentIdentities([first, other, second], 0);
		expect(new Set(ids.values()).size).toBe(3);
		// the input edited: another item put before them; each keeps its identity
		const [moved1, moved2] = [at(4), at(7)];
		const after = paymentIdentities([at(0, { ...BODY, amount: 99 }), moved1, moved2], 0);
		expect(after.get(moved1)).toBe(ids.get(first));
		expect(after.get(moved2)).toBe(ids.get(second));
	});

	it('ordered by item index, whatever order they are given in', () => {
		const [a, b] = [at(0), at(1)];
		expect(paymentIdentities([b, a], 0).get(a)).toBe(paymentIdentities([a, b], 0).get(a));
	});

	it("another run of the node (a loop's next run) pays other payments", () => {
		const payment = at(0);
		expect(paymentIdentities([payment], 1).get(payment)).not.toBe(
			paymentIdentities([payment], 0).get(payment),
		);
	});
});

const payment = (itemIndex: number, body: Record<string, unknown> = {}): Payment => ({
	itemIndex,
	body: { xaid: 'a', xpid: 'p', amount: 10, reference: 'INV-1', ...body },
});

describe('repeatsInInput: the items of one input that are the same payment', () => {
	it.each<[string, Payment[], Array<[number, number]>]>([
		['all different', [payment(0), payment(1, { reference: 'INV-2' })], []],
		['the same details twice', [payment(0), payment(1)], [[1, 0]]],
		[
			'three times: each later one names the first',
			[payment(0), payment(1), payment(2)],
			[
				[1, 0],
				[2, 0],
			],
		],
		['10 and 10.00 are one amount', [payment(0), payment(1, { amount: 10.0 })], [[1, 0]]],
		['another amount', [payment(0), payment(1, { amount: 10.01 })], []],
		['another payee', [payment(0), payment(1, { xpid: 'q' })], []],
		['another account', [payment(0), payment(1, { xaid: 'b' })], []],
		['another currency', [payment(0, { currency: 'GBP' }), payment(1, { currency: 'EUR' })], []],
		[
			'a currency and none (the account’s)',
			[payment(0, { currency: 'GBP' }), payment(1)],
			[[1, 0]],
		],
		[
			'another description is still the same payment',
			[payment(0), payment(1, { description: 'x' })],
			[[1, 0]],
		],
		['input order decides which is first', [payment(3), payment(1)], [[3, 1]]],
	])('%s', (_name, payments, expected) => {
		const repeats = repeatsInInput(payments);
		expect([...repeats].map(([later, first]) => [later.itemIndex, first.itemIndex]).sort()).toEqual(
			expected.sort(),
		);
	});
});

describe('matchesRecord: a record of the bank that is this payment by its details', () => {
	const sought = soughtFor(payment(0, { currency: 'GBP' }));
	it.each<[string, IDataObject, boolean]>([
		['the same details', { reference: 'INV-1', amount: 10, xpid: 'p', currency: 'GBP' }, true],
		['the amount as text, 10.00', { reference: 'INV-1', amount: '10.00' }, true],
		['payee and currency not shown', { reference: 'INV-1', amount: 10 }, true],
		['no amount shown', { reference: 'INV-1' }, false],
		['another reference', { reference: 'INV-2', amount: 10 }, false],
		['another amount', { reference: 'INV-1', amount: 10.01 }, false],
		['another payee', { reference: 'INV-1', amount: 10, xpid: 'q' }, false],
		['another currency', { reference: 'INV-1', amount: 10, currency: 'EUR' }, false],
	])('%s', (_name, record, expected) => {
		expect(matchesRecord(sought, record)).toBe(expected);
	});

	it('a detail left out of what is sought is not compared', () => {
		const byReference = { xaid: 'a', reference: 'INV-1' };
		expect(matchesRecord(byReference, { reference: 'INV-1', amount: 99, xpid: 'q' })).toBe(true);
	});
});

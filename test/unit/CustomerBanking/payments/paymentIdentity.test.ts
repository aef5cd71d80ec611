/**
 * What makes two bodies, and two payments, the same: field order and undefined fields do not matter,
 * any value does; a payment's identity is its body, its run and which of the identical bodies it is,
 * never its position in the input.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Payment } from '../../../../nodes/CustomerBanking/payments/payment';
import {
	bodyDigest,
	paymentIdentities,
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

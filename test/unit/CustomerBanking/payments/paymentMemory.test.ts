/**
 * The node's memory of the payments it sent, in its execution context: a key keeps its first body, a
 * payment stays bound to the key that may have made it, a key is "made nothing" only after the bank
 * refused its first attempt, and xtids answered or claimed are remembered.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { PaymentMemory } from '../../../../nodes/CustomerBanking/payments/paymentMemory';

const attempt = (body: string, members: string[] = ['p1'], asBatch = false) => ({
	body,
	members,
	asBatch,
});

describe('PaymentMemory', () => {
	it('lives in the node context it is given: a second memory over the same context knows what the first noted', () => {
		const node: IDataObject = {};
		const context = { getContext: () => node } as unknown as IExecuteFunctions;
		PaymentMemory.of(context).recordAttempt('key-1', attempt('digest-1'));
		PaymentMemory.of(context).claimedXtids.add('tx-1');
		const again = PaymentMemory.of(context);
		expect(again.request('key-1')).toMatchObject({ body: 'digest-1', possiblyMade: true });
		expect(again.claimedXtids.has('tx-1')).toBe(true);
		// the memory is plain JSON (n8n saves the execution context as JSON)
		expect(JSON.parse(JSON.stringify(node))).toEqual(node);
	});

	it('replaces a stored part that is not an object instead of failing', () => {
		const node: IDataObject = {
			paymentKeys: 'garbage',
			paymentIdentities: [1],
			claimedXtids: null,
		};
		const memory = new PaymentMemory(node);
		expect(memory.request('key-1')).toBeUndefined();
		memory.recordAttempt('key-1', attempt('d'));
		expect(memory.request('key-1')).toBeDefined();
	});

	it('the first attempt of a key records its body and members; later attempts return it unchanged', () => {
		const memory = new PaymentMemory({});
		const first = memory.recordAttempt('key-1', attempt('digest-1', ['p1', 'p2'], true));
		expect(first).toEqual({
			first: true,
			request: {
				xtids: [],
				body: 'digest-1',
				members: ['p1', 'p2'],
				asBatch: true,
				possiblyMade: true,
			},
		});
		const second = memory.recordAttempt('key-1', attempt('digest-OTHER', ['p3']));
		expect(second).toEqual({ first: false, request: first.request });
		expect(memory.keyOfPayment('p1')).toBe('key-1');
		expect(memory.keyOfPayment('p3')).toBeUndefined();
	});

	it('a payment stays bound to a key that may have made it; it moves on only from a key that made nothing', () => {
		const memory = new PaymentMemory({});
		memory.recordAttempt('key-1', attempt('d1', ['p1']));
		memory.recordAttempt('key-2', attempt('d2', ['p1']));
		expect(memory.keyOfPayment('p1')).toBe('key-1');
		memory.markMadeNothing('key-1');
		memory.recordAttempt('key-3', attempt('d3', ['p1']));
		expect(memory.keyOfPayment('p1')).toBe('key-3');
	});

	it('markMadeNothing: only for a known key, and an answer afterwards makes it possibly made again', () => {
		const memory = new PaymentMemory({});
		memory.markMadeNothing('unknown-key');
		expect(memory.request('unknown-key')).toBeUndefined();
		memory.recordAttempt('key-1', attempt('d1'));
		memory.markMadeNothing('key-1');
		expect(memory.request('key-1')?.possiblyMade).toBe(false);
		memory.answered('key-1', 'tx-1');
		expect(memory.request('key-1')?.possiblyMade).toBe(true);
	});

	it('answered: false the first time an xtid answers a key, true when it answered it before', () => {
		const memory = new PaymentMemory({});
		expect(memory.answered('key-1', 'tx-1')).toBe(false);
		expect(memory.answered('key-1', 'tx-1')).toBe(true);
		expect(memory.answered('key-1', 'tx-2')).toBe(false);
		expect(memory.answered('key-2', 'tx-1')).toBe(false);
		expect(memory.request('key-1')?.xtids).toEqual(['tx-1', 'tx-2']);
	});

	it('request returns a copy: changing it does not change the memory', () => {
		const memory = new PaymentMemory({});
		memory.recordAttempt('key-1', attempt('d1'));
		const copy = memory.request('key-1');
		if (copy) copy.possiblyMade = false;
		expect(memory.request('key-1')?.possiblyMade).toBe(true);
	});

	it('claimedXtids: has only what was added', () => {
		const memory = new PaymentMemory({});
		expect(memory.claimedXtids.has('tx-1')).toBe(false);
		memory.claimedXtids.add('tx-1');
		expect(memory.claimedXtids.has('tx-1')).toBe(true);
		expect(memory.claimedXtids.has('constructor')).toBe(false);
	});
});

describe('PaymentMemory: what the spending limits count as paid', () => {
	it('is empty at first, and kept whole in the node context when set', () => {
		const context: IDataObject = {};
		const memory = new PaymentMemory(context);
		expect(memory.spent).toEqual({});
		memory.spent = { 'acc-1': { p0: 70 } };
		expect(new PaymentMemory(context).spent).toEqual({ 'acc-1': { p0: 70 } });
		expect(context.spentPerAccount).toEqual({ 'acc-1': { p0: 70 } });
	});
});

import { createHash } from 'node:crypto';

import {
	DeliveryLedger,
	deliveryKey,
	ledgerFor,
	retentionSecondsFor,
} from '../../nodes/CustomerBankingTrigger/deliveryLedger';

const NOW = 1_800_000_000;
const RAW = Buffer.from('{"deliveryId":"d-1"}');

describe('delivery ledger', () => {
	it('takes a key once: a second claim inside the retention is a duplicate', () => {
		const ledger = new DeliveryLedger();
		expect(ledger.claim('id:d-1', NOW, 900)).toBe('claimed');
		expect(ledger.claim('id:d-1', NOW + 1, 900)).toBe('duplicate');
		expect(ledger.claim('id:d-1', NOW + 900, 900)).toBe('duplicate');
	});

	it('forgets a key once its retention has passed', () => {
		const ledger = new DeliveryLedger();
		ledger.claim('id:d-1', NOW, 900);
		expect(ledger.claim('id:d-1', NOW + 901, 900)).toBe('claimed');
	});

	it('gives a released key back, so a retry after a failed delivery is processed', () => {
		const ledger = new DeliveryLedger();
		ledger.claim('id:d-1', NOW, 900);
		ledger.release('id:d-1');
		expect(ledger.claim('id:d-1', NOW + 2, 900)).toBe('claimed');
	});

	it('when full of keys still inside their retention, refuses new keys instead of forgetting one', () => {
		const ledger = new DeliveryLedger(3);
		for (const id of ['a', 'b', 'c']) expect(ledger.claim(id, NOW, 900)).toBe('claimed');
		expect(ledger.claim('d', NOW + 1, 900)).toBe('full');
		// every remembered key is still a duplicate: nothing was dropped to make room
		for (const id of ['a', 'b', 'c']) expect(ledger.claim(id, NOW + 1, 900)).toBe('duplicate');
		// once the oldest expire, there is room again
		expect(ledger.claim('d', NOW + 901, 900)).toBe('claimed');
		expect(ledger.size).toBe(1);
	});

	it('remembers more than 5,000 distinct ids inside the window, and prunes as it goes', () => {
		const ledger = new DeliveryLedger();
		for (let i = 0; i < 20_000; i++) expect(ledger.claim(`id:${i}`, NOW + Math.floor(i / 100), 900)).toBe('claimed');
		expect(ledger.claim('id:0', NOW + 199, 900)).toBe('duplicate');
		expect(ledger.claim('id:19999', NOW + 199, 900)).toBe('duplicate');
		// 20,000 ids taken over 200 s; 1,000 s later every one has expired and was pruned
		expect(ledger.claim('late', NOW + 1200, 900)).toBe('claimed');
		expect(ledger.size).toBe(1);
	});

	it('keeps one ledger per workflow and node', () => {
		const first = ledgerFor('wf-ledger-test', 'node-1');
		expect(ledgerFor('wf-ledger-test', 'node-1')).toBe(first);
		expect(ledgerFor('wf-ledger-test', 'node-2')).not.toBe(first);
		expect(ledgerFor('wf-ledger-test-2', 'node-1')).not.toBe(first);
	});

	it('keys on the signed delivery id, or on a hash of the signed body when it has none', () => {
		expect(deliveryKey('d-1', RAW)).toBe('id:d-1');
		expect(deliveryKey(undefined, RAW)).toBe(`sha256:${createHash('sha256').update(RAW).digest('hex')}`);
		expect(deliveryKey(undefined, Buffer.from('{}'))).not.toBe(deliveryKey(undefined, RAW));
		// an id that looks like a body hash cannot collide with one
		expect(deliveryKey('sha256:x', RAW)).not.toBe(deliveryKey(undefined, RAW));
	});

	it('keeps ids for twice the replay window, at least 15 minutes (the bank retries with a fresh timestamp)', () => {
		expect(retentionSecondsFor(300)).toBe(900);
		expect(retentionSecondsFor(5)).toBe(900);
		expect(retentionSecondsFor(3600)).toBe(7200);
	});
});

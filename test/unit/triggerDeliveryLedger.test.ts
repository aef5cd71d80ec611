import type { IDataObject } from 'n8n-workflow';

import {
	DeliveryLedger,
	deliveryKey,
	ledgerFor,
	PERSISTED_KEYS,
	persistedAsTaken,
	persistRecentKeys,
	REPLAYABLE_KEEP_SECONDS,
	retentionFor,
	retentionSecondsFor,
} from '../../nodes/CustomerBankingTrigger/deliveryLedger';

const NOW = 1_800_000_000;
const RAW = Buffer.from('{"deliveryId":"d-1"}');

/** The [key, seconds] pairs the static data holds, from the string the node writes. */
function savedPairs(staticData: Record<string, unknown>): Array<[string, number]> {
	const saved = staticData.recentDeliveries;
	if (typeof saved !== 'string') throw new Error(`saved as ${typeof saved}, not as a string`);
	return saved.split(',').map((pair) => {
		const [key, at] = pair.split(' ');
		return [key, Number(at)];
	});
}

/** Claims a key and, when claimed, settles it at once (its execution handed to n8n). */
function take(ledger: DeliveryLedger, key: string, nowSeconds: number, keepSeconds: number) {
	const result = ledger.claim(key, nowSeconds, keepSeconds);
	if (result === 'claimed') ledger.settle(key, nowSeconds);
	return result;
}

describe('delivery ledger', () => {
	it('takes a key once: a second claim inside the retention is a duplicate', () => {
		const ledger = new DeliveryLedger();
		expect(take(ledger, 'id:d-1', NOW, 900)).toBe('claimed');
		expect(take(ledger, 'id:d-1', NOW + 1, 900)).toBe('duplicate');
		expect(take(ledger, 'id:d-1', NOW + 900, 900)).toBe('duplicate');
	});

	it('forgets a key once its retention has passed', () => {
		const ledger = new DeliveryLedger();
		ledger.claim('id:d-1', NOW, 900);
		expect(ledger.claim('id:d-1', NOW + 901, 900)).toBe('claimed');
	});

	it('a key whose delivery is still in flight is neither a duplicate nor new: its copies wait for the outcome', () => {
		const ledger = new DeliveryLedger();
		expect(ledger.claim('id:d-1', NOW, 900)).toBe('claimed');
		expect(ledger.claim('id:d-1', NOW + 1, 900)).toBe('inFlight');
		ledger.settle('id:d-1', NOW + 2);
		expect(ledger.claim('id:d-1', NOW + 3, 900)).toBe('duplicate');
	});

	it('a copy that waited for a failed delivery is processed once the key is given back', () => {
		const ledger = new DeliveryLedger();
		ledger.claim('id:d-1', NOW, 900);
		expect(ledger.claim('id:d-1', NOW + 1, 900)).toBe('inFlight');
		ledger.release('id:d-1');
		expect(ledger.claim('id:d-1', NOW + 2, 900)).toBe('claimed');
	});

	it('a key still in flight is not persisted when another delivery completes meanwhile (its fetch may yet fail)', () => {
		const ledger = new DeliveryLedger();
		ledger.claim('in-flight', NOW, 900);
		ledger.claim('other', NOW, 900);
		ledger.settle('other', NOW + 1);
		const staticData = {};
		persistRecentKeys(staticData, ledger);
		expect(persistedAsTaken(staticData, 'other', NOW + 1, 900)).toBe(true);
		expect(persistedAsTaken(staticData, 'in-flight', NOW + 1, 900)).toBe(false);
		// the first one fails and is given back: the bank's retry finds nothing in static data either
		ledger.release('in-flight');
		persistRecentKeys(staticData, ledger);
		expect(persistedAsTaken(staticData, 'in-flight', NOW + 2, 900)).toBe(false);
	});

	it('when full, makes room by forgetting the oldest key kept beyond what must be kept, never one that must be', () => {
		const ledger = new DeliveryLedger(2);
		for (const id of ['a', 'b']) {
			ledger.claim(id, NOW, 86_400, 900);
			ledger.settle(id, NOW);
		}
		// both ran less than 900 s ago: neither may go
		expect(ledger.claim('c', NOW + 10, 86_400, 900)).toBe('full');
		// later, the oldest goes to make room; the other is still recognised
		expect(ledger.claim('c', NOW + 901, 86_400, 900)).toBe('claimed');
		expect(ledger.claim('b', NOW + 901, 86_400, 900)).toBe('duplicate');
		expect(ledger.claim('d', NOW + 901, 86_400, 900)).toBe('claimed');
		// the oldest now is 'c', still in flight: never forgotten
		expect(ledger.claim('e', NOW + 901, 86_400, 900)).toBe('full');
		expect(ledger.claim('c', NOW + 901, 86_400, 900)).toBe('inFlight');
	});

	it('gives a released key back, so a retry after a failed delivery is processed', () => {
		const ledger = new DeliveryLedger();
		ledger.claim('id:d-1', NOW, 900);
		ledger.release('id:d-1');
		expect(ledger.claim('id:d-1', NOW + 2, 900)).toBe('claimed');
	});

	it('when full of keys still inside their retention, refuses new keys instead of forgetting one', () => {
		const ledger = new DeliveryLedger(3);
		for (const id of ['a', 'b', 'c']) expect(take(ledger, id, NOW, 900)).toBe('claimed');
		expect(take(ledger, 'd', NOW + 1, 900)).toBe('full');
		// every remembered key is still a duplicate: nothing was dropped to make room
		for (const id of ['a', 'b', 'c']) expect(take(ledger, id, NOW + 1, 900)).toBe('duplicate');
		// once the oldest expire, there is room again
		expect(take(ledger, 'd', NOW + 901, 900)).toBe('claimed');
		expect(ledger.size).toBe(1);
	});

	it('remembers more than 5,000 distinct ids inside the window, and prunes as it goes', () => {
		const ledger = new DeliveryLedger();
		for (let i = 0; i < 20_000; i++)
			expect(take(ledger, `id:${i}`, NOW + Math.floor(i / 100), 900)).toBe('claimed');
		expect(take(ledger, 'id:0', NOW + 199, 900)).toBe('duplicate');
		expect(take(ledger, 'id:19999', NOW + 199, 900)).toBe('duplicate');
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

	it('keys on the signed delivery id, or on the signed body when it has none, hashed to a fixed size', () => {
		expect(deliveryKey('d-1', RAW)).toBe(deliveryKey('d-1', Buffer.from('other body')));
		expect(deliveryKey('d-1', RAW)).not.toBe(deliveryKey('d-2', RAW));
		expect(deliveryKey(undefined, Buffer.from('{}'))).not.toBe(deliveryKey(undefined, RAW));
		// an id equal to the body cannot collide with the body's key
		expect(deliveryKey(RAW.toString(), RAW)).not.toBe(deliveryKey(undefined, RAW));
		expect(deliveryKey('x'.repeat(10_000), RAW)).toHaveLength(22);
	});

	it('persists the most recent keys in static data, merged with what another process saved there', () => {
		const mine = new DeliveryLedger();
		for (let i = 0; i < PERSISTED_KEYS + 50; i++) {
			mine.claim(`mine-${i}`, NOW + i, 900);
			mine.settle(`mine-${i}`, NOW + i);
		}
		const staticData = {
			recentDeliveries: [
				['other-early', NOW - 10],
				['other-late', NOW + PERSISTED_KEYS + 100],
			],
		};
		persistRecentKeys(staticData, mine);
		const kept = savedPairs(staticData);
		expect(kept).toHaveLength(PERSISTED_KEYS);
		// newest last, oldest dropped first
		expect(kept.at(-1)).toEqual(['other-late', NOW + PERSISTED_KEYS + 100]);
		expect(kept.at(-2)).toEqual([`mine-${PERSISTED_KEYS + 49}`, NOW + PERSISTED_KEYS + 49]);
		expect(kept.map(([key]) => key)).not.toContain('other-early');
		expect(persistedAsTaken(staticData, 'other-late', NOW + PERSISTED_KEYS + 100, 900)).toBe(true);
		expect(persistedAsTaken(staticData, 'mine-0', NOW, 900)).toBe(false);
		// retention applies to saved keys too
		expect(
			persistedAsTaken(
				staticData,
				`mine-${PERSISTED_KEYS + 49}`,
				NOW + PERSISTED_KEYS + 49 + 901,
				900,
			),
		).toBe(false);
	});

	it('a released key is not persisted, so a retry after an n8n restart is processed', () => {
		const ledger = new DeliveryLedger();
		ledger.claim('kept', NOW, 900);
		ledger.settle('kept', NOW);
		ledger.claim('failed', NOW, 900);
		ledger.release('failed');
		const staticData = {};
		persistRecentKeys(staticData, ledger);
		expect(persistedAsTaken(staticData, 'kept', NOW, 900)).toBe(true);
		expect(persistedAsTaken(staticData, 'failed', NOW, 900)).toBe(false);
	});

	it('ignores malformed saved entries', () => {
		const staticData = { recentDeliveries: [['ok', NOW], 'x', [1, 2], null, ['no-time']] };
		expect(persistedAsTaken(staticData, 'ok', NOW, 900)).toBe(true);
		expect(persistedAsTaken({ recentDeliveries: 'nope' }, 'ok', NOW, 900)).toBe(false);
		const text = { recentDeliveries: `ok ${NOW},,no-time,bad x, ${NOW},ok2 ${NOW} extra` };
		expect(persistedAsTaken(text, 'ok', NOW, 900)).toBe(true);
		expect(persistedAsTaken(text, 'no-time', NOW, 900)).toBe(false);
		expect(persistedAsTaken(text, 'bad', NOW, 900)).toBe(false);
		expect(persistedAsTaken({ recentDeliveries: 42 }, 'ok', NOW, 900)).toBe(false);
	});

	// n8n wraps every object inside static data in a change-tracking proxy whenever it builds the
	// workflow, several times per call: 500 saved pairs must not be 500 objects
	it('saves the keys as one string, with no object inside for n8n to wrap', () => {
		const ledger = new DeliveryLedger();
		for (let i = 0; i < PERSISTED_KEYS + 5; i++) {
			ledger.claim(deliveryKey(`d-${i}`, RAW), NOW + i, 900);
			ledger.settle(deliveryKey(`d-${i}`, RAW), NOW + i);
		}
		const staticData: IDataObject = {};
		persistRecentKeys(staticData, ledger);
		expect(typeof staticData.recentDeliveries).toBe('string');
		expect(savedPairs(staticData)).toHaveLength(PERSISTED_KEYS);
		expect(
			persistedAsTaken(staticData, deliveryKey(`d-${PERSISTED_KEYS + 4}`, RAW), NOW, 900),
		).toBe(true);
		// the oldest beyond PERSISTED_KEYS are dropped
		expect(persistedAsTaken(staticData, deliveryKey('d-0', RAW), NOW, 900)).toBe(false);
		expect(persistedAsTaken(staticData, deliveryKey('d-5', RAW), NOW, 900)).toBe(true);
	});

	it('still recognises keys saved as [key, seconds] pairs, and keeps them when it writes', () => {
		const staticData: IDataObject = {
			recentDeliveries: [
				['saved-before', NOW - 5],
				['saved-later', NOW - 1],
			],
		};
		expect(persistedAsTaken(staticData, 'saved-before', NOW, 900)).toBe(true);
		const ledger = new DeliveryLedger();
		ledger.claim('new', NOW, 900);
		ledger.settle('new', NOW);
		persistRecentKeys(staticData, ledger);
		expect(typeof staticData.recentDeliveries).toBe('string');
		expect(savedPairs(staticData)).toEqual([
			['saved-before', NOW - 5],
			['saved-later', NOW - 1],
			['new', NOW],
		]);
	});

	it('keeps ids for twice the replay window, at least 15 minutes (the bank retries with a fresh timestamp)', () => {
		expect(retentionSecondsFor(300)).toBe(900);
		expect(retentionSecondsFor(5)).toBe(900);
		expect(retentionSecondsFor(900)).toBe(1800);
	});

	it('with the raw body alone signed, nothing bounds a replay: ids are kept a day, the guaranteed part as with timestamps', () => {
		expect(retentionFor({ signedContent: 'timestampAndBody', toleranceSeconds: 300 })).toEqual({
			keepSeconds: 900,
			mustKeepSeconds: 900,
		});
		expect(retentionFor({ signedContent: 'body', toleranceSeconds: 300 })).toEqual({
			keepSeconds: REPLAYABLE_KEEP_SECONDS,
			mustKeepSeconds: 900,
		});
		expect(REPLAYABLE_KEEP_SECONDS).toBe(86_400);
	});
});

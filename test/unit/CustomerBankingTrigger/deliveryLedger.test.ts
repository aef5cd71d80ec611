import type { IDataObject } from 'n8n-workflow';

import {
	DeliveryLedger,
	deliveryKey,
	PERSISTED_KEYS,
	persistedAsEnded,
	persistRecentKeys,
	REPLAYABLE_KEEP_SECONDS,
	retentionFor,
	retentionSecondsFor,
} from '../../../nodes/CustomerBankingTrigger/deliveryLedger';

const NOW = 1_800_000_000;
const RAW = Buffer.from('{"deliveryId":"d-1"}');
const ABOUT = { event: 'TransactionReceived', xaid: 'acc-1', xtid: 'tx-1' };
const idKey = (deliveryId: string | undefined, raw = RAW) =>
	deliveryKey({ ...ABOUT, deliveryId }, raw);

/** The [key, seconds, state] triples the static data holds, from the string the node writes. */
function savedTriples(staticData: Record<string, unknown>): Array<[string, number, string]> {
	const saved = staticData.recentDeliveries;
	if (typeof saved !== 'string') throw new Error(`saved as ${typeof saved}, not as a string`);
	return saved.split(',').map((triple) => {
		const [key, at, state] = triple.split(' ');
		return [key, Number(at), state];
	});
}

/** Claims a key and, when claimed, hands it over and ends it at once (its execution ran). */
function take(ledger: DeliveryLedger, key: string, nowSeconds: number, keepSeconds: number) {
	const result = ledger.claim(key, nowSeconds, keepSeconds);
	if (result === 'claimed') ledger.ended(ledger.handOver(key, nowSeconds));
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
		ledger.handOver('id:d-1', NOW + 2);
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
		ledger.ended(ledger.handOver('other', NOW + 1));
		const staticData = {};
		persistRecentKeys(staticData, ledger);
		expect(persistedAsEnded(staticData, 'other', NOW + 1, 900)).toBe(true);
		expect(persistedAsEnded(staticData, 'in-flight', NOW + 1, 900)).toBe(false);
		expect(savedTriples(staticData).map(([key]) => key)).toEqual(['other']);
		// the first one fails and is given back: the bank's retry finds nothing in static data either
		ledger.release('in-flight');
		persistRecentKeys(staticData, ledger);
		expect(persistedAsEnded(staticData, 'in-flight', NOW + 2, 900)).toBe(false);
	});

	it('when full, makes room by forgetting the oldest key kept beyond what must be kept, never one that must be', () => {
		const ledger = new DeliveryLedger(2);
		for (const id of ['a', 'b']) {
			ledger.claim(id, NOW, 86_400, 900);
			ledger.handOver(id, NOW);
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

	it('keys on the signed delivery id, or on the signed body when it has none, hashed to a fixed size', () => {
		expect(idKey('d-1')).toBe(idKey('d-1', Buffer.from('other body')));
		expect(idKey('d-1')).not.toBe(idKey('d-2'));
		expect(idKey(undefined, Buffer.from('{}'))).not.toBe(idKey(undefined, RAW));
		// an id equal to the body cannot collide with the body's key
		expect(idKey(RAW.toString())).not.toBe(idKey(undefined, RAW));
		expect(idKey('x'.repeat(10_000))).toHaveLength(22);
	});

	// the payload is not documented: a bank may number its deliveries per subscription, not globally
	it.each([
		{ about: 'another account', changed: { xaid: 'acc-2' }, is: 'another delivery' },
		{ about: 'another event', changed: { event: 'TransactionConfirmed' }, is: 'another delivery' },
		{ about: 'another transaction', changed: { xtid: 'tx-2' }, is: 'another delivery' },
		{ about: 'the same account, event and transaction', changed: {}, is: 'a retry of it' },
	])('the same delivery id about $about, signed again: $is', ({ changed, is }) => {
		const first = deliveryKey({ ...ABOUT, deliveryId: 'd-1' }, RAW);
		const second = deliveryKey({ ...ABOUT, ...changed, deliveryId: 'd-1' }, Buffer.from('re-sent'));
		expect(first === second ? 'a retry of it' : 'another delivery').toBe(is);
	});

	it('ids and facts cannot be shifted into each other to make two deliveries one', () => {
		expect(deliveryKey({ deliveryId: 'a b', event: 'c', xaid: 'd', xtid: 'e' }, RAW)).not.toBe(
			deliveryKey({ deliveryId: 'a', event: 'b c', xaid: 'd', xtid: 'e' }, RAW),
		);
	});

	it('persists the most recent keys in static data, merged with what another process saved there', () => {
		const mine = new DeliveryLedger();
		for (let i = 0; i < PERSISTED_KEYS + 50; i++) {
			mine.claim(`mine-${i}`, NOW + i, 900);
			mine.ended(mine.handOver(`mine-${i}`, NOW + i));
		}
		const staticData = {
			recentDeliveries: `other-early ${NOW - 10} ended,other-late ${NOW + PERSISTED_KEYS + 100} ended`,
		};
		persistRecentKeys(staticData, mine);
		const kept = savedTriples(staticData);
		expect(kept).toHaveLength(PERSISTED_KEYS);
		// newest last, oldest dropped first
		expect(kept.at(-1)).toEqual(['other-late', NOW + PERSISTED_KEYS + 100, 'ended']);
		expect(kept.at(-2)).toEqual([
			`mine-${PERSISTED_KEYS + 49}`,
			NOW + PERSISTED_KEYS + 49,
			'ended',
		]);
		expect(kept.map(([key]) => key)).not.toContain('other-early');
		expect(persistedAsEnded(staticData, 'other-late', NOW + PERSISTED_KEYS + 100, 900)).toBe(true);
		expect(persistedAsEnded(staticData, 'mine-0', NOW, 900)).toBe(false);
		// retention applies to saved keys too
		expect(
			persistedAsEnded(
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
		ledger.ended(ledger.handOver('kept', NOW));
		ledger.claim('failed', NOW, 900);
		ledger.release('failed');
		const staticData = {};
		persistRecentKeys(staticData, ledger);
		expect(persistedAsEnded(staticData, 'kept', NOW, 900)).toBe(true);
		expect(persistedAsEnded(staticData, 'failed', NOW, 900)).toBe(false);
	});

	it('ignores malformed saved entries', () => {
		const text = {
			recentDeliveries: `ok ${NOW} ended,,no-time,bad x ended, ${NOW} ended,ok2 ${NOW} ended extra,no-state ${NOW},odd ${NOW} done`,
		};
		expect(persistedAsEnded(text, 'ok', NOW, 900)).toBe(true);
		for (const key of ['no-time', 'bad', 'ok2', 'no-state', 'odd'])
			expect(persistedAsEnded(text, key, NOW, 900)).toBe(false);
		expect(persistedAsEnded({ recentDeliveries: 'nope' }, 'ok', NOW, 900)).toBe(false);
		expect(persistedAsEnded({ recentDeliveries: [['ok', NOW]] }, 'ok', NOW, 900)).toBe(false);
		expect(persistedAsEnded({ recentDeliveries: 42 }, 'ok', NOW, 900)).toBe(false);
	});

	// n8n wraps every object inside static data in a change-tracking proxy whenever it builds the
	// workflow, several times per call: 500 saved pairs must not be 500 objects
	it('saves the keys as one string, with no object inside for n8n to wrap', () => {
		const ledger = new DeliveryLedger();
		for (let i = 0; i < PERSISTED_KEYS + 5; i++) {
			ledger.claim(idKey(`d-${i}`), NOW + i, 900);
			ledger.ended(ledger.handOver(idKey(`d-${i}`), NOW + i));
		}
		const staticData: IDataObject = {};
		persistRecentKeys(staticData, ledger);
		expect(typeof staticData.recentDeliveries).toBe('string');
		expect(savedTriples(staticData)).toHaveLength(PERSISTED_KEYS);
		expect(persistedAsEnded(staticData, idKey(`d-${PERSISTED_KEYS + 4}`), NOW, 900)).toBe(true);
		// the oldest beyond PERSISTED_KEYS are dropped
		expect(persistedAsEnded(staticData, idKey('d-0'), NOW, 900)).toBe(false);
		expect(persistedAsEnded(staticData, idKey('d-5'), NOW, 900)).toBe(true);
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

describe('whether a delivery’s execution has ended, as static data keeps it', () => {
	/** What an n8n restart leaves: only the static data, and a ledger with nothing in it. */
	const afterRestart = (staticData: IDataObject, key: string) =>
		persistedAsEnded(staticData, key, NOW + 10, 900) ? 'is a duplicate' : 'runs again';

	it.each([
		{
			d1: 'handed over, its execution still running, saved by another delivery answered meanwhile',
			step: (ledger: DeliveryLedger) => void ledger.handOver('d1', NOW),
			expected: 'runs again',
		},
		{
			d1: 'handed over, and n8n answered it (its execution ended)',
			step: (ledger: DeliveryLedger) => ledger.ended(ledger.handOver('d1', NOW)),
			expected: 'is a duplicate',
		},
		{
			d1: 'claimed, its transaction still being fetched',
			step: () => undefined,
			expected: 'runs again',
		},
	])('a delivery $d1: after a restart the bank’s next attempt $expected', ({ step, expected }) => {
		const ledger = new DeliveryLedger();
		ledger.claim('d1', NOW, 900);
		step(ledger);
		ledger.claim('d2', NOW, 900);
		ledger.handOver('d2', NOW + 1);
		// the static data of d2's call, as n8n saves it once d2's execution has ended
		const savedByD2: IDataObject = {};
		persistRecentKeys(savedByD2, ledger, 'd2');
		expect(afterRestart(savedByD2, 'd1')).toBe(expected);
		expect(afterRestart(savedByD2, 'd2')).toBe('is a duplicate');
	});

	it('a call’s own key is written as ended in its own static data (n8n saves it only after that execution)', () => {
		const ledger = new DeliveryLedger();
		ledger.claim('own', NOW, 900);
		ledger.handOver('own', NOW);
		const own: IDataObject = {};
		const another: IDataObject = {};
		persistRecentKeys(own, ledger, 'own');
		persistRecentKeys(another, ledger);
		expect(savedTriples(own)).toEqual([['own', NOW, 'ended']]);
		expect(savedTriples(another)).toEqual([['own', NOW, 'running']]);
	});

	it.each([
		['ended', 'running', 'ended'],
		['running', 'ended', 'ended'],
		['running', 'running', 'running'],
	])(
		'saved as %s, and %s in this instance: written as %s (once any execution of it ended, the event ran)',
		(saved, here, written) => {
			const ledger = new DeliveryLedger();
			ledger.claim('k', NOW, 900);
			const handedOver = ledger.handOver('k', NOW + 5);
			if (here === 'ended') ledger.ended(handedOver);
			const staticData: IDataObject = { recentDeliveries: `k ${NOW} ${saved}` };
			persistRecentKeys(staticData, ledger);
			expect(savedTriples(staticData)).toEqual([['k', NOW + 5, written]]);
		},
	);

	it('a key run again after a crash is kept as running until that run ends', () => {
		// saved as running by another delivery before n8n was killed
		const staticData: IDataObject = { recentDeliveries: `k ${NOW} running` };
		const restarted = new DeliveryLedger();
		expect(persistedAsEnded(staticData, 'k', NOW + 20, 900)).toBe(false);
		expect(restarted.claim('k', NOW + 20, 900)).toBe('claimed');
		const again = restarted.handOver('k', NOW + 21);
		persistRecentKeys(staticData, restarted);
		expect(persistedAsEnded(staticData, 'k', NOW + 22, 900)).toBe(false);
		restarted.ended(again);
		persistRecentKeys(staticData, restarted);
		expect(persistedAsEnded(staticData, 'k', NOW + 22, 900)).toBe(true);
		expect(restarted.claim('k', NOW + 22, 900)).toBe('duplicate');
	});
});

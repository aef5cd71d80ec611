import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import type { SignatureScheme } from './signature';

/**
 * Which deliveries were taken, per trigger node, so one delivery starts exactly one execution, or gets an
 * answer that makes the bank send it again.
 *
 * In memory, per n8n instance: every webhook call gets its own copy of the static data, read from the
 * database (shared/n8nInternals.ts 2.), so concurrent copies of a delivery cannot see each other
 * there. A key is claimed synchronously, before any `await`, so two copies cannot both see it as new.
 * A claimed key is "in flight" until its delivery either hands its execution to n8n (`handOver`) or
 * fails (`release`): a copy arriving meanwhile is asked to come back later, since nobody knows yet
 * whether the event will run. Keys are kept in the order they were claimed, which is also the order
 * they expire in: pruning looks at the oldest entries only, so a delivery costs the same whatever the
 * ledger holds.
 *
 * In static data, the most recent keys handed over (`PERSISTED_KEYS`), each saying whether its execution
 * had ended when it was written, for what memory cannot cover: an n8n restart, another webhook instance.
 * Only a key whose execution had ended makes a later copy a duplicate there. A key is written while its
 * execution still runs too (into the static data of every delivery answered meanwhile), and n8n may be
 * killed before that execution ends: after the restart, the bank's next attempt of it runs again, since
 * nothing saved says it ran to its end. n8n saves the static data of a webhook call just before it
 * answers the call (shared/n8nInternals.ts 2.): at once for a delivery the node
 * answers itself, after the execution for one it emits (admission.ts `handOver`). So a call's
 * own static data is only ever saved once its own execution has ended, and its own key is written there
 * as ended; other keys are written as ended once n8n has answered their delivery.
 */
export type ClaimResult = 'claimed' | 'inFlight' | 'duplicate' | 'full';

/** Per node; at ~100 bytes a key, about 5 MB at the limit. */
export const LEDGER_CAPACITY = 50_000;

/** How many of the most recent keys are kept in static data, rewritten on every emitted delivery. */
export const PERSISTED_KEYS = 500;

/** How long a copy of a delivery still being processed is asked to wait before the bank sends it again. */
export const IN_FLIGHT_RETRY_AFTER_SECONDS = 5;

/** A delivery whose execution was handed to n8n, and whether that execution has ended. */
export interface HandedOver {
	readonly key: string;
	/** Unix seconds its execution was handed to n8n. */
	readonly at: number;
	ended: boolean;
}

/** [key, Unix seconds its execution was handed to n8n, whether that execution had ended], as saved. */
export type SavedKey = [string, number, boolean];

interface Entry {
	/** Unix seconds it was claimed. */
	at: number;
	handedOver?: HandedOver;
}

export class DeliveryLedger {
	/** key → when it was claimed and whether it ran; Map iteration order is insertion order. */
	private readonly entries = new Map<string, Entry>();
	/** The last deliveries handed over, oldest first, between PERSISTED_KEYS and twice that many. */
	private recentlyHandedOver: HandedOver[] = [];

	constructor(private readonly capacity = LEDGER_CAPACITY) {}

	get size(): number {
		return this.entries.size;
	}

	/** The most recent keys handed over, oldest first, at most PERSISTED_KEYS. */
	recent(): SavedKey[] {
		return this.recentlyHandedOver
			.slice(-PERSISTED_KEYS)
			.map(({ key, at, ended }): SavedKey => [key, at, ended]);
	}

	/**
	 * Claims `key` unless it was claimed within `keepSeconds`. When the ledger is full, the oldest key
	 * is forgotten only if it ran more than `mustKeepSeconds` ago (a key kept beyond that is kept while
	 * there is room); otherwise nothing is dropped (a dropped key could be emitted twice): the answer is
	 * 'full' and the caller asks the bank to deliver again later.
	 */
	claim(
		key: string,
		nowSeconds: number,
		keepSeconds: number,
		mustKeepSeconds = keepSeconds,
	): ClaimResult {
		this.prune(nowSeconds - keepSeconds);
		const entry = this.entries.get(key);
		if (entry) return entry.handedOver ? 'duplicate' : 'inFlight';
		if (this.entries.size >= this.capacity && !this.forgetOldest(nowSeconds - mustKeepSeconds))
			return 'full';
		this.entries.set(key, { at: nowSeconds });
		return 'claimed';
	}

	/**
	 * The key's execution was handed to n8n: copies are duplicates from now on in this instance, and it
	 * is written into static data, as running until `ended` is called.
	 */
	handOver(key: string, nowSeconds: number): HandedOver {
		const handedOver: HandedOver = { key, at: nowSeconds, ended: false };
		const entry = this.entries.get(key);
		if (entry) entry.handedOver = handedOver;
		this.recentlyHandedOver.push(handedOver);
		if (this.recentlyHandedOver.length >= 2 * PERSISTED_KEYS)
			this.recentlyHandedOver = this.recentlyHandedOver.slice(-PERSISTED_KEYS);
		return handedOver;
	}

	/** n8n answered the delivery, which it does once its execution has ended. */
	ended(handedOver: HandedOver): void {
		handedOver.ended = true;
	}

	/** Gives a key back after its delivery failed, so a retry of it is processed. */
	release(key: string): void {
		const entry = this.entries.get(key);
		if (entry && !entry.handedOver) this.entries.delete(key);
	}

	private prune(oldestKept: number): void {
		for (const [key, entry] of this.entries) {
			if (entry.at >= oldestKept) return;
			this.entries.delete(key);
		}
	}

	private forgetOldest(oldestThatMustStay: number): boolean {
		const oldest = this.entries.entries().next();
		if (oldest.done) return true;
		const [key, entry] = oldest.value;
		if (!entry.handedOver || entry.at >= oldestThatMustStay) return false;
		this.entries.delete(key);
		return true;
	}
}

/** What a delivery is about, read from its verified body. */
export interface DeliveryIdentity {
	deliveryId?: string;
	/** The bank's word, as signed. */
	event: string;
	xaid: string;
	xtid: string;
}

/**
 * The key a delivery is deduplicated on, from signed content only (an unsigned header could be changed
 * freely): the delivery id inside the verified body together with what the delivery is about (event,
 * account, transaction), else the verified body itself. The payload is not documented, and a bank may
 * number deliveries per subscription rather than globally: the same id for another account, event or
 * transaction is another delivery. A retry of a delivery (same id, same facts, signed again) has the
 * same key. Hashed, so every key has the same small size whatever the sender puts in its ids.
 */
export function deliveryKey(identity: DeliveryIdentity, rawBody: Buffer): string {
	const hash = createHash('sha256');
	const { deliveryId, event, xaid, xtid } = identity;
	if (deliveryId)
		hash.update('id\0').update(JSON.stringify([deliveryId, event, xaid, xtid]), 'utf8');
	else hash.update('body\0').update(rawBody);
	return hash.digest('base64url').slice(0, 22);
}

const PERSISTED = 'recentDeliveries';
const ENDED = 'ended';
const RUNNING = 'running';

/**
 * The keys are saved in one string, "<key> <Unix seconds> <ended|running>" triples joined by ",",
 * oldest first: n8n wraps every object inside static data in a change-tracking proxy each time it
 * builds the workflow (several times per call, shared/n8nInternals.ts 3.), so PERSISTED_KEYS
 * entries saved as arrays would cost that many proxies each time, while a string costs none. Keys are
 * base64url, so neither separator occurs in them.
 */
function parseSavedKeys(stored: string): SavedKey[] {
	const saved: SavedKey[] = [];
	for (const entry of stored.split(',')) {
		const [key, at, state, ...rest] = entry.split(' ');
		const seconds = at === undefined || at === '' ? NaN : Number(at);
		if (key === '' || !Number.isFinite(seconds) || rest.length > 0) continue;
		if (state === ENDED || state === RUNNING) saved.push([key, seconds, state === ENDED]);
	}
	return saved;
}

/**
 * The last texts read or written, parsed: the calls of a busy trigger read and write the same few, and
 * each delivery reads and writes the static data of every running one.
 */
const PARSED_TEXTS = 32;
const parsedTexts = new Map<string, readonly SavedKey[]>();

function savedKeys(staticData: IDataObject): readonly SavedKey[] {
	const stored = staticData[PERSISTED];
	if (typeof stored !== 'string') return [];
	return parsedTexts.get(stored) ?? remembered(stored, parseSavedKeys(stored));
}

function remembered(text: string, keys: readonly SavedKey[]): readonly SavedKey[] {
	if (parsedTexts.size >= PARSED_TEXTS)
		parsedTexts.delete(parsedTexts.keys().next().value as string);
	parsedTexts.set(text, keys);
	return keys;
}

/**
 * Whether the static data (as saved by this or another n8n instance) says the key's execution ended
 * within the retention. A key saved while its execution was still running does not count: that
 * execution may have been stopped with n8n (killed), and the bank's next attempt must run it.
 */
export function persistedAsEnded(
	staticData: IDataObject,
	key: string,
	nowSeconds: number,
	retentionSeconds: number,
): boolean {
	return savedKeys(staticData).some(
		([saved, at, ended]) => ended && saved === key && at >= nowSeconds - retentionSeconds,
	);
}

/**
 * One entry per key: ended when any of its executions ended (the event ran; "ended" is only ever
 * written once true), kept from its latest hand-over.
 */
function combined(a: SavedKey, b: SavedKey): SavedKey {
	return [a[0], Math.max(a[1], b[1]), a[2] || b[2]];
}

/**
 * Writes the most recent keys into the static data: those saved there (by this or another instance)
 * merged with those this instance handed over, newest PERSISTED_KEYS kept, oldest first. `endedHere`
 * is the key of the call whose static data this is: n8n saves it only once that call's execution has
 * ended, so it is written as ended.
 */
export function persistRecentKeys(
	staticData: IDataObject,
	ledger: DeliveryLedger,
	endedHere?: string,
): void {
	const byKey = new Map<string, SavedKey>();
	for (const entries of [savedKeys(staticData), ledger.recent()]) {
		for (const entry of entries) {
			const key = entry[0];
			const mine: SavedKey = key === endedHere && !entry[2] ? [key, entry[1], true] : entry;
			const known = byKey.get(key);
			byKey.set(key, known ? combined(known, mine) : mine);
		}
	}
	const kept = [...byKey.values()].sort((a, b) => a[1] - b[1]).slice(-PERSISTED_KEYS);
	const text = kept.map(([key, at, ended]) => `${key} ${at} ${ended ? ENDED : RUNNING}`).join(',');
	remembered(text, kept);
	staticData[PERSISTED] = text;
}

/**
 * Writes that the delivery's execution ended into static data that has it as running: in place, since
 * this is done for every running delivery each time one ends; merged in full otherwise.
 */
export function persistEnded(
	staticData: IDataObject,
	ledger: DeliveryLedger,
	handedOver: HandedOver,
): void {
	const stored = staticData[PERSISTED];
	const running = `${handedOver.key} ${handedOver.at} ${RUNNING}`;
	const at = typeof stored === 'string' ? entryIndex(stored, running) : -1;
	if (typeof stored !== 'string' || at < 0) {
		persistRecentKeys(staticData, ledger);
		return;
	}
	staticData[PERSISTED] =
		`${stored.slice(0, at)}${handedOver.key} ${handedOver.at} ${ENDED}${stored.slice(at + running.length)}`;
}

/** Where `entry` is in the text as a whole entry (between separators), or -1. */
function entryIndex(text: string, entry: string): number {
	for (let at = text.indexOf(entry); at >= 0; at = text.indexOf(entry, at + 1)) {
		const end = at + entry.length;
		if ((at === 0 || text[at - 1] === ',') && (end === text.length || text[end] === ',')) return at;
	}
	return -1;
}

/**
 * How long a key is kept: twice the replay window, and at least 15 minutes so a bank's retries of a
 * failed delivery (re-signed with a fresh timestamp, same body) are still recognised.
 */
export function retentionSecondsFor(toleranceSeconds: number): number {
	return Math.max(toleranceSeconds * 2, 15 * 60);
}

/**
 * How long a key is kept when the raw body alone is signed: nothing signed says when such a delivery
 * was sent, so a captured one can be sent again at any time with a fresh timestamp, and only the ledger
 * recognises it. Kept this long while the ledger has room (beyond `retentionSecondsFor`, the oldest go
 * first when it is full, so a busy trigger is never refused for it).
 */
export const REPLAYABLE_KEEP_SECONDS = 24 * 60 * 60;

export interface Retention {
	/** How long a key is recognised while the ledger has room. */
	keepSeconds: number;
	/** How long a key is recognised whatever the ledger holds. */
	mustKeepSeconds: number;
}

export function retentionFor(
	scheme: Pick<SignatureScheme, 'signedContent' | 'toleranceSeconds'>,
): Retention {
	const mustKeepSeconds = retentionSecondsFor(scheme.toleranceSeconds);
	const keepSeconds =
		scheme.signedContent === 'body'
			? Math.max(REPLAYABLE_KEEP_SECONDS, mustKeepSeconds)
			: mustKeepSeconds;
	return { keepSeconds, mustKeepSeconds };
}

import type { IDataObject } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { type ListPage, type ListRead, PageTracker, readAllPages, readListPage } from './paginate';

/**
 * A record's creation time at `path` (endpoints.ts `records.created`) in milliseconds: ISO 8601 with its
 * zone (UTC without one), or the spec's `YYYY-MM-DD HH:MM:SS`, which has no zone, read as UTC. Undefined
 * when the record shows none or it cannot be read.
 */
export function createdTimeAt(record: IDataObject, path: readonly string[]): number | undefined {
	let value: unknown = record;
	for (const key of path) {
		if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
		value = (value as IDataObject)[key];
	}
	if (typeof value !== 'string') return undefined;
	const iso = DateTime.fromISO(value, { zone: 'utc' });
	const time = iso.isValid ? iso : DateTime.fromSQL(value, { zone: 'utc' });
	return time.isValid ? time.toMillis() : undefined;
}

/**
 * A list's records newest first: by their creation times at `path` when every record shows a readable
 * one, otherwise the list's last record taken as its newest (docs/bank-assumptions.md#list-order).
 */
export function newestFirst<T extends IDataObject>(records: T[], path: readonly string[]): T[] {
	const times = records.map((record) => createdTimeAt(record, path));
	if (times.some((time) => time === undefined)) return [...records].reverse();
	return records
		.map((record, at) => ({ record, time: times[at] as number }))
		.sort((a, b) => b.time - a.time)
		.map(({ record }) => record);
}

/** Which way a list runs, as its records' own times show it. */
export type ListOrder = 'newestFirst' | 'oldestFirst';

/** Why every page of a list was read although only its recent records were wanted. */
export type WholeReadReason =
	/** a record without a creation time the node can read */
	| 'noTimes'
	/** the times read do not run one way (or are all equal) */
	| 'noOrder'
	/** oldest first, and the list does not say how many records it holds, so its end cannot be read first */
	| 'noTotal';

/** How much of a list one read covered. */
export type Coverage =
	/** Every page, to the list's end; `why` when reading only the recent pages was not possible. */
	| { read: 'whole'; why?: WholeReadReason }
	/**
	 * Every record made at or after `since`: the pages were read from the list's newest end until a
	 * record older than `since`, every record read ran in `order`, and so did the list's other end.
	 */
	| { read: 'recent'; since: number; order: ListOrder };

export interface RecentRead<T> extends ListRead<T> {
	coverage: Coverage;
}

export interface ReadRecentOptions<T> {
	/** Items per page (the same for every page, so `page` offsets stay aligned). */
	pageSize: number;
	/** The earliest creation time wanted, in milliseconds. */
	since: number;
	/** A record's creation time in milliseconds (createdTimeAt), undefined when it shows none. */
	timeOf: (item: T) => number | undefined;
	idOf?: (item: T) => string | undefined;
	fetchPage: (page: number, rateLimited: () => void) => Promise<unknown>;
	notAList: () => Error;
}

/** The order the times show, when they all exist and run one way (not all equal). */
function orderOf(times: Array<number | undefined>): ListOrder | WholeReadReason {
	if (times.some((time) => time === undefined)) return 'noTimes';
	const known = times as number[];
	const steps = known.slice(1).map((time, at) => Math.sign(time - known[at]));
	if (steps.every((step) => step <= 0) && steps.includes(-1)) return 'newestFirst';
	if (steps.every((step) => step >= 0) && steps.includes(1)) return 'oldestFirst';
	return 'noOrder';
}

/**
 * Whether times read after the first page keep the list's order (equal times allowed): 'keeps', or why
 * not.
 */
function keepsOrder(
	times: Array<number | undefined>,
	order: ListOrder,
): 'keeps' | 'noTimes' | 'noOrder' {
	if (times.some((time) => time === undefined)) return 'noTimes';
	const known = times as number[];
	const sign = order === 'newestFirst' ? -1 : 1;
	const runs = known.slice(1).every((time, at) => Math.sign(time - known[at]) !== -sign);
	return runs ? 'keeps' : 'noOrder';
}

/** True when a page is the list's last: shorter than a full page, or as far as its `total` goes. */
function endsList(page: ListPage<unknown>, at: number, pageSize: number): boolean {
	return (
		page.items.length < pageSize || (page.total !== undefined && (at + 1) * pageSize >= page.total)
	);
}

/** One read of a list's pages, every record once, and what it covered. */
class RecentReader<T> {
	readonly tracker: PageTracker<T>;
	readonly items: T[] = [];

	constructor(private readonly options: ReadRecentOptions<T>) {
		this.tracker = new PageTracker<T>(options.idOf);
	}

	async page(at: number): Promise<{ page: ListPage<T>; fresh: T[] }> {
		const page = readListPage<T>(await this.options.fetchPage(at, () => undefined));
		if (!page) throw this.options.notAList();
		const fresh = this.tracker.fresh(page);
		this.items.push(...fresh);
		return { page, fresh };
	}

	done(coverage: Coverage): RecentRead<T> {
		return { items: this.items, totalFell: this.tracker.totalFell, coverage };
	}

	/** The rest of the list, page by page from `from` to its end: the read the times could not bound. */
	async whole(from: number, why: WholeReadReason): Promise<RecentRead<T>> {
		for (let at = from; ; at++) {
			const { page } = await this.page(at);
			if (endsList(page, at, this.options.pageSize)) return this.done({ read: 'whole', why });
		}
	}
}

/**
 * Newest first: pages from the start while the oldest record read is not older than `since`, every
 * record's time at most the one before it; then, when the list says its size, its last page, whose
 * records must run the same way and be older still. Any record without a time or out of order: the
 * rest of the list is read.
 */
async function readNewestFirst<T>(
	reader: RecentReader<T>,
	first: ListPage<T>,
	options: ReadRecentOptions<T>,
): Promise<RecentRead<T>> {
	const { pageSize, since, timeOf } = options;
	let oldest = timeOf(first.items[first.items.length - 1]) as number;
	let total = first.total;
	for (let at = 1; ; at++) {
		if (oldest < since) {
			const lastPage = total === undefined ? undefined : Math.ceil(total / pageSize) - 1;
			if (lastPage !== undefined && lastPage >= at) {
				const { page } = await reader.page(lastPage);
				const kept = keepsOrder([oldest, ...page.items.map(timeOf)], 'newestFirst');
				if (kept !== 'keeps') return await reader.whole(at, kept);
			}
			return reader.done({ read: 'recent', since, order: 'newestFirst' });
		}
		const { page, fresh } = await reader.page(at);
		total = page.total ?? total;
		const times = fresh.map(timeOf);
		const kept = keepsOrder([oldest, ...times], 'newestFirst');
		const ends = endsList(page, at, pageSize);
		if (kept !== 'keeps')
			return ends ? reader.done({ read: 'whole', why: kept }) : await reader.whole(at + 1, kept);
		if (ends) return reader.done({ read: 'whole' });
		if (times.length > 0) oldest = times[times.length - 1] as number;
	}
}

/**
 * Oldest first, its size known: pages from the last backwards while the oldest record read is not
 * older than `since`, each page's times rising and below the page after it; the first page (read
 * already) must be older still. Once the last page is read, records that leave the list only move
 * records of pages not read yet onto pages read already (read twice, returned once), never past one;
 * records that left before it was read can move the newest records before it, and the `total` then fell.
 */
async function readOldestFirst<T>(
	reader: RecentReader<T>,
	first: ListPage<T>,
	total: number,
	options: ReadRecentOptions<T>,
): Promise<RecentRead<T>> {
	const { pageSize, since, timeOf } = options;
	let earliest = Infinity;
	for (let at = Math.ceil(total / pageSize) - 1; at >= 1; at--) {
		const { fresh } = await reader.page(at);
		if (fresh.length === 0) continue;
		const times = fresh.map(timeOf);
		const kept = keepsOrder([...times, earliest], 'oldestFirst');
		if (kept !== 'keeps') return await reader.whole(1, kept);
		earliest = times[0] as number;
		if (earliest < since) {
			const start = keepsOrder([...first.items.map(timeOf), earliest], 'oldestFirst');
			if (start !== 'keeps') return await reader.whole(1, start);
			return reader.done({ read: 'recent', since, order: 'oldestFirst' });
		}
	}
	return reader.done({ read: 'whole' });
}

/**
 * The records of a list made at or after `since`, read from the list's newest end, each record once; or,
 * where the records' times or the list's order cannot be established from what is read, every page
 * (`coverage` says which, and why). The spec promises neither an order nor a time field: the first
 * page's times give the order (newest or oldest first), and every record read afterwards must keep it.
 * An oldest-first list is read from its last page backwards, which needs its `total`
 * (docs/bank-assumptions.md#list-order).
 */
export async function readRecentPages<T>(options: ReadRecentOptions<T>): Promise<RecentRead<T>> {
	const { pageSize, fetchPage, timeOf } = options;
	const reader = new RecentReader<T>(options);
	const answer = await fetchPage(0, () => undefined);
	const first = readListPage<T>(answer);
	if (!first) throw options.notAList();
	if (endsList(first, 0, pageSize)) {
		reader.items.push(...reader.tracker.fresh(first));
		return reader.done({ read: 'whole' });
	}
	const order = orderOf(first.items.map(timeOf));
	if (order === 'newestFirst') {
		reader.items.push(...reader.tracker.fresh(first));
		return await readNewestFirst(reader, first, options);
	}
	if (order === 'oldestFirst' && first.total !== undefined) {
		reader.items.push(...reader.tracker.fresh(first));
		return await readOldestFirst(reader, first, first.total, options);
	}
	const why = order === 'oldestFirst' ? 'noTotal' : order;
	const read = await readAllPages<T>({
		pageSize,
		limit: Infinity,
		fetchPage,
		notAList: options.notAList,
		idOf: options.idOf,
		firstAnswer: answer,
	});
	return { ...read, coverage: { read: 'whole', why } };
}

import type { IDataObject } from 'n8n-workflow';

/** spec §Pagination / §Limits: accounts, transactions and approvals at most 500 per page (payees declare 100). */
export const DEFAULT_PAGE_LIMIT = 500;

/**
 * Return All: the largest page. A limit: the fewest pages, each as small as possible, so no more
 * items are requested than needed (e.g. limit 600, max 500 → two pages of 300). One page size for
 * every page keeps `page` offsets aligned.
 */
export function pageSizeFor(maxPageSize: number, returnAll: boolean, limit: number): number {
	if (returnAll) return maxPageSize;
	const pages = Math.ceil(limit / maxPageSize);
	return Math.ceil(limit / pages);
}

export interface ListPage<T> {
	items: T[];
	total?: number;
}

/**
 * The accounts list answers { total, results }; other envelopes are not shown by the spec
 * (docs/bank-assumptions.md#list-envelope): accept a bare array, { data } and { items } too.
 */
export function readListPage<T = IDataObject>(response: unknown): ListPage<T> | undefined {
	if (Array.isArray(response)) return { items: response as T[] };
	if (typeof response !== 'object' || response === null) return undefined;
	const envelope = response as IDataObject;
	const items = [envelope.results, envelope.data, envelope.items].find(Array.isArray);
	if (!items) return undefined;
	const total = typeof envelope.total === 'number' ? envelope.total : undefined;
	return { items: items as T[], total };
}

export interface ReadAllPagesOptions<T> {
	/** Items per page (the same for every page, so `page` offsets stay aligned). */
	pageSize: number;
	/** The most items wanted; Infinity for Return All. */
	limit: number;
	/** Only items satisfying this are returned, and the limit counts them. */
	keep?: (item: T) => boolean;
	/** Stop reading pages once a kept item satisfies this; that item is the last one returned. */
	until?: (item: T) => boolean;
	/**
	 * What is kept of each item (Simplify), applied as its page is taken, so that a page's records as
	 * the bank sent them are dropped with the page rather than held until the list ends.
	 */
	shape?: (item: T) => T;
	/**
	 * Requests page `page` (0-based, spec §Pagination) and resolves to the bank's answer; calls
	 * `rateLimited` when the bank answered it 429 (the transport waits and sends it again).
	 */
	fetchPage: (page: number, rateLimited: () => void) => Promise<unknown>;
	/** The error for an answer that is not a list. */
	notAList: () => Error;
	/**
	 * A record's ID (endpoints.ts `records`): a record read twice, pushed across a page boundary by
	 * records added while the list is read, is returned once. Records without an ID are all returned.
	 */
	idOf?: (item: T) => string | undefined;
	/** The bank's answer to page 0 when it was already read (recentPages.ts): not requested again. */
	firstAnswer?: unknown;
}

/** What one read of a list returned, and whether the list shrank while it was read. */
export interface ListRead<T> {
	items: T[];
	/**
	 * A page's `total` was lower than an earlier page's: records left the list while it was read, so
	 * records after them moved to pages already read and may be missing. Without a `total` (the spec
	 * shows it for the accounts list only) a shrinking list cannot be seen.
	 */
	totalFell: boolean;
}

/** Records seen by their ID, and whether the list's `total` fell, across the pages of one read. */
export class PageTracker<T> {
	private readonly seen = new Set<string>();
	private lastTotal: number | undefined;
	totalFell = false;

	constructor(private readonly idOf?: (item: T) => string | undefined) {}

	/** Notes a page's `total`: the list shrank while it was read when it is lower than an earlier one. */
	noteTotal(total: number | undefined): void {
		if (total === undefined) return;
		if (this.lastTotal !== undefined && total < this.lastTotal) this.totalFell = true;
		this.lastTotal = total;
	}

	/** Whether the record was not seen on an earlier page (a record without an ID always is); notes it. */
	isNew(item: T): boolean {
		const id = this.idOf?.(item);
		if (id === undefined) return true;
		// one lookup, not a lookup and an insert: Return All passes 50,000 IDs through here
		const { seen } = this;
		const before = seen.size;
		return seen.add(id).size !== before;
	}

	/** The page's records not seen on an earlier page, in order; notes the page's `total`. */
	fresh(page: ListPage<T>): T[] {
		this.noteTotal(page.total);
		return this.idOf ? page.items.filter((item) => this.isNew(item)) : page.items;
	}
}

/**
 * Every page's items in the list's order, each record once (`idOf`), until the list ends (a short
 * page, or as many pages as its `total` says: docs/bank-assumptions.md#list-pages), the limit is reached or `until` matches; and whether
 * the list's `total` fell meanwhile.
 *
 * Return All reads ahead: once an answer tells the list's size (`total`, shown by the spec for the
 * accounts list only, so a hint), the next page is requested while the previous one is still being
 * answered and read, two at a time, and one at a time from the first 429 on (spec §Errors: the bank
 * limits requests; its Retry-After is honoured by the transport). Only pages that `total` says exist are
 * requested ahead, so no more pages are sent than without read-ahead. Without a `total`, or with a limit
 * or `until` (which may end the list early), one page at a time.
 */
export async function readAllPages<T>(options: ReadAllPagesOptions<T>): Promise<ListRead<T>> {
	const { limit, until, fetchPage, firstAnswer } = options;
	const tracker = new PageTracker<T>(options.idOf);
	let concurrency = limit === Infinity && !until ? 2 : 1;
	const rateLimited = () => {
		concurrency = 1;
	};
	const requested = new Map<number, Promise<unknown>>();
	let nextPage = 0;
	const request = (page: number) => {
		const answer =
			page === 0 && firstAnswer !== undefined
				? Promise.resolve(firstAnswer)
				: fetchPage(page, rateLimited);
		// a page read ahead whose answer is never read (the list ended earlier) must not fail the run
		answer.catch(() => undefined);
		requested.set(page, answer);
		nextPage = page + 1;
	};
	// pages the list holds as its latest total says; until an answer tells it, only the first is known
	let pagesKnown = 1;
	const collected: T[] = [];
	try {
		for (let page = 0; ; page++) {
			if (!requested.has(page)) request(page);
			while (nextPage < page + concurrency && nextPage < pagesKnown) request(nextPage);
			const response = await requested.get(page);
			requested.delete(page);
			const taken = takePage(options, tracker, page, response, collected);
			if ('done' in taken) return { items: taken.done, totalFell: tracker.totalFell };
			if (taken.pagesKnown !== undefined) pagesKnown = taken.pagesKnown;
		}
	} finally {
		// no request of this list outlives it
		await Promise.allSettled(requested.values());
	}
}

/**
 * One page added to what was collected: the whole result once the list ends (limit, `until` or its
 * last page), or else how many pages the list now says it holds (when it says).
 */
function takePage<T>(
	options: ReadAllPagesOptions<T>,
	tracker: PageTracker<T>,
	page: number,
	response: unknown,
	collected: T[],
): { done: T[] } | { pagesKnown?: number } {
	const { pageSize, limit, keep, until, shape } = options;
	const listPage = readListPage<T>(response);
	if (!listPage) throw options.notAList();
	tracker.noteTotal(listPage.total);
	// one pass over the page, each record taken as it is read: no page-sized copies between the steps
	for (const item of listPage.items) {
		if (!tracker.isNew(item) || (keep && !keep(item))) continue;
		collected.push(shape ? shape(item) : item);
		if (collected.length >= limit || until?.(item)) return { done: collected };
	}
	const endOfList =
		listPage.items.length < pageSize ||
		(listPage.total !== undefined && (page + 1) * pageSize >= listPage.total);
	if (endOfList) return { done: collected };
	return {
		pagesKnown: listPage.total !== undefined ? Math.ceil(listPage.total / pageSize) : undefined,
	};
}

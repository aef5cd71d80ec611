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
 * (test/sandbox/DECISIONS.md "tolerant"): accept a bare array, { data } and { items } too.
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

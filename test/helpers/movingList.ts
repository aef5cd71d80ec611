/**
 * A bank list that moves while it is read, for tests of paging: records `{ id, created }` served by
 * 0-based page and limit as `{ total, results }` (or a bare array), with a change applied before every
 * page is answered (records added at its head or end, records removed).
 */
export interface ListRecord {
	id: string;
	created?: string;
	[key: string]: string | undefined;
}

/** What happens to the list just before a page is answered. */
export type ListChange =
	| { kind: 'none' }
	| { kind: 'addHead'; count: number }
	| { kind: 'addTail'; count: number }
	| { kind: 'remove'; at: number };

export class MovingList {
	private added = 0;
	/** Every page request, in order. */
	readonly requested: number[] = [];

	constructor(
		public records: ListRecord[],
		private readonly changes: (pageRequest: number) => ListChange,
		private readonly options: {
			withTotal?: boolean;
			/** The time of a record added now: newest-first lists add at the head, oldest-first at the end. */
			newTime?: () => string;
		} = {},
	) {}

	/** The answer to page `page` of `limit` records, after this request's change. */
	answer(page: number, limit: number): unknown {
		const change = this.changes(this.requested.length);
		this.requested.push(page);
		this.apply(change);
		const results = this.records.slice(page * limit, page * limit + limit);
		return this.options.withTotal === false ? results : { total: this.records.length, results };
	}

	private fresh(): ListRecord {
		this.added += 1;
		const created = this.options.newTime?.();
		return { id: `new-${this.added}`, ...(created !== undefined && { created }) };
	}

	private apply(change: ListChange): void {
		if (change.kind === 'addHead') {
			const added = Array.from({ length: change.count }, () => this.fresh());
			this.records = [...added.reverse(), ...this.records];
		} else if (change.kind === 'addTail') {
			this.records.push(...Array.from({ length: change.count }, () => this.fresh()));
		} else if (change.kind === 'remove' && this.records.length > 0) {
			this.records.splice(change.at % this.records.length, 1);
		}
	}
}

/** Records `0 … count-1` with times one minute apart, newest first or oldest first, from `newest`. */
export function timedRecords(
	count: number,
	order: 'newestFirst' | 'oldestFirst',
	newest = Date.UTC(2026, 10, 29, 12),
	stepMs = 60_000,
): ListRecord[] {
	const newestFirst = Array.from({ length: count }, (_, at) => ({
		id: `r${at}`,
		created: new Date(newest - at * stepMs).toISOString(),
	}));
	return order === 'newestFirst' ? newestFirst : newestFirst.reverse();
}

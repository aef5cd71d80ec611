/**
 * readAllPages over lists that move while they are read: each record once by its ID, and a list whose
 * `total` fell said so (table), and the same over random banks whose lists grow and shrink (fast-check);
 * and each page taken in one pass giving what the steps one after another give (fast-check).
 */
import fc from 'fast-check';

import { PageTracker, readAllPages } from '../../../../nodes/shared/transport/paginate';
import {
	type ListChange,
	type ListRecord,
	MovingList,
	timedRecords,
} from '../../../helpers/movingList';

const idOf = (record: ListRecord) => record.id;

async function readAll(list: MovingList, pageSize: number, withIds = true) {
	return await readAllPages<ListRecord>({
		pageSize,
		limit: Infinity,
		fetchPage: async (page) => list.answer(page, pageSize) as never,
		notAList: () => new Error('not a list'),
		idOf: withIds ? idOf : undefined,
	});
}

describe('PageTracker', () => {
	it.each([
		{
			name: 'a record seen on an earlier page is left out, the others kept in order',
			pages: [
				{ items: ['a', 'b'], total: 4 },
				{ items: ['b', 'c'], total: 5 },
			],
			fresh: [['a', 'b'], ['c']],
			totalFell: false,
		},
		{
			name: 'records without an ID are all kept',
			pages: [
				{ items: [undefined, 'a'], total: 4 },
				{ items: [undefined, 'a'], total: 4 },
			],
			fresh: [[undefined, 'a'], [undefined]],
			totalFell: false,
		},
		{
			name: 'a total lower than the page before: the list fell',
			pages: [
				{ items: ['a', 'b'], total: 5 },
				{ items: ['d', 'e'], total: 4 },
			],
			fresh: [
				['a', 'b'],
				['d', 'e'],
			],
			totalFell: true,
		},
		{
			name: 'a total that rose, then stayed: not a fall',
			pages: [
				{ items: ['a'], total: 3 },
				{ items: ['b'], total: 6 },
				{ items: ['c'], total: 6 },
			],
			fresh: [['a'], ['b'], ['c']],
			totalFell: false,
		},
		{
			name: 'a fall after a rise still counts',
			pages: [
				{ items: ['a'], total: 3 },
				{ items: ['b'], total: 6 },
				{ items: ['c'], total: 5 },
			],
			fresh: [['a'], ['b'], ['c']],
			totalFell: true,
		},
		{
			name: 'pages without a total: a fall cannot be seen',
			pages: [{ items: ['a', 'b'] }, { items: ['c'] }],
			fresh: [['a', 'b'], ['c']],
			totalFell: false,
		},
	])('$name', ({ pages, fresh, totalFell }) => {
		const tracker = new PageTracker<{ id?: string }>((record) => record.id);
		const seen = pages.map((page) =>
			tracker
				.fresh({
					items: page.items.map((id) => ({ id })),
					total: (page as { total?: number }).total,
				})
				.map((record) => record.id),
		);
		expect(seen).toEqual(fresh);
		expect(tracker.totalFell).toBe(totalFell);
	});

	it('without an ID field every record is kept', () => {
		const tracker = new PageTracker<{ id: string }>();
		const page = { items: [{ id: 'a' }, { id: 'a' }] };
		expect(tracker.fresh(page)).toHaveLength(2);
	});
});

describe('readAllPages over a list that moves', () => {
	it('1,200 records newest first, 40 added at the head while read: 1,240 distinct records, each once (without IDs: the 40 pushed across a boundary twice)', async () => {
		const changes = (request: number): ListChange =>
			request === 1 ? { kind: 'addHead', count: 40 } : { kind: 'none' };
		const newTime = () => new Date().toISOString();
		const withIds = await readAll(
			new MovingList(timedRecords(1200, 'newestFirst'), changes, { newTime }),
			500,
		);
		const ids = withIds.items.map(idOf);
		expect(new Set(ids).size).toBe(ids.length);
		for (let at = 0; at < 1200; at++) expect(ids).toContain(`r${at}`);
		expect(withIds.totalFell).toBe(false);

		const withoutIds = await readAll(
			new MovingList(timedRecords(1200, 'newestFirst'), changes, { newTime }),
			500,
			false,
		);
		const repeated = withoutIds.items.length - new Set(withoutIds.items.map(idOf)).size;
		expect(repeated).toBe(40);
	});

	it('a record removed before the page being read: the list says it fell', async () => {
		const records = timedRecords(1200, 'oldestFirst');
		const moved = records[500].id;
		const list = new MovingList([...records], (request) =>
			request === 1 ? { kind: 'remove', at: 3 } : { kind: 'none' },
		);
		const read = await readAll(list, 500);
		expect(read.totalFell).toBe(true);
		// the first record of page 1 moved onto page 0, read before it moved: this read missed it
		expect(read.items.map(idOf)).not.toContain(moved);
	});

	it('the answer to page 0 given: page 0 is not requested', async () => {
		const list = new MovingList(timedRecords(700, 'oldestFirst'), () => ({ kind: 'none' }));
		const read = await readAllPages<ListRecord>({
			pageSize: 500,
			limit: Infinity,
			fetchPage: async (page) => list.answer(page, 500) as never,
			notAList: () => new Error('not a list'),
			idOf,
			firstAnswer: { total: 700, results: timedRecords(700, 'oldestFirst').slice(0, 500) },
		});
		expect(read.items).toHaveLength(700);
		expect(list.requested).toEqual([1]);
	});
});

/** A random history of changes, one per page request. */
const changesArbitrary = (kinds: Array<ListChange['kind']>) =>
	fc.array(
		fc.oneof(
			...kinds.map((kind) =>
				kind === 'none'
					? fc.constant<ListChange>({ kind: 'none' })
					: kind === 'remove'
						? fc.nat(2000).map<ListChange>((at) => ({ kind: 'remove', at }))
						: fc.integer({ min: 1, max: 30 }).map<ListChange>((count) => ({ kind, count })),
			),
		),
		{ maxLength: 20 },
	);

describe('readAllPages, property: banks whose lists grow and shrink while read', () => {
	const run = (changes: ListChange[]) => (request: number) =>
		changes[request] ?? ({ kind: 'none' } as const);

	it('a list that only grows (at its head or end): every record there from the start, each once, and no fall reported', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 0, max: 60 }),
				fc.integer({ min: 1, max: 12 }),
				fc.constantFrom('newestFirst' as const, 'oldestFirst' as const),
				changesArbitrary(['none', 'addHead', 'addTail']),
				async (count, pageSize, order, changes) => {
					const list = new MovingList(timedRecords(count, order), run(changes));
					const read = await readAll(list, pageSize);
					const ids = read.items.map(idOf);
					expect(new Set(ids).size).toBe(ids.length);
					for (let at = 0; at < count; at++) expect(ids).toContain(`r${at}`);
					expect(read.totalFell).toBe(false);
				},
			),
			{ numRuns: 300 },
		);
	});

	it('a list that grows and shrinks: each record once, and every record there throughout is returned unless the read says the list fell', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 0, max: 60 }),
				fc.integer({ min: 1, max: 12 }),
				changesArbitrary(['none', 'addHead', 'addTail', 'remove']),
				async (count, pageSize, changes) => {
					const list = new MovingList(timedRecords(count, 'newestFirst'), run(changes));
					const start = new Set(list.records.map(idOf));
					const read = await readAll(list, pageSize);
					const ids = read.items.map(idOf);
					expect(new Set(ids).size).toBe(ids.length);
					const stayed = [...start].filter((id) => list.records.some((r) => r.id === id));
					const missing = stayed.filter((id) => !ids.includes(id));
					if (missing.length > 0) expect(read.totalFell).toBe(true);
				},
			),
			{ numRuns: 300 },
		);
	});
});

describe('readAllPages takes each page in one pass', () => {
	interface Row {
		id?: string;
		n: number;
	}
	/** The definition, step by step over the whole list: each ID once, kept, up to the first match of `until`, shaped, at most `limit`. */
	function expected(
		pages: Row[][],
		limit: number,
		keep?: (row: Row) => boolean,
		until?: (row: Row) => boolean,
	) {
		const seen = new Set<string>();
		const fresh = pages.flat().filter((row) => {
			if (row.id === undefined) return true;
			if (seen.has(row.id)) return false;
			seen.add(row.id);
			return true;
		});
		const kept = keep ? fresh.filter(keep) : fresh;
		const match = until ? kept.findIndex(until) : -1;
		return (match >= 0 ? kept.slice(0, match + 1) : kept)
			.slice(0, limit)
			.map((row) => ({ shaped: row.n }));
	}

	it('returns what the steps one after another return, for any pages, limit, filter and stop', async () => {
		const row = fc.record(
			{
				id: fc.option(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { nil: undefined }),
				n: fc.integer({ min: 0, max: 9 }),
			},
			{ requiredKeys: ['n'] },
		);
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 1, max: 4 }),
				fc.array(row, { maxLength: 30 }),
				fc.oneof(fc.constant(Infinity), fc.integer({ min: 1, max: 12 })),
				fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined }),
				fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined }),
				async (pageSize, rows, limit, keepAbove, stopAt) => {
					const pages: Row[][] = [];
					for (let at = 0; at < rows.length; at += pageSize)
						pages.push(rows.slice(at, at + pageSize));
					if (rows.length % pageSize === 0) pages.push([]);
					const keep = keepAbove === undefined ? undefined : (r: Row) => r.n >= keepAbove;
					const until = stopAt === undefined ? undefined : (r: Row) => r.n === stopAt;
					const read = await readAllPages<Row>({
						pageSize,
						limit,
						keep,
						until,
						shape: (r) => ({ shaped: r.n }) as unknown as Row,
						fetchPage: async (page) => pages[page],
						notAList: () => new Error('not a list'),
						idOf: (r) => r.id,
					});
					expect(read.items).toEqual(expected(pages, limit, keep, until));
				},
			),
			{ numRuns: 500 },
		);
	});
});

/**
 * readRecentPages: the records made since a time, read from a list's newest end only where its records'
 * times and its order are established from what is read; otherwise every page, saying why. Table tests,
 * adversarial lists, and random lists that move while read (fast-check).
 */
import fc from 'fast-check';

import {
	createdTimeAt,
	newestFirst,
	readRecentPages,
	type RecentRead,
} from '../../../../nodes/shared/transport/recentPages';
import {
	type ListChange,
	type ListRecord,
	MovingList,
	timedRecords,
} from '../../../helpers/movingList';

const NEWEST = Date.UTC(2026, 10, 29, 12);
const MINUTE = 60_000;

async function readRecent(
	list: MovingList,
	pageSize: number,
	since: number,
): Promise<RecentRead<ListRecord>> {
	return await readRecentPages<ListRecord>({
		pageSize,
		since,
		timeOf: (record) => createdTimeAt(record, ['created']),
		idOf: (record) => record.id,
		fetchPage: async (page) => list.answer(page, pageSize) as never,
		notAList: () => new Error('not a list'),
	});
}

const still = () => ({ kind: 'none' }) as const;

describe('createdTimeAt', () => {
	it.each([
		['ISO with a zone', { created: '2026-11-29T12:00:00+01:00' }, Date.UTC(2026, 10, 29, 11)],
		['ISO without a zone: UTC', { created: '2026-11-29T12:00:00' }, Date.UTC(2026, 10, 29, 12)],
		[
			"the spec's zoneless form: UTC",
			{ created: '2026-11-29 12:00:00' },
			Date.UTC(2026, 10, 29, 12),
		],
		['absent', {}, undefined],
		['not a time', { created: 'yesterday' }, undefined],
		['not a string', { created: 1764417600000 }, undefined],
	])('%s', (_, record, expected) => {
		expect(createdTimeAt(record, ['created'])).toBe(expected);
	});

	it('follows a path into the record', () => {
		const record = { meta: { created: '2026-11-29T12:00:00Z' } };
		expect(createdTimeAt(record, ['meta', 'created'])).toBe(Date.UTC(2026, 10, 29, 12));
		expect(createdTimeAt({ meta: 'x' }, ['meta', 'created'])).toBeUndefined();
	});
});

describe('readRecentPages', () => {
	// 2,000 records one minute apart; the horizon 250 minutes back: 251 records are that recent
	const since = NEWEST - 250 * MINUTE;

	it.each([
		{
			name: 'newest first: pages from the start until one ends older than the horizon, then the last page',
			records: timedRecords(2000, 'newestFirst'),
			requested: [0, 1, 2, 19],
			coverage: { read: 'recent', since, order: 'newestFirst' },
		},
		{
			name: 'oldest first with a total: the first page, then from the last backwards',
			records: timedRecords(2000, 'oldestFirst'),
			requested: [0, 19, 18, 17],
			coverage: { read: 'recent', since, order: 'oldestFirst' },
		},
		{
			name: 'a list that ends on its first page: that page',
			records: timedRecords(80, 'newestFirst'),
			requested: [0],
			coverage: { read: 'whole' },
		},
		{
			name: 'newest first and all within the horizon: every page',
			records: timedRecords(230, 'newestFirst'),
			requested: [0, 1, 2],
			coverage: { read: 'whole' },
		},
	])('$name', async ({ records, requested, coverage }) => {
		const list = new MovingList(records, still);
		const read = await readRecent(list, 100, since);
		expect(list.requested).toEqual(requested);
		expect(read.coverage).toEqual(coverage);
		const recent = records.filter((r) => Date.parse(r.created as string) >= since);
		const ids = read.items.map((r) => r.id);
		for (const record of recent) expect(ids).toContain(record.id);
	});

	describe('where times or order cannot be established: every page, and why', () => {
		it.each([
			{
				name: 'no times (spec-minimal)',
				records: timedRecords(450, 'newestFirst').map(({ id }) => ({ id })),
				why: 'noTimes',
			},
			{
				name: 'a record without a time on a later page',
				records: timedRecords(450, 'newestFirst').map((r, at) => (at === 150 ? { id: r.id } : r)),
				why: 'noTimes',
			},
			{
				name: 'times in no order on the first page',
				records: timedRecords(450, 'newestFirst').map((r, at) =>
					at === 3 ? { ...r, created: new Date(NEWEST + MINUTE).toISOString() } : r,
				),
				why: 'noOrder',
			},
			{
				name: 'newest first on the first page, a newer record on a later one',
				records: timedRecords(450, 'newestFirst').map((r, at) =>
					at === 150 ? { ...r, created: new Date(NEWEST).toISOString() } : r,
				),
				why: 'noOrder',
			},
			{
				name: 'all times equal',
				records: timedRecords(450, 'newestFirst').map((r) => ({
					...r,
					created: new Date(NEWEST).toISOString(),
				})),
				why: 'noOrder',
			},
		])('$name', async ({ records, why }) => {
			const list = new MovingList(records, still);
			// the horizon reaches the later pages: what is read there must keep the order
			const read = await readRecent(list, 100, NEWEST - 300 * MINUTE);
			expect(read.coverage).toEqual({ read: 'whole', why });
			expect(new Set(read.items.map((r) => r.id))).toEqual(new Set(records.map((r) => r.id)));
		});

		it('oldest first without a total: every page', async () => {
			const records = timedRecords(450, 'oldestFirst');
			const list = new MovingList(records, still, { withTotal: false });
			const read = await readRecent(list, 100, NEWEST - 10 * MINUTE);
			expect(read.coverage).toEqual({ read: 'whole', why: 'noTotal' });
			expect(read.items).toHaveLength(450);
		});

		it('newest first on the pages read, but the last page holds a newer record: every page', async () => {
			const records = timedRecords(2000, 'newestFirst').map((r, at) =>
				at === 1990 ? { ...r, created: new Date(NEWEST + MINUTE).toISOString() } : r,
			);
			const list = new MovingList(records, still);
			const read = await readRecent(list, 100, NEWEST - 50 * MINUTE);
			expect(read.coverage).toEqual({ read: 'whole', why: 'noOrder' });
			expect(read.items.map((r) => r.id)).toContain('r1990');
			expect(read.items).toHaveLength(2000);
		});

		it('oldest first on the pages read, but the first page holds a newer record than the last read: every page', async () => {
			const records = timedRecords(2000, 'oldestFirst').map((r, at) =>
				at === 99 ? { ...r, created: new Date(NEWEST - 10 * MINUTE).toISOString() } : r,
			);
			const list = new MovingList(records, still);
			const read = await readRecent(list, 100, NEWEST - 150 * MINUTE);
			expect(read.coverage).toEqual({ read: 'whole', why: 'noOrder' });
			expect(read.items).toHaveLength(2000);
		});
	});

	it('a record just inside the horizon is read, one just beyond it may not be', async () => {
		const records = timedRecords(2000, 'newestFirst');
		const boundary = Date.parse(records[620].created as string);
		const list = new MovingList(records, still);
		const read = await readRecent(list, 100, boundary);
		const ids = read.items.map((r) => r.id);
		expect(ids).toContain('r620');
		expect(read.coverage).toMatchObject({ read: 'recent' });
		expect(ids).not.toContain('r800');
	});
});

describe('readRecentPages, property: random lists that move while read', () => {
	const changesArbitrary = (kinds: Array<ListChange['kind']>) =>
		fc.array(
			fc.oneof(
				...kinds.map((kind) =>
					kind === 'remove'
						? fc.nat(3000).map<ListChange>((at) => ({ kind: 'remove', at }))
						: kind === 'none'
							? fc.constant<ListChange>({ kind: 'none' })
							: fc.integer({ min: 1, max: 30 }).map<ListChange>((count) => ({ kind, count })),
				),
			),
			{ maxLength: 12 },
		);
	const newTime = () => new Date(NEWEST + MINUTE).toISOString();

	it('newest first, growing at its head: every record since the horizon there from the start, each once', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 0, max: 400 }),
				fc.integer({ min: 2, max: 50 }),
				fc.integer({ min: 0, max: 400 }),
				changesArbitrary(['none', 'addHead']),
				async (count, pageSize, back, changes) => {
					const records = timedRecords(count, 'newestFirst');
					const since = NEWEST - back * MINUTE;
					const list = new MovingList([...records], (at) => changes[at] ?? { kind: 'none' }, {
						newTime,
					});
					const read = await readRecent(list, pageSize, since);
					const ids = read.items.map((r) => r.id);
					expect(new Set(ids).size).toBe(ids.length);
					for (const record of records) {
						if (Date.parse(record.created as string) >= since) expect(ids).toContain(record.id);
					}
					expect(read.totalFell).toBe(false);
				},
			),
			{ numRuns: 300 },
		);
	});

	it('oldest first, shrinking and growing at its end, read backwards: every record since the horizon that stayed, each once, unless the read says the list fell', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 0, max: 400 }),
				fc.integer({ min: 2, max: 50 }),
				fc.integer({ min: 0, max: 400 }),
				changesArbitrary(['none', 'addTail', 'remove']),
				async (count, pageSize, back, changes) => {
					const records = timedRecords(count, 'oldestFirst');
					const since = NEWEST - back * MINUTE;
					const list = new MovingList([...records], (at) => changes[at] ?? { kind: 'none' }, {
						newTime,
					});
					const read = await readRecent(list, pageSize, since);
					const ids = read.items.map((r) => r.id);
					expect(new Set(ids).size).toBe(ids.length);
					const stayed = new Set(list.records.map((r) => r.id));
					const missing = records.filter(
						(r) =>
							stayed.has(r.id) && Date.parse(r.created as string) >= since && !ids.includes(r.id),
					);
					// records that left the list before its last page was read can move the newest past it: the read says so
					if (missing.length > 0) expect(read.totalFell).toBe(true);
				},
			),
			{ numRuns: 300 },
		);
	});

	it('records in random times, sorted newest first or not: a sorted list gives every recent record; otherwise the whole list, or records that all keep the order claimed (the pages between the first and the last are not seen)', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 0, maxLength: 300 }),
				fc.integer({ min: 2, max: 50 }),
				fc.boolean(),
				async (offsets, pageSize, sorted) => {
					const ordered = sorted ? [...offsets].sort((a, b) => a - b) : offsets;
					const records = ordered.map((offset, at) => ({
						id: `r${at}`,
						created: new Date(NEWEST - offset * MINUTE).toISOString(),
					}));
					const since = NEWEST - 100 * MINUTE;
					const list = new MovingList(records, still);
					const read = await readRecent(list, pageSize, since);
					const ids = read.items.map((r) => r.id);
					if (read.coverage.read === 'whole') expect(read.items).toHaveLength(records.length);
					if (sorted) {
						for (const record of records.filter((r) => Date.parse(r.created) >= since))
							expect(ids).toContain(record.id);
					} else if (read.coverage.read === 'recent' && read.coverage.order === 'newestFirst') {
						// read in list order, the last page last: every time at most the one before
						const times = read.items.map((r) => Date.parse(r.created as string));
						for (let at = 1; at < times.length; at++)
							expect(times[at]).toBeLessThanOrEqual(times[at - 1]);
					}
				},
			),
			{ numRuns: 500 },
		);
	});
});

describe("newestFirst: a list newest first, by its records' times when all show one", () => {
	const at = (id: string, created?: string) => ({ id, ...(created !== undefined && { created }) });
	it.each([
		[
			'oldest-first list, ISO and spec times',
			[at('a', '2026-01-01 09:00:00'), at('b', '2026-01-02T00:00:00+01:00')],
			['b', 'a'],
		],
		[
			'newest-first list',
			[at('b', '2026-01-02T10:00:00Z'), at('a', '2026-01-01T10:00:00Z')],
			['b', 'a'],
		],
		[
			'a record without a time: the list reversed',
			[at('b', '2026-01-02T10:00:00Z'), at('a')],
			['a', 'b'],
		],
		['an unreadable time: the list reversed', [at('b', '2026-01-02'), at('a', 'soon')], ['a', 'b']],
		['no records', [], []],
	])('%s', (_case, records, ids) => {
		expect(newestFirst(records, ['created']).map((record) => record.id)).toEqual(ids);
	});
});

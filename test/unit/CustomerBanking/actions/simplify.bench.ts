/**
 * Micro-benchmark of Simplify beside its unit test (a benchmark, not a test: nothing is asserted on
 * time). 50,000 transactions of the shape issue 41 measured (xtid, xaid, amount, status, direction,
 * reference, currency, createdDate; amounts whole and with cents, as a bank sends them), parsed page by
 * page from JSON as n8n's HTTP client does, each page then simplified, as Return All does; beside it
 * the same pages copied record by record (`{ ...record }`), the cost Simplify is measured against.
 * Main-thread time per record, the first round (a fresh process: code not yet optimised, heap not yet
 * grown, as in `n8n execute`) and the later rounds apart.
 *
 * Run: `npx tsx test/unit/CustomerBanking/actions/simplify.bench.ts [rounds]`.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { simplifyRecord } from '../../../../nodes/CustomerBanking/actions/simplify';

const RECORDS = 50_000;
const PAGE = 500;
const ROUNDS = Number(process.argv[2] ?? 6);

function pageText(page: number): string {
	const results = Array.from({ length: PAGE }, (_, at) => {
		const i = page * PAGE + at;
		return {
			xtid: randomUUID(),
			xaid: 'a1b2c3d4-0000-4000-8000-000000000001',
			amount: i % 5 === 0 ? 100 + (i % 1000) : (10_000 + i) / 100,
			status: i % 3 === 0 ? 'sent' : 'settled',
			direction: i % 2 === 0 ? 'incoming' : 'outgoing',
			reference: `Invoice ${i}`,
			currency: 'GBP',
			createdDate: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
		};
	});
	return JSON.stringify({ total: RECORDS, results });
}

const pages = Array.from({ length: RECORDS / PAGE }, (_, page) => pageText(page));

const ways: Record<string, (record: IDataObject) => IDataObject> = {
	'a copy of each record': (record) => ({ ...record }),
	Simplify: (record) => simplifyRecord('transaction', record),
};

/** Milliseconds of this thread spent shaping every page (parsing not counted), and the records kept. */
function round(shape: (record: IDataObject) => IDataObject): { ms: number; kept: number } {
	const parsed = pages.map((text) => (JSON.parse(text) as { results: IDataObject[] }).results);
	const kept: IDataObject[] = [];
	const started = performance.now();
	for (const results of parsed) kept.push(...results.map(shape));
	return { ms: performance.now() - started, kept: kept.length };
}

const perRecord = (ms: number) => `${((ms * 1000) / RECORDS).toFixed(2)} µs`;

console.log(
	`${RECORDS} records in pages of ${PAGE}, ${ROUNDS} rounds per way, Node ${process.version}`,
);
console.log('| way | first round, per record | later rounds, median per record |');
console.log('|---|---|---|');
for (const [name, shape] of Object.entries(ways)) {
	const times: number[] = [];
	for (let r = 0; r < ROUNDS; r++) {
		const { ms, kept } = round(shape);
		if (kept !== RECORDS) throw new Error(`${name}: ${kept} records kept of ${RECORDS}`);
		times.push(ms);
	}
	const later = times.slice(1).sort((a, b) => a - b);
	console.log(
		`| ${name} | ${perRecord(times[0])} | ${perRecord(later[Math.floor(later.length / 2)])} |`,
	);
}

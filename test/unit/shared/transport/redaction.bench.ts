/**
 * Micro-benchmark of the secret check of a successful read beside its unit test (a benchmark, not a
 * test: nothing is asserted on time). 50,000 transactions of the shape issue 41 measured (xtid, xaid,
 * amount, status, direction, reference, currency, createdDate), parsed page by page from JSON as n8n's
 * HTTP client does, each page then checked for three secrets of a credential (a client secret, an
 * access token, a signing secret) that it does not hold, as Return All does with every answer; beside
 * it `JSON.stringify` of each page, the serialisation the check once started with. Main-thread time,
 * the first round (a fresh process: code not yet optimised, as in `n8n execute`) and the later rounds
 * apart.
 *
 * Run: `npx tsx test/unit/shared/transport/redaction.bench.ts [rounds]`.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { scrubSecrets } from '../../../../nodes/shared/transport/redaction';

const RECORDS = 50_000;
const PAGE = 500;
const ROUNDS = Number(process.argv[2] ?? 6);
const XAID = randomUUID();
const SECRETS = [
	'cs_live_4f3e2d1c0b9a8f7e6d5c4b3a',
	'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjbGllbnQtMSJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ',
	'whsec_0123456789abcdef0123456789abcdef',
];

function pageText(page: number): string {
	const results = Array.from({ length: PAGE }, (_, at) => {
		const i = page * PAGE + at;
		return {
			xtid: randomUUID(),
			xaid: XAID,
			amount: i % 5 === 0 ? 10 + (i % 990) : (1000 + (i % 99_000)) / 100,
			status: i % 7 === 0 ? 'sent' : 'settled',
			direction: i % 3 === 0 ? 'outgoing' : 'incoming',
			reference: `Invoice ${100_000 + i}`,
			currency: 'GBP',
			createdDate: new Date(Date.UTC(2026, 0, 1) + i * 61_000).toISOString(),
		};
	});
	return JSON.stringify({ total: RECORDS, results });
}

const pages = Array.from({ length: RECORDS / PAGE }, (_, page) => pageText(page));

const ways: Record<string, (page: IDataObject) => unknown> = {
	'JSON.stringify of each page (no check)': (page) => JSON.stringify(page),
	'the secret check (scrubSecrets)': (page) => {
		if (scrubSecrets(page, SECRETS) !== page) throw new Error('a page without secrets was copied');
		return page;
	},
};

/** Milliseconds of this thread spent on every page (parsing not counted). */
function round(check: (page: IDataObject) => unknown): number {
	const parsed = pages.map((text) => JSON.parse(text) as IDataObject);
	const started = performance.now();
	for (const page of parsed) check(page);
	return performance.now() - started;
}

const perRecord = (ms: number) => `${((ms * 1000) / RECORDS).toFixed(2)} µs`;

console.log(
	`${RECORDS} records in pages of ${PAGE}, ${ROUNDS} rounds per way, Node ${process.version}`,
);
console.log('| way | first round, per record | later rounds, median per record |');
console.log('|---|---|---|');
for (const [name, check] of Object.entries(ways)) {
	const times = Array.from({ length: ROUNDS }, () => round(check));
	const later = times.slice(1).sort((a, b) => a - b);
	console.log(
		`| ${name} | ${perRecord(times[0])} | ${perRecord(later[Math.floor(later.length / 2)])} |`,
	);
}

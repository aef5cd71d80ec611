/**
 * What Skip Payments Already Made costs: one Submit of one new payment, with the check on and off, against
 * an account holding N earlier transactions, in-process against the sandbox on loopback (the node's own
 * code and the bank's, no n8n around them). The history is spread over the days before now at
 * BENCH_PER_DAY transactions a day (default 20), as a business account's builds up: with Look Back
 * (Days) 90 the look-up reads only the pages back to then, without it every page. Prints requests, list
 * pages and median milliseconds per N, for the check off, on, and on with Look Back 90.
 * Run: `npm run bench:duplicate-check` (BENCH_RUNS=5 BENCH_SIZES=0,1000,10000,50000 BENCH_PER_DAY=20).
 * It runs under jest, whose module resolution the in-process harness needs (tsx takes
 * `CustomerBanking.node` for the .json).
 */
import { credentialsFor } from '../helpers/sandboxCredentials';
import { byId, runPayments } from '../integration/payments/paymentNode';
import { type Sandbox, startSandbox } from '../sandbox/index';

const RUNS = Number(process.env.BENCH_RUNS ?? '5');
const SIZES = (process.env.BENCH_SIZES ?? '0,1000,10000,50000').split(',').map(Number);
const PER_DAY = Number(process.env.BENCH_PER_DAY ?? '20');
const DAY = 24 * 60 * 60 * 1000;

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A bank whose account holds `size` transactions, PER_DAY a day, the last made today. */
async function bankWithHistory(size: number): Promise<Sandbox> {
	const days = Math.ceil(size / PER_DAY);
	const started = Date.now();
	const sandbox = await startSandbox({ port: 0, now: new Date(started - days * DAY) });
	const { gbp } = sandbox.seeded.accounts;
	for (let seeded = 0; seeded < size; seeded += PER_DAY) {
		await sandbox.control.seedTransactions(gbp, Math.min(PER_DAY, size - seeded));
		await sandbox.control.advanceClock(DAY);
	}
	// started `days` back and advanced `days`: the bank's clock is the node's again
	return sandbox;
}

const isListPage = (url: string) => /\/account\/[^/]+\/(transactions|approvals)$/.test(url);

async function measure(): Promise<string[]> {
	let counter = 0;
	const rows = ['transactions | check        | requests | list pages | median ms'];
	const checks = [
		{ name: 'off         ', skipAlreadyMade: false, options: {} },
		{ name: 'on          ', skipAlreadyMade: true, options: {} },
		{ name: 'on, 90 days ', skipAlreadyMade: true, options: { lookBackDays: 90 } },
	];
	for (const size of SIZES) {
		const sandbox = await bankWithHistory(size);
		const credentials = credentialsFor(sandbox);
		const { gbp } = sandbox.seeded.accounts;
		try {
			for (const { name, skipAlreadyMade, options } of checks) {
				const times: number[] = [];
				let requests = 0;
				let listPages = 0;
				for (let run = 0; run < RUNS; run++) {
					const started = performance.now();
					const result = await runPayments(sandbox, credentials, {
						executionId: `bench-${++counter}`,
						parameters: {
							operation: 'submit',
							account: byId(gbp),
							payee: byId(sandbox.seeded.payees.gbp),
							amount: 1,
							reference: `BENCH-${counter}`,
							skipAlreadyMade,
							options,
						},
					});
					times.push(performance.now() - started);
					if (result.error) throw result.error;
					const api = result.requests.filter((request) => request.url.startsWith(sandbox.baseUrl));
					requests = api.length;
					listPages = api.filter((request) => isListPage(request.url.split('?')[0])).length;
				}
				rows.push(
					`${String(size).padStart(12)} | ${name} | ${String(requests).padStart(8)} | ${String(listPages).padStart(10)} | ${median(times).toFixed(0).padStart(9)}`,
				);
			}
		} finally {
			await sandbox.close();
		}
	}
	return rows;
}

test('Skip Payments Already Made: requests, list pages and time by account size', async () => {
	const rows = await measure();
	process.stdout.write(`${rows.join('\n')}\n`);
	expect(rows).toHaveLength(1 + SIZES.length * 3);
}, 1_800_000);

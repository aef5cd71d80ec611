/**
 * What Skip Payments Already Made costs: one Submit of one new payment, with the check on and off, against
 * an account holding N transactions, in-process against the sandbox on loopback (the node's own code and
 * the bank's, no n8n around them). Prints requests and median milliseconds per N.
 * Run: `npm run bench:duplicate-check` (BENCH_RUNS=5 BENCH_SIZES=0,1000,10000,50000). It runs under jest,
 * whose module resolution the in-process harness needs (tsx takes `CustomerBanking.node` for the .json).
 */
import { credentialsFor } from '../helpers/sandboxCredentials';
import { byId, runPayments } from '../integration/payments/paymentNode';
import { startSandbox } from '../sandbox/index';

const RUNS = Number(process.env.BENCH_RUNS ?? '5');
const SIZES = (process.env.BENCH_SIZES ?? '0,1000,10000,50000').split(',').map(Number);

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measure(): Promise<string[]> {
	const sandbox = await startSandbox({ port: 0 });
	const credentials = credentialsFor(sandbox);
	const { gbp } = sandbox.seeded.accounts;
	let seeded = sandbox.control.ledger().transactions.filter((t) => t.xaid === gbp).length;
	let counter = 0;
	const rows = ['transactions | check | requests | median ms'];
	try {
		for (const size of SIZES) {
			if (size > seeded) {
				await sandbox.control.seedTransactions(gbp, size - seeded);
				seeded = size;
			}
			for (const skipAlreadyMade of [false, true]) {
				const times: number[] = [];
				let requests = 0;
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
						},
					});
					times.push(performance.now() - started);
					if (result.error) throw result.error;
					requests = result.requests.length;
				}
				rows.push(
					`${String(size).padStart(12)} | ${skipAlreadyMade ? 'on ' : 'off'}   | ${String(requests).padStart(8)} | ${median(times).toFixed(0).padStart(9)}`,
				);
			}
		}
	} finally {
		await sandbox.close();
	}
	return rows;
}

test('Skip Payments Already Made: requests and time by account size', async () => {
	const rows = await measure();
	process.stdout.write(`${rows.join('\n')}\n`);
	expect(rows).toHaveLength(1 + SIZES.length * 2);
}, 1_800_000);

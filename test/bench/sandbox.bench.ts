/**
 * Sandbox throughput: rounds of 1,000 concurrent requests on loopback (reads and payments mixed),
 * no errors allowed. Run: `npx tsx test/bench/sandbox.bench.ts [--rounds 5] [--concurrency 1000]`.
 */
import { randomUUID } from 'node:crypto';

import { Agent, request } from 'undici';

import { startSandbox } from '../sandbox/index';

function option(name: string, fallback: number): number {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? fallback : Number(process.argv[index + 1]);
}

const ROUNDS = option('rounds', 5);
const CONCURRENCY = option('concurrency', 1000);

async function main(): Promise<void> {
	const sandbox = await startSandbox({ port: 0 });
	const agent = new Agent({ connections: CONCURRENCY, pipelining: 1 });
	try {
		const client = sandbox.clients.full;
		const tokenReply = await request(sandbox.tokenUrl, {
			method: 'POST',
			dispatcher: agent,
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({
				client_id: client.clientId,
				client_secret: client.clientSecret,
				audience: sandbox.audience,
				grant_type: 'client_credentials',
			}).toString(),
		});
		const { access_token: token } = (await tokenReply.body.json()) as { access_token: string };
		const { gbp } = sandbox.seeded.accounts;
		const auth = { authorization: `Bearer ${token}` };

		// A quarter each: account list, balance, payee list, payment (small, below the approval policy).
		const send = (i: number) => {
			switch (i % 4) {
				case 0:
					return request(`${sandbox.baseUrl}/accounts`, { dispatcher: agent, headers: auth });
				case 1:
					return request(`${sandbox.baseUrl}/account/${gbp}/balance`, {
						dispatcher: agent,
						headers: auth,
					});
				case 2:
					return request(`${sandbox.baseUrl}/account/${gbp}/payees`, {
						dispatcher: agent,
						headers: auth,
					});
				default:
					return request(`${sandbox.baseUrl}/payments`, {
						method: 'POST',
						dispatcher: agent,
						headers: {
							...auth,
							'content-type': 'application/json',
							'x-idempotent-key': randomUUID(),
						},
						body: JSON.stringify({
							xaid: gbp,
							xpid: sandbox.seeded.payees.gbp,
							amount: 1,
							reference: 'BENCH-000001',
						}),
					});
			}
		};

		let errors = 0;
		let payments = 0;
		const results: Array<{ round: number; ms: number; rps: number; p50: number; p99: number }> = [];
		for (let round = 0; round <= ROUNDS; round++) {
			const latencies: number[] = [];
			const started = performance.now();
			await Promise.all(
				Array.from({ length: CONCURRENCY }, async (_, i) => {
					const t0 = performance.now();
					try {
						const reply = await send(i);
						await reply.body.dump();
						const expected = i % 4 === 3 ? 202 : 200;
						if (reply.statusCode !== expected) errors++;
						else if (expected === 202) payments++;
					} catch {
						errors++;
					}
					latencies.push(performance.now() - t0);
				}),
			);
			const ms = performance.now() - started;
			latencies.sort((a, b) => a - b);
			const at = (q: number) =>
				latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
			// round 0 warms up sockets and the JIT and is not reported
			if (round > 0)
				results.push({ round, ms, rps: (CONCURRENCY / ms) * 1000, p50: at(0.5), p99: at(0.99) });
		}

		const balance = sandbox.control.ledger().accounts.find((a) => a.xaid === gbp);
		console.log(
			`sandbox bench: ${ROUNDS} rounds of ${CONCURRENCY} concurrent requests (25% payments) on loopback`,
		);
		for (const r of results) {
			console.log(
				`  round ${r.round}: ${r.ms.toFixed(0)} ms, ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms`,
			);
		}
		const mean = results.reduce((sum, r) => sum + r.rps, 0) / results.length;
		console.log(
			`  mean ${mean.toFixed(0)} req/s; errors ${errors}; payments ${payments}; GBP pending ${balance?.pendingBalance}`,
		);
		if (errors > 0 || balance?.pendingBalance !== payments) process.exitCode = 1;
	} finally {
		await agent.close();
		await sandbox.close();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});

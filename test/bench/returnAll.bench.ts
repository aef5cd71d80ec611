/**
 * Return All of 50,000 transactions through the action node inside a real n8n (the e2e harness), timed
 * from the webhook call to the workflow's answer: medians of several runs, pages and token exchanges the
 * bank saw. Run: `npx tsx test/bench/returnAll.bench.ts [--runs 7] [--transactions 50000]`.
 */
import { activate, createCredential, credentialData, importWorkflow, startStack } from '../e2e/lib/stack';
import { defaultVersion } from '../e2e/lib/install';
import { buildAndPack } from '../e2e/lib/pack';

function option(name: string, fallback: number): number {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? fallback : Number(process.argv[index + 1]);
}

async function main(): Promise<void> {
	const runs = option('runs', 7);
	const count = option('transactions', 50_000);
	buildAndPack();
	const stack = await startStack(defaultVersion);
	try {
		const { n8n, sandbox } = stack;
		const { id } = await createCredential(n8n, 'Customer Banking sandbox', credentialData(sandbox));
		const workflow = await importWorkflow(n8n, 'account-transactions.json', { CREDENTIAL_ID: id });
		await activate(n8n, workflow.id);
		const xaid = sandbox.seeded.accounts.gbp;
		await sandbox.control.seedTransactions(xaid, count);
		const times: number[] = [];
		for (let run = 0; run <= runs; run++) {
			sandbox.control.clearRequests();
			const started = performance.now();
			let answer = await n8n.http('POST', '/webhook/e2e-account-transactions', { body: { xaid } });
			while (answer.status === 404) answer = await n8n.http('POST', '/webhook/e2e-account-transactions', { body: { xaid } });
			const elapsed = performance.now() - started;
			if (answer.status !== 200) throw new Error(`run ${run}: ${answer.status} ${answer.text.slice(0, 300)}`);
			const requests = sandbox.control.requests();
			const pages = requests.filter((r) => r.path.endsWith('/transactions')).length;
			const tokens = requests.filter((r) => r.area === 'auth').length;
			// the first run warms n8n up (and fetches the token): not counted
			if (run > 0) times.push(elapsed);
			console.log(`run ${run}: ${elapsed.toFixed(0)} ms, ${pages} pages, ${tokens} token exchanges`);
		}
		const sorted = [...times].sort((a, b) => a - b);
		console.log(`Return All ${count} transactions in n8n ${defaultVersion}: median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms (min ${sorted[0].toFixed(0)}, max ${sorted[sorted.length - 1].toFixed(0)}) over ${times.length} runs`);
	} finally {
		await stack.stop();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});

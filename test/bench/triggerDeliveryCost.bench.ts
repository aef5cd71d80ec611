/**
 * The trigger's cost per delivery as deliveries pile up (flat after 10,000): webhook() in
 * process, fetch off, with static data read from and saved to a "database" copy on every call as n8n
 * does, timed per block of 1,000 signed deliveries. Then a flood of forged deliveries (a
 * current timestamp, a wrong signature), 50 at a time: refusals per second, CPU per refusal, and how
 * many credential reads and log lines they caused.
 * Run: `npx tsx test/bench/triggerDeliveryCost.bench.ts [--deliveries 12000] [--forged 20000]`.
 */
import { createHmac, randomUUID } from 'node:crypto';
import Module from 'node:module';

import type { IDataObject } from 'n8n-workflow';

import { credentialsFor } from '../helpers/sandboxCredentials';
// the .js suffix: tsx would otherwise resolve the codex file CustomerBankingTrigger.node.json
import { CustomerBankingTrigger } from '../../nodes/CustomerBankingTrigger/CustomerBankingTrigger.node.js';
import { startSandbox } from '../sandbox/index';

const index = process.argv.indexOf('--deliveries');
const DELIVERIES = index === -1 ? 12_000 : Number(process.argv[index + 1]);
const BLOCK = 1000;
const forgedIndex = process.argv.indexOf('--forged');
const FORGED = forgedIndex === -1 ? 20_000 : Number(process.argv[forgedIndex + 1]);
const FORGED_CONCURRENCY = 50;

// n8nContext imports the nodes as `….node`, which Node resolves to the codex file `….node.json` before
// tsx gets to `….node.ts`: resolve those to the TypeScript source, then load it.
const loader = Module as unknown as {
	_resolveFilename: (request: string, ...rest: unknown[]) => string;
};
const resolveFilename = loader._resolveFilename;
loader._resolveFilename = function (request: string, ...rest: unknown[]): string {
	if (request.endsWith('.node')) {
		try {
			return resolveFilename.call(this, `${request}.ts`, ...rest);
		} catch {
			// not one of ours: resolved as usual below
		}
	}
	return resolveFilename.call(this, request, ...rest);
};

async function main(): Promise<void> {
	const { createWebhookContext } = await import('../helpers/n8nContext');
	const sandbox = await startSandbox({ port: 0 });
	try {
		const gbp = sandbox.seeded.accounts.gbp;
		const credentials = credentialsFor(sandbox);
		const parameters = {
			accounts: [gbp],
			events: ['transactionReceived'],
			fetchTransaction: false,
		};
		let database: IDataObject = {};
		const trigger = new CustomerBankingTrigger();
		const blocks: number[] = [];
		let started = process.hrtime.bigint();
		for (let n = 1; n <= DELIVERIES; n++) {
			const body = Buffer.from(
				JSON.stringify({
					deliveryId: randomUUID(),
					event: 'TransactionReceived',
					xaid: gbp,
					xtid: randomUUID(),
				}),
			);
			const timestamp = Math.floor(Date.now() / 1000);
			const signature = createHmac('sha256', sandbox.signingSecret)
				.update(`${timestamp}.`)
				.update(body)
				.digest('hex');
			const staticData = { node: structuredClone(database), global: {} };
			const { context } = createWebhookContext({
				credentials,
				parameters,
				nodeType: trigger,
				node: { name: 'Customer Banking Trigger', id: 'bench-trigger' },
				workflowId: 'bench',
				body,
				headers: { 'x-cb-timestamp': String(timestamp), 'x-cb-signature': `v1=${signature}` },
				staticData,
			});
			const result = await trigger.webhook.call(context);
			if (!result.workflowData) throw new Error(`delivery ${n} was not emitted`);
			// n8n answers once the execution has ended, which gives the delivery's place back
			context.getResponseObject().end();
			database = staticData.node;
			if (n % BLOCK === 0) {
				const now = process.hrtime.bigint();
				blocks.push(Number(now - started) / 1e3 / BLOCK);
				started = now;
			}
		}
		const saved = JSON.stringify(database).length;
		console.log(
			`trigger delivery cost, µs per delivery by block of ${BLOCK}: ${blocks.map((us) => us.toFixed(0)).join(', ')}`,
		);
		console.log(
			`first block ${blocks[0].toFixed(0)} µs, last block ${blocks[blocks.length - 1].toFixed(0)} µs (ratio ${(blocks[blocks.length - 1] / blocks[0]).toFixed(2)}); static data after ${DELIVERIES} deliveries: ${saved} bytes`,
		);

		// forged deliveries: what anybody who knows the webhook URL can send
		let credentialReads = 0;
		let logLines = 0;
		let refused = 0;
		let reported = 0;
		const forged = () => {
			const body = Buffer.from(
				JSON.stringify({
					deliveryId: randomUUID(),
					event: 'TransactionReceived',
					xaid: gbp,
					xtid: randomUUID(),
				}),
			);
			const timestamp = Math.floor(Date.now() / 1000);
			const signature = createHmac('sha256', 'whsec_guessed_by_an_attacker')
				.update(`${timestamp}.`)
				.update(body)
				.digest('hex');
			const { context, response, logs } = createWebhookContext({
				credentials,
				parameters,
				nodeType: trigger,
				node: { name: 'Customer Banking Trigger', id: 'bench-trigger' },
				workflowId: 'bench',
				body,
				headers: { 'x-cb-timestamp': String(timestamp), 'x-cb-signature': `v1=${signature}` },
				staticData: { node: structuredClone(database), global: {} },
			});
			const getCredentials = context.getCredentials.bind(context);
			context.getCredentials = async (...args: Parameters<typeof getCredentials>) => {
				credentialReads++;
				return await getCredentials(...args);
			};
			return { context, response, logs };
		};
		const cpuBefore = process.cpuUsage();
		const wallBefore = process.hrtime.bigint();
		for (let sent = 0; sent < FORGED; sent += FORGED_CONCURRENCY) {
			await Promise.all(
				Array.from({ length: Math.min(FORGED_CONCURRENCY, FORGED - sent) }, async () => {
					const { context, response, logs } = forged();
					logLines += logs.length;
					try {
						const result = await trigger.webhook.call(context);
						if (result.workflowData) throw new Error('a forged delivery was emitted');
					} catch (error) {
						// the refusal reported as a failed execution (at most once a minute): n8n answers it 500
						if (
							!(error instanceof Error) ||
							!error.message.startsWith('Customer Banking Trigger refused ')
						)
							throw error;
						reported++;
					}
					if (response.statusCode === 401) refused++;
				}),
			);
		}
		const cpu = process.cpuUsage(cpuBefore);
		const wallSeconds = Number(process.hrtime.bigint() - wallBefore) / 1e9;
		console.log(
			`forged deliveries (${FORGED_CONCURRENCY} at a time): ${refused} of ${FORGED} refused with 401 (${reported} reported as a failed execution) in ${wallSeconds.toFixed(1)} s = ${(refused / wallSeconds).toFixed(0)} refusals/s, ` +
				`CPU ${((cpu.user + cpu.system) / refused).toFixed(0)} µs per refusal (this process, including building each request); ` +
				`${credentialReads} credential reads, ${logLines} log lines`,
		);
	} finally {
		await sandbox.close();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});

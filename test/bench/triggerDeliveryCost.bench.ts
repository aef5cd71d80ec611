/**
 * The trigger's cost per delivery as deliveries pile up (issue 10: flat after 10,000): webhook() in
 * process, fetch off, with static data read from and saved to a "database" copy on every call as n8n
 * does, timed per block of 1,000 signed deliveries. Run: `npx tsx test/bench/triggerDeliveryCost.bench.ts [--deliveries 12000]`.
 */
import { createHmac, randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { credentialsFor } from '../helpers/sandboxCredentials';
// the .js suffix: tsx would otherwise resolve the codex file CustomerBankingTrigger.node.json
import { CustomerBankingTrigger } from '../../nodes/CustomerBankingTrigger/CustomerBankingTrigger.node.js';
import { createWebhookContext } from '../helpers/n8nContext';
import { startSandbox } from '../sandbox/index';

const index = process.argv.indexOf('--deliveries');
const DELIVERIES = index === -1 ? 12_000 : Number(process.argv[index + 1]);
const BLOCK = 1000;

async function main(): Promise<void> {
	const sandbox = await startSandbox({ port: 0 });
	try {
		const gbp = sandbox.seeded.accounts.gbp;
		const credentials = credentialsFor(sandbox);
		const parameters = { accounts: [gbp], events: ['TransactionReceived'], fetchTransaction: false };
		let database: IDataObject = {};
		const trigger = new CustomerBankingTrigger();
		const blocks: number[] = [];
		let started = process.hrtime.bigint();
		for (let n = 1; n <= DELIVERIES; n++) {
			const body = Buffer.from(JSON.stringify({ deliveryId: randomUUID(), event: 'TransactionReceived', xaid: gbp, xtid: randomUUID() }));
			const timestamp = Math.floor(Date.now() / 1000);
			const signature = createHmac('sha256', sandbox.signingSecret).update(`${timestamp}.`).update(body).digest('hex');
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
			database = staticData.node;
			if (n % BLOCK === 0) {
				const now = process.hrtime.bigint();
				blocks.push(Number(now - started) / 1e3 / BLOCK);
				started = now;
			}
		}
		const saved = JSON.stringify(database).length;
		console.log(`trigger delivery cost, µs per delivery by block of ${BLOCK}: ${blocks.map((us) => us.toFixed(0)).join(', ')}`);
		console.log(`first block ${blocks[0].toFixed(0)} µs, last block ${blocks[blocks.length - 1].toFixed(0)} µs (ratio ${(blocks[blocks.length - 1] / blocks[0]).toFixed(2)}); static data after ${DELIVERIES} deliveries: ${saved} bytes`);
	} finally {
		await sandbox.close();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});

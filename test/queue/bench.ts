/**
 * `npx tsx test/queue/bench.ts` (under `flock /tmp/real-n8n.lock`): throughput of the queue-mode
 * cluster with 2 workers and then 1, for a Submit Batch workflow (10 payments per execution, one
 * request) and for the Customer Banking Trigger (one signed delivery per execution, the transaction
 * fetched), and the resident memory of every process, idle and at its peak under that load.
 * Figures for the README's "Running at scale".
 */
import { buildAndPack, packedTarball } from '../e2e/lib/pack';
import {
	activate,
	createSandboxCredential,
	importWorkflow,
	isFinished,
	loadWorkflow,
	sleep,
	waitFor,
} from '../e2e/lib/stack';
import { postgresRss, redisRss, type QueueInstance } from './lib/cluster';
import {
	post,
	postWhenRegistered,
	type QueueStack,
	signed,
	startQueueStack,
} from './lib/queueStack';
import { ensureServicePackages } from './lib/services';

const EXECUTIONS = Number(process.env.QUEUE_BENCH_EXECUTIONS ?? 100);
const PAYMENTS_PER_EXECUTION = 10;
const TRIGGER_WEBHOOK_PATH = 'e2e00000-0000-4000-8000-000000000901/webhook';

interface ListedExecution {
	id: string;
	status: string;
	startedAt: string;
	stoppedAt: string | null;
}

type Peaks = Map<string, number>;

function sampleRss(stack: QueueStack, peaks: Peaks): void {
	const { cluster } = stack;
	const note = (name: string, mib: number) => peaks.set(name, Math.max(peaks.get(name) ?? 0, mib));
	for (const instance of cluster.instances()) {
		if (instance.process.child.exitCode !== null || instance.process.child.signalCode !== null)
			continue;
		const { own, children } = instance.rss();
		note(instance.name, own);
		if (children > 0) note(`${instance.name} task runner`, children);
	}
	note('postgres (all backends)', postgresRss(cluster.postgres));
	note('redis', redisRss(cluster.redis));
}

/** Finished executions of the workflow, read through the public API (all pages). */
async function listExecutions(stack: QueueStack, workflowId: string): Promise<ListedExecution[]> {
	const all: ListedExecution[] = [];
	let cursor: string | undefined;
	do {
		const page = await stack.cluster.n8n.apiOk<{
			data: ListedExecution[];
			nextCursor?: string | null;
		}>('GET', `/executions?workflowId=${workflowId}&limit=250${cursor ? `&cursor=${cursor}` : ''}`);
		all.push(...page.data);
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return all;
}

/** Fires `count` requests (at most 20 in flight), waits until `count` new executions finished; executions per second. */
async function measure(
	stack: QueueStack,
	label: string,
	workflowId: string,
	send: (index: number) => Promise<number>,
	peaks: Peaks,
): Promise<number> {
	const before = new Set((await listExecutions(stack, workflowId)).map((e) => String(e.id)));
	const sampler = setInterval(() => sampleRss(stack, peaks), 500);
	const started = Date.now();
	let next = 0;
	const statuses: number[] = [];
	await Promise.all(
		Array.from({ length: 20 }, async () => {
			while (next < EXECUTIONS) statuses.push(await send(next++));
		}),
	);
	const done = await waitFor(
		`${EXECUTIONS} executions of ${label}`,
		async () => {
			const fresh = (await listExecutions(stack, workflowId)).filter(
				(e) => !before.has(String(e.id)),
			);
			const finished = fresh.filter(isFinished);
			return finished.length >= EXECUTIONS ? finished : undefined;
		},
		600_000,
		250,
	);
	clearInterval(sampler);
	const lastStop = Math.max(...done.map((e) => new Date(e.stoppedAt ?? 0).getTime()));
	const seconds = (lastStop - started) / 1000;
	const failed = done.filter((e) => e.status !== 'success').length;
	const refused = statuses.filter((s) => s !== 200).length;
	const rate = EXECUTIONS / seconds;
	console.log(
		`[bench] ${label}: ${EXECUTIONS} executions in ${seconds.toFixed(1)} s = ${rate.toFixed(1)} executions/s (${failed} not successful, ${refused} requests not answered 200)`,
	);
	if (failed > 0 || refused > 0)
		throw new Error(`${label}: ${failed} executions failed, ${refused} requests refused`);
	return rate;
}

async function main(): Promise<void> {
	ensureServicePackages();
	if (!process.env.N8N_E2E_TARBALL) buildAndPack();
	const stack = await startQueueStack({
		tarball: packedTarball(),
		workers: 2,
		say: (line) => console.log(line),
	});
	try {
		const { sandbox, cluster } = stack;
		const { n8n } = cluster;
		const idle: Peaks = new Map();
		await sleep(5000);
		sampleRss(stack, idle);
		const credentialId = (await createSandboxCredential(n8n, sandbox)).id;

		const batch = loadWorkflow('pay-many.json', {
			OPERATION: 'submitBatch',
			PATH: 'bench-batch',
			WEBHOOK_ID: 'e2e00000-0000-4000-8000-000000000555',
			CREDENTIAL_ID: credentialId,
			CUSTOM_KEY: '',
		});
		const pay = (batch.nodes as Array<{ name: string; parameters: Record<string, unknown> }>).find(
			(node) => node.name === 'Pay',
		);
		if (!pay) throw new Error('pay-many.json has no Pay node');
		pay.parameters.options = {};
		pay.parameters.batchSize = PAYMENTS_PER_EXECUTION;
		const batchId = String((await n8n.apiOk<{ id: string }>('POST', '/workflows', batch)).id);
		await activate(n8n, batchId);
		const { gbp } = sandbox.seeded.accounts;
		let invoice = 0;
		const invoices = () =>
			Array.from({ length: PAYMENTS_PER_EXECUTION }, () => {
				invoice++;
				return {
					invoice: `B-${invoice}`,
					xaid: gbp,
					xpid: sandbox.seeded.payees.gbp,
					amount: 0.01,
					reference: `BENCH-${invoice}`,
				};
			});
		await postWhenRegistered(cluster.webhook, 'bench-batch', { invoices: invoices() });
		const sendBatch = async () =>
			(
				await post(
					`${cluster.webhook.url}/webhook/bench-batch`,
					JSON.stringify({ invoices: invoices() }),
				)
			).status;

		const trigger = await importWorkflow(n8n, 'trigger.json', {
			CREDENTIAL_ID: credentialId,
			ACCOUNT_GBP: gbp,
			ACCOUNT_EUR: sandbox.seeded.accounts.eur,
		});
		await activate(n8n, trigger.id);
		await waitFor(
			'4 subscriptions',
			() => (sandbox.control.subscriptions('workspace-1').length >= 4 ? true : undefined),
			60_000,
		);
		const received = await sandbox.control.receive(gbp, 5, 'BENCH-IN');
		await sandbox.control.waitForDeliveries();
		const template = sandbox.control.deliveries().find((d) => d.xtid === received.xtid);
		if (!template) throw new Error('the sandbox made no delivery');
		let delivery = 0;
		const sendDelivery = async () => {
			const body = JSON.stringify({
				...JSON.parse(template.body),
				deliveryId: `bench-${++delivery}`,
			});
			return (
				await post(
					`${cluster.webhook.url}/webhook/${TRIGGER_WEBHOOK_PATH}`,
					body,
					signed(sandbox, body),
				)
			).status;
		};
		// warm-up: every worker has loaded both workflows' nodes once
		for (let i = 0; i < 4; i++) {
			await sendBatch();
			await sendDelivery();
		}
		await sleep(5000);

		const peaks: Peaks = new Map();
		const results: Record<string, number> = {};
		results['Submit Batch, 2 workers'] = await measure(
			stack,
			'Submit Batch, 2 workers',
			batchId,
			sendBatch,
			peaks,
		);
		results['Trigger, 2 workers'] = await measure(
			stack,
			'Trigger, 2 workers',
			trigger.id,
			sendDelivery,
			peaks,
		);
		const second: QueueInstance = cluster.workers[1];
		await second.stop();
		results['Submit Batch, 1 worker'] = await measure(
			stack,
			'Submit Batch, 1 worker',
			batchId,
			sendBatch,
			peaks,
		);
		results['Trigger, 1 worker'] = await measure(
			stack,
			'Trigger, 1 worker',
			trigger.id,
			sendDelivery,
			peaks,
		);

		console.log('\n| Workload | executions/s |\n|---|---|');
		for (const [label, rate] of Object.entries(results))
			console.log(`| ${label} | ${rate.toFixed(1)} |`);
		console.log('\n| Process | RSS idle (MiB) | RSS peak under load (MiB) |\n|---|---|---|');
		for (const name of new Set([...idle.keys(), ...peaks.keys()]))
			console.log(`| ${name} | ${idle.get(name) ?? '-'} | ${peaks.get(name) ?? '-'} |`);
		const payments = sandbox.control
			.ledger()
			.transactions.filter(
				(t) => String(t.reference).startsWith('BENCH-') && t.direction === 'outgoing',
			);
		console.log(
			`\n[bench] ${payments.length} payments made, ${new Set(payments.map((t) => t.reference)).size} distinct references`,
		);
	} finally {
		await stack.stop();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});

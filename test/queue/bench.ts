/**
 * `npm run bench:queue` (under `flock /tmp/real-n8n.lock`): the queue-mode cluster as docs/scale.md
 * deploys it (main serving no production webhooks, 2 workers, webhook processes behind nginx running
 * examples/deploy/nginx-webhooks.conf), everything sent through nginx, first with 2 webhook processes,
 * then with the second one stopped (nginx passes its paths to the first). Per cell: executions ended
 * per second, p99 of the time to the answer (the trigger answers once its execution ended, the Submit
 * Batch webhook on receipt) and the peak resident memory of every process; the idle memory before any
 * load. Workloads: signed deliveries to Customer Banking Triggers on TRIGGERS paths (the transaction
 * fetched; several paths, as the hash spreads triggers over the webhook processes), and a Submit Batch
 * workflow (10 payments per execution, one request, one path). Figures for docs/scale.md.
 */
import { buildAndPack, packedTarball } from '../e2e/lib/pack';
import {
	activate,
	createSandboxCredential,
	isFinished,
	loadWorkflow,
	sleep,
	waitFor,
	whenRegistered,
} from '../e2e/lib/stack';
import { postgresRss, processTreeRss, redisRss } from './lib/cluster';
import { post, type QueueStack, signed, startQueueStack } from './lib/queueStack';
import { ensureServicePackages } from './lib/services';

const DELIVERIES = Number(process.env.QUEUE_BENCH_DELIVERIES ?? 200);
const IN_FLIGHT = 20;
const TRIGGERS = 6;
const PAYMENTS_PER_EXECUTION = 10;

interface ListedExecution {
	id: string;
	status: string;
	stoppedAt: string | null;
}

type Peaks = Map<string, number>;

interface Cell {
	rate: number;
	p99: number;
	median: number;
	/** requests per webhook process nginx passed them to */
	spread: Record<string, number>;
}

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
	note('nginx (master and worker)', processTreeRss(cluster.balancer?.process.child.pid));
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

async function executionsOf(stack: QueueStack, workflowIds: string[]): Promise<ListedExecution[]> {
	return (await Promise.all(workflowIds.map((id) => listExecutions(stack, id)))).flat();
}

const percentile = (sorted: number[], p: number) =>
	sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];

/**
 * Sends DELIVERIES requests (IN_FLIGHT at a time) and waits until as many new executions of
 * `workflowIds` have finished; every request must be answered 200 and every execution succeed.
 */
async function measure(
	stack: QueueStack,
	label: string,
	workflowIds: string[],
	send: (index: number) => Promise<number>,
	peaks: Peaks,
): Promise<Cell> {
	const balancer = stack.cluster.balancer;
	if (!balancer) throw new Error('the cluster has no load balancer');
	const before = new Set((await executionsOf(stack, workflowIds)).map((e) => String(e.id)));
	const logged = balancer.requests().length;
	const sampler = setInterval(() => sampleRss(stack, peaks), 500);
	const started = Date.now();
	let next = 0;
	const statuses: number[] = [];
	const durations: number[] = [];
	await Promise.all(
		Array.from({ length: IN_FLIGHT }, async () => {
			while (next < DELIVERIES) {
				const index = next++;
				const sent = Date.now();
				statuses.push(await send(index));
				durations.push(Date.now() - sent);
			}
		}),
	);
	const answered = Date.now();
	const done = await waitFor(
		`${DELIVERIES} executions of ${label}`,
		async () => {
			const fresh = (await executionsOf(stack, workflowIds)).filter(
				(e) => !before.has(String(e.id)),
			);
			const finished = fresh.filter(isFinished);
			return finished.length >= DELIVERIES ? finished : undefined;
		},
		600_000,
		250,
	);
	clearInterval(sampler);
	// a Submit Batch call is answered on receipt, a trigger delivery once its execution ended: the cell
	// ends when both the last answer and the last execution have
	const lastStop = Math.max(...done.map((e) => new Date(e.stoppedAt ?? 0).getTime()));
	const seconds = (Math.max(answered, lastStop) - started) / 1000;
	const failed = done.filter((e) => e.status !== 'success').length;
	const refused = statuses.filter((s) => s !== 200).length;
	const spread: Record<string, number> = {};
	for (const request of balancer.requests().slice(logged)) {
		const upstream = request.upstreams.at(-1) ?? 'none';
		const name =
			stack.cluster.webhooks.find((w) => w.url === `http://${upstream}`)?.name ?? upstream;
		spread[name] = (spread[name] ?? 0) + 1;
	}
	const sorted = [...durations].sort((a, b) => a - b);
	const cell: Cell = {
		rate: DELIVERIES / seconds,
		p99: percentile(sorted, 0.99),
		median: percentile(sorted, 0.5),
		spread,
	};
	console.log(
		`[bench] ${label}: ${DELIVERIES} executions ended ${seconds.toFixed(1)} s after the first request = ${cell.rate.toFixed(1)}/s; answers: median ${cell.median} ms, p99 ${cell.p99} ms, passed to ${JSON.stringify(spread)} (${failed} executions not successful, ${refused} requests not answered 200)`,
	);
	if (failed > 0 || refused > 0)
		throw new Error(`${label}: ${failed} executions failed, ${refused} requests refused`);
	return cell;
}

async function main(): Promise<void> {
	ensureServicePackages();
	if (!process.env.N8N_E2E_TARBALL) buildAndPack();
	const stack = await startQueueStack({
		tarball: packedTarball(),
		workers: 2,
		webhooks: 2,
		say: (line) => console.log(line),
	});
	try {
		const { sandbox, cluster } = stack;
		const { n8n } = cluster;
		const idle: Peaks = new Map();
		await sleep(5000);
		sampleRss(stack, idle);
		const credentialId = (await createSandboxCredential(n8n, sandbox)).id;
		const { gbp } = sandbox.seeded.accounts;

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
		const batchUrl = `${cluster.webhookUrl}/webhook/bench-batch`;
		const sendBatch = async () =>
			(await post(batchUrl, JSON.stringify({ invoices: invoices() }))).status;

		// TRIGGERS copies of trigger.json, each on a path of its own (its webhookId)
		const triggerPaths: string[] = [];
		const triggerIds: string[] = [];
		for (let index = 0; index < TRIGGERS; index++) {
			const webhookId = `e2e00000-0000-4000-8000-0000000009${String(50 + index)}`;
			const workflow = loadWorkflow('trigger.json', {
				CREDENTIAL_ID: credentialId,
				ACCOUNT_GBP: gbp,
				ACCOUNT_EUR: sandbox.seeded.accounts.eur,
			});
			workflow.name = `Bench trigger ${index + 1}`;
			(workflow.nodes as Array<{ webhookId?: string }>)[0].webhookId = webhookId;
			const id = String((await n8n.apiOk<{ id: string }>('POST', '/workflows', workflow)).id);
			await activate(n8n, id);
			triggerIds.push(id);
			triggerPaths.push(`${webhookId}/webhook`);
		}
		await waitFor(
			`${4 * TRIGGERS} subscriptions`,
			() =>
				sandbox.control.subscriptions('workspace-1').length >= 4 * TRIGGERS ? true : undefined,
			120_000,
		);
		const received = await sandbox.control.receive(gbp, 5, 'BENCH-IN');
		await sandbox.control.waitForDeliveries();
		const template = sandbox.control.deliveries().find((d) => d.xtid === received.xtid);
		if (!template) throw new Error('the sandbox made no delivery');
		let delivery = 0;
		const sendDelivery = async (index: number) => {
			const body = JSON.stringify({
				...JSON.parse(template.body),
				deliveryId: `bench-${++delivery}`,
			});
			const path = triggerPaths[index % TRIGGERS];
			return (await post(`${cluster.webhookUrl}/webhook/${path}`, body, signed(sandbox, body)))
				.status;
		};
		const warmUp = async () => {
			await whenRegistered(
				'the Submit Batch webhook behind nginx',
				() => post(batchUrl, JSON.stringify({ invoices: invoices() })),
				60_000,
			);
			for (let i = 0; i < 2 * TRIGGERS; i++) await sendDelivery(i);
			for (let i = 0; i < 4; i++) await sendBatch();
			await sleep(5000);
		};

		const cells: Record<string, Record<string, Cell>> = {};
		const peaks: Record<string, Peaks> = {};
		for (const setup of ['2 webhook processes', '1 webhook process']) {
			if (setup === '1 webhook process') await cluster.webhooks[1].stop();
			await warmUp();
			peaks[setup] = new Map();
			cells[setup] = {
				[`Trigger deliveries (${TRIGGERS} triggers)`]: await measure(
					stack,
					`Trigger deliveries, ${TRIGGERS} triggers, ${setup}`,
					triggerIds,
					sendDelivery,
					peaks[setup],
				),
				'Submit Batch (10 payments each)': await measure(
					stack,
					`Submit Batch, ${setup}`,
					[batchId],
					sendBatch,
					peaks[setup],
				),
			};
		}

		const setups = Object.keys(cells);
		console.log(
			`\nThrough nginx, 2 workers, ${DELIVERIES} requests per cell, ${IN_FLIGHT} in flight\n`,
		);
		console.log(`| Workload | ${setups.join(' | ')} |\n|---|${setups.map(() => '---|').join('')}`);
		for (const workload of Object.keys(cells[setups[0]]))
			console.log(
				`| ${workload} | ${setups
					.map((setup) => {
						const cell = cells[setup][workload];
						return `${cell.rate.toFixed(1)} executions/s, answer p99 ${(cell.p99 / 1000).toFixed(1)} s (median ${(cell.median / 1000).toFixed(1)} s)`;
					})
					.join(' | ')} |`,
			);
		console.log(
			`\n| Process (RSS, MiB) | idle | ${setups.map((s) => `peak, ${s}`).join(' | ')} |\n|---|---|${setups.map(() => '---|').join('')}`,
		);
		for (const name of new Set([...idle.keys(), ...setups.flatMap((s) => [...peaks[s].keys()])]))
			console.log(
				`| ${name} | ${idle.get(name) ?? '-'} | ${setups.map((s) => peaks[s].get(name) ?? '-').join(' | ')} |`,
			);
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

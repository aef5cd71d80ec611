/**
 * The queue-mode world of one suite: the sandbox bank (in process), the n8n cluster (cluster.ts) and
 * helpers that tell which instance did what: webhooks posted to a chosen instance, executions read
 * from main, and the worker whose log shows it ran an execution.
 */
import { createHmac } from 'node:crypto';

import { type Sandbox, type SandboxOptions, startSandbox } from '../../sandbox';
import { type Execution, executionIds, getExecution, waitFor } from '../../e2e/lib/stack';
import { type Cluster, type ClusterOptions, type QueueInstance, startCluster } from './cluster';

export interface QueueStack {
	sandbox: Sandbox;
	cluster: Cluster;
	stop(): Promise<void>;
}

export async function startQueueStack(options: ClusterOptions, sandboxOptions: SandboxOptions = {}): Promise<QueueStack> {
	const sandbox = await startSandbox({ port: 0, ...sandboxOptions });
	let cluster: Cluster;
	try {
		cluster = await startCluster(options);
	} catch (error) {
		await sandbox.close();
		throw error;
	}
	let stopped: Promise<void> | undefined;
	return {
		sandbox,
		cluster,
		stop: () => (stopped ??= Promise.allSettled([cluster.stop(), sandbox.close()]).then(() => undefined)),
	};
}

export interface WebhookAnswer {
	status: number;
	body: unknown;
}

export async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<WebhookAnswer> {
	const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
	const text = await answer.text();
	let parsed: unknown = text;
	try {
		parsed = text ? JSON.parse(text) : undefined;
	} catch {
		// not JSON: keep the text
	}
	return { status: answer.status, body: parsed };
}

/**
 * POSTs to a production webhook of `instance` (main or the webhook instance), waiting out the moment
 * after activation in which n8n still answers 404.
 */
export async function postWhenRegistered(instance: QueueInstance, path: string, body: unknown, timeoutMs = 60_000): Promise<WebhookAnswer> {
	return await waitFor(
		`${instance.name} to serve /webhook/${path}`,
		async () => {
			const answer = await post(`${instance.url}/webhook/${path}`, JSON.stringify(body));
			return answer.status === 404 ? undefined : answer;
		},
		timeoutMs,
		250,
	);
}

export const FINISHED = (execution: Execution) => !['new', 'running', 'waiting'].includes(execution.status);

/** New executions of `workflowId` (ids not in `known`), once `count` of them have finished. */
export async function finishedExecutions(cluster: Cluster, workflowId: string, known: string[], count: number, timeoutMs = 120_000): Promise<Execution[]> {
	const seen = new Set(known);
	return await waitFor(
		`${count} finished execution(s) of workflow ${workflowId}`,
		async () => {
			const fresh = (await executionIds(cluster.n8n, workflowId)).filter((id) => !seen.has(id));
			if (fresh.length < count) return undefined;
			const executions = await Promise.all(fresh.map((id) => getExecution(cluster.n8n, id)));
			return executions.every(FINISHED) ? executions.sort((a, b) => Number(a.id) - Number(b.id)) : undefined;
		},
		timeoutMs,
		500,
	);
}

/** The workers whose current log shows they started execution `id`. */
export function workersThatRan(cluster: Cluster, id: string): string[] {
	return cluster.workers.filter((worker) => worker.logs().includes(`Worker started execution ${id} (job`)).map((worker) => worker.name);
}

/** `body` signed as the bank signs deliveries (x-cb-timestamp, x-cb-signature v1). */
export function signed(sandbox: Sandbox, body: string): Record<string, string> {
	const timestamp = String(Math.floor(Date.now() / 1000));
	const signature = createHmac('sha256', sandbox.signingSecret).update(`${timestamp}.${body}`).digest('hex');
	return { 'x-cb-timestamp': timestamp, 'x-cb-signature': `v1=${signature}` };
}

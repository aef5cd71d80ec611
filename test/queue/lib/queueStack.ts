/**
 * The queue-mode world of one suite: the sandbox bank (in process), the n8n cluster (cluster.ts) and
 * helpers that tell which instance did what: webhooks posted to a chosen instance, executions read
 * from main, and the worker whose log shows it ran an execution.
 */
import { createHmac } from 'node:crypto';

import type { Sandbox, SandboxOptions } from '../../sandbox';
import { requestJson } from '../../e2e/lib/n8n';
import {
	besideSandbox,
	type Execution,
	executionIds,
	getExecution,
	isFinished,
	waitFor,
	whenRegistered,
} from '../../e2e/lib/stack';
import { type Cluster, type ClusterOptions, type QueueInstance, startCluster } from './cluster';

export interface QueueStack {
	sandbox: Sandbox;
	cluster: Cluster;
	stop(): Promise<void>;
}

export async function startQueueStack(
	options: ClusterOptions,
	sandboxOptions: SandboxOptions = {},
): Promise<QueueStack> {
	const {
		sandbox,
		beside: cluster,
		stop,
	} = await besideSandbox(sandboxOptions, () => startCluster(options));
	return { sandbox, cluster, stop };
}

export interface WebhookAnswer {
	status: number;
	body: unknown;
}

export async function post(
	url: string,
	body: string,
	headers: Record<string, string> = {},
): Promise<WebhookAnswer> {
	const answer = await requestJson(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body,
	});
	return { status: answer.status, body: answer.body };
}

/** POSTs to a production webhook of `instance` (main or the webhook instance) once it is registered there. */
export async function postWhenRegistered(
	instance: QueueInstance,
	path: string,
	body: unknown,
	timeoutMs = 60_000,
): Promise<WebhookAnswer> {
	return await whenRegistered(
		`${instance.name} to serve /webhook/${path}`,
		() => post(`${instance.url}/webhook/${path}`, JSON.stringify(body)),
		timeoutMs,
	);
}

/** New executions of `workflowId` (ids not in `known`), once `count` of them have finished. */
export async function finishedExecutions(
	cluster: Cluster,
	workflowId: string,
	known: string[],
	count: number,
	timeoutMs = 120_000,
): Promise<Execution[]> {
	const seen = new Set(known);
	return await waitFor(
		`${count} finished execution(s) of workflow ${workflowId}`,
		async () => {
			const fresh = (await executionIds(cluster.n8n, workflowId)).filter((id) => !seen.has(id));
			if (fresh.length < count) return undefined;
			const executions = await Promise.all(fresh.map((id) => getExecution(cluster.n8n, id)));
			return executions.every(isFinished)
				? executions.sort((a, b) => Number(a.id) - Number(b.id))
				: undefined;
		},
		timeoutMs,
		500,
	);
}

/** The workers whose current log shows they started execution `id`. */
export function workersThatRan(cluster: Cluster, id: string): string[] {
	return cluster.workers
		.filter((worker) => worker.logs().includes(`Worker started execution ${id} (job`))
		.map((worker) => worker.name);
}

/** `body` signed as the bank signs deliveries (x-cb-timestamp, x-cb-signature v1). */
export function signed(sandbox: Sandbox, body: string): Record<string, string> {
	const timestamp = String(Math.floor(Date.now() / 1000));
	const signature = createHmac('sha256', sandbox.signingSecret)
		.update(`${timestamp}.${body}`)
		.digest('hex');
	return { 'x-cb-timestamp': timestamp, 'x-cb-signature': `v1=${signature}` };
}

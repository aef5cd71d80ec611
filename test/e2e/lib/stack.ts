/**
 * One scenario's world: the sandbox bank (in process), a real n8n with the packed package, a
 * credential pointing at the sandbox, and helpers to import, activate and run the scenario
 * workflows of test/e2e/workflows/ and read their executions.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

import { credentialsFor, type SandboxClientName } from '../../helpers/sandboxCredentials';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../sandbox';
import { type N8n, startN8n } from './n8n';
import { packedTarball } from './pack';

export const CREDENTIAL_TYPE = 'customerBankingApi';
export const PACKAGE = 'n8n-nodes-customer-banking';

export interface Stack {
	sandbox: Sandbox;
	n8n: N8n;
	stop(): Promise<void>;
}

export async function startStack(
	version: string,
	sandboxOptions: SandboxOptions = {},
	n8nEnv: Record<string, string> = {},
): Promise<Stack> {
	const {
		sandbox,
		beside: n8n,
		stop,
	} = await besideSandbox(sandboxOptions, () =>
		startN8n({ version, tarball: packedTarball(), env: n8nEnv }),
	);
	return { sandbox, n8n, stop };
}

/**
 * The sandbox bank (in process, on a free port unless told) and what `start` starts beside it: one
 * n8n here, the queue-mode cluster in test/queue. When `start` fails the sandbox is closed again;
 * stop() stops both, once however often it is called.
 */
export async function besideSandbox<T extends { stop(): Promise<void> }>(
	sandboxOptions: SandboxOptions,
	start: () => Promise<T>,
): Promise<{ sandbox: Sandbox; beside: T; stop(): Promise<void> }> {
	const sandbox = await startSandbox({ port: 0, ...sandboxOptions });
	let beside: T;
	try {
		beside = await start();
	} catch (error) {
		await sandbox.close();
		throw error;
	}
	let stopped: Promise<void> | undefined;
	return {
		sandbox,
		beside,
		stop: () =>
			(stopped ??= Promise.allSettled([beside.stop(), sandbox.close()]).then(() => undefined)),
	};
}

/**
 * The credential's data for one of the sandbox's seeded clients, as the editor saves it: the test
 * helpers' credential without the token field n8n fills itself, with any field overridden.
 */
export function credentialData(
	sandbox: Sandbox,
	client: SandboxClientName = 'full',
	overrides: Record<string, string> = {},
): Record<string, string> {
	const fields = credentialsFor(sandbox, client) as Record<string, string>;
	delete fields.accessToken;
	return { ...fields, ...overrides };
}

export interface CreatedCredential {
	id: string;
	name: string;
	type: string;
	data: Record<string, string>;
}

/**
 * Creates a credential the way the editor's Save does (POST /rest/credentials). Not the public API:
 * n8n 1.x builds its JSON schema from displayOptions and then requires the credential's notice
 * fields and its own injected allowedDomains field, which no client sends.
 */
export async function createCredential(
	n8n: N8n,
	name: string,
	data: Record<string, string>,
): Promise<CreatedCredential> {
	const created = await n8n.restOk<{ data: { id: string } }>('POST', '/credentials', {
		name,
		type: CREDENTIAL_TYPE,
		data,
	});
	return { id: String(created.data.id), name, type: CREDENTIAL_TYPE, data };
}

/** The credential every scenario starts with: the sandbox's client with every scope, as the demo names it. */
export async function createSandboxCredential(
	n8n: N8n,
	sandbox: Sandbox,
): Promise<CreatedCredential> {
	return await createCredential(n8n, 'Customer Banking sandbox', credentialData(sandbox));
}

/** The workflow JSON of test/e2e/workflows/<file> (or an absolute path), with `__PLACEHOLDER__` strings replaced. */
export function loadWorkflow(
	file: string,
	replacements: Record<string, string>,
): Record<string, unknown> {
	let text = readFileSync(
		isAbsolute(file) ? file : join(__dirname, '..', 'workflows', file),
		'utf8',
	);
	for (const [key, value] of Object.entries(replacements))
		text = text.split(`__${key}__`).join(value);
	const leftover = /__[A-Z][A-Z0-9_]+__/.exec(text);
	if (leftover) throw new Error(`${file}: placeholder ${leftover[0]} has no value`);
	const workflow = JSON.parse(text) as Record<string, unknown>;
	// the public API accepts exactly these keys
	return {
		name: workflow.name,
		nodes: workflow.nodes,
		connections: workflow.connections,
		settings: workflow.settings ?? {},
	};
}

export interface ImportedWorkflow {
	id: string;
	name: string;
	nodes: Array<{ name: string; type: string; parameters: Record<string, unknown> }>;
}

export async function importWorkflow(
	n8n: N8n,
	file: string,
	replacements: Record<string, string>,
): Promise<ImportedWorkflow> {
	const created = await n8n.apiOk<ImportedWorkflow>(
		'POST',
		'/workflows',
		loadWorkflow(file, replacements),
	);
	return { ...created, id: String(created.id) };
}

export async function activate(n8n: N8n, workflowId: string): Promise<void> {
	await n8n.apiOk('POST', `/workflows/${workflowId}/activate`);
}

export async function deactivate(n8n: N8n, workflowId: string): Promise<void> {
	await n8n.apiOk('POST', `/workflows/${workflowId}/deactivate`);
}

export async function sleep(ms: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `probe` until it returns a value other than undefined. */
export async function waitFor<T>(
	what: string,
	probe: () => Promise<T | undefined> | T | undefined,
	timeoutMs = 30_000,
	intervalMs = 200,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline)
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await sleep(intervalMs);
	}
}

export interface Execution {
	id: string;
	status: string;
	finished: boolean;
	mode: string;
	workflowId: string;
	data: {
		resultData: {
			runData: Record<
				string,
				Array<{
					data?: { main: Array<Array<{ json: Record<string, unknown> }> | null> };
					error?: { message: string; description?: string };
				}>
			>;
			error?: { message: string; description?: string; node?: { name: string } };
			lastNodeExecuted?: string;
		};
	};
}

/** Whether n8n is done with the execution (succeeded, failed, cancelled …). */
export function isFinished(execution: Pick<Execution, 'status'>): boolean {
	return !['new', 'running', 'waiting'].includes(execution.status);
}

export async function executionIds(n8n: N8n, workflowId: string): Promise<string[]> {
	const list = await n8n.apiOk<{ data: Array<{ id: string }> }>(
		'GET',
		`/executions?workflowId=${workflowId}&limit=250`,
	);
	return list.data.map((e) => String(e.id));
}

export async function getExecution(n8n: N8n, id: string): Promise<Execution> {
	return await n8n.apiOk<Execution>('GET', `/executions/${id}?includeData=true`);
}

/** Waits for a finished execution of `workflowId` whose id is not in `before`. */
export async function waitForNewExecution(
	n8n: N8n,
	workflowId: string,
	before: string[],
	timeoutMs = 60_000,
): Promise<Execution> {
	const known = new Set(before);
	return await waitFor(
		`a new execution of workflow ${workflowId}`,
		async () => {
			const fresh = (await executionIds(n8n, workflowId)).filter((id) => !known.has(id));
			if (fresh.length === 0) return undefined;
			const execution = await getExecution(n8n, fresh.sort((a, b) => Number(a) - Number(b))[0]);
			return isFinished(execution) ? execution : undefined;
		},
		timeoutMs,
		300,
	);
}

/** Output items of a node's first run (first output unless told). */
export function nodeOutput(
	execution: Execution,
	nodeName: string,
	output = 0,
): Array<Record<string, unknown>> {
	const runs = execution.data.resultData.runData[nodeName];
	if (!runs)
		throw new Error(
			`node "${nodeName}" did not run; ran: ${Object.keys(execution.data.resultData.runData).join(', ')}; error: ${execution.data.resultData.error?.message}`,
		);
	return (runs[0].data?.main[output] ?? []).map((item) => item.json);
}

export function executionError(execution: Execution): string | undefined {
	const error = execution.data.resultData.error;
	return error
		? `${error.node?.name ?? ''}: ${error.message} ${error.description ?? ''}`.trim()
		: undefined;
}

/**
 * Sends `send` (a call of a production webhook) until n8n no longer answers 404: the moment after
 * activation in which the webhook is not registered yet.
 */
export async function whenRegistered<T extends { status: number }>(
	what: string,
	send: () => Promise<T>,
	timeoutMs = 30_000,
): Promise<T> {
	return await waitFor(
		what,
		async () => {
			const answer = await send();
			return answer.status === 404 ? undefined : answer;
		},
		timeoutMs,
		250,
	);
}

/**
 * Waits until n8n serves the POST webhook at `url`, without starting an execution: a CORS preflight
 * (OPTIONS with an Origin) is answered 404 while the path is not registered and 204 once it is, and
 * n8n runs no node for it (webhook-request-handler.js, both lines). A probe that POSTs would reach
 * the Customer Banking Trigger, which reports an unsigned delivery as a failed execution.
 */
export async function whenWebhookServes(url: string, timeoutMs = 30_000): Promise<void> {
	const answer = await whenRegistered(
		`${url} to be registered`,
		async () =>
			await fetch(url, {
				method: 'OPTIONS',
				headers: { origin: 'http://probe.invalid', 'access-control-request-method': 'POST' },
			}),
		timeoutMs,
	);
	if (answer.status !== 204)
		throw new Error(`n8n answered the preflight of ${url} with ${answer.status}, not 204`);
}

/**
 * Calls the production webhook of an active workflow (the Webhook trigger at `path`), once it is
 * registered, and returns the execution it started.
 */
export async function runWebhookWorkflow(
	n8n: N8n,
	workflowId: string,
	path: string,
	body: unknown = {},
): Promise<{ status: number; response: unknown; execution: Execution }> {
	const before = await executionIds(n8n, workflowId);
	const answer = await whenRegistered(`webhook /webhook/${path} to be registered`, () =>
		n8n.http('POST', `/webhook/${path}`, { body }),
	);
	const execution = await waitForNewExecution(n8n, workflowId, before);
	return { status: answer.status, response: answer.body, execution };
}

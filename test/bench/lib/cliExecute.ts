/**
 * `n8n execute --id <workflow> --rawOutput`, as a user runs a saved workflow from the command line: a
 * fresh n8n process per run (its code not yet optimised, its heap not yet grown), beside the running
 * instance on the same database. What each node's run took, from the execution n8n saved; with
 * `profileDir`, a CPU profile of the process (`--cpu-prof`) and the clock it was taken on, so the
 * profile can be cut to a node's window (cpuProfile.ts).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { N8n } from '../../e2e/lib/n8n';
import { n8nEnv } from '../../e2e/lib/n8n';
import { freePorts } from '../../e2e/lib/processes';
import type { CpuProfile } from './cpuProfile';

export interface NodeRun {
	/** epoch milliseconds */
	startTime: number;
	executionTime: number;
	items: number;
}

interface Execution {
	status: string;
	data: {
		resultData: {
			runData: Record<
				string,
				Array<{
					startTime: number;
					executionTime: number;
					data?: { main?: Array<unknown[] | null> };
				}>
			>;
		};
	};
}

export interface CliRun {
	/** The `n8n execute` process, from spawn to exit (start-up included). */
	wallMs: number;
	nodes: Record<string, NodeRun>;
	/** With profiling: the profile, and the wall-clock time of its monotonic clock's zero. */
	profile?: { profile: CpuProfile; wallAtMonotonicZeroMs: number };
}

/** Written into the profiled process before n8n loads: one reading of both clocks. */
const CLOCK_PRELOAD = `require('node:fs').writeFileSync(process.env.BENCH_CLOCK_FILE, JSON.stringify({ wallMs: Date.now(), monotonicUs: Number(process.hrtime.bigint() / 1000n) }));\n`;

export async function executeWorkflow(
	n8n: N8n,
	workflowId: string,
	profileDir?: string,
): Promise<CliRun> {
	const [port, brokerPort] = await freePorts(2);
	const env = n8nEnv(n8n.install, n8n.userFolder, port, brokerPort);
	const args = [n8n.install.n8nEntry, 'execute', '--id', workflowId, '--rawOutput'];
	if (profileDir) {
		rmSync(profileDir, { recursive: true, force: true });
		mkdirSync(profileDir, { recursive: true });
		const preload = join(profileDir, 'clock.cjs');
		writeFileSync(preload, CLOCK_PRELOAD);
		env.BENCH_CLOCK_FILE = join(profileDir, 'clock.json');
		args.unshift('--cpu-prof', '--cpu-prof-dir', profileDir, '--require', preload);
	}
	const started = performance.now();
	const { code, stdout, stderr } = await new Promise<{
		code: number | null;
		stdout: string;
		stderr: string;
	}>((resolve, reject) => {
		const child = spawn(n8n.install.nodeBin, args, { cwd: n8n.userFolder, env });
		const out: Buffer[] = [];
		const err: Buffer[] = [];
		child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
		child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
		child.on('error', reject);
		child.on('close', (exitCode) =>
			resolve({
				code: exitCode,
				stdout: Buffer.concat(out).toString('utf8'),
				stderr: Buffer.concat(err).toString('utf8'),
			}),
		);
	});
	const wallMs = performance.now() - started;
	if (code !== 0)
		throw new Error(
			`n8n execute --id ${workflowId} → exit ${code}\n${stdout.slice(-3000)}\n${stderr.slice(-3000)}`,
		);
	// n8n prints the execution, then exits before a long print has all reached the pipe: the execution
	// is read as n8n saved it
	const nodes = await lastNodeRuns(n8n, workflowId, `n8n execute --id ${workflowId}`);
	if (!profileDir) return { wallMs, nodes };
	const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
	if (!file) throw new Error(`no CPU profile written into ${profileDir}`);
	const clock = JSON.parse(readFileSync(join(profileDir, 'clock.json'), 'utf8')) as {
		wallMs: number;
		monotonicUs: number;
	};
	return {
		wallMs,
		nodes,
		profile: {
			profile: JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile,
			wallAtMonotonicZeroMs: clock.wallMs - clock.monotonicUs / 1000,
		},
	};
}

/** What each node's run took in the workflow's latest execution, as n8n saved it; `what` names the run in errors. */
export async function lastNodeRuns(
	n8n: N8n,
	workflowId: string,
	what: string,
): Promise<Record<string, NodeRun>> {
	const [execution] = (
		await n8n.apiOk<{ data: Execution[] }>(
			'GET',
			`/executions?workflowId=${workflowId}&limit=1&includeData=true`,
		)
	).data;
	if (execution?.status !== 'success')
		throw new Error(`${what}: ${JSON.stringify(execution).slice(0, 2000)}`);
	const nodes: Record<string, NodeRun> = {};
	for (const [name, runs] of Object.entries(execution.data.resultData.runData)) {
		const [run] = runs;
		nodes[name] = {
			startTime: run.startTime,
			executionTime: run.executionTime,
			items: (run.data?.main ?? []).reduce((sum, output) => sum + (output?.length ?? 0), 0),
		};
	}
	return nodes;
}

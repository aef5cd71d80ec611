/**
 * `npm run test:real-n8n` (the last step of `npm test`): every real-n8n suite, in two lanes running side
 * by side. The suites spend most of their time waiting on n8n, the bank and the browser, so two lanes
 * on a 2-core machine take little more than half the time of one. Each lane is its own jest run over
 * both n8n lines. The suites that drive a browser are all in the first lane, one at a time: two
 * browsers and two editors loading at once on two cores time out. The n8n installs and the packed
 * tarball are made once here, before the lanes, so that no lane packs (`npm run build` empties `dist`)
 * while another installs from it.
 *
 * Lines are printed as they come, each prefixed with its lane; the exit code is non-zero when any lane
 * failed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

import { QUEUE_VERSION } from '../queue/lib/cluster';
import { selectedVersions } from './lib/config';
import { prepareRun } from './lib/prepare';

/**
 * The first lane's suites: those that drive a browser, and enough others that both lanes take about as
 * long (minutes per suite on both lines in `docs/development.md`). Any other suite, a new one too,
 * runs in the second lane, followed by the queue-mode suite.
 */
const FIRST_LANE = [
	'editor',
	'editorPayments',
	'newcomer',
	'executionRetry',
	'approvalTrigger',
	'approvalTruth',
	'triggerBackPressure',
];

interface JestRun {
	name: string;
	config: string;
	args: string[];
}

function lanes(): JestRun[][] {
	const firstLane = FIRST_LANE.map((suite) => `/test/e2e/${suite}\\.e2e\\.test\\.ts$`);
	return [
		[{ name: 'e2e', config: 'test/e2e/jest.config.js', args: firstLane }],
		[
			{
				name: 'e2e',
				config: 'test/e2e/jest.config.js',
				args: ['--testPathIgnorePatterns', ...firstLane],
			},
			{ name: 'queue', config: 'test/queue/jest.config.js', args: [] },
		],
	];
}

const running = new Set<ChildProcess>();
let stopping = false;

// a lane's jest stops its n8n on these signals (lib/processes.ts): pass them on, or n8n outlives the run
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
	process.on(signal, () => {
		stopping = true;
		for (const child of running) child.kill(signal);
	});

function runJest(run: JestRun, tarball: string, label: string): Promise<number> {
	return new Promise((resolve) => {
		const child = spawn(
			process.execPath,
			[require.resolve('jest/bin/jest'), '-c', run.config, '--runInBand', ...run.args],
			{
				env: { ...process.env, N8N_E2E_TARBALL: tarball },
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		for (const stream of [child.stdout, child.stderr])
			createInterface({ input: stream }).on('line', (line) =>
				process.stdout.write(`[${label}] ${line}\n`),
			);
		running.add(child);
		child.on('close', (code) => {
			running.delete(child);
			resolve(code ?? 1);
		});
	});
}

async function main(): Promise<void> {
	const versions = selectedVersions();
	const say = (line: string) => process.stdout.write(`${line}\n`);
	const tarball = await prepareRun('real-n8n', [...new Set([...versions, QUEUE_VERSION])], say);
	const started = Date.now();
	const codes = await Promise.all(
		lanes().map(async (lane, index) => {
			const label = `lane ${index + 1}`;
			let worst = 0;
			for (const run of lane) {
				if (stopping) return 1;
				const runStarted = Date.now();
				const code = await runJest(run, tarball, label);
				say(
					`[${label}] ${run.name} suites: exit ${code} after ${Math.round((Date.now() - runStarted) / 1000)} s`,
				);
				worst = Math.max(worst, code);
			}
			return worst;
		}),
	);
	say(`[real-n8n] all lanes done after ${Math.round((Date.now() - started) / 1000)} s`);
	process.exitCode = stopping || codes.some((code) => code !== 0) ? 1 : 0;
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});

/**
 * `npm test`: every check CI runs, one after the other, stopping at the first that fails: lint, type
 * check, the unit and sandbox suites, the same against a spec-minimal bank, the reliability checks, then
 * the real-n8n suites. What the real-n8n suites install (n8n releases, chromium, the queue-mode
 * services: `npm run test:e2e:install`) is installed in the background meanwhile: on a machine where
 * nothing is cached that is about ten minutes spent waiting on the registry, now spent beside the
 * suites that need no n8n. Already installed, it ends within seconds.
 */
import { type ChildProcess, spawn } from 'node:child_process';

const STEPS_WITHOUT_N8N = [
	'lint',
	'typecheck',
	'test:unit',
	'test:spec-minimal',
	'test:reliability',
];
const STEP_WITH_N8N = 'test:real-n8n';

const running = new Set<ChildProcess>();
let stopping = false;

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
	process.on(signal, () => {
		stopping = true;
		for (const child of running) child.kill(signal);
	});

function start(args: string[]): { child: ChildProcess; done: Promise<number> } {
	const child = spawn('npm', args, { stdio: 'inherit' });
	running.add(child);
	const done = new Promise<number>((resolve) =>
		child.on('close', (code) => {
			running.delete(child);
			resolve(code ?? 1);
		}),
	);
	return { child, done };
}

async function main(): Promise<number> {
	const install = start(['run', '--silent', 'test:e2e:install']);
	for (const step of STEPS_WITHOUT_N8N) {
		const code = stopping ? 1 : await start(['run', step]).done;
		if (code !== 0) {
			install.child.kill('SIGTERM');
			return code;
		}
	}
	const started = Date.now();
	const installed = await install.done;
	process.stdout.write(
		installed === 0
			? `[install] done; waited ${Math.round((Date.now() - started) / 1000)} s for it after the suites without n8n\n`
			: `[install] failed (exit ${installed}); the real-n8n suites install again and report why\n`,
	);
	if (stopping) return 1;
	return await start(['run', STEP_WITH_N8N]).done;
}

main().then(
	(code) => {
		process.exitCode = code;
	},
	(error: unknown) => {
		console.error(error instanceof Error ? error.message : error);
		process.exitCode = 1;
	},
);

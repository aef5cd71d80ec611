/**
 * `npm run dev`: the demo (test/e2e/demo.ts: sandbox bank, real n8n with this package, credential and
 * example workflows), started again with a fresh build whenever a file under nodes/, credentials/ or
 * icons/ changes. The running demo is stopped with SIGINT and waited for, however long n8n takes to
 * stop, so no n8n is left behind; Ctrl-C stops the demo and the loop.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const WATCHED = ['nodes', 'credentials', 'icons'];
/** Editors write a file in several steps: one restart for all of them. */
const SETTLE_MS = 500;

let demo: ChildProcess | undefined;
let stopping = false;

function start(): void {
	const child = spawn(join(root, 'node_modules', '.bin', 'tsx'), [join('test', 'e2e', 'demo.ts')], {
		cwd: root,
		stdio: 'inherit',
	});
	child.on('exit', () => {
		if (demo === child) demo = undefined;
	});
	demo = child;
}

async function stopDemo(): Promise<void> {
	const child = demo;
	if (!child || child.exitCode !== null) return;
	const exited = new Promise((resolve) => child.once('exit', resolve));
	child.kill('SIGINT');
	await exited;
}

let pending: NodeJS.Timeout | undefined;
let restarting = Promise.resolve();

function restartSoon(changed: string): void {
	if (stopping) return;
	clearTimeout(pending);
	pending = setTimeout(() => {
		restarting = restarting.then(async () => {
			console.log(`\n[dev] ${changed} changed: rebuilding and starting the demo again …\n`);
			await stopDemo();
			if (!stopping) start();
		});
	}, SETTLE_MS);
}

for (const folder of WATCHED) {
	watch(join(root, folder), { recursive: true }, (_event, file) =>
		restartSoon(join(folder, String(file ?? ''))),
	);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.on(signal, () => {
		if (stopping) return;
		stopping = true;
		clearTimeout(pending);
		void restarting.then(stopDemo).finally(() => process.exit(0));
	});
}

start();

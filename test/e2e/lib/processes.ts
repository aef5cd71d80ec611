import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A free TCP port on loopback (the OS picks it; released before returning). */
export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() =>
				typeof address === 'object' && address
					? resolve(address.port)
					: reject(new Error('no port')),
			);
		});
	});
}

/** Whether something already listens on 127.0.0.1:port. */
export function portIsFree(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const server = createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/** Distinct free ports (asked for together, so the OS does not hand the same one out twice). */
export async function freePorts(count: number): Promise<number[]> {
	const ports = new Set<number>();
	while (ports.size < count) ports.add(await freePort());
	return [...ports];
}

export interface ManagedProcess {
	child: ChildProcess;
	/** everything written to stdout and stderr so far */
	output(): string;
	exited: Promise<number | null>;
	/** SIGTERM to the whole process group, SIGKILL after the grace period; resolves once it is gone */
	stop(graceMs?: number): Promise<void>;
	/** SIGKILL to the whole process group at once (a crash: no shutdown); resolves once it is gone */
	kill(): Promise<void>;
}

const running = new Set<ManagedProcess>();
let signalHandlersInstalled = false;

function killGroupsNow(): void {
	for (const p of running) {
		try {
			if (p.child.pid) process.kill(-p.child.pid, 'SIGKILL');
		} catch {
			// gone
		}
	}
}

// last resort when the harness exits without cleaning up (jest interrupted, a crash, a CI timeout's
// SIGTERM): never leave an n8n or its task runner behind; they run in process groups of their own
process.once('exit', killGroupsNow);
for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
	process.once(signal, () => {
		if (signalHandlersInstalled) return; // the demo stops gracefully (stopAllOnSignals)
		killGroupsNow();
		process.kill(process.pid, signal); // then die of it as if we had not listened
	});
}

/** Spawns `command` as the leader of its own process group, so stop() also ends its children. */
export function startProcess(
	command: string,
	args: string[],
	options: { cwd?: string; env: NodeJS.ProcessEnv; onOutput?: (chunk: string) => void },
): ManagedProcess {
	const child = spawn(command, args, {
		cwd: options.cwd,
		env: options.env,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	const collect = (chunk: Buffer) => {
		const text = chunk.toString();
		output += text;
		if (output.length > 2_000_000) output = output.slice(-1_000_000);
		options.onOutput?.(text);
	};
	child.stdout?.on('data', collect);
	child.stderr?.on('data', collect);
	const exited = new Promise<number | null>((resolve) => {
		child.on('close', (code) => resolve(code));
		child.on('error', () => resolve(null));
	});
	let stopping: Promise<void> | undefined;
	const signal = (name: NodeJS.Signals) => {
		try {
			if (child.pid) process.kill(-child.pid, name);
		} catch {
			// the group is already gone
		}
	};
	const managed: ManagedProcess = {
		child,
		output: () => output,
		exited,
		kill() {
			stopping ??= (async () => {
				signal('SIGKILL');
				await exited;
				running.delete(managed);
			})();
			return stopping;
		},
		stop(graceMs = 10_000) {
			stopping ??= (async () => {
				if (child.exitCode === null && child.signalCode === null) {
					signal('SIGTERM');
					const timer = new Promise<'timeout'>((resolve) =>
						setTimeout(() => resolve('timeout'), graceMs).unref(),
					);
					if ((await Promise.race([exited, timer])) === 'timeout') signal('SIGKILL');
					await exited;
				}
				// children that outlived the leader (task runners) go too
				signal('SIGKILL');
				running.delete(managed);
			})();
			return stopping;
		},
	};
	running.add(managed);
	return managed;
}

/**
 * Polls `probe` until it says `proc` serves; throws with the end of its output when it exits first or
 * the time runs out. How n8n (each role), Postgres and Redis are waited for.
 */
export async function waitForProcess(
	what: string,
	proc: ManagedProcess,
	probe: () => Promise<boolean> | boolean,
	timeoutMs: number,
	intervalMs = 250,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (proc.child.exitCode !== null || proc.child.signalCode !== null) {
			throw new Error(
				`${what} exited (code ${proc.child.exitCode ?? proc.child.signalCode}) before it was ready:\n${proc.output().slice(-6000)}`,
			);
		}
		if (await probe()) return;
		if (Date.now() > deadline)
			throw new Error(`${what} not ready after ${timeoutMs} ms:\n${proc.output().slice(-6000)}`);
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
}

/** Stops every process this module started that is still running (afterAll safety net). */
export async function stopAll(): Promise<void> {
	await Promise.all([...running].map((p) => p.stop(5_000)));
}

/** On Ctrl-C / SIGTERM of the harness itself: stop the process groups, then exit. */
export function stopAllOnSignals(cleanup: () => Promise<void> = stopAll): void {
	if (signalHandlersInstalled) return;
	signalHandlersInstalled = true;
	let stopping = false;
	// Every signal is caught for as long as the clean-up runs: a second Ctrl-C (or npm passing the
	// first one on again) must not end this process before n8n, detached in its own process group, is
	// stopped; it only makes the clean-up skip n8n's grace period.
	const handler = (signal: NodeJS.Signals) => {
		if (stopping) {
			killGroupsNow();
			return;
		}
		stopping = true;
		void cleanup().finally(() => {
			killGroupsNow();
			process.exit(signal === 'SIGINT' ? 130 : 143);
		});
	};
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, handler);
}

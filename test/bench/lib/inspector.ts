/**
 * The n8n instance seen through its own inspector (opened with SIGUSR1 on loopback): garbage
 * collection before a run and the JavaScript heap sampled while it lasts, so a cell's memory is what
 * it allocated, not what an earlier cell left behind in the resident set; and CPU profiles of one run.
 */
import { writeFileSync } from 'node:fs';

import { WebSocket } from 'undici';

const INSPECTOR_PORT = 9229;

export class Inspector {
	private nextId = 1;
	private readonly pending = new Map<
		number,
		{ resolve: (value: unknown) => void; reject: (error: Error) => void }
	>();

	private constructor(private readonly socket: WebSocket) {
		socket.addEventListener('message', (event) => {
			const message = JSON.parse(String(event.data)) as {
				id?: number;
				result?: unknown;
				error?: { message: string };
			};
			const waiting = message.id === undefined ? undefined : this.pending.get(message.id);
			if (!waiting || message.id === undefined) return;
			this.pending.delete(message.id);
			if (message.error) waiting.reject(new Error(message.error.message));
			else waiting.resolve(message.result);
		});
	}

	/** Opens the inspector of `pid` (a Node.js instance on this machine) and connects to it. */
	static async attach(pid: number): Promise<Inspector> {
		process.kill(pid, 'SIGUSR1');
		const deadline = Date.now() + 10_000;
		for (;;) {
			try {
				const targets = (await (
					await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json/list`)
				).json()) as Array<{ webSocketDebuggerUrl: string }>;
				const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
				await new Promise<void>((resolve, reject) => {
					socket.addEventListener('open', () => resolve());
					socket.addEventListener('error', () => reject(new Error('inspector connection failed')));
				});
				return new Inspector(socket);
			} catch (error) {
				if (Date.now() > deadline) throw error;
				await new Promise((resolve) => setTimeout(resolve, 100));
			}
		}
	}

	async send<T = unknown>(method: string, params: Record<string, unknown> = {}): Promise<T> {
		const id = this.nextId++;
		const answer = new Promise<unknown>((resolve, reject) =>
			this.pending.set(id, { resolve, reject }),
		);
		this.socket.send(JSON.stringify({ id, method, params }));
		return (await answer) as T;
	}

	async heapUsed(): Promise<number> {
		return (await this.send<{ usedSize: number }>('Runtime.getHeapUsage')).usedSize;
	}

	/**
	 * Runs `work` after a full garbage collection, sampling the heap every `everyMs`: its result, the
	 * elapsed milliseconds and the peak heap above the collected baseline.
	 */
	async withPeakHeap<T>(
		work: () => Promise<T>,
		everyMs = 25,
	): Promise<{ result: T; elapsedMs: number; extraBytes: number }> {
		await this.send('HeapProfiler.collectGarbage');
		const before = await this.heapUsed();
		let peak = before;
		let sampling = true;
		const sampler = (async () => {
			while (sampling) {
				peak = Math.max(peak, await this.heapUsed());
				await new Promise((resolve) => setTimeout(resolve, everyMs));
			}
		})();
		const started = performance.now();
		try {
			const result = await work();
			const elapsedMs = performance.now() - started;
			return { result, elapsedMs, extraBytes: Math.max(0, peak - before) };
		} finally {
			sampling = false;
			await sampler;
		}
	}

	/**
	 * The wall-clock time (epoch milliseconds) of the zero of the process's monotonic clock, the clock
	 * its CPU profiles are stamped with: one reading of both, so a profile can be cut to a window n8n
	 * recorded in wall-clock time.
	 */
	async wallAtMonotonicZeroMs(): Promise<number> {
		const { result } = await this.send<{ result: { value: string } }>('Runtime.evaluate', {
			expression:
				'JSON.stringify({ wallMs: Date.now(), monotonicUs: Number(process.hrtime.bigint() / 1000n) })',
			returnByValue: true,
		});
		const clock = JSON.parse(result.value) as { wallMs: number; monotonicUs: number };
		return clock.wallMs - clock.monotonicUs / 1000;
	}

	/** Runs `work` under the CPU profiler and writes the profile (open it in Chrome DevTools). */
	async profile<T>(file: string, work: () => Promise<T>): Promise<T> {
		await this.send('Profiler.enable');
		await this.send('Profiler.setSamplingInterval', { interval: 1000 });
		await this.send('Profiler.start');
		try {
			return await work();
		} finally {
			const { profile } = await this.send<{ profile: unknown }>('Profiler.stop');
			writeFileSync(file, JSON.stringify(profile));
		}
	}

	close(): void {
		this.socket.close();
	}
}

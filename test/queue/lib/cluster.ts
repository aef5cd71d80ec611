/**
 * n8n in queue mode on one machine: Postgres and Redis (services.ts), one main instance, workers and
 * one webhook instance of the pinned n8n, or two webhook processes behind nginx (examples/deploy/
 * nginx-webhooks.conf, main then serving no production webhooks), each with its own user folder and the packed package
 * installed in it as a user installs it. Everything listens on 127.0.0.1 on the ports of ports.ts.
 * Each instance starts as the e2e harness starts its n8n (test/e2e/lib/n8n.ts: n8nEnv, launchN8n,
 * waitUntilReady, N8n.setUp); only the queue-mode environment and the roles are added here.
 */
import { randomBytes } from 'node:crypto';
import {
	chmodSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	readlinkSync,
	rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ensureN8n } from '../../e2e/lib/install';
import { launchN8n, N8n, n8nEnv, type N8nRole, waitUntilReady } from '../../e2e/lib/n8n';
import { installPackage } from '../../e2e/lib/pack';
import { type ManagedProcess, portIsFree } from '../../e2e/lib/processes';
import { queuePorts, type QueuePorts } from './ports';
import {
	type Balancer,
	type Postgres,
	type Service,
	startBalancer,
	startPostgres,
	startRedis,
} from './services';

export const QUEUE_VERSION = '2.41.1';

/**
 * Bull's lock and stalled-job check shortened (defaults 30 s / 15 s / 30 s) so that an execution
 * whose worker died is marked failed within about a minute instead of two.
 */
export const STALLED_JOB_SETTINGS = {
	QUEUE_WORKER_LOCK_DURATION: '10000',
	QUEUE_WORKER_LOCK_RENEW_TIME: '2000',
	QUEUE_WORKER_STALLED_INTERVAL: '5000',
};

export type Role = N8nRole;

/** One n8n instance of the cluster (main, a worker or the webhook instance). */
export class QueueInstance {
	process: ManagedProcess;

	constructor(
		readonly role: Role,
		readonly name: string,
		readonly userFolder: string,
		/** where it answers HTTP: the editor and webhooks (main), webhooks (webhook), health checks (worker) */
		readonly url: string,
		private readonly launch: () => ManagedProcess,
	) {
		this.process = launch();
	}

	get pid(): number {
		const pid = this.process.child.pid;
		if (!pid) throw new Error(`${this.name} has no pid`);
		return pid;
	}

	logs(): string {
		return this.process.output();
	}

	/** Waits until the instance serves: main's editor, a worker's readiness check, the webhook listener. */
	async ready(timeoutMs = 120_000): Promise<void> {
		await waitUntilReady(this.url, this.process, timeoutMs, this.role, this.name);
	}

	/** SIGKILL to this n8n's own PID (its task runner is left to stop()/restart()). */
	kill(): void {
		process.kill(this.pid, 'SIGKILL');
	}

	async restart(): Promise<void> {
		await this.process.stop();
		this.process = this.launch();
		await this.ready();
	}

	stop(): Promise<void> {
		return this.process.stop();
	}

	/** Resident memory in MiB of this n8n and of its child processes (the task runner). */
	rss(): { own: number; children: number } {
		const own = rssMiB(this.pid);
		const children = descendants(this.pid).reduce((sum, pid) => sum + rssMiB(pid), 0);
		return { own, children };
	}
}

export interface ClusterOptions {
	tarball: string;
	workers?: number;
	/**
	 * 2: two webhook processes behind the load balancer, which N8N_WEBHOOK_URL then names, and main
	 * serving no production webhooks; 1 (the default): one webhook process, addressed directly
	 */
	webhooks?: 1 | 2;
	/** extra environment for every n8n instance */
	env?: Record<string, string>;
	say?: (line: string) => void;
}

export interface Cluster {
	runDir: string;
	ports: QueuePorts;
	postgres: Postgres;
	redis: Service;
	main: QueueInstance;
	/** main signed in as the owner, with an API key: the e2e harness's REST helpers */
	n8n: N8n;
	workers: QueueInstance[];
	/** the first webhook process */
	webhook: QueueInstance;
	webhooks: QueueInstance[];
	/** nginx in front of the webhook processes, when there are two */
	balancer?: Balancer;
	/** where the bank's deliveries go: the load balancer, else the webhook process */
	webhookUrl: string;
	instances(): QueueInstance[];
	stop(): Promise<void>;
}

/** Every process whose command line, working folder or environment names `dir` (nothing of ours may outlive stop()). */
export function processesUsing(dir: string): Array<{ pid: number; command: string }> {
	const found: Array<{ pid: number; command: string }> = [];
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
		try {
			const command = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim();
			let cwd = '';
			let environ = '';
			try {
				cwd = readlinkSync(`/proc/${name}/cwd`);
				environ = readFileSync(`/proc/${name}/environ`, 'utf8');
			} catch {
				// not ours to read
			}
			if (command.includes(dir) || cwd.startsWith(dir) || environ.includes(dir))
				found.push({ pid: Number(name), command });
		} catch {
			// ended while we looked
		}
	}
	return found;
}

/** Ports of the suite that something still listens on. */
export async function portsInUse(ports: QueuePorts): Promise<number[]> {
	const busy: number[] = [];
	for (const port of ports.all()) if (!(await portIsFree(port))) busy.push(port);
	return busy;
}

function rssMiB(pid: number): number {
	try {
		const line = readFileSync(`/proc/${pid}/status`, 'utf8')
			.split('\n')
			.find((l) => l.startsWith('VmRSS:'));
		return line ? Math.round(Number(line.split(/\s+/)[1]) / 1024) : 0;
	} catch {
		return 0;
	}
}

function descendants(pid: number): number[] {
	const children: number[] = [];
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
			const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			if (parent === pid) children.push(Number(name), ...descendants(Number(name)));
		} catch {
			// ended while we looked
		}
	}
	return children;
}

/** Resident memory (MiB) of a process and all its descendants (0 once it has ended). */
export function processTreeRss(pid: number | undefined): number {
	return pid ? rssMiB(pid) + descendants(pid).reduce((sum, child) => sum + rssMiB(child), 0) : 0;
}

/** Resident memory (MiB) of every process of the Postgres cluster (the server and its backends). */
export function postgresRss(postgres: Postgres): number {
	return processTreeRss(postgres.process.child.pid);
}

export function redisRss(redis: Service): number {
	return redis.process.child.pid ? rssMiB(redis.process.child.pid) : 0;
}

/** Starts Postgres, Redis, main, the workers and the webhook instance; stops what started if one fails. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
	const say = options.say ?? (() => undefined);
	const webhookCount = options.webhooks ?? 1;
	const ports = queuePorts(options.workers ?? 2, webhookCount);
	const busy = await portsInUse(ports);
	if (busy.length > 0) {
		throw new Error(
			`ports ${busy.join(', ')} of the queue-mode suite are in use (move the range with CUSTOMER_BANKING_QUEUE_PORT_BASE)`,
		);
	}
	const install = await ensureN8n(QUEUE_VERSION);
	const runDir = mkdtempSync(join(tmpdir(), 'cb-queue-'));
	// Postgres runs as its own user and must reach its data folder inside
	chmodSync(runDir, 0o711);
	const started: Array<{ stop(): Promise<void> }> = [];
	const stopAllStarted = async () => {
		// the load balancer and n8n first (n8n holds connections to both services), then Redis and Postgres
		const [services, others] = [started.slice(0, 2), started.slice(2)];
		await Promise.allSettled(others.map((s) => s.stop()));
		await Promise.allSettled(services.map((s) => s.stop()));
	};
	try {
		const postgres = await startPostgres(join(runDir, 'postgres'), ports.postgres);
		started.push(postgres);
		const redis = await startRedis(join(runDir, 'redis'), ports.redis);
		started.push(redis);
		say(`[queue] postgres :${ports.postgres} and redis :${ports.redis} up`);

		const mainUrl = `http://127.0.0.1:${ports.main}`;
		const balanced = webhookCount > 1;
		const webhookUrl = balanced
			? `http://127.0.0.1:${ports.balancer}`
			: `http://127.0.0.1:${ports.webhook}`;
		const shared: Record<string, string> = {
			EXECUTIONS_MODE: 'queue',
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(postgres.port),
			DB_POSTGRESDB_DATABASE: postgres.database,
			DB_POSTGRESDB_USER: postgres.user,
			DB_POSTGRESDB_PASSWORD: postgres.password,
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			// every instance decrypts the same credentials
			N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
			N8N_WEBHOOK_URL: `${webhookUrl}/`,
			N8N_EDITOR_BASE_URL: `${mainUrl}/`,
			N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
			N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
			// n8n removes a finished job from Redis at once by default; the instance that enqueued it
			// (webhook process or main) then waits for its end forever when it ended before that
			// instance began to wait (Bull's job.finished() finds nothing left to check), and never
			// answers the webhook call. Keeping the last finished jobs lets it see that the job ended.
			N8N_EXECUTIONS_QUEUE_KEEP_LAST_COMPLETED: '1000',
			N8N_EXECUTIONS_QUEUE_KEEP_LAST_FAILED: '1000',
			// behind the load balancer only the webhook processes take the bank's deliveries
			...(balanced ? { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' } : {}),
			...STALLED_JOB_SETTINGS,
			...options.env,
		};

		const instance = (
			role: Role,
			name: string,
			port: number,
			brokerPort: number,
			url: string,
			extra: Record<string, string> = {},
		) => {
			const userFolder = join(runDir, name);
			mkdirSync(userFolder, { recursive: true });
			const began = Date.now();
			installPackage(userFolder, options.tarball, install);
			say(`[queue] package installed for ${name} (${Date.now() - began} ms)`);
			const launch = () =>
				launchN8n(
					install,
					userFolder,
					role,
					n8nEnv(install, userFolder, port, brokerPort, { ...shared, ...extra }),
				);
			const created = new QueueInstance(role, name, userFolder, url, launch);
			started.push(created);
			return created;
		};

		// main first: it runs the database migrations the others wait for
		const main = instance('main', 'main', ports.main, ports.mainBroker, mainUrl);
		const workers = ports.workers.map((worker, index) =>
			instance(
				'worker',
				`worker-${index + 1}`,
				worker.health,
				worker.broker,
				`http://127.0.0.1:${worker.health}`,
				{
					QUEUE_HEALTH_CHECK_ACTIVE: 'true',
					QUEUE_HEALTH_CHECK_PORT: String(worker.health),
					N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
				},
			),
		);
		await main.ready();
		say(`[queue] main :${ports.main} ready`);
		const webhooks = ports.webhooks.map((port, index) =>
			instance(
				'webhook',
				balanced ? `webhook-${index + 1}` : 'webhook',
				port.http,
				port.broker,
				`http://127.0.0.1:${port.http}`,
			),
		);
		await Promise.all([...workers, ...webhooks].map((i) => i.ready()));
		say(
			`[queue] ${workers.length} workers and webhook process(es) :${ports.webhooks.map((w) => w.http).join(', :')} ready`,
		);
		let balancer: Balancer | undefined;
		if (balanced) {
			balancer = await startBalancer(join(runDir, 'nginx'), ports.balancer, [
				`127.0.0.1:${ports.webhooks[0].http}`,
				`127.0.0.1:${ports.webhooks[1].http}`,
			]);
			started.push(balancer);
			say(`[queue] nginx :${ports.balancer} in front of the webhook processes`);
		}

		const n8n = new N8n(
			QUEUE_VERSION,
			install,
			mainUrl,
			main.userFolder,
			main.process,
			true,
			() => {
				throw new Error('restart main with cluster.main.restart()');
			},
		);
		await n8n.setUp();

		let stopping: Promise<void> | undefined;
		return {
			runDir,
			ports,
			postgres,
			redis,
			main,
			n8n,
			workers,
			webhook: webhooks[0],
			webhooks,
			balancer,
			webhookUrl,
			instances: () => [main, ...workers, ...webhooks],
			stop: () =>
				(stopping ??= (async () => {
					await stopAllStarted();
					rmSync(runDir, { recursive: true, force: true });
				})()),
		};
	} catch (error) {
		await stopAllStarted();
		if (existsSync(runDir)) rmSync(runDir, { recursive: true, force: true });
		throw error;
	}
}

/**
 * Postgres 15, Redis 7 and nginx from Debian's packages for the queue-mode suite: installed with
 * apt-get when missing, each started on loopback with its own data folder and port, and stopped again
 * (recipe: ../../../../shared/notes/queue-mode.md). nginx runs examples/deploy/nginx-webhooks.conf.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';

import { type ManagedProcess, startProcess, waitForProcess } from '../../e2e/lib/processes';

export const POSTGRES_BIN = '/usr/lib/postgresql/15/bin';
const REDIS_SERVER = '/usr/bin/redis-server';
const NGINX = '/usr/sbin/nginx';
/** The load balancer's configuration as shipped to users; the suite runs this very file. */
export const BALANCER_CONFIG = resolve(__dirname, '../../../examples/deploy/nginx-webhooks.conf');
const POLICY_RC = '/usr/sbin/policy-rc.d';

/**
 * Debian's postgresql-15, redis-server and nginx, installed with apt-get when missing (like chromium in
 * the e2e editor suite). A policy-rc.d is in place during the install so that the packages do not start
 * their own system-wide Postgres, Redis and nginx on the default ports.
 */
export function ensureServicePackages(say: (line: string) => void = console.log): void {
	const missing = [
		...(existsSync(join(POSTGRES_BIN, 'postgres')) ? [] : ['postgresql-15']),
		...(existsSync(REDIS_SERVER) ? [] : ['redis-server']),
		...(existsSync(NGINX) ? [] : ['nginx']),
	];
	if (missing.length === 0) return;
	say(`[queue] installing ${missing.join(', ')} with apt-get`);
	const ownPolicy = !existsSync(POLICY_RC);
	if (ownPolicy)
		writeFileSync(
			POLICY_RC,
			'#!/bin/sh\n# no service starts while the queue-mode suite installs packages\nexit 101\n',
			{ mode: 0o755 },
		);
	try {
		execFileSync('apt-get', ['update'], { stdio: 'inherit' });
		execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], {
			stdio: 'inherit',
			env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
		});
	} finally {
		if (ownPolicy) rmSync(POLICY_RC, { force: true });
	}
}

const isRoot = () => userInfo().uid === 0;

/** Postgres refuses to run as root: as root the server runs as the `postgres` user Debian's package made. */
function asPostgres(command: string, args: string[]): [string, string[]] {
	return isRoot()
		? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', command, ...args]]
		: [command, args];
}

function runAsPostgres(command: string, args: string[]): string {
	const [cmd, cmdArgs] = asPostgres(command, args);
	const result = spawnSync(cmd, cmdArgs, { encoding: 'utf8' });
	if (result.status !== 0)
		throw new Error(
			`${command} ${args.join(' ')} failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`,
		);
	return result.stdout;
}

export interface Service {
	process: ManagedProcess;
	port: number;
	stop(): Promise<void>;
}

export interface Postgres extends Service {
	database: string;
	user: string;
	password: string;
}

/**
 * A throw-away Postgres 15 cluster in `dir` on 127.0.0.1:`port`, with a database and user for n8n.
 * Durability is off (fsync, synchronous commit): the cluster lives for one test run.
 */
export async function startPostgres(dir: string, port: number): Promise<Postgres> {
	const data = join(dir, 'data');
	const sockets = join(dir, 'sockets');
	mkdirSync(sockets, { recursive: true });
	if (isRoot()) {
		const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
		const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
		chownSync(dir, uid, gid);
		chownSync(sockets, uid, gid);
	}
	runAsPostgres(join(POSTGRES_BIN, 'initdb'), [
		'--auth=trust',
		'--username=postgres',
		'--encoding=UTF8',
		'--no-sync',
		'-D',
		data,
	]);
	const [command, args] = asPostgres(join(POSTGRES_BIN, 'postgres'), [
		'-D',
		data,
		'-p',
		String(port),
		'-k',
		sockets,
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		'fsync=off',
		'-c',
		'synchronous_commit=off',
		'-c',
		'full_page_writes=off',
		'-c',
		'max_connections=200',
	]);
	const proc = startProcess(command, args, { env: { ...process.env, LC_ALL: 'C.UTF-8' } });
	const psql = (sql: string) =>
		spawnSync(
			join(POSTGRES_BIN, 'psql'),
			[
				'-h',
				'127.0.0.1',
				'-p',
				String(port),
				'-U',
				'postgres',
				'-d',
				'postgres',
				'-v',
				'ON_ERROR_STOP=1',
				'-c',
				sql,
			],
			{ encoding: 'utf8' },
		);
	await waitForProcess('postgres', proc, () => psql('SELECT 1').status === 0, 30_000, 200);
	const database = 'n8n';
	const user = 'n8n';
	const password = 'n8n-queue-suite';
	for (const sql of [
		`CREATE USER ${user} PASSWORD '${password}'`,
		`CREATE DATABASE ${database} OWNER ${user}`,
	]) {
		const result = psql(sql);
		if (result.status !== 0) throw new Error(`psql ${sql}: ${result.stderr}`);
	}
	return {
		process: proc,
		port,
		database,
		user,
		password,
		// SIGTERM is Postgres's "smart" shutdown: it waits for clients, and n8n is stopped first
		stop: () => proc.stop(20_000),
	};
}

/** Redis 7 on 127.0.0.1:`port`, nothing saved to disk. */
export async function startRedis(dir: string, port: number): Promise<Service> {
	mkdirSync(dir, { recursive: true });
	const proc = startProcess(
		REDIS_SERVER,
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			dir,
			'--daemonize',
			'no',
		],
		{
			env: process.env,
		},
	);
	await waitForProcess(
		'redis',
		proc,
		() => proc.output().includes('Ready to accept connections'),
		20_000,
		200,
	);
	return { process: proc, port, stop: () => proc.stop(10_000) };
}

export interface Balancer extends Service {
	/** the access log: one line per request, `<path> <status> <upstream address(es)> <upstream status(es)>` */
	accessLog: string;
	/** the access log's requests, in order */
	requests(): BalancedRequest[];
}

export interface BalancedRequest {
	path: string;
	status: number;
	/** every webhook process tried, in order (`127.0.0.1:<port>`); two when the first failed */
	upstreams: string[];
	upstreamStatuses: string[];
}

/**
 * nginx on 127.0.0.1:`port` in front of the webhook processes at `upstreams` (host:port), running the
 * shipped examples/deploy/nginx-webhooks.conf with its addresses filled in, inside a main configuration
 * of its own (pid, logs and temporary files in `dir`, in the foreground).
 */
export async function startBalancer(
	dir: string,
	port: number,
	upstreams: [string, string],
): Promise<Balancer> {
	mkdirSync(dir, { recursive: true });
	const site = readFileSync(BALANCER_CONFIG, 'utf8')
		.replaceAll('{{LISTEN}}', `127.0.0.1:${port}`)
		.replaceAll('{{WEBHOOK_1}}', upstreams[0])
		.replaceAll('{{WEBHOOK_2}}', upstreams[1]);
	if (/\{\{/.test(site))
		throw new Error(`${BALANCER_CONFIG} has a placeholder the suite does not fill`);
	writeFileSync(join(dir, 'n8n-webhooks.conf'), site);
	const accessLog = join(dir, 'access.log');
	writeFileSync(
		join(dir, 'nginx.conf'),
		[
			'daemon off;',
			'worker_processes 1;',
			`pid ${join(dir, 'nginx.pid')};`,
			`error_log ${join(dir, 'error.log')} warn;`,
			'events { worker_connections 512; }',
			'http {',
			`    client_body_temp_path ${join(dir, 'client_body')};`,
			`    proxy_temp_path ${join(dir, 'proxy')};`,
			`    fastcgi_temp_path ${join(dir, 'fastcgi')};`,
			`    uwsgi_temp_path ${join(dir, 'uwsgi')};`,
			`    scgi_temp_path ${join(dir, 'scgi')};`,
			"    log_format balanced '$request_uri $status $upstream_addr $upstream_status';",
			`    access_log ${accessLog} balanced;`,
			`    include ${join(dir, 'n8n-webhooks.conf')};`,
			'}',
			'',
		].join('\n'),
	);
	const args = ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')];
	const check = spawnSync(NGINX, ['-t', ...args], { encoding: 'utf8' });
	if (check.status !== 0) throw new Error(`nginx -t: ${check.stderr}`);
	const proc = startProcess(NGINX, args, { env: process.env });
	await waitForProcess(
		'nginx',
		proc,
		async () => {
			try {
				return (await fetch(`http://127.0.0.1:${port}/`)).status === 404;
			} catch {
				return false;
			}
		},
		20_000,
		200,
	);
	const requests = (): BalancedRequest[] =>
		(existsSync(accessLog) ? readFileSync(accessLog, 'utf8') : '')
			.split('\n')
			.filter(Boolean)
			.map((line) => {
				// a request passed on to the next process lists both: "a, b 502, 200"
				const [path, status, ...rest] = line.split(/,? /);
				return {
					path,
					status: Number(status),
					upstreams: rest.filter((part) => part.includes(':')),
					upstreamStatuses: rest.filter((part) => !part.includes(':')),
				};
			});
	return { process: proc, port, accessLog, requests, stop: () => proc.stop(10_000) };
}

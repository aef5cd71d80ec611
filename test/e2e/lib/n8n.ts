/**
 * Starts a real, pinned n8n on loopback with its own user folder and the packed package installed,
 * sets up the owner and a public-API key, and stops it again (process group, also on failure). The
 * queue-mode suite (test/queue/lib/cluster.ts) starts each of its instances with the same pieces:
 * n8nEnv, launchN8n, waitUntilReady and N8n.setUp.
 */
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { cleanEnv, ensureN8n, type N8nInstall } from './install';
import { installPackage } from './pack';
import { freePorts, type ManagedProcess, startProcess, waitForProcess } from './processes';

export const OWNER = {
	email: 'owner@customer-banking.example',
	firstName: 'Ada',
	lastName: 'Owner',
	password: 'E2e-Password-1234',
};

export interface StartOptions {
	version: string;
	tarball: string;
	port?: number;
	/** keep the user folder after stop (demo / debugging) */
	keepUserFolder?: boolean;
	env?: Record<string, string>;
	/** mirror n8n's log lines here (besides the log file in the user folder) */
	onOutput?: (chunk: string) => void;
}

export interface HttpResult<T = unknown> {
	status: number;
	headers: Headers;
	body: T;
	text: string;
}

/** One HTTP request; the answer's body parsed as JSON when it is JSON, else its text. */
export async function requestJson<T = unknown>(
	url: string,
	init: RequestInit = {},
): Promise<HttpResult<T>> {
	const response = await fetch(url, init);
	const text = await response.text();
	let parsed: unknown = text;
	try {
		parsed = text ? JSON.parse(text) : undefined;
	} catch {
		// not JSON: keep the text
	}
	return { status: response.status, headers: response.headers, body: parsed as T, text };
}

export class N8n {
	cookie = '';
	apiKey = '';

	constructor(
		readonly version: string,
		readonly install: N8nInstall,
		readonly url: string,
		readonly userFolder: string,
		public process: ManagedProcess,
		private readonly keepUserFolder: boolean,
		private readonly launch: () => ManagedProcess,
	) {}

	/** Stops n8n and starts it again on the same port, user folder and database (an n8n restart). */
	async restart(): Promise<void> {
		await this.process.stop();
		this.process = this.launch();
		await waitUntilReady(this.url, this.process, 120_000);
		await this.signIn();
	}

	/**
	 * Kills n8n at once (SIGKILL to its process group, as `kill -9`: no shutdown, nothing saved, running
	 * executions cut off) and starts it again on the same port, user folder and database.
	 */
	async killAndRestart(): Promise<void> {
		await this.process.kill();
		this.process = this.launch();
		await waitUntilReady(this.url, this.process, 120_000);
		await this.signIn();
	}

	get major(): number {
		return Number(this.version.split('.')[0]);
	}

	/** n8n's own log output so far (for failure messages) */
	logs(): string {
		return this.process.output();
	}

	async http<T = unknown>(
		method: string,
		path: string,
		options: { body?: unknown; headers?: Record<string, string>; raw?: string } = {},
	): Promise<HttpResult<T>> {
		const headers: Record<string, string> = { ...options.headers };
		let body: string | undefined = options.raw;
		if (options.body !== undefined) {
			headers['content-type'] = 'application/json';
			body = JSON.stringify(options.body);
		}
		return await requestJson<T>(`${this.url}${path}`, { method, headers, body });
	}

	/** Internal REST API (what the editor uses), signed in as the owner. */
	async rest<T = unknown>(method: string, path: string, body?: unknown): Promise<HttpResult<T>> {
		return this.http<T>(method, `/rest${path}`, {
			body,
			headers: { cookie: this.cookie, 'browser-id': 'e2e' },
		});
	}

	/** Public API (/api/v1) with the owner's API key. */
	async api<T = unknown>(method: string, path: string, body?: unknown): Promise<HttpResult<T>> {
		return this.http<T>(method, `/api/v1${path}`, {
			body,
			headers: { 'x-n8n-api-key': this.apiKey },
		});
	}

	/** Like api(), but throws with the response when the status is not 2xx. */
	async apiOk<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
		const result = await this.api<T>(method, path, body);
		if (result.status < 200 || result.status > 299)
			throw new Error(`${method} /api/v1${path} → ${result.status}: ${result.text.slice(0, 2000)}`);
		return result.body;
	}

	async restOk<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
		const result = await this.rest<T>(method, path, body);
		if (result.status < 200 || result.status > 299)
			throw new Error(`${method} /rest${path} → ${result.status}: ${result.text.slice(0, 2000)}`);
		return result.body;
	}

	async setupOwner(): Promise<void> {
		const result = await this.http('POST', '/rest/owner/setup', { body: OWNER });
		if (result.status !== 200) throw new Error(`owner setup → ${result.status}: ${result.text}`);
		this.cookie = cookieFrom(result.headers);
		if (!this.cookie) throw new Error('owner setup returned no auth cookie');
	}

	async signIn(): Promise<void> {
		// 2.x takes emailOrLdapLoginId, 1.x email
		const result = await this.http('POST', '/rest/login', {
			body: { email: OWNER.email, emailOrLdapLoginId: OWNER.email, password: OWNER.password },
		});
		if (result.status !== 200) throw new Error(`login → ${result.status}: ${result.text}`);
		this.cookie = cookieFrom(result.headers);
	}

	/** An API key with every scope the owner may grant. */
	async createApiKey(): Promise<void> {
		const scopes = await this.rest<{ data: string[] }>('GET', '/api-keys/scopes');
		const body: Record<string, unknown> = { label: `e2e-${Date.now()}`, expiresAt: null };
		if (scopes.status === 200 && Array.isArray(scopes.body?.data)) body.scopes = scopes.body.data;
		const created = await this.restOk<{ data: { rawApiKey?: string; apiKey?: string } }>(
			'POST',
			'/api-keys',
			body,
		);
		this.apiKey = created.data.rawApiKey ?? created.data.apiKey ?? '';
		if (!this.apiKey) throw new Error(`no API key in ${JSON.stringify(created)}`);
	}

	/** A fresh n8n's first steps: the owner (signed in) and an API key. */
	async setUp(): Promise<void> {
		await this.setupOwner();
		await this.createApiKey();
	}

	async stop(): Promise<void> {
		await this.process.stop();
		if (!this.keepUserFolder) rmSync(this.userFolder, { recursive: true, force: true });
	}
}

function cookieFrom(headers: Headers): string {
	const setCookies = headers.getSetCookie?.() ?? [headers.get('set-cookie') ?? ''];
	return setCookies
		.map((c) => c.split(';')[0])
		.filter((c) => c.startsWith('n8n-auth='))
		.join('; ');
}

/** What an n8n instance runs as: `n8n start` (main), `n8n worker`, `n8n webhook`. */
export type N8nRole = 'main' | 'worker' | 'webhook';

const COMMANDS: Record<N8nRole, string> = { main: 'start', worker: 'worker', webhook: 'webhook' };

/**
 * How each role shows it serves: a health check that answers 200 and a line in its log. 1.x's main
 * answers readiness before its REST routes exist; the log line comes after them.
 */
const READY: Record<N8nRole, { path: string; marker: string }> = {
	main: { path: '/healthz/readiness', marker: 'Editor is now accessible' },
	worker: { path: '/healthz/readiness', marker: 'n8n worker is now ready' },
	webhook: { path: '/healthz', marker: 'Webhook listener waiting for requests' },
};

/** Waits until the n8n instance at `url` answers its health check and has logged that it serves. */
export async function waitUntilReady(
	url: string,
	proc: ManagedProcess,
	timeoutMs: number,
	role: N8nRole = 'main',
	name = 'n8n',
): Promise<void> {
	const { path, marker } = READY[role];
	await waitForProcess(
		name,
		proc,
		async () => {
			try {
				const response = await fetch(`${url}${path}`);
				return response.status === 200 && proc.output().includes(marker);
			} catch {
				return false; // not listening yet
			}
		},
		timeoutMs,
	);
}

/** Runs n8n in `role` with the pinned Node in `userFolder`; its output also goes to n8n.log there. */
export function launchN8n(
	install: N8nInstall,
	userFolder: string,
	role: N8nRole,
	env: NodeJS.ProcessEnv,
	onOutput?: (chunk: string) => void,
): ManagedProcess {
	const logFile = createWriteStream(join(userFolder, 'n8n.log'), { flags: 'a' });
	const proc = startProcess(install.nodeBin, [install.n8nEntry, COMMANDS[role]], {
		cwd: userFolder,
		env,
		onOutput: (chunk) => {
			logFile.write(chunk);
			onOutput?.(chunk);
		},
	});
	void proc.exited.then(() => logFile.end());
	return proc;
}

/** Environment that makes n8n run quietly on loopback (see shared/notes/real-n8n.md). */
export function n8nEnv(
	install: N8nInstall,
	userFolder: string,
	port: number,
	brokerPort: number,
	extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
	return cleanEnv(install.nodePackageDir, {
		// jest sets NODE_ENV=test, which n8n reads as "running its own unit tests"
		NODE_ENV: 'production',
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		DB_SQLITE_POOL_SIZE: '1',
		N8N_LOG_OUTPUT: 'console',
		N8N_HIRING_BANNER_ENABLED: 'false',
		...install.versionEnv,
		...extra,
	});
}

/** Installs (cached) n8n `version`, the tarball into a fresh user folder, starts n8n, sets up the owner. */
export async function startN8n(options: StartOptions): Promise<N8n> {
	const install = await ensureN8n(options.version);
	mkdirSync(tmpdir(), { recursive: true });
	const userFolder = mkdtempSync(join(tmpdir(), `cb-n8n-${options.version}-`));
	try {
		installPackage(userFolder, options.tarball, install);
		const [freeMain, brokerPort] = await freePorts(2);
		const port = options.port ?? freeMain;
		const url = `http://127.0.0.1:${port}`;
		const launch = () =>
			launchN8n(
				install,
				userFolder,
				'main',
				n8nEnv(install, userFolder, port, brokerPort, options.env),
				options.onOutput,
			);
		const proc = launch();
		const n8n = new N8n(
			options.version,
			install,
			url,
			userFolder,
			proc,
			options.keepUserFolder ?? false,
			launch,
		);
		try {
			await waitUntilReady(url, proc, 120_000);
			await n8n.setUp();
		} catch (error) {
			await n8n.stop();
			throw error;
		}
		return n8n;
	} catch (error) {
		if (!options.keepUserFolder) rmSync(userFolder, { recursive: true, force: true });
		throw error;
	}
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import { accountRoutes } from './accounts/routes';
import { expireDue } from './approvals/model';
import { approvalRoutes } from './approvals/routes';
import { requireScopes, type TokenService } from './auth';
import type { ControlRoute } from './control';
import { ApiError } from './errors';
import type { FaultRule, Faults } from './faults';
import {
	type ApiRoute,
	compileRoute,
	matchRoute,
	parseJsonBody,
	readBody,
	type RouteContext,
	type RouteResult,
	sendJson,
} from './http';
import { payeeRoutes } from './payees/routes';
import { paymentRoutes } from './payments/routes';
import type { Bank } from './state';
import { transactionRoutes } from './transactions/routes';
import { webhookRoutes } from './webhooks/routes';
import { echoingErrorPage } from './echo';

/** Prefixes of the addresses (DECISIONS.md §Addresses). */
export const API_PREFIX = '/api';
export const AUTH_PREFIX = '/auth';
export const CONTROL_PREFIX = '/_sandbox';
const TOKEN_PATH = '/oauth/token';

/** One API or token request as the sandbox saw it; authorization headers and secrets are left out. */
export interface RequestLogEntry {
	id: number;
	time: string;
	area: 'api' | 'auth';
	method: string;
	/** Relative to {base_url} or {auth_url}: `/payments`, `/oauth/token`. */
	path: string;
	/** The matched route template, e.g. `/account/{xaid}/balance`. */
	route?: string;
	query: Record<string, string>;
	headers: Record<string, string | string[] | undefined>;
	/** Parsed JSON body of API requests (token requests carry secrets and are never logged). */
	body?: unknown;
	clientId?: string;
	/** 0 when the socket was destroyed without an answer. */
	status: number;
	fault?: FaultRule['kind'];
	durationMs: number;
}

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);
/** A long `npm run sandbox` session keeps the newest entries only. */
const REQUEST_LOG_LIMIT = 10_000;

export interface ServerDeps {
	bank: Bank;
	tokens: TokenService;
	faults: Faults;
	requestLog: RequestLogEntry[];
	controlRoutes: ControlRoute[];
	/** Told of every request once it is answered (or dropped): `recordRequests` in index.ts. */
	onAnswered?: (entry: RequestLogEntry) => void;
}

const apiRoutes = [
	...accountRoutes,
	...transactionRoutes,
	...approvalRoutes,
	...payeeRoutes,
	...paymentRoutes,
	...webhookRoutes,
].map((route) => compileRoute<ApiRoute>(route));

export function createSandboxServer(deps: ServerDeps): Server {
	const controlRoutes = deps.controlRoutes.map((route) => compileRoute(route));
	let nextId = 1;

	async function serveApi(
		req: IncomingMessage,
		res: ServerResponse,
		url: URL,
		area: 'api' | 'auth',
	): Promise<void> {
		const started = Date.now();
		const method = req.method ?? 'GET';
		const path = url.pathname.slice(area === 'api' ? API_PREFIX.length : AUTH_PREFIX.length) || '/';
		const entry: RequestLogEntry = {
			id: nextId++,
			time: deps.bank.clock.iso(),
			area,
			method,
			path,
			query: blankSecrets(Object.fromEntries(url.searchParams)) as Record<string, string>,
			headers: Object.fromEntries(
				Object.entries(req.headers).filter(([name]) => !SECRET_HEADERS.has(name)),
			),
			status: 0,
			durationMs: 0,
		};
		deps.requestLog.push(entry);
		// RFC 9110 §6.6.1: the bank's own clock, or a gateway's (variant `dateHeaderSkewMs`), or none
		const skew = deps.bank.variants.dateHeaderSkewMs;
		if (skew === null) res.sendDate = false;
		else res.setHeader('date', new Date(deps.bank.clock.now() + skew).toUTCString());
		if (deps.requestLog.length > REQUEST_LOG_LIMIT)
			deps.requestLog.splice(0, deps.requestLog.length - REQUEST_LOG_LIMIT);
		const finish = (status: number) => {
			entry.status = status;
			entry.durationMs = Date.now() - started;
			deps.onAnswered?.(entry);
		};
		const drop = () => {
			finish(0);
			req.socket.destroy();
		};
		let fault: FaultRule | undefined;
		try {
			const rawBody = await readBody(req);
			const matched = area === 'api' ? matchRoute(apiRoutes, method, path) : undefined;
			const found = matched && 'route' in matched ? matched : undefined;
			entry.route = area === 'auth' ? TOKEN_PATH : found?.route.path;
			if (area === 'api' && rawBody.length > 0) entry.body = loggableBody(rawBody);

			fault = deps.faults.match(method, path, entry.route);
			entry.fault = fault?.kind;
			if (fault?.kind === 'reset') return drop();
			// the connection stays open until the client gives up or the sandbox closes
			if (fault?.kind === 'hang') return finish(0);
			if (fault?.kind === 'status') {
				// a slow failure: what a client sees when the bank fails after a while
				if (fault.latencyMs) await sleep(fault.latencyMs);
				const headers: Record<string, string> =
					fault.retryAfterSeconds !== undefined
						? { 'retry-after': String(fault.retryAfterSeconds) }
						: {};
				throw new ApiError(fault.status ?? 500, `injected fault: ${fault.status}`, {}, headers);
			}
			if (fault?.kind === 'redirect') {
				const status = fault.status ?? 302;
				res.writeHead(status, { location: fault.location ?? '' });
				res.end();
				return finish(status);
			}
			if (fault?.kind === 'expireToken') deps.tokens.expire(req.headers);
			// a commitThenDrop may be slow too: its payment is then made well after the request arrived
			const latencyMs =
				fault?.kind === 'latency' || fault?.kind === 'commitThenDrop' ? (fault.latencyMs ?? 0) : 0;
			let paused = false;
			const pause = async () => {
				if (paused || latencyMs === 0) return;
				paused = true;
				await sleep(latencyMs);
			};

			let result: RouteResult;
			if (area === 'auth') {
				if (path !== TOKEN_PATH || method !== 'POST')
					throw new ApiError(404, `no route ${method} ${url.pathname}`);
				await pause();
				result = {
					status: 200,
					body: deps.tokens.exchange(req.headers, rawBody, deps.bank.variants.echoCredentials),
					headers: { 'cache-control': 'no-store' },
				};
			} else {
				if (!found) {
					const mismatch = matched && 'methodMismatch' in matched && matched.methodMismatch;
					throw new ApiError(mismatch ? 405 : 404, `no route ${method} ${url.pathname}`);
				}
				const ctx = authorize(req, found.route, entry);
				result = await runRoute(
					found.route,
					{ ...ctx, params: found.params, query: url.searchParams, rawBody, pause },
					req,
				);
			}
			if (fault?.kind === 'commitThenDrop') return drop();
			if (fault?.kind === 'commitThenHang') return finish(0);
			sendJson(res, result.status, result.rawJson ?? result.body, result.headers);
			finish(result.status);
		} catch (error) {
			// a commitThenDrop or commitThenHang request never gets an answer, whatever happened
			if (fault?.kind === 'commitThenDrop') return drop();
			if (fault?.kind === 'commitThenHang') return finish(0);
			if (!(error instanceof ApiError)) console.error('sandbox: unexpected error', error);
			const apiError =
				error instanceof ApiError ? error : new ApiError(500, 'internal sandbox error');
			if (res.headersSent || req.socket.destroyed) return finish(0);
			if (area === 'api' && deps.bank.variants.echoCredentials) {
				const page = echoingErrorPage(apiError.message, req.headers.authorization);
				sendJson(res, apiError.statusCode, page, {
					...apiError.headers,
					'content-type': 'text/plain; charset=utf-8',
				});
			} else sendJson(res, apiError.statusCode, apiError.body(), apiError.headers);
			finish(apiError.statusCode);
		}
	}

	// spec §Authentication Behaviour 1-2: 401 for the token, then 403 for the scope
	function authorize(
		req: IncomingMessage,
		route: ApiRoute,
		entry: RequestLogEntry,
	): Pick<RouteContext, 'bank' | 'caller'> {
		const client = deps.tokens.authenticate(req.headers);
		entry.clientId = client.clientId;
		requireScopes(client, route.scopes);
		const workspace = deps.bank.workspaces.get(client.workspaceId);
		if (!workspace) throw new ApiError(401, 'the workspace of these credentials no longer exists');
		return {
			bank: deps.bank,
			caller: { clientId: client.clientId, scopes: client.scopes, workspace },
		};
	}

	async function runRoute(
		route: ApiRoute,
		parts: Omit<RouteContext, 'headers' | 'body'> & { rawBody: Buffer },
		req: IncomingMessage,
	): Promise<RouteResult> {
		expireDue(deps.bank); // the sandbox clock may have passed an expiry window
		const { rawBody, ...rest } = parts;
		const ctx: RouteContext = {
			...rest,
			headers: req.headers,
			body: () => parseJsonBody(req.headers, rawBody),
		};
		if (!route.pausesItself) await ctx.pause();
		return route.handle(ctx);
	}

	async function serveControl(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
		try {
			const rawBody = await readBody(req);
			const path = url.pathname.slice(CONTROL_PREFIX.length);
			const matched = matchRoute(controlRoutes, req.method ?? 'GET', path);
			if (!('route' in matched))
				throw new ApiError(404, `no control route ${req.method} ${url.pathname}`);
			const body = rawBody.length > 0 ? parseJsonBody(req.headers, rawBody) : {};
			const result = await matched.route.handle({
				params: matched.params,
				query: url.searchParams,
				body,
			});
			sendJson(res, result.status, result.body ?? {});
		} catch (error) {
			const apiError =
				error instanceof ApiError
					? error
					: new ApiError(400, error instanceof Error ? error.message : String(error));
			sendJson(res, apiError.statusCode, apiError.body(), apiError.headers);
		}
	}

	return createServer({ keepAliveTimeout: 5000 }, (req, res) => {
		const url = new URL(req.url ?? '/', 'http://sandbox');
		const path = url.pathname;
		if (path.startsWith(`${CONTROL_PREFIX}/`)) void serveControl(req, res, url);
		else if (path.startsWith(`${API_PREFIX}/`)) void serveApi(req, res, url, 'api');
		else if (path.startsWith(`${AUTH_PREFIX}/`)) void serveApi(req, res, url, 'auth');
		else sendJson(res, 404, { statusCode: 404, message: `no route ${req.method} ${path}` });
	});
}

const SECRET_FIELD = /secret|token|password|authorization/i;

/** Values under secret-looking names blanked, at any depth. */
function blankSecrets(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(blankSecrets);
	if (typeof value !== 'object' || value === null) return value;
	return Object.fromEntries(
		Object.entries(value).map(([key, entry]) => [
			key,
			SECRET_FIELD.test(key) ? '[not logged]' : blankSecrets(entry),
		]),
	);
}

/**
 * What the request log keeps of a body: JSON only, secret-looking fields blanked. A Token URL pointed
 * at the API sends a form-encoded client secret here, which must never be stored.
 */
function loggableBody(raw: Buffer): unknown {
	try {
		return blankSecrets(JSON.parse(raw.toString('utf8')));
	} catch {
		return `[${raw.length} bytes, not JSON: not logged]`;
	}
}

export async function listen(server: Server, port: number, host: string): Promise<number> {
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen({ port, host, backlog: 4096 }, () => {
			server.off('error', reject);
			resolve();
		});
	});
	return (server.address() as AddressInfo).port;
}

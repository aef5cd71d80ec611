import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

import { ApiError, badRequest } from './errors';
import { UUID } from './random';
import type { Bank, Workspace } from './state';

export interface Caller {
	clientId: string;
	scopes: string[];
	workspace: Workspace;
}

export interface RouteContext {
	bank: Bank;
	caller: Caller;
	params: Record<string, string>;
	query: URLSearchParams;
	headers: IncomingHttpHeaders;
	/** The JSON body; 400 when it is not JSON. */
	body(): unknown;
	/** Waits out injected latency; routes with `pausesItself` call it at the point that matters. */
	pause(): Promise<void>;
}

export interface RouteResult {
	status: number;
	body?: unknown;
	/** Already serialised JSON, sent byte for byte (idempotent replays). */
	rawJson?: string;
	headers?: Record<string, string>;
}

export interface ApiRoute {
	method: 'GET' | 'POST' | 'PUT' | 'DELETE';
	/** Relative to {base_url}, parameters in braces as in the spec: `/account/{xaid}/balance`. */
	path: string;
	/** Every scope listed is required (spec §Scopes, DECISIONS.md §Scopes). */
	scopes: string[];
	pausesItself?: boolean;
	handle(ctx: RouteContext): RouteResult | Promise<RouteResult>;
}

export interface CompiledRoute<R extends { path: string }> {
	route: R;
	pattern: RegExp;
	names: string[];
}

export function compileRoute<R extends { path: string }>(route: R): CompiledRoute<R> {
	const names: string[] = [];
	const source = route.path
		.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
		.replace(/\{(\w+)\}/g, (_m, name: string) => {
			names.push(name);
			return '([^/]+)';
		});
	return { route, pattern: new RegExp(`^${source}$`), names };
}

export function matchRoute<R extends { path: string; method: string }>(
	routes: Array<CompiledRoute<R>>,
	method: string,
	path: string,
): { route: R; params: Record<string, string> } | { methodMismatch: boolean } {
	let methodMismatch = false;
	for (const compiled of routes) {
		const match = compiled.pattern.exec(path);
		if (!match) continue;
		if (compiled.route.method !== method) {
			methodMismatch = true;
			continue;
		}
		const params: Record<string, string> = {};
		compiled.names.forEach((name, i) => (params[name] = safeDecode(match[i + 1])));
		return { route: compiled.route, params };
	}
	return { methodMismatch };
}

/** A malformed %-escape stays as sent (and then matches nothing) instead of failing the request. */
function safeDecode(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

const MAX_BODY_BYTES = 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		size += (chunk as Buffer).length;
		if (size > MAX_BODY_BYTES) throw new ApiError(413, 'request body is larger than 1 MiB');
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks);
}

/** JSON endpoints want `Content-Type: application/json` (spec §Payments) and a parseable body. */
export function parseJsonBody(headers: IncomingHttpHeaders, raw: Buffer): unknown {
	const type = headers['content-type'] ?? '';
	if (!/^application\/json\b/i.test(type)) {
		throw badRequest('Content-Type must be application/json');
	}
	if (raw.length === 0) throw badRequest('body is required');
	try {
		return JSON.parse(raw.toString('utf8'));
	} catch {
		throw badRequest('body is not valid JSON');
	}
}

export function sendJson(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	const payload = typeof body === 'string' ? body : JSON.stringify(body);
	res.writeHead(status, {
		'content-type': 'application/json; charset=utf-8',
		'content-length': Buffer.byteLength(payload),
		...headers,
	});
	res.end(payload);
}

export interface PageLimits {
	defaultLimit: number;
	maxLimit: number;
}

// spec §Pagination / §Limits: payees default 10 max 100; others max 500 (default 100: DECISIONS.md)
export const PAYEE_PAGES: PageLimits = { defaultLimit: 10, maxLimit: 100 };
export const LIST_PAGES: PageLimits = { defaultLimit: 100, maxLimit: 500 };

function integerParam(
	query: URLSearchParams,
	name: string,
	fallback: number,
	min: number,
	max?: number,
): number {
	const raw = query.get(name);
	if (raw === null || raw === '') return fallback;
	if (!/^-?\d+$/.test(raw)) throw badRequest(`${name} must be an integer`);
	const value = Number(raw);
	if (value < min) throw badRequest(`${name} must be at least ${min}`);
	if (max !== undefined && value > max) throw badRequest(`${name} must be at most ${max}`);
	return value;
}

/** Zero-based pages; the envelope `{ total, results }` for every list (DECISIONS.md §Lists). */
export function paginate<T, V>(
	items: T[],
	query: URLSearchParams,
	limits: PageLimits,
	view: (item: T) => V,
) {
	const page = integerParam(query, 'page', 0, 0);
	const limit = integerParam(query, 'limit', limits.defaultLimit, 1, limits.maxLimit);
	const start = page * limit;
	return { total: items.length, results: items.slice(start, start + limit).map(view) };
}

/** spec §Endpoints: path parameters documented as "UUID" must be UUIDs, else 400 naming them. */
export function uuidParam(params: Record<string, string>, name: string): string {
	const value = params[name];
	if (!UUID.test(value)) throw badRequest(`${name} must be a UUID`);
	return value;
}

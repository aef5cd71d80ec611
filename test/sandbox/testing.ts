/** HTTP helpers for the sandbox's own suites: real requests over loopback with undici. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { request } from 'undici';

import type { Sandbox, SandboxClient } from './index';

export interface Reply<T> {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: T;
}

export interface ErrorBody {
	statusCode: number;
	message: string;
	error?: string;
}

export interface List<T> {
	total: number;
	results: T[];
}

export interface CallOptions {
	token?: string;
	body?: unknown;
	/** Sent as is (e.g. a form body or broken JSON). */
	rawBody?: string;
	headers?: Record<string, string>;
}

export async function call<T = ErrorBody>(
	method: string,
	url: string,
	options: CallOptions = {},
): Promise<Reply<T>> {
	const headers: Record<string, string> = { ...options.headers };
	if (options.token) headers.authorization = `Bearer ${options.token}`;
	let body = options.rawBody;
	if (options.body !== undefined) {
		body = JSON.stringify(options.body);
		headers['content-type'] ??= 'application/json';
	}
	const response = await request(url, { method: method as 'GET', headers, body });
	const text = await response.body.text();
	// an empty answer (e.g. 204) stays '' even when it is labelled JSON
	const isJson =
		text !== '' && String(response.headers['content-type'] ?? '').includes('application/json');
	return {
		status: response.statusCode,
		headers: response.headers,
		body: (isJson ? JSON.parse(text) : text) as T,
	};
}

export function tokenForm(
	sandbox: Sandbox,
	client: SandboxClient,
	overrides: Record<string, string> = {},
): string {
	return new URLSearchParams({
		client_id: client.clientId,
		client_secret: client.clientSecret,
		audience: sandbox.audience,
		grant_type: 'client_credentials',
		...overrides,
	}).toString();
}

export async function requestToken(
	sandbox: Sandbox,
	client: SandboxClient,
	overrides: Record<string, string> = {},
) {
	return call<
		{ access_token: string; token_type: string; expires_in: number; scope: string } & ErrorBody
	>('POST', sandbox.tokenUrl, {
		rawBody: tokenForm(sandbox, client, overrides),
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
	});
}

/** A caller of the API with one client's token. */
export class Api {
	constructor(
		private readonly sandbox: Sandbox,
		readonly token: string,
	) {}

	get<T = ErrorBody>(path: string) {
		return call<T>('GET', this.sandbox.baseUrl + path, { token: this.token });
	}

	post<T = ErrorBody>(path: string, body: unknown, headers: Record<string, string> = {}) {
		return call<T>('POST', this.sandbox.baseUrl + path, { token: this.token, body, headers });
	}

	put<T = ErrorBody>(path: string, body: unknown) {
		return call<T>('PUT', this.sandbox.baseUrl + path, { token: this.token, body });
	}

	delete<T = ErrorBody>(path: string, body: unknown) {
		return call<T>('DELETE', this.sandbox.baseUrl + path, { token: this.token, body });
	}
}

export async function apiAs(
	sandbox: Sandbox,
	client: keyof Sandbox['clients'] = 'full',
): Promise<Api> {
	const reply = await requestToken(sandbox, sandbox.clients[client]);
	if (reply.status !== 200)
		throw new Error(`token request failed: ${reply.status} ${reply.body.message}`);
	return new Api(sandbox, reply.body.access_token);
}

export interface ReceivedDelivery {
	headers: Record<string, string | string[] | undefined>;
	rawBody: string;
}

export interface Receiver {
	url: string;
	received: ReceivedDelivery[];
	close(): Promise<void>;
}

/**
 * A local webhook endpoint (node:http). `answer(n)` picks the status of the n-th request (0-based),
 * or 'hang' to never answer.
 */
export async function startReceiver(
	answer: (n: number) => number | 'hang' = () => 200,
): Promise<Receiver> {
	const received: ReceivedDelivery[] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const n = received.length;
			received.push({ headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8') });
			const status = answer(n);
			if (status !== 'hang') res.writeHead(status).end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/hook`,
		received,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

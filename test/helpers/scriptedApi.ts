/**
 * A tiny real HTTP server whose answers each test scripts, for unit tests of the transport and the
 * credential: exact statuses, headers and dropped connections on exact requests. The token service
 * (`${authUrl}/oauth/token`) issues `token-1`, `token-2` … unless scripted otherwise. Integration
 * tests use the sandbox bank instead (test/sandbox).
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { tokenBindingOf } from '../../nodes/shared/transport/credentialRules';

export interface ServedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: http.IncomingHttpHeaders;
	rawBody: string;
	/** JSON-parsed body, or the form fields of a form body. */
	body: unknown;
}

export type Reply =
	/** `text`: sent as it is (text/plain unless the headers say otherwise), instead of `body` as JSON */
	| { status: number; body?: unknown; text?: string; headers?: Record<string, string> }
	/** Close the connection without an answer (the client sees ECONNRESET "socket hang up"). */
	| 'reset';

export type Handler = (request: ServedRequest, served: ServedRequest[]) => Reply | Promise<Reply>;

export interface ScriptedApi {
	baseUrl: string;
	authUrl: string;
	/** Every request received, token requests included, in order. */
	served: ServedRequest[];
	apiRequests(): ServedRequest[];
	tokenRequests(): ServedRequest[];
	setApi(handler: Handler): void;
	setToken(handler: Handler): void;
	close(): Promise<void>;
}

function parseBody(raw: string, contentType: string | undefined): unknown {
	if (!raw) return undefined;
	if (contentType?.includes('application/x-www-form-urlencoded')) {
		return Object.fromEntries(new URLSearchParams(raw));
	}
	try {
		return JSON.parse(raw);
	} catch {
		return raw;
	}
}

export function issueTokens(): Handler {
	let issued = 0;
	return () => ({
		status: 200,
		body: { access_token: `token-${++issued}`, token_type: 'Bearer', expires_in: 3600 },
	});
}

export async function startScriptedApi(
	api: Handler = () => ({ status: 200, body: {} }),
): Promise<ScriptedApi> {
	let apiHandler = api;
	let tokenHandler = issueTokens();
	const served: ServedRequest[] = [];

	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			void (async () => {
				const url = new URL(req.url ?? '/', 'http://localhost');
				const rawBody = Buffer.concat(chunks).toString('utf8');
				const request: ServedRequest = {
					method: req.method ?? 'GET',
					path: url.pathname,
					query: Object.fromEntries(url.searchParams),
					headers: req.headers,
					rawBody,
					body: parseBody(rawBody, req.headers['content-type']),
				};
				served.push(request);
				let reply: Reply;
				if (url.pathname === '/auth/oauth/token') reply = await tokenHandler(request, served);
				else if (url.pathname.startsWith('/api/')) {
					const apiRequest = { ...request, path: url.pathname.slice('/api'.length) };
					reply = await apiHandler(apiRequest, served);
				} else reply = { status: 404, body: { statusCode: 404, message: 'Not Found' } };

				if (reply === 'reset') {
					req.socket.destroy();
					return;
				}
				const body = reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
				const contentType = reply.text === undefined ? 'application/json' : 'text/plain';
				res.writeHead(reply.status, {
					...(body ? { 'content-type': contentType } : {}),
					...reply.headers,
				});
				res.end(body);
			})();
		});
	});
	// No keep-alive: a dropped connection must not leak into the next request.
	server.keepAliveTimeout = 1;
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const origin = `http://127.0.0.1:${port}`;

	return {
		baseUrl: `${origin}/api`,
		authUrl: `${origin}/auth`,
		served,
		apiRequests: () => served.filter((request) => request.path.startsWith('/api/')),
		tokenRequests: () => served.filter((request) => request.path === '/auth/oauth/token'),
		setApi: (handler) => {
			apiHandler = handler;
		},
		setToken: (handler) => {
			tokenHandler = handler;
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** A credential pointing at the scripted API, with canary secrets tests can search for. */
export function scriptedCredentials(
	api: Pick<ScriptedApi, 'baseUrl' | 'authUrl'>,
	overrides: ICredentialDataDecryptedObject = {},
): ICredentialDataDecryptedObject {
	return {
		environment: 'sandbox',
		baseUrl: api.baseUrl,
		tokenUrl: api.authUrl,
		audience: 'https://api.customer-banking.example',
		clientId: 'client-canary-id',
		clientSecret: 'CANARY-client-secret-5f1c',
		webhookSigningSecret: 'whsec_CANARY-signing-1',
		webhookSigningSecretPrevious: 'whsec_CANARY-signing-0',
		accessToken: '',
		...overrides,
	};
}

/** The credential with `token` cached as n8n stores it after a token request: bound to this credential. */
export function withCachedToken(
	credentials: ICredentialDataDecryptedObject,
	token: string,
): ICredentialDataDecryptedObject {
	return Object.assign(credentials, {
		accessToken: token,
		tokenBinding: tokenBindingOf(credentials),
	});
}

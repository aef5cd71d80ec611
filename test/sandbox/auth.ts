import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

import { ApiError, forbidden, unauthorized } from './errors';
import type { SandboxClock } from './clock';
import { echoedText } from './echo';

// DECISIONS.md §Scopes: the payee pattern carried over to the other resources
export const SCOPES = {
	readAccounts: 'read:accounts',
	readTransactions: 'read:transactions',
	readApprovals: 'read:approvals',
	readPayees: 'read:payees',
	createPayee: 'create:payee',
	updatePayee: 'update:payee',
	createPayment: 'create:payment',
	createWebhook: 'create:webhook',
	deleteWebhook: 'delete:webhook',
} as const;

export const ALL_SCOPES: string[] = Object.values(SCOPES);
export const READ_SCOPES: string[] = ALL_SCOPES.filter((scope) => scope.startsWith('read:'));

/** Credentials issued out of band, per workspace, with a set of scopes (spec §Authentication 1). */
export interface SandboxClient {
	clientId: string;
	clientSecret: string;
	scopes: string[];
	workspaceId: string;
}

export interface TokenOptions {
	audience: string;
	ttlSeconds: number;
	rateLimit: { max: number; windowSeconds: number };
}

interface IssuedToken {
	client: SandboxClient;
	expiresAtMs: number;
}

function tokenError(
	statusCode: number,
	error: string,
	message: string,
	headers: Record<string, string> = {},
) {
	return new ApiError(statusCode, message, { error }, headers);
}

function bearer(headers: IncomingHttpHeaders): string | undefined {
	return /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
}

function sameSecret(a: string, b: string): boolean {
	const left = Buffer.from(a);
	const right = Buffer.from(b);
	return left.length === right.length && timingSafeEqual(left, right);
}

/** The token service at {auth_url}, and bearer-token checks for {base_url}. */
export class TokenService {
	private tokens = new Map<string, IssuedToken>();
	private windows = new Map<string, { startMs: number; count: number }>();

	constructor(
		private clients: SandboxClient[],
		private readonly clock: SandboxClock,
		private readonly options: TokenOptions,
	) {}

	/** Replaces the issued clients (reset) and forgets every token and rate-limit window. */
	resetClients(clients: SandboxClient[]): void {
		this.clients = clients;
		this.tokens.clear();
		this.windows.clear();
	}

	// spec §Authentication 2-3: POST {auth_url}/oauth/token, form-encoded client credentials
	exchange(headers: IncomingHttpHeaders, rawBody: Buffer, echoCredentials = false) {
		if (!/^application\/x-www-form-urlencoded\b/i.test(headers['content-type'] ?? '')) {
			throw tokenError(
				400,
				'invalid_request',
				'Content-Type must be application/x-www-form-urlencoded',
			);
		}
		const form = new URLSearchParams(rawBody.toString('utf8'));
		const clientId = form.get('client_id') ?? '';
		this.countTokenRequest(clientId);
		for (const field of ['client_id', 'client_secret', 'audience', 'grant_type']) {
			if (!form.get(field)) throw tokenError(400, 'invalid_request', `${field} is required`);
		}
		if (form.get('grant_type') !== 'client_credentials') {
			throw tokenError(400, 'unsupported_grant_type', 'grant_type must be client_credentials');
		}
		const client = this.clients.find((c) => c.clientId === clientId);
		if (!client || !sameSecret(client.clientSecret, form.get('client_secret') ?? '')) {
			const sent = form.get('client_secret') ?? '';
			const echo = echoCredentials ? ` (received client_secret ${echoedText(sent)})` : '';
			throw tokenError(401, 'invalid_client', `client_id or client_secret is wrong${echo}`);
		}
		if (form.get('audience') !== this.options.audience) {
			throw tokenError(400, 'invalid_audience', 'audience is not this API');
		}
		const accessToken = `sbx_${randomBytes(24).toString('base64url')}`;
		this.tokens.set(accessToken, {
			client,
			expiresAtMs: this.clock.now() + this.options.ttlSeconds * 1000,
		});
		return {
			access_token: accessToken,
			token_type: 'Bearer',
			expires_in: this.options.ttlSeconds,
			scope: client.scopes.join(' '),
		};
	}

	// spec §Limits: the token endpoint is rate limited (numbers decided in DECISIONS.md)
	private countTokenRequest(clientId: string): void {
		const now = this.clock.now();
		const windowMs = this.options.rateLimit.windowSeconds * 1000;
		let window = this.windows.get(clientId);
		if (!window || now - window.startMs >= windowMs) {
			window = { startMs: now, count: 0 };
			this.windows.set(clientId, window);
		}
		window.count += 1;
		if (window.count > this.options.rateLimit.max) {
			const retryAfter = Math.max(1, Math.ceil((window.startMs + windowMs - now) / 1000));
			throw tokenError(429, 'rate_limited', 'too many token requests', {
				'retry-after': String(retryAfter),
			});
		}
	}

	// spec §Authentication Behaviour 2: a missing or expired token yields 401
	authenticate(headers: IncomingHttpHeaders): SandboxClient {
		const presented = bearer(headers);
		if (!presented) throw unauthorized('missing bearer token');
		const token = this.tokens.get(presented);
		if (!token) throw unauthorized('invalid or revoked token');
		if (token.expiresAtMs <= this.clock.now()) throw unauthorized('token expired');
		return token.client;
	}

	/** Ends the presented token early (fault `expireToken`). */
	expire(headers: IncomingHttpHeaders): void {
		const token = this.tokens.get(bearer(headers) ?? '');
		if (token) token.expiresAtMs = this.clock.now();
	}

	revokeAll(): void {
		this.tokens.clear();
	}
}

// spec §Authentication Behaviour 1: a valid token lacking the scope yields 403
export function requireScopes(client: SandboxClient, scopes: string[]): void {
	const missing = scopes.filter((scope) => !client.scopes.includes(scope));
	if (missing.length > 0) throw forbidden(`token lacks the scope ${missing.join(' and ')}`);
}

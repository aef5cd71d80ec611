import type { IHttpRequestMethods } from 'n8n-workflow';

/** What is known about one failed attempt, read from whatever n8n threw (see errors.ts). */
export interface AttemptFailure {
	status?: number;
	/** Node/axios network error code (ECONNRESET, ETIMEDOUT …) when no HTTP answer arrived. */
	networkCode?: string;
	/** The Retry-After response header, when the API sent one. */
	retryAfter?: string;
}

export type FailureKind =
	| 'validation'
	| 'unauthorized'
	| 'forbidden'
	| 'notFound'
	| 'accountNotActive'
	| 'rateLimited'
	| 'serverError'
	| 'network'
	| 'other';

export interface ErrorRule {
	kind: FailureKind;
	applies: (failure: AttemptFailure, path: string) => boolean;
	/** 'whenSafe': retried for requests that are safe to repeat (see isRepeatableRequest). */
	retry: 'never' | 'whenSafe';
	/** The request may have been processed although it failed (spec §Errors rule 3). */
	outcomeUnknown: boolean;
}

/** Node and axios codes of a connection that failed or dropped before an HTTP answer. */
export const NETWORK_ERROR_CODES: readonly string[] = [
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
];

const PAYEE_PATH = /^\/(payees?|account\/[^/]+\/payees?)(\/|$)/;

/** Payee endpoints: /payees, /payee/{xpid}, /account/{xaid}/payees[/{xpid}], /account/{xaid}/payee. */
export function isPayeePath(path: string): boolean {
	return PAYEE_PATH.test(path);
}

/** spec §Errors table, first matching row wins. */
export const ERROR_RULES: readonly ErrorRule[] = [
	{ kind: 'validation', applies: (f) => f.status === 400, retry: 'never', outcomeUnknown: false },
	// n8n has already fetched a new token once and resent the request once before we see a 401.
	{ kind: 'unauthorized', applies: (f) => f.status === 401, retry: 'never', outcomeUnknown: false },
	{ kind: 'forbidden', applies: (f) => f.status === 403, retry: 'never', outcomeUnknown: false },
	{ kind: 'notFound', applies: (f) => f.status === 404, retry: 'never', outcomeUnknown: false },
	// On payee endpoints 429 means "the account is not active", not a rate limit.
	{
		kind: 'accountNotActive',
		applies: (f, path) => f.status === 429 && isPayeePath(path),
		retry: 'never',
		outcomeUnknown: false,
	},
	{ kind: 'rateLimited', applies: (f) => f.status === 429, retry: 'whenSafe', outcomeUnknown: true },
	{
		kind: 'serverError',
		applies: (f) => f.status !== undefined && f.status >= 500,
		retry: 'whenSafe',
		outcomeUnknown: true,
	},
	{
		kind: 'network',
		applies: (f) =>
			f.status === undefined &&
			f.networkCode !== undefined &&
			NETWORK_ERROR_CODES.includes(f.networkCode),
		retry: 'whenSafe',
		outcomeUnknown: true,
	},
	{ kind: 'other', applies: () => true, retry: 'never', outcomeUnknown: false },
];

export function ruleFor(failure: AttemptFailure, path: string): ErrorRule {
	return ERROR_RULES.find((rule) => rule.applies(failure, path)) ?? ERROR_RULES[ERROR_RULES.length - 1];
}

/** spec §Errors rule 1: 1 s, 2 s, 4 s, capped, at most 5 attempts. */
export const BACKOFF = {
	maxAttempts: 5,
	delaysMs: [1000, 2000, 4000],
	/** A Retry-After longer than this is shortened to it. */
	maxRetryAfterMs: 30_000,
} as const;

/**
 * spec §Errors rules 1-2: GET requests are safe to repeat; POST /payments is, because every attempt
 * carries the same x-idempotent-key and the same body. No other write is ever repeated.
 */
export function isRepeatableRequest(
	method: IHttpRequestMethods,
	path: string,
	headers: Record<string, string> | undefined,
): boolean {
	if (method === 'GET') return true;
	if (method !== 'POST' || path.replace(/\/+$/, '') !== '/payments') return false;
	return Object.entries(headers ?? {}).some(
		([name, value]) => name.toLowerCase() === 'x-idempotent-key' && value !== '',
	);
}

/**
 * How long to wait before the next attempt, or undefined when there is none.
 * `attemptsMade` counts the attempts already sent (1 after the first failure).
 */
export function delayBeforeNextAttempt(
	attemptsMade: number,
	failure: AttemptFailure,
	now: number = Date.now(),
): number | undefined {
	if (attemptsMade >= BACKOFF.maxAttempts) return undefined;
	const retryAfterMs = parseRetryAfter(failure.retryAfter, now);
	if (retryAfterMs !== undefined) return Math.min(retryAfterMs, BACKOFF.maxRetryAfterMs);
	const { delaysMs } = BACKOFF;
	return delaysMs[Math.min(attemptsMade - 1, delaysMs.length - 1)];
}

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const trimmed = value.trim();
	if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
	const date = Date.parse(trimmed);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

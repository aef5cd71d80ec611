import { NETWORK_FAILURES } from './networkFailures';

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
	| 'conflict'
	| 'unprocessable'
	| 'accountNotActive'
	| 'rateLimited'
	| 'refused'
	| 'redirected'
	| 'serverError'
	| 'network'
	| 'other';

/** What a 429 means for one call: spec §Errors gives payee endpoints a meaning of their own. */
export type TooManyRequestsMeaning = 'rateLimited' | 'accountNotActive';

/** 'safe': the request may be sent again after a failure (a read, or a write the bank acts on once per key). */
export type RetryMode = 'safe' | 'never';

export interface ErrorRule {
	kind: FailureKind;
	applies: (failure: AttemptFailure, tooManyRequests: TooManyRequestsMeaning) => boolean;
	/** 'whenSafe': retried for requests declared safe to repeat. */
	retry: 'never' | 'whenSafe';
	/** The request may have been processed although it failed (spec §Errors rule 3). */
	outcomeUnknown: boolean;
}

/** Node and axios codes of a connection that failed or dropped before an HTTP answer. */
export const NETWORK_ERROR_CODES: readonly string[] = Object.keys(NETWORK_FAILURES).filter(
	(code) => NETWORK_FAILURES[code].transient,
);

const refusal = (kind: FailureKind, status: number): ErrorRule => ({
	kind,
	applies: (f) => f.status === status,
	retry: 'never',
	outcomeUnknown: false,
});

/** spec §Errors table, first matching row wins. */
export const ERROR_RULES: readonly ErrorRule[] = [
	refusal('validation', 400),
	// n8n has already fetched a new token once and resent the request once before we see a 401.
	refusal('unauthorized', 401),
	refusal('forbidden', 403),
	refusal('notFound', 404),
	refusal('conflict', 409),
	refusal('unprocessable', 422),
	{
		kind: 'accountNotActive',
		applies: (f, tooManyRequests) => f.status === 429 && tooManyRequests === 'accountNotActive',
		retry: 'never',
		outcomeUnknown: false,
	},
	{
		kind: 'rateLimited',
		applies: (f) => f.status === 429,
		retry: 'whenSafe',
		outcomeUnknown: true,
	},
	// The API documents no redirect and none is followed. Not retried; for a write the body had left, so
	// whatever a gateway did with it is unknown.
	{
		kind: 'redirected',
		applies: (f) => f.status !== undefined && f.status >= 300 && f.status < 400,
		retry: 'never',
		outcomeUnknown: true,
	},
	{
		kind: 'serverError',
		applies: (f) => f.status !== undefined && f.status >= 500,
		retry: 'whenSafe',
		outcomeUnknown: true,
	},
	{
		kind: 'refused',
		applies: (f) => f.status !== undefined,
		retry: 'never',
		outcomeUnknown: false,
	},
	{
		kind: 'network',
		applies: (f) => f.networkCode !== undefined && NETWORK_ERROR_CODES.includes(f.networkCode),
		retry: 'whenSafe',
		outcomeUnknown: true,
	},
	{ kind: 'other', applies: () => true, retry: 'never', outcomeUnknown: false },
];

export function ruleFor(
	failure: AttemptFailure,
	tooManyRequests: TooManyRequestsMeaning = 'rateLimited',
): ErrorRule {
	return (
		ERROR_RULES.find((rule) => rule.applies(failure, tooManyRequests)) ??
		ERROR_RULES[ERROR_RULES.length - 1]
	);
}

/** spec §Errors rule 1: 1 s, 2 s, 4 s, capped, at most 5 attempts. */
export const BACKOFF = {
	maxAttempts: 5,
	delaysMs: [1000, 2000, 4000],
	/** A Retry-After longer than this is shortened to it. */
	maxRetryAfterMs: 30_000,
} as const;

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

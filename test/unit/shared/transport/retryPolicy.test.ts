/** The policy table itself (spec §Errors), without HTTP: which failure is which row, waits, repeatability. */
import {
	BACKOFF,
	NETWORK_ERROR_CODES,
	delayBeforeNextAttempt,
	parseRetryAfter,
	ruleFor,
	type TooManyRequestsMeaning,
} from '../../../../nodes/shared/transport/retryPolicy';
import { fieldNamedIn, readFailure } from '../../../../nodes/shared/transport/errors';

describe('ruleFor', () => {
	it.each([
		[{ status: 400 }, 'rateLimited', 'validation', 'never', false],
		[{ status: 401 }, 'rateLimited', 'unauthorized', 'never', false],
		[{ status: 403 }, 'accountNotActive', 'forbidden', 'never', false],
		[{ status: 404 }, 'rateLimited', 'notFound', 'never', false],
		[{ status: 409 }, 'rateLimited', 'conflict', 'never', false],
		[{ status: 429 }, 'accountNotActive', 'accountNotActive', 'never', false],
		[{ status: 429 }, 'rateLimited', 'rateLimited', 'whenSafe', true],
		[{ status: 500 }, 'rateLimited', 'serverError', 'whenSafe', true],
		[{ status: 599 }, 'accountNotActive', 'serverError', 'whenSafe', true],
		[{ networkCode: 'ECONNRESET' }, 'rateLimited', 'network', 'whenSafe', true],
		[{ networkCode: 'ETIMEDOUT' }, 'rateLimited', 'network', 'whenSafe', true],
		[{ networkCode: 'ENOTFOUND' }, 'rateLimited', 'other', 'never', false],
		[{ networkCode: 'ERR_CANCELED' }, 'rateLimited', 'other', 'never', false],
		[{ status: 422 }, 'rateLimited', 'unprocessable', 'never', false],
		[{ status: 418 }, 'rateLimited', 'refused', 'never', false],
		[{}, 'rateLimited', 'other', 'never', false],
	] as Array<[object, TooManyRequestsMeaning, string, string, boolean]>)(
		'%j where a 429 means %s → %s, retry %s, outcome unknown %s',
		(failure, tooManyRequests, kind, retry, outcomeUnknown) => {
			expect(ruleFor(failure, tooManyRequests)).toMatchObject({ kind, retry, outcomeUnknown });
		},
	);

	it('a 429 is a rate limit unless the call says otherwise', () => {
		expect(ruleFor({ status: 429 })).toMatchObject({ kind: 'rateLimited' });
	});

	it('knows the network codes of spec §Errors', () => {
		expect(NETWORK_ERROR_CODES).toEqual(
			expect.arrayContaining(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT']),
		);
	});
});

describe('delayBeforeNextAttempt (spec §Errors rule 1)', () => {
	it('waits 1 s, 2 s, 4 s, then stays capped at 4 s, for at most 5 attempts', () => {
		const delays = [1, 2, 3, 4, 5, 6].map((attempts) => delayBeforeNextAttempt(attempts, {}));
		expect(delays).toEqual([1000, 2000, 4000, 4000, undefined, undefined]);
		expect(BACKOFF.maxAttempts).toBe(5);
	});

	it('honours Retry-After in seconds or as a date, capped', () => {
		const now = Date.parse('2026-01-01T00:00:00Z');
		expect(delayBeforeNextAttempt(1, { retryAfter: '2' }, now)).toBe(2000);
		expect(delayBeforeNextAttempt(1, { retryAfter: 'Thu, 01 Jan 2026 00:00:10 GMT' }, now)).toBe(
			10_000,
		);
		expect(delayBeforeNextAttempt(1, { retryAfter: '86400' }, now)).toBe(BACKOFF.maxRetryAfterMs);
		expect(delayBeforeNextAttempt(5, { retryAfter: '1' }, now)).toBeUndefined();
		expect(parseRetryAfter('soon', now)).toBeUndefined();
		expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
	});
});

describe('readFailure / fieldNamedIn', () => {
	it('reads status, Retry-After and the API message from an n8n-wrapped axios error', () => {
		const axiosLike = {
			message: 'Request failed with status code 429',
			response: {
				status: 429,
				headers: { 'Retry-After': '5' },
				data: { statusCode: 429, message: 'Slow down' },
			},
		};
		expect(readFailure({ message: 'wrapped', httpCode: '429', cause: axiosLike })).toEqual({
			status: 429,
			retryAfter: '5',
			apiMessage: 'Slow down',
		});
	});

	it('reads a network code, or "socket hang up" as ECONNRESET', () => {
		expect(
			readFailure({ cause: { code: 'ETIMEDOUT', message: 'connect ETIMEDOUT' } }).networkCode,
		).toBe('ETIMEDOUT');
		expect(readFailure({ cause: { message: 'socket hang up' } }).networkCode).toBe('ECONNRESET');
	});

	it.each([
		['limit must be at most 500', 'limit'],
		['reference: must be 6-18 characters for GBP', 'reference'],
		['x-idempotent-key must be a UUID v4', 'x-idempotent-key'],
		['Invalid value for field sortCode', 'sortCode'],
		['The "iban" is not valid', 'iban'],
		['Something went wrong', undefined],
	])('"%s" names the field %s', (message, field) => {
		expect(fieldNamedIn(message)).toBe(field);
	});
});

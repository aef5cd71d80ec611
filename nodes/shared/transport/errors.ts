import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { networkCodeOfN8nWords, networkFailureWords } from './networkFailures';
import { redact } from './redaction';
import type { AttemptFailure, ErrorRule, FailureKind } from './retryPolicy';

/** Everything the transport reads from a failed request; secrets are removed later by redact(). */
export interface RequestFailure extends AttemptFailure {
	/** The API's `message` (spec §Errors: JSON with statusCode and message). */
	apiMessage?: string;
	/** For failures without an HTTP answer or code (e.g. the token exchange): the error's own text. */
	message?: string;
	description?: string;
	/** The Location header of a redirect, as received (only its origin is ever shown: credentialRules.ts). */
	location?: string;
	/** The origin a redirect pointed at, resolved against the request's address. */
	redirectedTo?: string;
	/** The attempt got no answer within this time limit (the credential's Time Limit per Request). */
	timeLimitMs?: number;
}

type Loose = Record<string, unknown>;

function asObject(value: unknown): Loose | undefined {
	return typeof value === 'object' && value !== null ? (value as Loose) : undefined;
}

function headerValue(headers: unknown, name: string): string | undefined {
	const record = asObject(headers);
	if (!record) return undefined;
	const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
	const value = key === undefined ? undefined : record[key];
	if (Array.isArray(value)) return value.length ? String(value[0]) : undefined;
	return value === undefined || value === null ? undefined : String(value);
}

/**
 * n8n's httpRequestWithAuthentication throws a NodeApiError whose `cause` is the axios error
 * (response.status / response.data / response.headers, or `code` for network errors); a token
 * exchange failure arrives as the Error thrown by the credential's preAuthentication. Read both,
 * and raw axios-like errors too.
 */
export function readFailure(error: unknown): RequestFailure {
	const chain = causeChainOf(error);
	const failure: RequestFailure = {};
	readAnswerInto(failure, chain);
	if (failure.status === undefined) readNetworkFailureInto(failure, chain);
	return failure;
}

/** The error and its causes, outermost first (at most four: n8n wraps a few levels deep). */
function causeChainOf(error: unknown): Loose[] {
	const chain: Loose[] = [];
	let current = asObject(error);
	while (current && chain.length < 4) {
		chain.push(current);
		current = asObject(current.cause);
	}
	return chain;
}

/** The status, headers and message of the bank's answer, when there was one. */
function readAnswerInto(failure: RequestFailure, chain: Loose[]): void {
	const withResponse = chain.find((link) => typeof asObject(link.response)?.status === 'number');
	if (withResponse) {
		const response = asObject(withResponse.response) as Loose;
		failure.status = response.status as number;
		failure.retryAfter = headerValue(response.headers, 'retry-after');
		failure.location = headerValue(response.headers, 'location');
		failure.apiMessage = apiMessageOf(response.data);
	} else {
		const httpCode = chain
			.map((link) => link.httpCode)
			.find((code) => /^\d{3}$/.test(String(code)));
		if (httpCode !== undefined) failure.status = Number(httpCode);
		const context = asObject(chain[0]?.context);
		failure.apiMessage = apiMessageOf(context?.data);
	}
}

/** Without an answer: the network code and what the innermost error says. */
function readNetworkFailureInto(failure: RequestFailure, chain: Loose[]): void {
	const code = chain.map((link) => link.code).find((value) => typeof value === 'string');
	const message = chain.map((link) => link.message).find((value) => typeof value === 'string');
	const fromN8nWords = chain
		.map((link) => networkCodeOfN8nWords(link.message))
		.find((value) => value !== undefined);
	if (typeof code === 'string') failure.networkCode = code;
	else if (fromN8nWords !== undefined) failure.networkCode = fromN8nWords;
	else if (typeof message === 'string' && /socket hang up/i.test(message))
		failure.networkCode = 'ECONNRESET';
	// The innermost error says what actually went wrong (n8n's wrapper may rephrase it).
	const innermost = chain[chain.length - 1];
	if (innermost) {
		if (typeof innermost.message === 'string') failure.message = innermost.message;
		if (typeof innermost.description === 'string') failure.description = innermost.description;
	}
}

function apiMessageOf(data: unknown): string | undefined {
	if (typeof data === 'string') {
		try {
			return apiMessageOf(JSON.parse(data));
		} catch {
			// shortened only once redacted (describeFailure): a secret cut in two is not recognised
			return data.trim() ? data.trim() : undefined;
		}
	}
	const body = asObject(data);
	if (!body) return undefined;
	const message = body.message ?? body.error_description ?? body.error;
	if (Array.isArray(message)) return message.map(String).join('; ');
	return typeof message === 'string' && message ? message : undefined;
}

/** spec §Errors 400: "the message names the field". */
export function fieldNamedIn(message: string | undefined): string | undefined {
	if (!message) return undefined;
	const patterns = [
		/^\s*["'`]?([A-Za-z_][\w.[\]-]*)["'`]?\s*:/,
		/^\s*["'`]?([A-Za-z_][\w.[\]-]*)["'`]?\s+(?:must|is|are|should|cannot|can't|has|have|was|were|needs?|does|did|may|contains?|exceeds?|not)\b/i,
		/\b(?:field|parameter|property|header)\s+["'`]?([A-Za-z_][\w.[\]-]*)/i,
		/["'`]([A-Za-z_][\w.[\]-]*)["'`]/,
	];
	for (const pattern of patterns) {
		const match = pattern.exec(message);
		if (match) return match[1];
	}
	return undefined;
}

export interface FailureContext {
	method: string;
	path: string;
	attempts: number;
	itemIndex?: number;
	/** Values that must never reach the user: client secret, tokens, signing secrets. */
	secrets: string[];
	/** What the user should do when a write may have been processed (see Endpoint in endpoints.ts). */
	whenOutcomeUnknown: string;
	/** What a 404 may mean besides a wrong ID (see Endpoint in endpoints.ts). */
	whenNotFound?: string;
}

export interface DescribedFailure {
	errorResponse: JsonObject;
	message: string;
	description: string;
	httpCode?: string;
	field?: string;
}

function afterAttempts(context: FailureContext): string {
	return context.attempts > 1 ? ` after ${context.attempts} attempts` : '';
}

// spec §Errors rule 3
function mayHaveBeenProcessed(context: FailureContext): string {
	return context.method === 'GET' ? '' : ` ${context.whenOutcomeUnknown}`;
}

function refusedDescription(f: RequestFailure): Omit<DescribedFailure, 'errorResponse'> {
	const field = fieldNamedIn(f.apiMessage);
	return {
		message: `The API refused the request (HTTP ${f.status})${f.apiMessage ? `: ${f.apiMessage}` : ''}`,
		description: `Check the input of this operation; the request was not retried.${field ? ` The API named the field "${field}".` : ''}`,
		field,
	};
}

/** The user-facing message and description for each row of spec §Errors. */
const DESCRIBE: Record<
	FailureKind,
	(f: RequestFailure, c: FailureContext) => Omit<DescribedFailure, 'errorResponse'>
> = {
	validation: (f) => {
		const field = fieldNamedIn(f.apiMessage);
		return {
			message: `Invalid request: ${f.apiMessage ?? 'the API rejected a field'}`,
			description: `${field ? `The API rejected the field "${field}". ` : ''}Correct the value and run again; the request was not retried.`,
			field,
		};
	},
	unauthorized: (f) => ({
		message:
			'Authorization failed: the account does not exist or does not belong to these credentials, or the token was refused',
		description: `A new token was fetched and the request resent once. Check the account ID and that the credential belongs to the workspace and environment of the account.${f.apiMessage ? ` The API said: "${f.apiMessage}".` : ''}`,
	}),
	forbidden: (f) => ({
		message: `Forbidden: these credentials lack the scope for this operation${f.apiMessage ? ` (${f.apiMessage})` : ''}`,
		description:
			'Ask the provider to add the scope to these credentials (payee endpoints need read:payees, create:payee or update:payee; upsert needs both create:payee and update:payee).',
	}),
	notFound: (f, c) => ({
		message: `Not found: ${f.apiMessage ?? 'the requested resource does not exist'}`,
		description:
			c.whenNotFound ??
			'The account, payee, transaction or approval does not exist, or does not belong to these credentials or to the specified account. Check the ID.',
	}),
	accountNotActive: (f) => ({
		message: 'The account is not active',
		description: `The API answers 429 on payee endpoints when the account is not active; this is not a rate limit and the request was not retried.${f.apiMessage ? ` The API said: "${f.apiMessage}".` : ''}`,
	}),
	rateLimited: (f, c) => ({
		message: `Too many requests: the API kept rate limiting${afterAttempts(c)}`,
		description: `Wait and run again, or send fewer requests at once.${mayHaveBeenProcessed(c)}${f.apiMessage ? ` The API said: "${f.apiMessage}".` : ''}`,
	}),
	serverError: (f, c) => ({
		message: `The Customer Banking API failed (HTTP ${f.status})${afterAttempts(c)}${f.apiMessage ? `: ${f.apiMessage}` : ''}`,
		description: `This is usually temporary: try again later.${mayHaveBeenProcessed(c)}`,
	}),
	network: (f, c) =>
		f.timeLimitMs === undefined
			? {
					message: `Could not reach the Customer Banking API: ${networkFailureWords(f.networkCode) ?? 'the connection failed'}${afterAttempts(c)}`,
					description: `Network error ${f.networkCode}. Check the Base URL and that this machine can reach the API.${mayHaveBeenProcessed(c)}`,
				}
			: {
					message: `Could not reach the Customer Banking API: no answer within ${f.timeLimitMs / 1000} s${afterAttempts(c)}`,
					description: `The bank accepted the connection but did not answer in time (Time Limit per Request in the credential). Try again later.${mayHaveBeenProcessed(c)}`,
				},
	redirected: (f, c) => ({
		// n8n 1.x keeps no response headers in its error, so where it pointed is only known on 2.x
		message: `The API answered with a redirect (HTTP ${f.status})${f.redirectedTo ? ` to ${f.redirectedTo}` : ''}, which is not followed`,
		description: `The API is not expected to redirect, so the request and the access token were not sent on. Check the Base URL: the API may have moved, or a proxy or gateway in between redirects requests.${mayHaveBeenProcessed(c)}`,
	}),
	conflict: refusedDescription,
	unprocessable: refusedDescription,
	refused: refusedDescription,
	other: (f) => ({
		message: f.message ?? 'The request to the Customer Banking API failed',
		description: f.description ?? 'The request was not retried.',
	}),
};

/** How much of what the API said an error shows. */
const MAX_SAID = 500;

export function describeFailure(
	failure: RequestFailure,
	rule: ErrorRule,
	context: FailureContext,
): DescribedFailure {
	// redacted before anything is read from it (the field named in a message reaches the error as is),
	// and before it is shortened (a part of a secret is not recognised as one)
	const safe: RequestFailure = { ...failure };
	for (const name of ['apiMessage', 'message', 'description'] as const) {
		const value = failure[name];
		if (value !== undefined) safe[name] = redact(value, context.secrets).slice(0, MAX_SAID);
	}
	const described = DESCRIBE[rule.kind](safe, context);
	const message = redact(described.message, context.secrets);
	const description = redact(
		`${described.description} (${context.method} ${context.path})`,
		context.secrets,
	);
	const errorResponse: IDataObject = { message };
	if (failure.status !== undefined) errorResponse.statusCode = failure.status;
	if (safe.apiMessage !== undefined) errorResponse.apiMessage = safe.apiMessage;
	if (described.field) errorResponse.field = described.field;
	// Not under `code`: NodeApiError would swap the message for a generic one per network code.
	if (failure.networkCode) errorResponse.networkError = failure.networkCode;
	return {
		errorResponse: errorResponse as JsonObject,
		message,
		description,
		httpCode: failure.status === undefined ? undefined : String(failure.status),
		field: described.field,
	};
}

/** How a request failed, as its callers read it (never from the error's status code or text). */
export interface ApiFailure {
	kind: FailureKind;
	/** The HTTP status of the last answer, when one arrived. */
	status?: number;
	/**
	 * The request may have been processed although it failed (spec §Errors rule 3): it failed without
	 * an answer, with a 5xx or a rate limit, or after an earlier attempt that did.
	 */
	outcomeUnknown: boolean;
	/** The bank answered with a refusal (4xx); unless `outcomeUnknown`, nothing was processed. */
	refused: boolean;
	/** The field the API named in a refusal (spec §Errors 400). */
	field?: string;
	attempts: number;
}

// A symbol, so the failure travels with the error without changing what n8n stores of it (JSON).
const API_FAILURE = Symbol('customerBankingApiFailure');

type FailedRequestError = NodeApiError & { [API_FAILURE]?: ApiFailure };

/** The NodeApiError the transport throws for a failed request, carrying how it failed (apiFailureOf). */
export function failedRequestError(
	node: INode,
	described: DescribedFailure,
	apiFailure: ApiFailure,
	itemIndex: number | undefined,
): NodeApiError {
	const error: FailedRequestError = new NodeApiError(node, described.errorResponse, {
		message: described.message,
		description: described.description,
		httpCode: described.httpCode,
		itemIndex,
	});
	if (described.field) error.context.field = described.field;
	error[API_FAILURE] = apiFailure;
	return error;
}

/** How a request failed, when `error` is the transport's; undefined for anything else. */
export function apiFailureOf(error: unknown): ApiFailure | undefined {
	return error instanceof NodeApiError ? (error as FailedRequestError)[API_FAILURE] : undefined;
}

import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IPollFunctions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import {
	baseUrlOf as normalisedBaseUrlOf,
	CREDENTIAL_TYPE,
	insecureAddressMessage,
	insecureAddressOf,
	NO_REDIRECTS,
	redirectTargetOf,
	requestTimeLimitMsOf,
	tokenIsBound,
} from './credentialRules';
import { describeFailure, failedRequestError, type RequestFailure, readFailure } from './errors';
import { scrubSecrets } from './redaction';
import { type ListRead, pageSizeFor, readAllPages } from './paginate';
import { type Coverage, createdTimeAt, readRecentPages } from './recentPages';
import type { EndpointCall } from './endpoints';
import { delayBeforeNextAttempt, type ErrorRule, ruleFor } from './retryPolicy';
import { nonEmptyText } from '../records';

export { CREDENTIAL_TYPE } from './credentialRules';
export { type AccountScope, type Endpoint, type EndpointCall, ENDPOINTS } from './endpoints';
export { type ApiFailure, apiFailureOf } from './errors';
export type { FailureKind, RetryMode, TooManyRequestsMeaning } from './retryPolicy';
export { type Coverage, newestFirst } from './recentPages';

export type BankingContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions
	| IPollFunctions;

/** What one call adds to the endpoint it names. */
export interface RequestExtras {
	qs?: IDataObject;
	body?: IDataObject | IDataObject[];
	/** Sent as x-idempotent-key (spec §Payments rule 2): the bank acts on one key once. */
	idempotencyKey?: string;
	/** Put into the error so n8n shows which item failed. */
	itemIndex?: number;
	/** The credential as already read for this chain of requests (the pages of one list). */
	credentials?: ICredentialDataDecryptedObject;
	/** Told when the bank limits requests (a 429 read as a rate limit), before the request is sent again. */
	onRateLimited?: () => void;
}

/** What one read of a list endpoint asks for besides the endpoint. */
export interface ListOptions<T = IDataObject> {
	qs?: IDataObject;
	returnAll: boolean;
	limit?: number;
	/** A fixed page size (capped at the endpoint's page limit) where the spec names one. */
	pageSize?: number;
	/**
	 * Only items satisfying this are returned, and the limit counts them: pages are read until it is
	 * reached or the list ends. Given, pages are the endpoint's largest unless pageSize says otherwise.
	 */
	keep?: (item: T) => boolean;
	/** Stop reading pages once a kept item satisfies this; that item is the last one returned. */
	until?: (item: T) => boolean;
	/** What is kept of each item, applied page by page (paginate.ts). */
	shape?: (item: T) => T;
	itemIndex?: number;
	/**
	 * Only records made at or after this time (milliseconds) are wanted: the list is read from its newest
	 * end while its records' times and order allow it, else whole (recentPages.ts); `onCoverage` is told
	 * which. For Return All of an endpoint whose records show a creation time.
	 */
	since?: number;
	onCoverage?: (coverage: Coverage) => void;
	/**
	 * A list whose `total` fell while it was read may miss records (paginate.ts ListRead): it is read
	 * once more, and if it fell again, the caller's choice: `warn` (an execution hint n8n shows over the
	 * node's output, where the context has them), `fail` (an error: what the list holds is not known), or
	 * `accept` (the caller reads it again later anyway).
	 */
	ifShrinking: 'warn' | 'fail' | 'accept';
}

const IDEMPOTENCY_HEADER = 'x-idempotent-key';

const CHECK_BEFORE_SENDING_AGAIN =
	'The request may have been processed: check before sending it again.';

/**
 * The method, path and headers a call of an endpoint goes out with, besides authentication: for
 * showing what would be sent. Sends nothing.
 */
export function wireRequestOf(
	endpoint: Pick<EndpointCall, 'method' | 'path'>,
	{ idempotencyKey }: Pick<RequestExtras, 'idempotencyKey'> = {},
): {
	method: IHttpRequestMethods;
	path: string;
	headers: Record<string, string>;
} {
	return {
		method: endpoint.method,
		path: endpoint.path,
		headers: idempotencyKey === undefined ? {} : { [IDEMPOTENCY_HEADER]: idempotencyKey },
	};
}

function secretsOf(credentials: ICredentialDataDecryptedObject): string[] {
	return ['clientSecret', 'accessToken', 'webhookSigningSecret', 'webhookSigningSecretPrevious']
		.map((name) => credentials[name])
		.filter((value): value is string => typeof value === 'string' && value !== '');
}

/** The Base URL, once the environment's rules allow sending anything there (checked for every request). */
function baseUrlOf(
	this: BankingContext,
	credentials: ICredentialDataDecryptedObject,
	itemIndex: number | undefined,
): string {
	const baseUrl = normalisedBaseUrlOf(credentials);
	if (!baseUrl) {
		throw new NodeOperationError(
			this.getNode(),
			'The Customer Banking credential has no Base URL',
			{
				description: 'Open the credential and fill in the Base URL of the API.',
			},
		);
	}
	const insecure = insecureAddressOf(credentials);
	if (insecure) {
		const { message, description } = insecureAddressMessage(insecure);
		throw new NodeOperationError(this.getNode(), message, { itemIndex, description });
	}
	return baseUrl;
}

/**
 * The path relative to the Base URL with one leading slash and no trailing one. IDs end up in paths,
 * and URL parsing resolves "." and ".." segments, so an ID like "../payments" would reach another
 * endpoint: such paths, empty segments, "?", "#", "\" and whitespace are refused before any request.
 */
function checkedPath(this: BankingContext, rawPath: string, itemIndex: number | undefined): string {
	const path = `/${rawPath.replace(/^\/+/, '').replace(/\/+$/, '')}`;
	const unsafe = path
		.split('/')
		.slice(1)
		.some(
			(segment) =>
				segment === '' || /^(\.|%2e){1,2}$/i.test(segment) || /[?#\\\s\p{Cc}]/u.test(segment),
		);
	if (unsafe) {
		throw new NodeOperationError(this.getNode(), `Invalid request path "${path}"`, {
			itemIndex,
			description:
				'An ID in the request is empty or contains ".", "..", "?", "#", "\\" or whitespace. Check the IDs given to this operation.',
		});
	}
	return path;
}

/** What every attempt of one request shares. */
interface PreparedRequest {
	method: IHttpRequestMethods;
	url: string;
	/** The checked path, for errors. */
	path: string;
	headers: Record<string, string>;
	credentials: ICredentialDataDecryptedObject;
	/** Handed to n8n so it does not read the credential again; absent without a stored credential on the node. */
	credentialsDecrypted?: {
		id: string;
		name: string;
		type: string;
		data: ICredentialDataDecryptedObject;
	};
	/** May be sent again after a failure: the endpoint's retry mode (endpoints.ts) says so. */
	repeatable: boolean;
	/** How long one attempt waits for the answer (the credential's Time Limit per Request). */
	timeLimitMs: number;
}

async function prepareRequest(
	this: BankingContext,
	endpoint: EndpointCall,
	extras: RequestExtras,
): Promise<PreparedRequest> {
	const { method } = endpoint;
	const { itemIndex } = extras;
	const path = checkedPath.call(this, endpoint.path, itemIndex);
	// Read (and decrypted) once and handed to n8n, which then does not read it again; n8n writes a refreshed
	// token into this same object, so the next page of a list sends it.
	const credentials =
		extras.credentials ??
		(await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE));
	const stored = this.getNode().credentials?.[CREDENTIAL_TYPE];
	const credentialsDecrypted = stored?.id
		? { id: stored.id, name: stored.name, type: CREDENTIAL_TYPE, data: credentials }
		: undefined;
	const url = `${baseUrlOf.call(this, credentials, itemIndex)}${path}`;
	// A token issued for another API, token service, audience or client is not sent: emptied here, n8n
	// fetches one for this credential before the request (credentialRules.ts tokenBindingOf).
	if (credentials.accessToken && !tokenIsBound(credentials)) credentials.accessToken = '';
	const { headers } = wireRequestOf(endpoint, extras);
	const repeatable = endpoint.retry === 'safe';
	const timeLimitMs = requestTimeLimitMsOf(credentials);
	return { method, url, path, headers, credentials, credentialsDecrypted, repeatable, timeLimitMs };
}

type Attempt<T> = { answer: T; failure?: undefined } | { failure: RequestFailure };

/** One attempt: the answer, or what is known of its failure. */
async function sendOnce<T>(
	this: BankingContext,
	prepared: PreparedRequest,
	{ qs, body }: RequestExtras,
): Promise<Attempt<T>> {
	// A fresh options object per attempt (n8n adds the Authorization header to it), sharing the
	// one body object, so a resent payment has the same key and the same serialised body.
	// n8n's client gives up on a request the bank leaves silent for the limit. (No abort signal of our
	// own: n8n puts the execution's cancel signal in its place, shared/n8nInternals.ts.)
	const { timeLimitMs } = prepared;
	const request: IHttpRequestOptions = {
		method: prepared.method,
		url: prepared.url,
		headers: { Accept: 'application/json', ...prepared.headers },
		json: true,
		timeout: timeLimitMs,
		...NO_REDIRECTS,
	};
	if (qs && Object.keys(qs).length) request.qs = qs;
	if (body !== undefined) request.body = body;
	const { credentialsDecrypted } = prepared;
	try {
		const response: unknown = await this.helpers.httpRequestWithAuthentication.call(
			this,
			CREDENTIAL_TYPE,
			request,
			credentialsDecrypted && { credentialsDecrypted },
		);
		return { answer: response as T };
	} catch (error) {
		const failure = readFailure(error);
		failure.redirectedTo = redirectTargetOf(failure.location, prepared.url);
		if (failure.status === undefined && timedOut(failure.networkCode)) {
			failure.networkCode = 'ETIMEDOUT';
			failure.timeLimitMs = timeLimitMs;
		}
		return { failure };
	}
}

/** n8n's client's code for a request that ran out of its time limit (axios' ECONNABORTED; n8n 1.x words it, errors.ts). */
const timedOut = (code: string | undefined) => code === 'ECONNABORTED';

/** The error of a request that will not be sent again, free of the secrets of the credential as it was and is. */
async function failedRequest(
	this: BankingContext,
	prepared: PreparedRequest,
	endpoint: EndpointCall,
	itemIndex: number | undefined,
	failed: {
		failure: RequestFailure;
		rule: ErrorRule;
		attempts: number;
		earlierAttemptMayHaveBeenProcessed: boolean;
	},
): Promise<Error> {
	const { failure, rule, attempts } = failed;
	const latest = await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);
	const outcomeUnknown = rule.outcomeUnknown || failed.earlierAttemptMayHaveBeenProcessed;
	const described = describeFailure(failure, rule, {
		method: prepared.method,
		path: prepared.path,
		attempts,
		itemIndex,
		secrets: [...secretsOf(prepared.credentials), ...secretsOf(latest)],
		whenOutcomeUnknown: endpoint.whenOutcomeUnknown ?? CHECK_BEFORE_SENDING_AGAIN,
		whenNotFound: endpoint.whenNotFound,
	});
	if (outcomeUnknown && !rule.outcomeUnknown) {
		described.description = `${described.description} An earlier attempt of this request failed without an answer, so it may have been processed.`;
	}
	const status = failure.status;
	const refused = status !== undefined && status >= 400 && status < 500;
	const facts = {
		kind: rule.kind,
		status,
		outcomeUnknown,
		refused,
		field: described.field,
		attempts,
	};
	return failedRequestError(this.getNode(), described, facts, itemIndex);
}

/**
 * The answer without any secret of the credential. A token refreshed during the request counts too: n8n
 * wrote it into the credentials handed over; without them (no stored credential on the node) it is only
 * in what n8n stores, read again.
 */
async function scrubbedAnswer<T>(
	this: BankingContext,
	answer: T,
	prepared: PreparedRequest,
): Promise<T> {
	const secrets = secretsOf(prepared.credentials);
	if (!prepared.credentialsDecrypted) {
		secrets.push(
			...secretsOf(await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE)),
		);
	}
	return scrubSecrets(answer, secrets);
}

/**
 * One call of an endpoint of the table (transport/endpoints.ts), e.g.
 * `request.call(this, ENDPOINTS.transaction.at({ xtid }), { itemIndex })`: authenticated by n8n with
 * the credential (token fetched on first use and after a 401), retried by the policy in
 * retryPolicy.ts, failing with a NodeApiError free of secrets. Resolves to IDataObject unless called
 * as `(request<T>).call(this, …)`.
 */
export async function request<T extends IDataObject = IDataObject>(
	this: BankingContext,
	endpoint: EndpointCall,
	extras: RequestExtras = {},
): Promise<T> {
	const prepared = await prepareRequest.call(this, endpoint, extras);
	// Once an attempt may have been processed, a later refusal (409, 401, a gateway's 400 or 404) does
	// not make it "not processed": the earlier attempt may be the one the bank committed.
	let earlierAttemptMayHaveBeenProcessed = false;
	for (let attempts = 1; ; attempts++) {
		const attempt = await (sendOnce<T>).call(this, prepared, extras);
		if (!attempt.failure) return await (scrubbedAnswer<T>).call(this, attempt.answer, prepared);
		const { failure } = attempt;
		const rule = ruleFor(failure, endpoint.tooManyRequests);
		if (rule.kind === 'rateLimited') extras.onRateLimited?.();
		const delay =
			prepared.repeatable && rule.retry === 'whenSafe'
				? delayBeforeNextAttempt(attempts, failure)
				: undefined;
		if (delay === undefined) {
			const failed = { failure, rule, attempts, earlierAttemptMayHaveBeenProcessed };
			throw await failedRequest.call(this, prepared, endpoint, extras.itemIndex, failed);
		}
		if (rule.outcomeUnknown) earlierAttemptMayHaveBeenProcessed = true;
		await sleep(delay);
	}
}

/** What requestAll tells when a list kept shrinking while it was read twice. */
const SHRINKING_LIST = (path: string) =>
	`The list GET ${path} lost records while it was read, twice: records may be missing from what was read.`;

/**
 * Every item of a list endpoint of the table (Return All), or the first `limit` items, e.g.
 * `requestAll.call(this, ENDPOINTS.approvals.at({ xaid }), { returnAll: true, ifShrinking: 'warn' })`:
 * pages are the largest the endpoint allows; reading stops on `total`, on a short page, or once the
 * limit is reached (paginate.ts readAllPages, which also reads Return All's pages ahead); with `since`,
 * only the recent end of the list is read where that can be done safely (recentPages.ts). A record read
 * twice because the list grew meanwhile is returned once (by the endpoint's `records.id`); a list that
 * shrank meanwhile is read again (`ifShrinking`). Resolves to IDataObject[] unless called as
 * `(requestAll<T>).call(this, …)`.
 */
export async function requestAll<T extends IDataObject = IDataObject>(
	this: BankingContext,
	endpoint: EndpointCall,
	options: ListOptions<T>,
): Promise<T[]> {
	const { qs, returnAll, keep, until, shape, itemIndex, since } = options;
	const limit = returnAll ? Infinity : Math.floor(options.limit ?? 0);
	if (!returnAll && !(limit >= 1)) {
		throw new NodeOperationError(this.getNode(), 'Limit must be a whole number of at least 1', {
			itemIndex,
		});
	}
	const maxPageSize = endpoint.pageLimit;
	// filtered, how many items of a page are kept is unknown: the largest pages take the fewest requests
	const pageSize = options.pageSize
		? Math.min(options.pageSize, maxPageSize)
		: pageSizeFor(maxPageSize, returnAll || keep !== undefined, limit);
	const credentials = await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);
	// every page is a read, so safe to send again
	const page: EndpointCall = {
		...endpoint,
		method: 'GET',
		retry: 'safe',
		whenOutcomeUnknown: undefined,
	};
	const { records } = endpoint;
	const idOf = records && ((item: T) => nonEmptyText(item[records.id]));
	const fetchPage = async (pageNumber: number, rateLimited: () => void) =>
		await request.call(this, page, {
			credentials,
			qs: { ...qs, page: pageNumber, limit: pageSize },
			itemIndex,
			onRateLimited: rateLimited,
		});
	const notAList = () =>
		new NodeOperationError(
			this.getNode(),
			`Unexpected answer to GET ${endpoint.path}: not a list`,
			{
				itemIndex,
				description: 'Expected { total, results }, an array, { data } or { items }.',
			},
		);
	const created = records?.created;
	const readOnce = async (): Promise<ListRead<T>> => {
		if (since === undefined || created === undefined || !returnAll) {
			return await readAllPages<T>({
				pageSize,
				limit,
				keep,
				until,
				shape,
				fetchPage,
				notAList,
				idOf,
			});
		}
		const read = await readRecentPages<T>({
			pageSize,
			since,
			timeOf: (item) => createdTimeAt(item, created),
			idOf,
			fetchPage,
			notAList,
		});
		options.onCoverage?.(read.coverage);
		return read;
	};
	let read = await readOnce();
	if (read.totalFell) read = await readOnce();
	if (read.totalFell) {
		const message = SHRINKING_LIST(endpoint.path);
		if (options.ifShrinking === 'fail') {
			throw new NodeOperationError(this.getNode(), message, {
				itemIndex,
				description:
					'The bank removed records from this list while the node read it, both times it was read, so what it holds is not known. Run the node again.',
			});
		}
		if (options.ifShrinking === 'warn' && 'addExecutionHints' in this) {
			this.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
		}
	}
	return read.items;
}

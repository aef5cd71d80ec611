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
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { describeFailure, readFailure } from './errors';
import { scrubSecrets } from './redaction';
import { maxPageSizeFor, pageSizeFor, readListPage } from './paginate';
import { delayBeforeNextAttempt, isRepeatableRequest, ruleFor } from './retryPolicy';

export type BankingContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions
	| IPollFunctions;

export interface ApiRequestOptions {
	method: IHttpRequestMethods;
	/** Relative to the credential's Base URL, e.g. '/account/abc/balance'. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject | IDataObject[];
	/** e.g. { 'x-idempotent-key': key } */
	headers?: Record<string, string>;
	/** Put into the NodeApiError so n8n shows which item failed. */
	itemIndex?: number;
	/** The credential as already read for this chain of requests (the pages of one list). */
	credentials?: ICredentialDataDecryptedObject;
}

export interface ApiRequestAllItemsOptions<T = IDataObject> {
	path: string;
	qs?: IDataObject;
	returnAll: boolean;
	limit?: number;
	/** A fixed page size (capped at the endpoint's maximum) where the spec names one. */
	pageSize?: number;
	/** Stop reading pages once an item satisfies this; that item is the last one returned. */
	until?: (item: T) => boolean;
	itemIndex?: number;
}

const CREDENTIAL_TYPE = 'customerBankingApi';

/** Errors whose request may have been processed although it failed (spec §Errors rule 3). */
const outcomeUnknownErrors = new WeakSet<object>();

/**
 * True when the request failed on a network error, a 5xx or a rate limit after the retries the
 * policy allows: it MAY have been processed. Payments look the payment up before any resubmission.
 */
export function isTransientFailure(error: unknown): boolean {
	return typeof error === 'object' && error !== null && outcomeUnknownErrors.has(error);
}

function secretsOf(credentials: ICredentialDataDecryptedObject): string[] {
	return ['clientSecret', 'accessToken', 'webhookSigningSecret', 'webhookSigningSecretPrevious']
		.map((name) => credentials[name])
		.filter((value): value is string => typeof value === 'string' && value !== '');
}

function baseUrlOf(this: BankingContext, credentials: ICredentialDataDecryptedObject): string {
	const baseUrl = String(credentials.baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
	if (!baseUrl) {
		throw new NodeOperationError(this.getNode(), 'The Customer Banking credential has no Base URL', {
			description: 'Open the credential and fill in the Base URL of the API.',
		});
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

/**
 * One API call, authenticated by n8n with the credential (token fetched on first use and after a
 * 401), retried by the policy in retryPolicy.ts, failing with a NodeApiError free of secrets.
 * `apiRequest.call(this, …)` resolves to IDataObject; for another type use `(apiRequest<T>).call(this, …)`.
 */
export async function apiRequest<T>(this: BankingContext, options: ApiRequestOptions): Promise<T>;
export async function apiRequest(
	this: BankingContext,
	options: ApiRequestOptions,
): Promise<IDataObject>;
export async function apiRequest<T = IDataObject>(
	this: BankingContext,
	options: ApiRequestOptions,
): Promise<T> {
	const { method, qs, body, headers, itemIndex } = options;
	const path = checkedPath.call(this, options.path, itemIndex);
	// Read (and decrypted) once and handed to n8n, which then does not read it again; n8n writes a refreshed
	// token into this same object, so the next page of a list sends it.
	const credentials = options.credentials ?? (await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE));
	const stored = this.getNode().credentials?.[CREDENTIAL_TYPE];
	const credentialsDecrypted = stored?.id
		? { id: stored.id, name: stored.name, type: CREDENTIAL_TYPE, data: credentials }
		: undefined;
	const url = `${baseUrlOf.call(this, credentials)}${path}`;
	const repeatable = isRepeatableRequest(method, path, headers);
	// Once an attempt may have been processed, a later refusal (409, 401, a gateway's 400 or 404) does
	// not make it "not processed": the earlier attempt may be the one the bank committed.
	let earlierAttemptMayHaveBeenProcessed = false;

	for (let attempt = 1; ; attempt++) {
		// A fresh options object per attempt (n8n adds the Authorization header to it), sharing the
		// one body object, so a resent payment has the same key and the same serialised body.
		const request: IHttpRequestOptions = {
			method,
			url,
			headers: { Accept: 'application/json', ...headers },
			json: true,
		};
		if (qs && Object.keys(qs).length) request.qs = qs;
		if (body !== undefined) request.body = body;

		let answer: T;
		try {
			answer = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				request,
				credentialsDecrypted && { credentialsDecrypted },
			)) as T;
		} catch (error) {
			const failure = readFailure(error);
			const rule = ruleFor(failure, path);
			const delay =
				repeatable && rule.retry === 'whenSafe'
					? delayBeforeNextAttempt(attempt, failure)
					: undefined;
			if (delay === undefined) {
				const latest = await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);
				const described = describeFailure(failure, rule, {
					method,
					path,
					attempts: attempt,
					itemIndex,
					secrets: [...secretsOf(credentials), ...secretsOf(latest)],
				});
				const apiError = new NodeApiError(this.getNode(), described.errorResponse, {
					message: described.message,
					description: described.description,
					httpCode: described.httpCode,
					itemIndex,
				});
				if (described.field) apiError.context.field = described.field;
				if (rule.outcomeUnknown || earlierAttemptMayHaveBeenProcessed) {
					outcomeUnknownErrors.add(apiError);
					if (!rule.outcomeUnknown) {
						apiError.description = `${apiError.description ?? ''} An earlier attempt of this request failed without an answer, so it may have been processed.`.trim();
					}
				}
				throw apiError;
			}
			if (rule.outcomeUnknown) earlierAttemptMayHaveBeenProcessed = true;
			await sleep(delay);
			continue;
		}
		// A token refreshed during the request counts too: n8n wrote it into the credentials handed over;
		// without them (no stored credential on the node) it is only in what n8n stores, read again.
		const secrets = secretsOf(credentials);
		if (!credentialsDecrypted) {
			secrets.push(...secretsOf(await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE)));
		}
		return scrubSecrets(answer, secrets);
	}
}

/**
 * Every item of a paginated list (Return All), or the first `limit` items, using the largest page
 * the endpoint allows; stops on `total`, on a short page, or once the limit is reached.
 * `apiRequestAllItems.call(this, …)` resolves to IDataObject[]; `(apiRequestAllItems<T>).call` to T[].
 */
export async function apiRequestAllItems<T>(
	this: BankingContext,
	options: ApiRequestAllItemsOptions<T>,
): Promise<T[]>;
export async function apiRequestAllItems(
	this: BankingContext,
	options: ApiRequestAllItemsOptions,
): Promise<IDataObject[]>;
export async function apiRequestAllItems<T = IDataObject>(
	this: BankingContext,
	options: ApiRequestAllItemsOptions<T>,
): Promise<T[]> {
	const { path, qs, returnAll, until, itemIndex } = options;
	const limit = returnAll ? Infinity : Math.floor(options.limit ?? 0);
	if (!returnAll && !(limit >= 1)) {
		throw new NodeOperationError(this.getNode(), 'Limit must be a whole number of at least 1', {
			itemIndex,
		});
	}
	const maxPageSize = maxPageSizeFor(path);
	const pageSize = options.pageSize
		? Math.min(options.pageSize, maxPageSize)
		: pageSizeFor(maxPageSize, returnAll, limit);
	const collected: T[] = [];
	const credentials = await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);

	for (let page = 0; ; page++) {
		const response: unknown = await apiRequest.call(this, {
			credentials,
			method: 'GET',
			path,
			qs: { ...qs, page, limit: pageSize },
			itemIndex,
		});
		const listPage = readListPage<T>(response);
		if (!listPage) {
			throw new NodeOperationError(this.getNode(), `Unexpected answer to GET ${path}: not a list`, {
				itemIndex,
				description: 'Expected { total, results }, an array, { data } or { items }.',
			});
		}
		const matchAt = until ? listPage.items.findIndex(until) : -1;
		if (matchAt >= 0) return [...collected, ...listPage.items.slice(0, matchAt + 1)].slice(0, limit);
		collected.push(...listPage.items);
		if (collected.length >= limit) return collected.slice(0, limit);
		const endOfList =
			listPage.items.length < pageSize ||
			(listPage.total !== undefined && (page + 1) * pageSize >= listPage.total);
		if (endOfList) return collected;
	}
}

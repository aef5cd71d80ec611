import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import {
	basicCredentialsOf,
	baseUrlOf,
	CLIENT_AUTHENTICATION_WORDS,
	clientAuthenticationOf,
	CREDENTIAL_TYPE,
	insecureAddressMessage,
	insecureAddressOf,
	NO_REDIRECTS,
	otherAuthentication,
	redirectTargetOf,
	REQUEST_TIME_LIMIT,
	requestTimeLimitMsOf,
	tokenBindingOf,
	tokenEndpointOf,
	tokenIsBound,
} from '../nodes/shared/transport/credentialRules';
import type { ClientAuthentication } from '../nodes/shared/transport/credentialRules';
import { ENDPOINTS } from '../nodes/shared/transport/endpoints';
import { networkFailureWords } from '../nodes/shared/transport/networkFailures';
import { redact } from '../nodes/shared/transport/redaction';
import { parseRetryAfter } from '../nodes/shared/transport/retryPolicy';

/**
 * OAuth 2.0 client credentials with an audience (spec §Authentication).
 *
 * n8n calls `preAuthentication` when `accessToken` is empty, on a credential test, and after a 401
 * (then it stores the new token encrypted and resends the request once). The token is reused across
 * items and executions until then. n8n has no expiry-based refresh for `expirable` fields, so the
 * spec's "refresh when a couple of minutes remain" becomes "refresh on the first 401": the request
 * that meets the expired token is resent once with the new token, which is safe for payments because
 * the resend carries the same body and x-idempotent-key.
 *
 * Secrets never leave for another host: no request follows a redirect, production requests go over https
 * only (the token request and every API request), and the token is stored with a binding to the API it
 * was issued for (`tokenBinding`): a token whose binding does not match the credential is never sent.
 */
export class CustomerBankingApi implements ICredentialType {
	name = CREDENTIAL_TYPE;

	displayName = 'Customer Banking API';

	icon = {
		light: 'file:../icons/customerBanking.svg',
		dark: 'file:../icons/customerBanking.dark.svg',
	} as const;

	documentationUrl =
		'https://github.com/customer-banking/n8n-nodes-customer-banking#credential-set-up';

	properties: INodeProperties[] = [
		{
			displayName: 'Environment',
			name: 'environment',
			type: 'options',
			options: [
				{
					name: 'Sandbox',
					value: 'sandbox',
					description: 'Test data only: no real money moves',
				},
				{
					name: 'Production',
					value: 'production',
					description: 'Live accounts: payments move real money',
				},
			],
			default: 'sandbox',
			description:
				'Which environment these credentials belong to. The sandbox has its own addresses and its own client ID and secret.',
		},
		{
			displayName:
				'SANDBOX: test data only, no real money moves. Use the sandbox client ID and secret and the sandbox addresses.',
			name: 'sandboxNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { environment: ['sandbox'] } },
		},
		{
			displayName:
				'PRODUCTION: payments made with these credentials move real money. Both URLs must use https.',
			name: 'productionNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { environment: ['production'] } },
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.bank.example.com',
			description: "The address of the bank's API (the base URL in the API documentation)",
		},
		{
			displayName: 'Token URL',
			name: 'tokenUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://auth.bank.example.com',
			description:
				"The address of the bank's token service (the auth URL in the API documentation). The token path is added to it, unless the address already ends with it.",
		},
		{
			displayName: 'Audience',
			name: 'audience',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.bank.example.com',
			description: 'The audience identifier of the API, sent with every token request',
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		{
			displayName: 'Client Authentication',
			name: 'clientAuthentication',
			type: 'options',
			options: [
				{
					name: 'Send in the Body',
					value: 'body',
					description:
						'client_id and client_secret in the token request, as the API documentation shows',
				},
				{
					name: 'Send as Basic Auth Header',
					value: 'header',
					description:
						'An Authorization: Basic header, which every OAuth 2.0 token service accepts; use it when the token service refuses the body',
				},
			],
			default: 'body',
			description: 'How the Client ID and Client Secret are sent to the token service',
		},
		{
			displayName: 'Webhook Signing Secret',
			name: 'webhookSigningSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				"Secret the bank signs webhook deliveries with, exactly as the bank shows it: for Standard Webhooks (Svix) the whole whsec_… text (its base64 is the key), for Stripe-style the whole whsec_… text, for the others the secret as given. Needed by the Customer Banking Trigger, which refuses unsigned or wrongly signed deliveries; choose the bank's scheme in the trigger's Signature Scheme.",
		},
		{
			displayName: 'Previous Webhook Signing Secret',
			name: 'webhookSigningSecretPrevious',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'While the signing secret is being rotated, deliveries signed with this previous secret are still accepted. Clear it once the rotation is complete.',
		},
		{
			displayName: REQUEST_TIME_LIMIT.label,
			name: REQUEST_TIME_LIMIT.field,
			type: 'number',
			typeOptions: {
				minValue: REQUEST_TIME_LIMIT.minSeconds,
				maxValue: REQUEST_TIME_LIMIT.maxSeconds,
			},
			default: REQUEST_TIME_LIMIT.defaultSeconds,
			description:
				"How long each request waits for the bank's answer. A read without an answer in time is tried again (5 attempts in all, 1, 2, 4 and 4 seconds apart); a payment without an answer may have been made, so the node looks it up in the account and never sends it under another key.",
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
		{
			// What the access token was issued for (transport/credentialRules.ts tokenBindingOf); written with it.
			displayName: 'Token Binding',
			name: 'tokenBinding',
			type: 'hidden',
			typeOptions: { password: true },
			default: '',
		},
	];

	// spec §Authentication rules 2-3: form-encoded client credentials grant with the audience.
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const tokenEndpoint = tokenEndpointOf(credentials);
		const clientSecret = String(credentials.clientSecret ?? '');
		const insecure = insecureAddressOf(credentials);
		if (insecure) {
			const { message, description } = insecureAddressMessage(insecure);
			throw tokenError(message, description);
		}

		const response = await requestToken.call(this, credentials, tokenEndpoint, clientSecret);
		const accessToken = (response as IDataObject | undefined)?.access_token;
		if (typeof accessToken !== 'string' || accessToken === '') {
			throw tokenError(
				`The token service at ${tokenEndpoint} answered without an access_token`,
				'Check the Token URL: it should be the address of the token service, not of the API.',
			);
		}
		return { accessToken, tokenBinding: tokenBindingOf(credentials) };
	}

	// spec §Authentication rule 4.
	// A function, not n8n's declarative form: that one resolves an expression in n8n's expression sandbox
	// for every request, a sixth of the time of a paged Return All.
	// A field, not a method: n8n serves the credential type as a copy of the object's own fields, and only
	// a type whose `authenticate` is among them is offered in the HTTP Request node (and gets "Custom API
	// Call" in the node).
	authenticate = authenticateRequest;

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl}}',
			url: ENDPOINTS.accounts.at({}).path,
			method: ENDPOINTS.accounts.method,
			qs: { limit: 1 },
		},
	};
}

/**
 * n8n calls it for every authenticated request (the credential test's and the HTTP Request node's too),
 * so the rules on where secrets may go are applied here whatever the caller: no redirects, https in
 * production, only the credential's own API, and only a token issued for it (otherwise none: the API's
 * 401 makes n8n fetch one for it and resend once).
 */
/**
 * spec §Authentication rules 2-3: the token request itself, the client authenticated as the credential
 * says: in the body (the API documentation's way) or as HTTP Basic (RFC 6749 §2.3.1, which every token
 * service must accept), never both.
 */
async function requestToken(
	this: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
	tokenEndpoint: string,
	clientSecret: string,
): Promise<unknown> {
	const timeLimitMs = requestTimeLimitMsOf(credentials);
	const clientId = String(credentials.clientId ?? '');
	const authentication = clientAuthenticationOf(credentials);
	const basic = basicCredentialsOf(clientId, clientSecret);
	const form: Record<string, string> = { grant_type: 'client_credentials' };
	if (authentication === 'body')
		Object.assign(form, { client_id: clientId, client_secret: clientSecret });
	form.audience = String(credentials.audience ?? '');
	try {
		return await this.helpers.httpRequest({
			method: 'POST',
			url: tokenEndpoint,
			timeout: timeLimitMs,
			headers: {
				'Content-Type': 'application/x-www-form-urlencoded',
				Accept: 'application/json',
				...(authentication === 'header' ? { Authorization: `Basic ${basic}` } : {}),
			},
			...NO_REDIRECTS,
			body: new URLSearchParams(form),
			json: true,
		});
	} catch (error) {
		// The original error carries the request (with the client secret) and is dropped here.
		if ((error as ExchangeFailure)?.code === 'ECONNABORTED') {
			throw tokenError(
				`Could not reach the Token URL (${tokenEndpoint}): no answer within ${timeLimitMs / 1000} s`,
				'The token service accepted the connection but did not answer in time (Time Limit per Request). Try again later, or check the Token URL.',
			);
		}
		throw describeExchangeFailure(error, tokenEndpoint, [clientSecret, basic], authentication);
	}
}

async function authenticateRequest(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const insecure = insecureAddressOf(credentials);
	if (insecure) {
		const { message, description } = insecureAddressMessage(insecure);
		throw tokenError(message, description);
	}
	if (!isWithinBaseUrl(credentials, requestOptions)) {
		throw tokenError(
			'The request does not go to the Base URL of the credential',
			'The access token is only sent to the API of the credential.',
		);
	}
	// the HTTP Request node sends n8n's older request options, whose redirects follow other switches
	Object.assign(requestOptions, NO_REDIRECTS, { followRedirect: false, followAllRedirects: false });
	const token = String(credentials.accessToken ?? '');
	if (token !== '' && tokenIsBound(credentials)) {
		requestOptions.headers = { ...requestOptions.headers, Authorization: `Bearer ${token}` };
	}
	return requestOptions;
}

/** Whether the request goes to the credential's API: its origin, under its path. */
function isWithinBaseUrl(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): boolean {
	try {
		const base = new URL(baseUrlOf(credentials));
		// joined as n8n's HTTP client (axios) joins them: a relative url is appended to baseURL's path
		// n8n's older request options (the HTTP Request node's) name the address `uri`; n8n sends to `url` first
		const { baseURL } = requestOptions;
		const url = String(requestOptions.url ?? (requestOptions as { uri?: unknown }).uri ?? '');
		const joined =
			baseURL && !/^([a-z][a-z\d+\-.]*:)?\/\//i.test(url)
				? `${baseURL.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`
				: url;
		const target = new URL(joined);
		const basePath = base.pathname.replace(/\/+$/, '');
		return (
			target.origin === base.origin &&
			(target.pathname === basePath || target.pathname.startsWith(`${basePath}/`))
		);
	} catch {
		return false;
	}
}

/**
 * An error n8n shows as is: no status or code property (those make n8n replace the message with a
 * generic one), no cause (the cause would carry the client secret).
 */
function tokenError(message: string, description: string): Error {
	return Object.assign(new Error(message), { description });
}

/** What the token service answered with an HTTP status other than a redirect. */
interface TokenRefusal {
	status: number;
	errorCode: string;
	serviceMessage: string;
	/** The service's message as a sentence to append, or ''. */
	said: string;
	/** Seconds to wait, from the service's Retry-After. */
	retryAfter?: number;
	tokenEndpoint: string;
	authentication: ClientAuthentication;
}

/** The token service's refusals, first matching row wins; the last row takes any status. */
const TOKEN_REFUSALS: ReadonlyArray<{
	applies: (refusal: TokenRefusal) => boolean;
	error: (refusal: TokenRefusal) => Error;
}> = [
	{
		applies: ({ status, errorCode }) =>
			status === 401 || errorCode === 'invalid_client' || errorCode === 'unauthorized_client',
		error: ({ said, authentication }) =>
			tokenError(
				`The token service rejected the Client ID or Client Secret (Client Authentication: ${CLIENT_AUTHENTICATION_WORDS[authentication].name})`,
				`They were ${CLIENT_AUTHENTICATION_WORDS[authentication].sent}. Check both fields and that they belong to the selected environment (sandbox and production have separate credentials); if they are right, the token service may not take them this way: try Client Authentication "${CLIENT_AUTHENTICATION_WORDS[otherAuthentication(authentication)].name}".${said}`,
			),
	},
	{
		applies: ({ errorCode, serviceMessage }) =>
			errorCode === 'invalid_audience' || /audience/i.test(serviceMessage),
		error: ({ said }) =>
			tokenError(
				'The token service rejected the Audience',
				`Check the Audience field: it must be the audience identifier of the API.${said}`,
			),
	},
	{
		applies: ({ status }) => status === 404 || status === 405,
		error: ({ status, tokenEndpoint }) =>
			tokenError(
				`The Token URL does not lead to a token service (HTTP ${status} from ${tokenEndpoint})`,
				'Check the Token URL field: tokens are requested from that address followed by /oauth/token.',
			),
	},
	{
		applies: ({ status }) => status === 429,
		error: ({ retryAfter, said }) =>
			tokenError(
				'The token service is rate limiting these credentials',
				`Wait${retryAfter ? ` ${retryAfter} seconds` : ''} and try again.${said}`,
			),
	},
	{
		applies: ({ status }) => status >= 500,
		error: ({ status, said }) =>
			tokenError(
				`The token service failed (HTTP ${status})`,
				`This is usually temporary: try again later.${said}`,
			),
	},
	{
		applies: () => true,
		error: ({ status, errorCode, said }) =>
			tokenError(
				`The token service refused the token request (HTTP ${status}${errorCode ? `, ${errorCode}` : ''})`,
				`Check the Client ID, Client Secret and Audience fields.${said}`,
			),
	},
];

interface ExchangeFailure {
	code?: unknown;
	response?: { status?: unknown; data?: unknown; headers?: Record<string, unknown> };
}

/** The refusal as the token service worded it, every part shown free of the client secret. */
function tokenRefusalOf(
	failure: ExchangeFailure,
	status: number,
	tokenEndpoint: string,
	secrets: string[],
	authentication: ClientAuthentication,
): TokenRefusal {
	const answer = failure.response?.data;
	const data = (typeof answer === 'object' && answer !== null ? answer : {}) as IDataObject;
	const errorCode = typeof data.error === 'string' ? redact(data.error, secrets) : '';
	const message = [data.message, data.error_description].find(
		(text) => typeof text === 'string',
	) as string | undefined;
	const serviceMessage = redact(message ?? '', secrets);
	const said = serviceMessage ? ` The token service said: "${serviceMessage}".` : '';
	// shown only as the number of seconds it says (RFC 9110 §10.2.3), never as the text the service sent
	const retryHeader = failure.response?.headers?.['retry-after'];
	const retryAfterMs =
		typeof retryHeader === 'string' ? parseRetryAfter(retryHeader, Date.now()) : undefined;
	const retryAfter = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000);
	return { status, errorCode, serviceMessage, said, retryAfter, tokenEndpoint, authentication };
}

function describeExchangeFailure(
	error: unknown,
	tokenEndpoint: string,
	secrets: string[],
	authentication: ClientAuthentication,
): Error {
	const failure = (error ?? {}) as ExchangeFailure;
	const status = typeof failure.response?.status === 'number' ? failure.response.status : undefined;
	if (status !== undefined && status >= 300 && status < 400) {
		const location = failure.response?.headers?.location;
		const target = redirectTargetOf(
			typeof location === 'string' ? location : undefined,
			tokenEndpoint,
		);
		return tokenError(
			`The token service answered with a redirect (HTTP ${status})${target ? ` to ${target}` : ''}, which is not followed`,
			'The token service is not expected to redirect, so the client secret was not sent on. Check the Token URL: it should be the address of the token service itself.',
		);
	}
	if (status === undefined) {
		const code = typeof failure.code === 'string' ? failure.code : undefined;
		const reason = networkFailureWords(code) ?? 'no answer was received';
		return tokenError(
			`Could not reach the Token URL (${tokenEndpoint}): ${reason}`,
			'Check the Token URL field and that this machine can reach the token service.',
		);
	}
	const refusal = tokenRefusalOf(failure, status, tokenEndpoint, secrets, authentication);
	const row =
		TOKEN_REFUSALS.find((candidate) => candidate.applies(refusal)) ??
		TOKEN_REFUSALS[TOKEN_REFUSALS.length - 1];
	return row.error(refusal);
}

import { createHash } from 'crypto';

import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

/**
 * Where the credential's secrets may go: the rules the credential (token request, authenticate) and the
 * transport (every API request) both apply.
 */

/** The credential's type name: what the nodes ask n8n for, and the credential's own `name`. */
export const CREDENTIAL_TYPE = 'customerBankingApi';

/** How the client authenticates to the token service (spec §Authentication; RFC 6749 §2.3.1). */
export type ClientAuthentication = 'body' | 'header';

/** Each choice as the credential's form names it, and how a message says it was sent. */
export const CLIENT_AUTHENTICATION_WORDS: Readonly<
	Record<ClientAuthentication, { name: string; sent: string }>
> = {
	body: { name: 'Send in the Body', sent: 'sent in the body of the token request' },
	header: { name: 'Send as Basic Auth Header', sent: 'sent as an HTTP Basic Authorization header' },
};

/** The credential's choice; anything but the header choice is the body, the API documentation's way. */
export function clientAuthenticationOf(
	credentials: ICredentialDataDecryptedObject,
): ClientAuthentication {
	return credentials.clientAuthentication === 'header' ? 'header' : 'body';
}

export function otherAuthentication(authentication: ClientAuthentication): ClientAuthentication {
	return authentication === 'body' ? 'header' : 'body';
}

/**
 * RFC 6749 §2.3.1: `base64(urlencode(client_id) ":" urlencode(client_secret))`, each part encoded
 * with application/x-www-form-urlencoded (Appendix B) before base64.
 */
export function basicCredentialsOf(clientId: string, clientSecret: string): string {
	const encoded = (text: string) => new URLSearchParams({ v: text }).toString().slice(2);
	return Buffer.from(`${encoded(clientId)}:${encoded(clientSecret)}`, 'utf8').toString('base64');
}

/** The Base URL without surrounding spaces or trailing slashes. */
export function baseUrlOf(credentials: ICredentialDataDecryptedObject): string {
	return String(credentials.baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
}

/** `{auth_url}/oauth/token`, tolerating trailing slashes and an address that already names the endpoint. */
export function tokenEndpointOf(credentials: ICredentialDataDecryptedObject): string {
	const authUrl = String(credentials.tokenUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
	return authUrl.endsWith('/oauth/token') ? authUrl : `${authUrl}/oauth/token`;
}

/**
 * The first address of a production credential that is not https, named as the user knows it; none for
 * the sandbox. The client secret and tokens of production never travel over plain http.
 */
export function insecureAddressOf(credentials: ICredentialDataDecryptedObject): string | undefined {
	if (credentials.environment !== 'production') return undefined;
	const addresses: Array<[string, string]> = [
		['Token URL', tokenEndpointOf(credentials)],
		['Base URL', baseUrlOf(credentials)],
	];
	return addresses.find(([, url]) => !url.toLowerCase().startsWith('https://'))?.[0];
}

export function insecureAddressMessage(field: string): { message: string; description: string } {
	return {
		message: `The ${field} of a production credential must start with https://`,
		description:
			'The client secret and the access token are never sent over plain http to production.',
	};
}

/**
 * What a token was issued for: the environment, the API, the token service, the audience and the client.
 * Stored with the token (a hash: no field in clear) so a token is only sent to the API it was issued
 * for: once any of these changes, the cached token no longer matches and a new one is fetched.
 */
export function tokenBindingOf(credentials: ICredentialDataDecryptedObject): string {
	const parts = [
		String(credentials.environment ?? ''),
		baseUrlOf(credentials),
		tokenEndpointOf(credentials),
		String(credentials.audience ?? '').trim(),
		String(credentials.clientId ?? '').trim(),
	];
	return `v1:${createHash('sha256').update(JSON.stringify(parts)).digest('hex')}`;
}

/** Whether the cached token was issued for what the credential says now. */
export function tokenIsBound(credentials: ICredentialDataDecryptedObject): boolean {
	return credentials.tokenBinding === tokenBindingOf(credentials);
}

/**
 * n8n's request helper follows redirects by default and re-adds Authorization on another origin (and
 * from https to http); the API documents no redirect, so none is followed: a 3xx becomes a failure.
 */
export const NO_REDIRECTS: Pick<
	IHttpRequestOptions,
	'disableFollowRedirect' | 'sendCredentialsOnCrossOriginRedirect'
> = {
	disableFollowRedirect: true,
	sendCredentialsOnCrossOriginRedirect: false,
};

/**
 * Where a redirect pointed, as an origin (scheme, host and port): never its path or query string, which
 * may carry anything. Relative locations resolve against the request's address.
 */
export function redirectTargetOf(
	location: string | undefined,
	requestUrl: string,
): string | undefined {
	if (location === undefined || location.trim() === '') return undefined;
	try {
		const target = new URL(location.trim(), requestUrl);
		return target.origin === 'null' ? 'an address that is not http or https' : target.origin;
	} catch {
		return 'an address that is not valid';
	}
}

/** The credential's Time Limit per Request: what a request waits for the bank's answer before it gives up. */
export const REQUEST_TIME_LIMIT = {
	field: 'requestTimeLimit',
	label: 'Time Limit per Request (Seconds)',
	defaultSeconds: 30,
	minSeconds: 1,
	maxSeconds: 600,
} as const;

/**
 * The time limit of one request, in milliseconds: the credential's setting, or the default where it is
 * empty or not a number in range (the credential form keeps it in range; an expression may not).
 */
export function requestTimeLimitMsOf(credentials: ICredentialDataDecryptedObject): number {
	const seconds = Number(credentials[REQUEST_TIME_LIMIT.field]);
	const { defaultSeconds, minSeconds, maxSeconds } = REQUEST_TIME_LIMIT;
	const inRange = Number.isFinite(seconds) && seconds >= minSeconds && seconds <= maxSeconds;
	return (inRange ? seconds : defaultSeconds) * 1000;
}

import type { ICredentialDataDecryptedObject, IHttpRequestOptions, INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { CustomerBankingApi } from '../../../credentials/CustomerBankingApi.credentials';
import {
	basicCredentialsOf,
	clientAuthenticationOf,
} from '../../../nodes/shared/transport/credentialRules';
import { n8nHttpRequest, type RecordedRequest } from '../../helpers/n8nContext';
import { startOtherHost, type OtherHost } from '../../helpers/otherHost';
import {
	scriptedCredentials,
	startScriptedApi,
	withCachedToken,
	type ScriptedApi,
} from '../../helpers/scriptedApi';

const credential = new CustomerBankingApi();
const node: INode = {
	id: '1',
	name: 'Customer Banking',
	type: 'n8n-nodes-customer-banking.customerBanking',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** Runs preAuthentication with n8n-core's httpRequest, as n8n's credentials helper does. */
async function exchange(
	credentials: ICredentialDataDecryptedObject,
	requests: RecordedRequest[] = [],
) {
	const helpers = {
		httpRequest: async (options: never) => await n8nHttpRequest(options, requests),
	};
	return await credential.preAuthentication.call({ helpers } as never, credentials);
}

async function exchangeError(
	credentials: ICredentialDataDecryptedObject,
): Promise<Error & { description?: string }> {
	const error = await exchange(credentials).then(
		() => undefined,
		(thrown: unknown) => thrown as Error & { description?: string },
	);
	if (!error) throw new Error('expected the token exchange to fail');
	return error;
}

describe('credential description', () => {
	const byName = Object.fromEntries(
		credential.properties.map((property) => [property.name, property]),
	);

	it('has the field names of the contract, environment first', () => {
		expect(credential.name).toBe('customerBankingApi');
		expect(credential.properties[0].name).toBe('environment');
		const names = credential.properties.filter((p) => p.type !== 'notice').map((p) => p.name);
		expect(names).toEqual([
			'environment',
			'baseUrl',
			'tokenUrl',
			'audience',
			'clientId',
			'clientSecret',
			'clientAuthentication',
			'webhookSigningSecret',
			'webhookSigningSecretPrevious',
			'requestTimeLimit',
			'accessToken',
			'tokenBinding',
		]);
	});

	it('offers sandbox and production, with a notice shown for each', () => {
		expect(
			byName.environment.options?.map((option) => (option as { value: string }).value),
		).toEqual(['sandbox', 'production']);
		expect(byName.sandboxNotice.displayOptions?.show?.environment).toEqual(['sandbox']);
		expect(byName.productionNotice.displayOptions?.show?.environment).toEqual(['production']);
		expect(byName.productionNotice.displayName).toMatch(/real money/);
	});

	it('marks every secret as a password and the token as hidden and expirable', () => {
		for (const name of [
			'clientSecret',
			'webhookSigningSecret',
			'webhookSigningSecretPrevious',
			'accessToken',
		]) {
			expect(byName[name].typeOptions?.password).toBe(true);
		}
		expect(byName.accessToken.type).toBe('hidden');
		expect(byName.accessToken.typeOptions?.expirable).toBe(true);
		expect(byName.tokenBinding.type).toBe('hidden');
		expect(byName.webhookSigningSecret.required).toBeFalsy();
		expect(byName.webhookSigningSecretPrevious.required).toBeFalsy();
	});

	it('sends a Bearer token and tests with GET /accounts?limit=1', async () => {
		// a function, so n8n resolves no expression per request
		expect(typeof credential.authenticate).toBe('function');
		const authenticate = credential.authenticate as (
			c: object,
			r: object,
		) => Promise<{ headers: Record<string, string> }>;
		const credentials = withCachedToken(
			scriptedCredentials({
				baseUrl: 'https://api.bank.example/v1',
				authUrl: 'https://auth.bank.example',
			}),
			'tok_123',
		);
		const signed = await authenticate(credentials, {
			url: 'https://api.bank.example/v1/x',
			headers: { Accept: 'application/json' },
		});
		expect(signed.headers).toEqual({ Accept: 'application/json', Authorization: 'Bearer tok_123' });
		expect(credential.test.request).toMatchObject({
			url: '/accounts',
			method: 'GET',
			qs: { limit: 1 },
		});
		expect(credential.documentationUrl).toMatch(/^https:\/\//);
		expect(credential.icon).toEqual({
			light: 'file:../icons/customerBanking.svg',
			dark: 'file:../icons/customerBanking.dark.svg',
		});
	});
});

describe('token exchange (spec §Authentication)', () => {
	let api: ScriptedApi;
	beforeEach(async () => {
		api = await startScriptedApi();
	});
	afterEach(async () => {
		await api.close();
	});

	it('posts a form-encoded client credentials grant with the audience to {auth_url}/oauth/token', async () => {
		const result = await exchange(scriptedCredentials(api));
		expect(result).toEqual({
			accessToken: 'token-1',
			tokenBinding: expect.stringMatching(/^v1:[0-9a-f]{64}$/),
		});
		const [request] = api.tokenRequests();
		expect(request.method).toBe('POST');
		expect(request.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
		expect(request.body).toEqual({
			grant_type: 'client_credentials',
			client_id: 'client-canary-id',
			client_secret: 'CANARY-client-secret-5f1c',
			audience: 'https://api.customer-banking.example',
		});
	});

	it.each([
		['a trailing slash', (authUrl: string) => `${authUrl}/`],
		['the full token endpoint', (authUrl: string) => `${authUrl}/oauth/token`],
		['surrounding spaces', (authUrl: string) => `  ${authUrl}//  `],
	])('accepts a Token URL with %s', async (_, tokenUrl) => {
		await exchange(scriptedCredentials(api, { tokenUrl: tokenUrl(api.authUrl) }));
		expect(api.tokenRequests().map((request) => request.path)).toEqual(['/auth/oauth/token']);
	});

	it('refuses to send production secrets over plain http, before any request', async () => {
		const error = await exchangeError(scriptedCredentials(api, { environment: 'production' }));
		expect(error.message).toBe('The Token URL of a production credential must start with https://');
		expect(api.served).toHaveLength(0);

		const httpsToken = await exchangeError(
			scriptedCredentials(api, { environment: 'production', tokenUrl: 'https://auth.example.com' }),
		);
		expect(httpsToken.message).toBe(
			'The Base URL of a production credential must start with https://',
		);
	});

	it('names the client ID / secret when the service answers 401 invalid_client', async () => {
		api.setToken(() => ({
			status: 401,
			body: { statusCode: 401, error: 'invalid_client', message: 'Client authentication failed' },
		}));
		const error = await exchangeError(scriptedCredentials(api));
		expect(error.message).toBe(
			'The token service rejected the Client ID or Client Secret (Client Authentication: Send in the Body)',
		);
		expect(error.description).toContain('Client authentication failed');
	});

	it('names the audience when the service answers invalid_audience', async () => {
		api.setToken(() => ({
			status: 400,
			body: { statusCode: 400, error: 'invalid_audience', message: 'audience is not known' },
		}));
		const error = await exchangeError(scriptedCredentials(api));
		expect(error.message).toBe('The token service rejected the Audience');
	});

	it('names the Token URL when nothing answers there', async () => {
		const closedPort = scriptedCredentials(api, { tokenUrl: 'http://127.0.0.1:1/auth' });
		const error = await exchangeError(closedPort);
		expect(error.message).toBe(
			'Could not reach the Token URL (http://127.0.0.1:1/auth/oauth/token): the connection was refused',
		);
	});

	it('names the Token URL when it leads to something that is not a token service', async () => {
		const error = await exchangeError(
			scriptedCredentials(api, { tokenUrl: api.authUrl.replace(/\/auth$/, '/elsewhere') }),
		);
		expect(error.message).toMatch(/^The Token URL does not lead to a token service \(HTTP 404/);
	});

	it('reports a rate limited or failing token service with its status', async () => {
		api.setToken(() => ({
			status: 429,
			headers: { 'retry-after': '7' },
			body: { statusCode: 429, message: 'slow down' },
		}));
		const limited = await exchangeError(scriptedCredentials(api));
		expect(limited.message).toBe('The token service is rate limiting these credentials');
		expect(limited.description).toContain('Wait 7 seconds');

		// an HTTP date is shown as the seconds until then; anything else is not shown
		api.setToken(() => ({
			status: 429,
			headers: { 'retry-after': new Date(Date.now() + 90_500).toUTCString() },
			body: { statusCode: 429, message: 'slow down' },
		}));
		expect((await exchangeError(scriptedCredentials(api))).description).toMatch(
			/^Wait (89|90|91) seconds and try again/,
		);
		api.setToken(() => ({
			status: 429,
			headers: { 'retry-after': 'soon' },
			body: { statusCode: 429, message: 'slow down' },
		}));
		expect((await exchangeError(scriptedCredentials(api))).description).toMatch(
			/^Wait and try again\./,
		);

		api.setToken(() => ({ status: 503, body: { statusCode: 503, message: 'maintenance' } }));
		expect((await exchangeError(scriptedCredentials(api))).message).toBe(
			'The token service failed (HTTP 503)',
		);
	});

	it('rejects an answer without access_token', async () => {
		api.setToken(() => ({ status: 200, body: { token_type: 'Bearer' } }));
		const error = await exchangeError(scriptedCredentials(api));
		expect(error.message).toMatch(/answered without an access_token/);
	});

	it('never puts the client secret in the error, even when the service echoes it', async () => {
		api.setToken((request) => ({
			status: 400,
			body: {
				statusCode: 400,
				error: 'invalid_request',
				message: `bad request ${(request.body as Record<string, string>).client_secret}`,
			},
		}));
		const error = await exchangeError(scriptedCredentials(api));
		// What n8n does with it: httpRequestWithAuthentication wraps it in a NodeApiError.
		const wrapped = new NodeApiError(node, error as never);
		for (const text of [
			JSON.stringify(error),
			String(error.message),
			String(error.description),
			JSON.stringify(wrapped),
			wrapped.message,
			String(wrapped.description),
			JSON.stringify(wrapped.messages),
		]) {
			expect(text).not.toContain('CANARY-client-secret-5f1c');
		}
		expect(error.description).toContain('[redacted]');
		expect((error as { cause?: unknown }).cause).toBeUndefined();
	});

	it.each([
		[
			'401',
			{ status: 401, body: { error: 'invalid_client', message: 'no' } },
			/Client ID or Client Secret/,
		],
		['audience', { status: 400, body: { error: 'invalid_audience', message: 'no' } }, /Audience/],
	])('keeps its message when n8n wraps it in NodeApiError (%s)', async (_, reply, expected) => {
		api.setToken(() => reply);
		const wrapped = new NodeApiError(
			node,
			(await exchangeError(scriptedCredentials(api))) as never,
		);
		expect(wrapped.message).toMatch(expected);
		expect(wrapped.httpCode).toBeNull();
	});

	it('keeps the unreachable message when n8n wraps it in NodeApiError', async () => {
		const error = await exchangeError(
			scriptedCredentials(api, { tokenUrl: 'http://127.0.0.1:1/auth' }),
		);
		expect(new NodeApiError(node, error as never).message).toMatch(
			/^Could not reach the Token URL/,
		);
	});
});

describe('where the token may go (authenticate, for every request)', () => {
	const authenticate = credential.authenticate as (
		c: object,
		r: IHttpRequestOptions,
	) => Promise<IHttpRequestOptions>;
	const bank = { baseUrl: 'https://api.bank.example/v1', authUrl: 'https://auth.bank.example' };
	const bound = (overrides: ICredentialDataDecryptedObject = {}) =>
		withCachedToken(
			scriptedCredentials(bank, { environment: 'production', ...overrides }),
			'tok_cached',
		);
	const authorization = (options: IHttpRequestOptions) =>
		(options.headers as Record<string, string> | undefined)?.Authorization;

	it('turns off redirects and n8n re-adding credentials on another origin', async () => {
		const signed = await authenticate(bound(), { url: 'https://api.bank.example/v1/accounts' });
		expect(signed).toMatchObject({
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
		});
		expect(authorization(signed)).toBe('Bearer tok_cached');
	});

	it("accepts the credential test's request (baseURL and a path, joined as n8n's client joins them)", async () => {
		const signed = await authenticate(bound(), {
			baseURL: 'https://api.bank.example/v1',
			url: '/accounts',
		});
		expect(authorization(signed)).toBe('Bearer tok_cached');
	});

	it.each([
		['Base URL', { baseUrl: 'https://api.elsewhere.example/v1' }],
		['Token URL', { tokenUrl: 'https://auth.elsewhere.example' }],
		['audience', { audience: 'https://other-audience.example' }],
		['client ID', { clientId: 'another-client' }],
		['environment', { environment: 'sandbox' }],
	])('sends no token issued before the %s changed', async (_, change) => {
		const credentials = Object.assign(bound(), change);
		const url = `${String(credentials.baseUrl)}/accounts`;
		expect(authorization(await authenticate(credentials, { url }))).toBeUndefined();
	});

	it('sends no token without a binding (a token stored by an earlier version)', async () => {
		const credentials = { ...bound(), tokenBinding: '' };
		expect(
			authorization(
				await authenticate(credentials, { url: 'https://api.bank.example/v1/accounts' }),
			),
		).toBeUndefined();
	});

	it.each([
		['another host', 'https://api.elsewhere.example/v1/accounts'],
		['another port', 'https://api.bank.example:8443/v1/accounts'],
		['plain http to the same host', 'http://api.bank.example/v1/accounts'],
		['outside the Base URL path', 'https://api.bank.example/admin'],
		['a path that climbs out of it', 'https://api.bank.example/v1/../admin'],
	])('refuses a request to %s', async (_, url) => {
		await expect(authenticate(bound(), { url })).rejects.toThrow(
			'The request does not go to the Base URL of the credential',
		);
	});

	it('refuses any request of a production credential whose Base URL is plain http', async () => {
		const credentials = bound({ baseUrl: 'http://api.bank.example/v1' });
		await expect(
			authenticate(credentials, { url: 'http://api.bank.example/v1/accounts' }),
		).rejects.toThrow('The Base URL of a production credential must start with https://');
	});

	it('binds the token without any field in clear', () => {
		const binding = String(bound({ clientId: 'client-canary-id' }).tokenBinding);
		expect(binding).toMatch(/^v1:[0-9a-f]{64}$/);
		expect(binding).not.toMatch(/bank\.example|client-canary/);
	});
});

describe('what n8n keeps of the credential type (HTTP Request, Custom API Call)', () => {
	// n8n-core's directory loader gives the loaded credential this toJSON, and n8n's
	// load-nodes-and-credentials spreads it ({ ...credential }) into the types it serves
	// (/types/credentials.json); HTTP Request lists credential types whose `authenticate` survives that
	// ('has:authenticate'), and n8n adds "Custom API Call" to nodes whose credential has one.
	function toJSON(this: Record<string, unknown>) {
		return {
			...this,
			authenticate: typeof this.authenticate === 'function' ? {} : this.authenticate,
		};
	}
	const served = () => {
		const loaded = Object.assign(new CustomerBankingApi(), { toJSON });
		return JSON.parse(JSON.stringify({ ...loaded })) as Record<string, unknown>;
	};

	it('keeps authenticate in the served type, so HTTP Request offers the credential', () => {
		expect(Object.hasOwn(new CustomerBankingApi(), 'authenticate')).toBe(true);
		expect(served().authenticate).toEqual({});
	});
});

describe("HTTP Request's requests (n8n's older request options: uri, followRedirect)", () => {
	const authenticate = credential.authenticate as unknown as (
		c: object,
		r: object,
	) => Promise<Record<string, unknown>>;
	const bound = () =>
		withCachedToken(
			scriptedCredentials(
				{ baseUrl: 'https://api.bank.example/v1', authUrl: 'https://auth.bank.example' },
				{ environment: 'production' },
			),
			'tok_cached',
		);

	it('signs a request to the Base URL and turns off its redirects', async () => {
		const signed = await authenticate(bound(), {
			method: 'GET',
			uri: 'https://api.bank.example/v1/accounts',
			followRedirect: true,
			followAllRedirects: true,
		});
		expect(signed).toMatchObject({
			followRedirect: false,
			followAllRedirects: false,
			disableFollowRedirect: true,
		});
		expect((signed.headers as Record<string, string>).Authorization).toBe('Bearer tok_cached');
	});

	it.each([
		['another host', 'https://api.elsewhere.example/v1/accounts'],
		['outside the Base URL path', 'https://api.bank.example/admin'],
	])('refuses a request to %s', async (_, uri) => {
		await expect(authenticate(bound(), { method: 'GET', uri })).rejects.toThrow(
			'The request does not go to the Base URL of the credential',
		);
	});

	it('judges the address n8n sends to (url before uri)', async () => {
		await expect(
			authenticate(bound(), {
				url: 'https://api.elsewhere.example/v1/accounts',
				uri: 'https://api.bank.example/v1/accounts',
			}),
		).rejects.toThrow('The request does not go to the Base URL of the credential');
	});
});

describe('a redirect of the token request', () => {
	let api: ScriptedApi;
	let other: OtherHost;
	beforeEach(async () => {
		api = await startScriptedApi();
		other = await startOtherHost();
	});
	afterEach(async () => {
		await api.close();
		await other.close();
	});

	it.each([301, 302, 303, 307, 308])(
		'%i to another host: fails naming the status and host, the secret stays here',
		async (status) => {
			api.setToken(() => ({
				status,
				headers: { location: `${other.origin}/steal?client_secret=x#frag` },
			}));
			const error = await exchange(scriptedCredentials(api)).then(
				() => undefined,
				(thrown: unknown) => thrown as Error & { description?: string },
			);
			expect(other.arrived).toHaveLength(0);
			expect(error?.message).toBe(
				`The token service answered with a redirect (HTTP ${status}) to ${other.origin}, which is not followed`,
			);
			expect(error?.description).toMatch(/Token URL/);
			expect(api.tokenRequests()).toHaveLength(1);
		},
	);

	it('a relative redirect names the token service itself', async () => {
		api.setToken(() => ({ status: 302, headers: { location: '/elsewhere' } }));
		const error = await exchangeError(scriptedCredentials(api));
		expect(error.message).toBe(
			`The token service answered with a redirect (HTTP 302) to ${new URL(api.authUrl).origin}, which is not followed`,
		);
		expect(api.served).toHaveLength(1);
	});
});

describe('client authentication (RFC 6749 §2.3.1)', () => {
	it('Basic is base64 of the form-urlencoded ID and secret joined by a colon', () => {
		expect(Buffer.from(basicCredentialsOf('my client', 'p:ss/wörd+='), 'base64').toString()).toBe(
			'my+client:p%3Ass%2Fw%C3%B6rd%2B%3D',
		);
	});

	it('is the body unless the header is chosen (the API documentation shows the body)', () => {
		expect(clientAuthenticationOf({})).toBe('body');
		expect(clientAuthenticationOf({ clientAuthentication: 'body' })).toBe('body');
		expect(clientAuthenticationOf({ clientAuthentication: 'header' })).toBe('header');
		const field = credential.properties.find((p) => p.name === 'clientAuthentication');
		expect(field?.default).toBe('body');
	});
});

import type { ICredentialDataDecryptedObject, INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { CustomerBankingApi } from '../../credentials/CustomerBankingApi.credentials';
import { n8nHttpRequest, type RecordedRequest } from '../helpers/n8nContext';
import { scriptedCredentials, startScriptedApi, type ScriptedApi } from '../helpers/scriptedApi';

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
async function exchange(credentials: ICredentialDataDecryptedObject, requests: RecordedRequest[] = []) {
	const helpers = { httpRequest: async (options: never) => await n8nHttpRequest(options, requests) };
	return await credential.preAuthentication.call({ helpers } as never, credentials);
}

async function exchangeError(credentials: ICredentialDataDecryptedObject): Promise<Error & { description?: string }> {
	const error = await exchange(credentials).then(
		() => undefined,
		(thrown: unknown) => thrown as Error & { description?: string },
	);
	if (!error) throw new Error('expected the token exchange to fail');
	return error;
}

describe('credential description', () => {
	const byName = Object.fromEntries(credential.properties.map((property) => [property.name, property]));

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
			'webhookSigningSecret',
			'webhookSigningSecretPrevious',
			'accessToken',
		]);
	});

	it('offers sandbox and production, with a notice shown for each', () => {
		expect(byName.environment.options?.map((option) => (option as { value: string }).value)).toEqual([
			'sandbox',
			'production',
		]);
		expect(byName.sandboxNotice.displayOptions?.show?.environment).toEqual(['sandbox']);
		expect(byName.productionNotice.displayOptions?.show?.environment).toEqual(['production']);
		expect(byName.productionNotice.displayName).toMatch(/real money/);
	});

	it('marks every secret as a password and the token as hidden and expirable', () => {
		for (const name of ['clientSecret', 'webhookSigningSecret', 'webhookSigningSecretPrevious', 'accessToken']) {
			expect(byName[name].typeOptions?.password).toBe(true);
		}
		expect(byName.accessToken.type).toBe('hidden');
		expect(byName.accessToken.typeOptions?.expirable).toBe(true);
		expect(byName.webhookSigningSecret.required).toBeFalsy();
		expect(byName.webhookSigningSecretPrevious.required).toBeFalsy();
	});

	it('sends a Bearer token and tests with GET /accounts?limit=1', async () => {
		// a function, so n8n resolves no expression per request
		expect(typeof credential.authenticate).toBe('function');
		const authenticate = credential.authenticate as (c: object, r: object) => Promise<{ headers: Record<string, string> }>;
		const signed = await authenticate({ accessToken: 'tok_123' }, { url: '/x', headers: { Accept: 'application/json' } });
		expect(signed.headers).toEqual({ Accept: 'application/json', Authorization: 'Bearer tok_123' });
		expect(credential.test.request).toMatchObject({ url: '/accounts', method: 'GET', qs: { limit: 1 } });
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
		expect(result).toEqual({ accessToken: 'token-1' });
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
		expect(httpsToken.message).toBe('The Base URL of a production credential must start with https://');
	});

	it('names the client ID / secret when the service answers 401 invalid_client', async () => {
		api.setToken(() => ({
			status: 401,
			body: { statusCode: 401, error: 'invalid_client', message: 'Client authentication failed' },
		}));
		const error = await exchangeError(scriptedCredentials(api));
		expect(error.message).toBe('The token service rejected the Client ID or Client Secret');
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
		const error = await exchangeError(scriptedCredentials(api, { tokenUrl: api.authUrl.replace(/\/auth$/, "/elsewhere") }));
		expect(error.message).toMatch(/^The Token URL does not lead to a token service \(HTTP 404/);
	});

	it('reports a rate limited or failing token service with its status', async () => {
		api.setToken(() => ({ status: 429, headers: { 'retry-after': '7' }, body: { statusCode: 429, message: 'slow down' } }));
		const limited = await exchangeError(scriptedCredentials(api));
		expect(limited.message).toBe('The token service is rate limiting these credentials');
		expect(limited.description).toContain('Wait 7 seconds');

		api.setToken(() => ({ status: 503, body: { statusCode: 503, message: 'maintenance' } }));
		expect((await exchangeError(scriptedCredentials(api))).message).toBe('The token service failed (HTTP 503)');
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
		['401', { status: 401, body: { error: 'invalid_client', message: 'no' } }, /Client ID or Client Secret/],
		['audience', { status: 400, body: { error: 'invalid_audience', message: 'no' } }, /Audience/],
	])('keeps its message when n8n wraps it in NodeApiError (%s)', async (_, reply, expected) => {
		api.setToken(() => reply);
		const wrapped = new NodeApiError(node, (await exchangeError(scriptedCredentials(api))) as never);
		expect(wrapped.message).toMatch(expected);
		expect(wrapped.httpCode).toBeNull();
	});

	it('keeps the unreachable message when n8n wraps it in NodeApiError', async () => {
		const error = await exchangeError(scriptedCredentials(api, { tokenUrl: 'http://127.0.0.1:1/auth' }));
		expect(new NodeApiError(node, error as never).message).toMatch(/^Could not reach the Token URL/);
	});
});

/**
 * Secrets never leave for another host: no request of the package follows a redirect, the environment's
 * transport rules hold for every request, and a cached token is only sent to the API it was issued for.
 * Through the realistic n8n context (n8n-core's httpRequestWithAuthentication and its HTTP client, whose
 * default follows redirects and re-adds Authorization on another origin), against a scripted API and a
 * loopback "other host" that records everything reaching it.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { apiFailureOf, request } from '../../../../nodes/shared/transport';
import { ENDPOINTS } from '../../../../nodes/shared/transport/endpoints';
import { endpointCall } from '../../../helpers/endpointCall';
import { createExecuteContext } from '../../../helpers/n8nContext';
import { startOtherHost, type OtherHost } from '../../../helpers/otherHost';
import {
	scriptedCredentials,
	startScriptedApi,
	type ScriptedApi,
} from '../../../helpers/scriptedApi';

/** What the payee endpoints declare in the table, for calls of the transport with a path of their own. */
const PAYEE_ENDPOINT = {
	tooManyRequests: ENDPOINTS.payees.tooManyRequests,
	pageLimit: ENDPOINTS.payees.pageLimit,
};

jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));
const waits = sleep as jest.MockedFunction<typeof sleep>;

const CLIENT_SECRET = 'CANARY-client-secret-5f1c';

let api: ScriptedApi;
let other: OtherHost;
beforeEach(async () => {
	api = await startScriptedApi(() => ({ status: 200, body: { ok: true } }));
	other = await startOtherHost();
	waits.mockClear();
});
afterEach(async () => {
	await api.close();
	await other.close();
});

/** The client secret and the tokens the scripted token service issues. */
const canaries = () => [CLIENT_SECRET, 'token-1', 'token-2', 'token-3'];

async function failure(promise: Promise<unknown>): Promise<Error> {
	const error = await promise.then(
		() => undefined,
		(thrown: unknown) => thrown,
	);
	if (!(error instanceof Error)) {
		throw new Error(
			`expected the request to fail; ${other.arrived.length} request(s) reached the other host, carrying a secret ${other.occurrences(canaries())} time(s)`,
		);
	}
	return error;
}

const PAYMENT = { xaid: 'acc_1', xpid: 'payee_1', amount: 12.5, reference: 'INV-1' };
const PAYMENT_EXTRAS = { body: PAYMENT, idempotencyKey: '5b0b8f0e-3c52-4e6c-9a32-1f2e5a8d7c10' };

describe.each([301, 302, 303, 307, 308])('an API answer %i pointing at another host', (status) => {
	const redirectTo = (path: string) => () => ({
		status,
		headers: { location: `${other.origin}${path}?token=leak&sig=abc` },
	});

	it('a read: fails naming the status and the host, not retried, nothing reaches the other host', async () => {
		api.setApi(redirectTo('/accounts'));
		const { context } = createExecuteContext({
			parameters: {},
			credentials: scriptedCredentials(api),
		});
		const error = await failure(request.call(context, ENDPOINTS.accounts.at({})));

		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(
			`The API answered with a redirect (HTTP ${status}) to ${other.origin}, which is not followed`,
		);
		expect(error.message).not.toMatch(/leak|sig=/);
		expect(apiFailureOf(error)).toMatchObject({
			kind: 'redirected',
			status,
			refused: false,
			attempts: 1,
		});
		expect(api.apiRequests()).toHaveLength(1);
		expect(waits).not.toHaveBeenCalled();
		expect(other.arrived).toHaveLength(0);
		expect(other.occurrences(canaries())).toBe(0);
	});

	it('a payment: outcome unknown (the body left), not retried, nothing reaches the other host', async () => {
		api.setApi(redirectTo('/payments'));
		const { context } = createExecuteContext({
			parameters: {},
			credentials: scriptedCredentials(api),
		});
		const error = await failure(request.call(context, ENDPOINTS.payments.at({}), PAYMENT_EXTRAS));

		expect(apiFailureOf(error)).toMatchObject({
			kind: 'redirected',
			status,
			outcomeUnknown: true,
			refused: false,
			attempts: 1,
		});
		expect((error as NodeApiError).description).toMatch(/may have been processed/);
		expect(api.apiRequests()).toHaveLength(1);
		expect(other.arrived).toHaveLength(0);
	});

	it('a payee write: outcome unknown, nothing reaches the other host', async () => {
		api.setApi(redirectTo('/account/acc_1/payee'));
		const { context } = createExecuteContext({
			parameters: {},
			credentials: scriptedCredentials(api),
		});
		const error = await failure(
			request.call(
				context,
				endpointCall({ ...PAYEE_ENDPOINT, method: 'POST', path: '/account/acc_1/payee' }),
				{ body: { name: 'A' } },
			),
		);
		expect(apiFailureOf(error)).toMatchObject({
			kind: 'redirected',
			status,
			outcomeUnknown: true,
			refused: false,
		});
		expect(other.arrived).toHaveLength(0);
	});
});

describe('a redirect of the token request', () => {
	it.each([302, 307, 308])(
		'%i: the client secret is not re-posted elsewhere, the request fails naming the host',
		async (status) => {
			api.setToken(() => ({
				status,
				headers: { location: `${other.origin}/oauth/token?client_secret=x` },
			}));
			const { context } = createExecuteContext({
				parameters: {},
				credentials: scriptedCredentials(api),
			});
			const error = await failure(request.call(context, ENDPOINTS.accounts.at({})));

			expect(error.message).toBe(
				`The token service answered with a redirect (HTTP ${status}) to ${other.origin}, which is not followed`,
			);
			expect(api.apiRequests()).toHaveLength(0);
			expect(other.arrived).toHaveLength(0);
			expect(other.occurrences([CLIENT_SECRET])).toBe(0);
		},
	);
});

describe('a cached token is only sent to the API it was issued for', () => {
	async function cachedToken(overrides: ICredentialDataDecryptedObject = {}) {
		const credentials = scriptedCredentials(api, overrides);
		const { context } = createExecuteContext({ parameters: {}, credentials });
		await request.call(context, ENDPOINTS.accounts.at({}));
		expect(credentials.accessToken).toBe('token-1');
		return credentials;
	}

	it('Base URL changed: the cached token does not reach the new host', async () => {
		const credentials = await cachedToken();
		credentials.baseUrl = `${other.origin}/api`;
		const { context } = createExecuteContext({ parameters: {}, credentials });
		await request.call(context, ENDPOINTS.accounts.at({}));

		expect(other.arrived).toHaveLength(1);
		expect(other.occurrences(['token-1', CLIENT_SECRET])).toBe(0);
		expect(api.tokenRequests()).toHaveLength(2);
		expect(other.arrived[0].headers.authorization).toBe('Bearer token-2');
	});

	it.each([
		['audience', { audience: 'https://another-api.example' }],
		['client ID', { clientId: 'another-client' }],
	])('%s changed: the cached token is not reused, a new one is fetched', async (_, change) => {
		const credentials = await cachedToken();
		Object.assign(credentials, change);
		const { context } = createExecuteContext({ parameters: {}, credentials });
		await request.call(context, ENDPOINTS.accounts.at({}));
		expect(api.tokenRequests()).toHaveLength(2);
		expect(api.apiRequests().map((request) => request.headers.authorization)).toEqual([
			'Bearer token-1',
			'Bearer token-2',
		]);
	});

	it('Token URL changed: the new token comes from the new Token URL', async () => {
		const credentials = await cachedToken();
		const otherTokenService = await startScriptedApi();
		try {
			otherTokenService.setToken(() => ({
				status: 200,
				body: { access_token: 'token-from-new-service' },
			}));
			credentials.tokenUrl = otherTokenService.authUrl;
			const { context } = createExecuteContext({ parameters: {}, credentials });
			await request.call(context, ENDPOINTS.accounts.at({}));
			expect(otherTokenService.tokenRequests()).toHaveLength(1);
			expect(api.tokenRequests()).toHaveLength(1);
			expect(api.apiRequests().at(-1)?.headers.authorization).toBe('Bearer token-from-new-service');
		} finally {
			await otherTokenService.close();
		}
	});

	it('the same credential unchanged keeps its token', async () => {
		const credentials = await cachedToken();
		const { context } = createExecuteContext({ parameters: {}, credentials });
		await request.call(context, ENDPOINTS.accounts.at({}));
		expect(api.tokenRequests()).toHaveLength(1);
		expect(String(credentials.tokenBinding)).not.toMatch(/127\.0\.0\.1|client-canary-id|CANARY/);
	});
});

describe('production: https for every request, not only the token fetch', () => {
	const production = (overrides: ICredentialDataDecryptedObject = {}) =>
		scriptedCredentials(api, {
			environment: 'production',
			baseUrl: 'https://api.bank.example',
			tokenUrl: 'https://auth.bank.example',
			accessToken: 'CANARY-cached-production-token',
			...overrides,
		});

	it('a cached token is not sent when the Base URL was changed to plain http', async () => {
		const credentials = production({ baseUrl: `${other.origin}/api` });
		const { context } = createExecuteContext({ parameters: {}, credentials });
		const error = await failure(request.call(context, ENDPOINTS.accounts.at({})));

		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('The Base URL of a production credential must start with https://');
		expect(other.arrived).toHaveLength(0);
		expect(api.served).toHaveLength(0);
	});

	it('nor a payment', async () => {
		const credentials = production({ baseUrl: `${other.origin}/api` });
		const { context } = createExecuteContext({ parameters: {}, credentials });
		const error = await failure(request.call(context, ENDPOINTS.payments.at({}), PAYMENT_EXTRAS));
		expect(error.message).toBe('The Base URL of a production credential must start with https://');
		expect(other.arrived).toHaveLength(0);
	});
});

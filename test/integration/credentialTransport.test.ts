/**
 * The credential and the transport against the sandbox bank, through the realistic n8n context:
 * token exchange outcomes, token reuse, 401 → one refresh + one resend, retries under injected faults,
 * payments resent with the same key and body, paging request counts.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import { apiFailureOf, request, requestAll } from '../../nodes/shared/transport';
import { ENDPOINTS } from '../../nodes/shared/transport/endpoints';
import { endpointCall } from '../helpers/endpointCall';
import {
	createExecuteContext,
	createLoadOptionsContext,
	testCredential,
} from '../helpers/n8nContext';
import { startOtherHost, type OtherHost } from '../helpers/otherHost';
import { credentialsFor } from '../helpers/sandboxCredentials';
import { byId, expectStateUnknown, runPayments } from './payments/paymentNode';
import { startSandbox, type Sandbox } from '../sandbox';

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
const isTransientFailure = (error: unknown) => apiFailureOf(error)?.outcomeUnknown === true;

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: 7 });
});
afterAll(async () => {
	await sandbox.close();
});
beforeEach(() => {
	sandbox.control.reset();
	sandbox.control.clearFaults();
	sandbox.control.clearRequests();
	waits.mockClear();
});

const apiLog = () => sandbox.control.requests().filter((entry) => entry.area === 'api');
const authLog = () => sandbox.control.requests().filter((entry) => entry.area === 'auth');

async function rejection(promise: Promise<unknown>): Promise<NodeApiError> {
	const error = await promise.then(
		() => undefined,
		(thrown: unknown) => thrown,
	);
	expect(error).toBeInstanceOf(NodeApiError);
	return error as NodeApiError;
}

describe('credential test against the sandbox', () => {
	it('succeeds with the seeded client', async () => {
		const result = await testCredential(credentialsFor(sandbox));
		expect(result).toMatchObject({ status: 'OK', message: 'Connection successful!' });
		expect(authLog()).toHaveLength(1);
		expect(apiLog().map((entry) => [entry.method, entry.path, entry.query.limit])).toEqual([
			['GET', '/accounts', '1'],
		]);
	});

	it('names the client ID or secret for a wrong secret', async () => {
		const result = await testCredential({
			...credentialsFor(sandbox),
			clientSecret: 'not-the-secret',
		});
		expect(result).toMatchObject({
			status: 'Error',
			message:
				'The token service rejected the Client ID or Client Secret (Client Authentication: Send in the Body)',
		});
		expect(apiLog()).toHaveLength(0);
	});

	it('names the audience for a wrong audience', async () => {
		const result = await testCredential({
			...credentialsFor(sandbox),
			audience: 'https://wrong.example',
		});
		expect(result).toMatchObject({
			status: 'Error',
			message: 'The token service rejected the Audience',
		});
	});

	it('names the Token URL when nothing answers there', async () => {
		const result = await testCredential({
			...credentialsFor(sandbox),
			tokenUrl: 'http://127.0.0.1:1/auth',
		});
		expect(result.status).toBe('Error');
		expect(result.message).toBe(
			'Could not reach the Token URL (http://127.0.0.1:1/auth/oauth/token): the connection was refused',
		);
	});

	it('accepts the full token endpoint as Token URL', async () => {
		const result = await testCredential({ ...credentialsFor(sandbox), tokenUrl: sandbox.tokenUrl });
		expect(result.status).toBe('OK');
	});
});

describe('token lifecycle through the transport', () => {
	it('one token serves many requests, items and contexts sharing the credential', async () => {
		const credentials = credentialsFor(sandbox);
		const execute = createExecuteContext({ parameters: {}, credentials });
		const loadOptions = createLoadOptionsContext({ credentials });
		await request.call(execute.context, ENDPOINTS.accounts.at({}));
		await request.call(
			execute.context,
			endpointCall({ method: 'GET', path: `/account/${sandbox.seeded.accounts.gbp}` }),
		);
		await request.call(loadOptions.context, ENDPOINTS.accounts.at({}));
		expect(authLog()).toHaveLength(1);
		expect(apiLog()).toHaveLength(3);
	});

	it('a revoked token: exactly one new token and one resend, then success', async () => {
		const credentials = credentialsFor(sandbox);
		const { context } = createExecuteContext({ parameters: {}, credentials });
		await request.call(context, ENDPOINTS.accounts.at({}));
		const firstToken = credentials.accessToken;
		sandbox.control.revokeTokens();
		sandbox.control.clearRequests();

		const balance = await request.call(
			context,
			endpointCall({ method: 'GET', path: `/account/${sandbox.seeded.accounts.gbp}/balance` }),
		);
		expect(balance).toMatchObject({ currency: 'GBP' });
		expect(authLog()).toHaveLength(1);
		expect(apiLog().map((entry) => entry.status)).toEqual([401, 200]);
		expect(credentials.accessToken).not.toBe(firstToken);
		expect(waits).not.toHaveBeenCalled();
	});

	it("another workspace's account: 401 survives the refresh, the user learns the account is not theirs", async () => {
		const { context } = createExecuteContext({
			parameters: {},
			credentials: credentialsFor(sandbox, 'otherWorkspace'),
		});
		const error = await rejection(
			request.call(
				context,
				endpointCall({ method: 'GET', path: `/account/${sandbox.seeded.accounts.gbp}/balance` }),
			),
		);
		if (sandbox.variants.unknownAccount === 404) {
			// a bank that answers 404 (spec §Errors lists the case under 404 too): final, no refresh, no resend
			expect(error.httpCode).toBe('404');
			expect(error.message).toBe(
				`Not found: account ${sandbox.seeded.accounts.gbp} does not exist or does not belong to the caller`,
			);
			expect(error.description).toContain('does not belong to these credentials');
			expect(apiLog().map((entry) => entry.status)).toEqual([404]);
			expect(authLog()).toHaveLength(1);
			return;
		}
		expect(error.message).toBe(
			'Authorization failed: the account does not exist or does not belong to these credentials, or the token was refused',
		);
		expect(apiLog().map((entry) => entry.status)).toEqual([401, 401]);
		expect(authLog()).toHaveLength(2); // the first token, then n8n's single refresh
	});

	it('a token that expires mid-run (expireToken fault) is refreshed once', async () => {
		const { context } = createExecuteContext({
			parameters: {},
			credentials: credentialsFor(sandbox),
		});
		sandbox.control.setFaults([{ kind: 'expireToken', path: '/accounts', times: 1 }]);
		await request.call(context, ENDPOINTS.accounts.at({}));
		expect(apiLog().map((entry) => entry.status)).toEqual([401, 200]);
		expect(authLog()).toHaveLength(2);
	});
});

describe('errors and retries against the sandbox', () => {
	it('retries a GET through two 503s', async () => {
		sandbox.control.setFaults([
			{ kind: 'status', status: 503, method: 'GET', path: '/accounts', times: 2 },
		]);
		const { context } = createExecuteContext({
			parameters: {},
			credentials: credentialsFor(sandbox),
		});
		await request.call(context, ENDPOINTS.accounts.at({}));
		expect(apiLog().map((entry) => entry.status)).toEqual([503, 503, 200]);
		expect(waits.mock.calls.map(([ms]) => ms)).toEqual([1000, 2000]);
	});

	it('honours the rate limit Retry-After', async () => {
		sandbox.control.setFaults([
			{ kind: 'status', status: 429, retryAfterSeconds: 2, path: '/transactions', times: 1 },
		]);
		const { context } = createExecuteContext({
			parameters: {},
			credentials: credentialsFor(sandbox),
		});
		await request.call(context, ENDPOINTS.transactions.at({}));
		expect(waits.mock.calls.map(([ms]) => ms)).toEqual([2000]);
	});

	it('payee endpoints of a suspended account answer 429: "not active", never retried', async () => {
		const { context } = createExecuteContext({
			parameters: {},
			credentials: credentialsFor(sandbox),
		});
		const error = await rejection(
			request.call(
				context,
				endpointCall({
					method: 'GET',
					path: `/account/${sandbox.seeded.accounts.suspended}/payees`,
					...PAYEE_ENDPOINT,
				}),
			),
		);
		expect(error.message).toBe('The account is not active');
		expect(apiLog()).toHaveLength(1);
		expect(waits).not.toHaveBeenCalled();
	});

	it('a 400 names the field from the sandbox message', async () => {
		const { context } = createExecuteContext({
			parameters: {},
			credentials: credentialsFor(sandbox),
		});
		const error = await rejection(
			request.call(context, ENDPOINTS.accounts.at({}), { qs: { limit: 900 } }),
		);
		expect(error.message).toBe('Invalid request: limit must be at most 500');
		expect(error.context.field).toBe('limit');
		expect(apiLog()).toHaveLength(1);
	});

	it('a payment whose answer is lost is resent with the same key and body and is made once', async () => {
		sandbox.control.setFaults([
			{ kind: 'commitThenDrop', method: 'POST', path: '/payments', times: 1 },
		]);
		const { context } = createExecuteContext({
			parameters: {},
			credentials: credentialsFor(sandbox),
		});
		const key = 'a3b7f1d2-4c5e-4f60-8a71-92b3c4d5e6f7';
		const body = {
			xaid: sandbox.seeded.accounts.gbp,
			xpid: sandbox.seeded.payees.gbp,
			amount: 12.34,
			reference: 'INTEGRATION01',
		};
		const result = await request.call(context, ENDPOINTS.payments.at({}), {
			body,
			idempotencyKey: key,
		});
		expect(result).toMatchObject({ rejectedCount: 0 });
		const posts = apiLog().filter((entry) => entry.method === 'POST');
		expect(posts).toHaveLength(2);
		expect(posts.map((entry) => entry.headers['x-idempotent-key'])).toEqual([key, key]);
		expect(posts.map((entry) => entry.body)).toEqual([body, body]);
		const made = sandbox.control
			.ledger()
			.transactions.filter(
				(transaction) => (transaction as { reference?: string }).reference === 'INTEGRATION01',
			);
		expect(made).toHaveLength(1);
	});

	it('a payee create whose answer is lost is not resent, and the failure says the outcome is unknown', async () => {
		sandbox.control.setFaults([
			{ kind: 'commitThenDrop', method: 'POST', path: '/account/{xaid}/payees' },
		]);
		const { context } = createExecuteContext({
			parameters: {},
			credentials: credentialsFor(sandbox),
		});
		const error = await rejection(
			request.call(
				context,
				endpointCall({
					method: 'POST',
					path: `/account/${sandbox.seeded.accounts.gbp}/payees`,
					...PAYEE_ENDPOINT,
				}),
				{
					body: {
						name: 'Jane Doe',
						reference: 'INVOICE1',
						purpose: 'Services',
						purposeCategory: 'SERVICES',
						addressLine1: '1 High Street',
						townCity: 'London',
						postCode: 'SW1A1AA',
						countryCode: 'GB',
						sortCode: '040004',
						accountNumber: '12345678',
					},
				},
			),
		);
		expect(apiLog()).toHaveLength(1);
		expect(isTransientFailure(error)).toBe(true);
		expect(waits).not.toHaveBeenCalled();
	});
});

describe('paging against the sandbox', () => {
	it('Return All reads every transaction of an account in pages of 500', async () => {
		const xaid = sandbox.seeded.accounts.eur;
		await sandbox.control.seedTransactions(xaid, 1234);
		const { context } = createExecuteContext({
			parameters: {},
			credentials: credentialsFor(sandbox),
		});
		sandbox.control.clearRequests();
		const items = await requestAll.call(
			context,
			endpointCall({ path: `/account/${xaid}/transactions` }),
			{ returnAll: true, ifShrinking: 'fail' },
		);
		const expectedRequests = Math.max(1, Math.ceil(items.length / 500));
		expect(items.length).toBeGreaterThanOrEqual(1234);
		expect(new Set(items.map((item) => item.xtid)).size).toBe(items.length);
		expect(apiLog().map((entry) => [entry.query.page, entry.query.limit])).toEqual(
			Array.from({ length: expectedRequests }, (_, page) => [String(page), '500']),
		);
	});

	it('a limit requests no more than needed', async () => {
		const xaid = sandbox.seeded.accounts.usd;
		await sandbox.control.seedTransactions(xaid, 700);
		const { context } = createExecuteContext({
			parameters: {},
			credentials: credentialsFor(sandbox),
		});
		sandbox.control.clearRequests();
		const items = await requestAll.call(
			context,
			endpointCall({ path: `/account/${xaid}/transactions` }),
			{ returnAll: false, limit: 600, ifShrinking: 'fail' },
		);
		expect(items).toHaveLength(600);
		expect(apiLog().map((entry) => [entry.query.page, entry.query.limit])).toEqual([
			['0', '300'],
			['1', '300'],
		]);
	});

	it('payees are read in pages of 100', async () => {
		const { context } = createExecuteContext({
			parameters: {},
			credentials: credentialsFor(sandbox),
		});
		sandbox.control.clearRequests();
		await requestAll.call(context, endpointCall({ path: '/payees', ...PAYEE_ENDPOINT }), {
			returnAll: true,
			ifShrinking: 'fail',
		});
		expect(apiLog()[0].query.limit).toBe('100');
	});
});

describe('secrets never follow a redirect to another host (sandbox redirect fault)', () => {
	let other: OtherHost;
	beforeEach(async () => {
		other = await startOtherHost();
	});
	afterEach(async () => {
		await other.close();
	});

	/** The client secret and every token the sandbox issued to it, once the run is over. */
	const secretsOf = (credentials: ICredentialDataDecryptedObject) =>
		[String(credentials.clientSecret), String(credentials.accessToken)].filter(
			(secret) => secret !== '',
		);

	it.each([301, 302, 303, 307, 308])(
		'the token request answered %i: fails naming the host, the secret stays here',
		async (status) => {
			sandbox.control.setFaults([
				{ path: '/oauth/token', kind: 'redirect', status, location: `${other.origin}/oauth/token` },
			]);
			const credentials = credentialsFor(sandbox);
			const { context } = createExecuteContext({ parameters: {}, credentials });
			const error = await rejection(request.call(context, ENDPOINTS.accounts.at({})));
			expect(error.message).toBe(
				`The token service answered with a redirect (HTTP ${status}) to ${other.origin}, which is not followed`,
			);
			expect(apiLog()).toHaveLength(0);
			expect(other.arrived).toHaveLength(0);
			expect(other.occurrences(secretsOf(credentials))).toBe(0);
		},
	);

	it.each([301, 302, 303, 307, 308])(
		'a read answered %i: fails naming the host, not retried, no token elsewhere',
		async (status) => {
			sandbox.control.setFaults([
				{
					path: '/accounts',
					kind: 'redirect',
					status,
					location: `${other.origin}/accounts?page=0`,
				},
			]);
			const credentials = credentialsFor(sandbox);
			const { context } = createExecuteContext({ parameters: {}, credentials });
			const error = await rejection(request.call(context, ENDPOINTS.accounts.at({})));
			expect(error.message).toBe(
				`The API answered with a redirect (HTTP ${status}) to ${other.origin}, which is not followed`,
			);
			expect(apiFailureOf(error)).toMatchObject({
				kind: 'redirected',
				status,
				refused: false,
				attempts: 1,
			});
			expect(apiLog()).toHaveLength(1);
			expect(credentials.accessToken).toMatch(/^sbx_/);
			expect(other.arrived).toHaveLength(0);
			expect(other.occurrences(secretsOf(credentials))).toBe(0);
		},
	);

	it.each([302, 307, 308])(
		'a payment answered %i: looked up, reported as state unknown, never "not sent", nothing elsewhere',
		async (status) => {
			sandbox.control.setFaults([
				{
					method: 'POST',
					path: '/payments',
					kind: 'redirect',
					status,
					location: `${other.origin}/payments`,
					times: 1,
				},
			]);
			const credentials = credentialsFor(sandbox);
			const run = await runPayments(sandbox, credentials, {
				parameters: {
					operation: 'submit',
					account: byId(sandbox.seeded.accounts.gbp),
					payee: byId(sandbox.seeded.payees.gbp),
					amount: 3.5,
					reference: `REDIRECT-${status}`,
				},
			});
			expectStateUnknown(run.error, {
				reference: `REDIRECT-${status}`,
				xaid: sandbox.seeded.accounts.gbp,
				candidates: [],
			});
			expect(run.error?.description).toMatch(
				new RegExp(`redirect \\(HTTP ${status}\\) to ${other.origin.replace(/\./g, '\\.')}`),
			);
			// one payment request (not resent), then only the look-up reads
			expect(
				apiLog()
					.filter((entry) => entry.method !== 'GET')
					.map((entry) => [entry.path, entry.status]),
			).toEqual([['/payments', status]]);
			expect(sandbox.control.ledger().paymentRequests).toHaveLength(0);
			expect(other.arrived).toHaveLength(0);
			expect(other.occurrences(secretsOf(credentials))).toBe(0);
		},
	);

	it("n8n's credential test does not follow a redirect either", async () => {
		sandbox.control.setFaults([
			{ path: '/accounts', kind: 'redirect', status: 302, location: `${other.origin}/accounts` },
		]);
		const credentials = credentialsFor(sandbox);
		const result = await testCredential(credentials);
		expect(result.status).toBe('Error');
		expect(apiLog().map((entry) => entry.status)).toEqual([302]);
		expect(other.arrived).toHaveLength(0);
	});

	it('a cached token is not sent to a new Base URL; back on the old one, one new token is fetched and then reused', async () => {
		const credentials = credentialsFor(sandbox);
		await request.call(
			createExecuteContext({ parameters: {}, credentials }).context,
			ENDPOINTS.accounts.at({}),
		);
		const cached = String(credentials.accessToken);
		expect(authLog()).toHaveLength(1);

		credentials.baseUrl = `${other.origin}/api`;
		await request.call(
			createExecuteContext({ parameters: {}, credentials }).context,
			ENDPOINTS.accounts.at({}),
		);
		expect(other.arrived).toHaveLength(1);
		expect(other.occurrences([cached, String(credentials.clientSecret)])).toBe(0);
		expect(authLog()).toHaveLength(2);

		credentials.baseUrl = sandbox.baseUrl;
		sandbox.control.clearRequests();
		const { context } = createExecuteContext({ parameters: {}, credentials });
		await request.call(context, ENDPOINTS.accounts.at({}));
		expect(authLog()).toHaveLength(1);
		sandbox.control.clearRequests();
		await request.call(context, ENDPOINTS.accounts.at({}));
		expect(authLog()).toHaveLength(0);
	});

	it('a production credential whose Base URL turned to plain http sends nothing anywhere', async () => {
		const credentials = {
			...credentialsFor(sandbox),
			environment: 'production',
			baseUrl: `${other.origin}/api`,
			tokenUrl: 'https://auth.bank.example',
			accessToken: 'CANARY-production-token',
		};
		const run = await runPayments(sandbox, credentials, {
			parameters: {
				operation: 'submit',
				account: byId(sandbox.seeded.accounts.gbp),
				payee: byId(sandbox.seeded.payees.gbp),
				amount: 1,
				reference: 'PROD-HTTP',
			},
		});
		expect(run.error?.message).toBe(
			'The Base URL of a production credential must start with https://',
		);
		expect(other.arrived).toHaveLength(0);
		expect(sandbox.control.requests()).toHaveLength(0);
	});
});

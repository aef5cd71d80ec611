/**
 * The credential's token exchange against a token service no one here wrote: @node-oauth/oauth2-server
 * (RFC 6749) behind node:http, once accepting client credentials in the body or as HTTP Basic (what
 * the library does by itself), once accepting Basic only (RFC 6749 §2.3.1: Basic is the one a server
 * must support). Run through n8n-core's own httpRequest and n8n's credential test; answers as the
 * library words them.
 */
import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import OAuth2Server, {
	InvalidRequestError,
	Request as OAuthRequest,
	Response as OAuthResponse,
} from '@node-oauth/oauth2-server';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { CustomerBankingApi } from '../../credentials/CustomerBankingApi.credentials';
import { n8nHttpRequest, testCredential, type RecordedRequest } from '../helpers/n8nContext';

const CLIENT_ID = 'n8n-client';
const CLIENT_SECRET = `cs_${randomBytes(18).toString('hex')}`;
const AUDIENCE = 'https://api.bank.example';

interface TokenService {
	url: string;
	/** What reached the service, per request: how the client authenticated. */
	seen: Array<{ basic: boolean; bodySecret: boolean }>;
	close(): Promise<void>;
}

/** A JWT-shaped access token, as many token services issue. */
function jwtLike(): string {
	const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
	return `${part({ alg: 'RS256', typ: 'JWT' })}.${part({ sub: CLIENT_ID, aud: AUDIENCE })}.${randomBytes(32).toString('base64url')}`;
}

const oauth = new OAuth2Server({
	model: {
		getClient: async (clientId: string, clientSecret: string) =>
			clientId === CLIENT_ID && clientSecret === CLIENT_SECRET
				? { id: clientId, grants: ['client_credentials'] }
				: null,
		getUserFromClient: async () => ({ id: 'service-account' }),
		generateAccessToken: async () => jwtLike(),
		saveToken: async (token: object, client: object, user: object) => ({ ...token, client, user }),
		getAccessToken: async () => null,
	} as never,
	accessTokenLifetime: 3600,
});

async function startTokenService(basicOnly: boolean): Promise<TokenService> {
	const seen: TokenService['seen'] = [];
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const body = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
			seen.push({
				basic: /^basic /i.test(request.headers.authorization ?? ''),
				bodySecret: body.client_secret !== undefined,
			});
			if (basicOnly) {
				delete body.client_id;
				delete body.client_secret;
			}
			const oauthRequest = new OAuthRequest({
				method: request.method ?? 'POST',
				headers: request.headers as Record<string, string>,
				query: {},
				body,
			});
			const oauthResponse = new OAuthResponse({ headers: {} });
			const answer = () =>
				response
					.writeHead(oauthResponse.status ?? 200, {
						...(oauthResponse.headers as Record<string, string>),
						'content-type': 'application/json',
					})
					.end(JSON.stringify(oauthResponse.body));
			if (body.audience !== AUDIENCE) {
				// the library's own error, worded and shaped as its token handler answers any other
				const error = new InvalidRequestError('Invalid parameter: `audience`');
				oauthResponse.body = { error: error.name, error_description: error.message };
				oauthResponse.status = error.code;
				answer();
				return;
			}
			oauth.token(oauthRequest, oauthResponse).then(answer, answer);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		seen,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

const credential = new CustomerBankingApi();

function credentialsFor(
	service: TokenService,
	overrides: ICredentialDataDecryptedObject = {},
): ICredentialDataDecryptedObject {
	return {
		environment: 'sandbox',
		baseUrl: 'http://127.0.0.1:9/api',
		tokenUrl: service.url,
		audience: AUDIENCE,
		clientId: CLIENT_ID,
		clientSecret: CLIENT_SECRET,
		...overrides,
	};
}

async function exchange(credentials: ICredentialDataDecryptedObject) {
	const requests: RecordedRequest[] = [];
	const helpers = {
		httpRequest: async (options: never) => await n8nHttpRequest(options, requests),
	};
	return await credential.preAuthentication.call({ helpers } as never, credentials);
}

async function refusal(credentials: ICredentialDataDecryptedObject) {
	const error = await exchange(credentials).then(
		() => undefined,
		(thrown: unknown) => thrown as Error & { description?: string },
	);
	if (!error) throw new Error('the exchange was expected to fail');
	const shown = `${error.message} ${error.description ?? ''}`;
	expect(shown).not.toContain(CLIENT_SECRET);
	expect(shown).not.toContain(Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64'));
	return error;
}

describe('a token service that accepts the body or HTTP Basic (the library as it comes)', () => {
	let service: TokenService;
	beforeAll(async () => {
		service = await startTokenService(false);
	});
	afterAll(async () => await service.close());

	it.each([['body'], ['header']])(
		'client authentication "%s" gets a JWT access token, sent the chosen way only',
		async (clientAuthentication) => {
			service.seen.length = 0;
			const token = await exchange(credentialsFor(service, { clientAuthentication }));
			expect(token?.accessToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
			expect(service.seen).toEqual([
				{ basic: clientAuthentication === 'header', bodySecret: clientAuthentication === 'body' },
			]);
		},
	);

	it('a credential saved before the choice existed sends in the body, as the API documentation shows', async () => {
		service.seen.length = 0;
		await exchange(credentialsFor(service));
		expect(service.seen).toEqual([{ basic: false, bodySecret: true }]);
	});

	it('a wrong secret: the Client ID or Client Secret is named, and the secret appears nowhere', async () => {
		for (const clientAuthentication of ['body', 'header']) {
			const error = await refusal(
				credentialsFor(service, { clientAuthentication, clientSecret: `${CLIENT_SECRET}x` }),
			);
			expect(error.message).toMatch(/Client ID or Client Secret/);
			expect(error.description).toContain('Invalid client: client is invalid');
		}
	});

	it('a wrong audience: the Audience is named', async () => {
		const error = await refusal(credentialsFor(service, { audience: 'https://other.example' }));
		expect(error.message).toBe('The token service rejected the Audience');
		expect(error.description).toContain('Invalid parameter: `audience`');
	});
});

describe('a token service that takes HTTP Basic only (RFC 6749 §2.3.1)', () => {
	let service: TokenService;
	beforeAll(async () => {
		service = await startTokenService(true);
	});
	afterAll(async () => await service.close());

	it('works with Client Authentication "Send as Basic Auth Header"', async () => {
		const token = await exchange(credentialsFor(service, { clientAuthentication: 'header' }));
		expect(typeof token?.accessToken).toBe('string');
	});

	it('refuses the body, and the message names the choice and the other one to try', async () => {
		const error = await refusal(credentialsFor(service, { clientAuthentication: 'body' }));
		expect(error.message).toMatch(/Client ID or Client Secret/);
		expect(error.description).toMatch(/sent in the body/i);
		expect(error.description).toMatch(/Send as Basic Auth Header/);
	});

	it("n8n's credential test says the same", async () => {
		const result = await testCredential(credentialsFor(service, { clientAuthentication: 'body' }));
		expect(result.status).toBe('Error');
		expect(result.message).toBe(
			'The token service rejected the Client ID or Client Secret (Client Authentication: Send in the Body)',
		);
	});
});

describe('token answers as real services send them', () => {
	let server: http.Server;
	let url = '';
	let answer: object = {};
	beforeAll(async () => {
		server = http.createServer((_request, response) => {
			_request.resume();
			_request.on('end', () =>
				response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)),
			);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	});

	it.each([
		{ token_type: 'bearer', expires_in: '3600' },
		{ token_type: 'BEARER', expires_in: 3600, scope: 'accounts payments' },
		{ token_type: 'Bearer', refresh_token: 'r-1', id_token: jwtLike(), ext_expires_in: 3599 },
	])('%j: the access token is used', async (fields) => {
		const accessToken = jwtLike();
		answer = { access_token: accessToken, ...fields };
		const token = await exchange({
			environment: 'sandbox',
			baseUrl: 'http://127.0.0.1:9/api',
			tokenUrl: url,
			audience: AUDIENCE,
			clientId: CLIENT_ID,
			clientSecret: CLIENT_SECRET,
		});
		expect(token?.accessToken).toBe(accessToken);
	});
});

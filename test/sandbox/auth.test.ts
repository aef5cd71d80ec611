import { type Sandbox, startSandbox } from './index';
import { Api, apiAs, call, type ErrorBody, requestToken, tokenForm } from './testing';

describe('sandbox token service (spec §Authentication)', () => {
	let sandbox: Sandbox;

	beforeEach(async () => {
		sandbox = await startSandbox({
			port: 0,
			tokenTtlSeconds: 5,
			tokenRateLimit: { max: 5, windowSeconds: 60 },
		});
	});
	afterEach(() => sandbox.close());

	it('issues a bearer token for form-encoded client credentials', async () => {
		const reply = await requestToken(sandbox, sandbox.clients.readOnly);
		expect(reply.status).toBe(200);
		expect(reply.headers['cache-control']).toBe('no-store');
		expect(reply.body).toEqual({
			access_token: expect.stringMatching(/^sbx_/),
			token_type: 'Bearer',
			expires_in: 5,
			scope: 'read:accounts read:transactions read:approvals read:payees',
		});
		expect(sandbox.tokenUrl).toBe(`${sandbox.authUrl}/oauth/token`);
	});

	it.each([
		['an unknown client', { client_id: 'nobody' }],
		['a wrong secret', { client_secret: 'cs_wrong' }],
	])('answers 401 invalid_client for %s', async (_case, overrides) => {
		const reply = await requestToken(sandbox, sandbox.clients.full, overrides);
		expect(reply.status).toBe(401);
		expect(reply.body).toMatchObject({ statusCode: 401, error: 'invalid_client' });
	});

	it.each([
		['a wrong audience', { audience: 'https://elsewhere.example' }, 'invalid_audience', /audience/],
		['a wrong grant type', { grant_type: 'password' }, 'unsupported_grant_type', /grant_type/],
		['a missing field', { client_secret: '' }, 'invalid_request', /client_secret is required/],
	])('answers 400 for %s', async (_case, overrides, error, message) => {
		const reply = await requestToken(sandbox, sandbox.clients.full, overrides);
		expect(reply.status).toBe(400);
		expect(reply.body).toMatchObject({ statusCode: 400, error });
		expect(reply.body.message).toMatch(message);
	});

	it('answers 400 invalid_request for a JSON body', async () => {
		const client = sandbox.clients.full;
		const reply = await call('POST', sandbox.tokenUrl, {
			body: {
				client_id: client.clientId,
				client_secret: client.clientSecret,
				audience: sandbox.audience,
				grant_type: 'client_credentials',
			},
		});
		expect(reply.status).toBe(400);
		expect(reply.body).toMatchObject({
			error: 'invalid_request',
			message: expect.stringMatching(/Content-Type/),
		});
	});

	it('rate-limits the token endpoint per client with 429 and Retry-After', async () => {
		for (let i = 0; i < 5; i++)
			expect((await requestToken(sandbox, sandbox.clients.full)).status).toBe(200);
		const limited = await requestToken(sandbox, sandbox.clients.full);
		expect(limited.status).toBe(429);
		expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
		expect((await requestToken(sandbox, sandbox.clients.readOnly)).status).toBe(200);
		await sandbox.control.advanceClock(60_000);
		expect((await requestToken(sandbox, sandbox.clients.full)).status).toBe(200);
	});

	it('answers 401 without a token, with an unknown token, and after expires_in', async () => {
		const api = await apiAs(sandbox);
		expect((await api.get('/accounts')).status).toBe(200);
		const missing = await call('GET', `${sandbox.baseUrl}/accounts`);
		expect(missing.status).toBe(401);
		expect(missing.body).toEqual({ statusCode: 401, message: 'missing bearer token' });
		expect(missing.headers['www-authenticate']).toBe('Bearer');
		expect((await new Api(sandbox, 'sbx_forged').get('/accounts')).status).toBe(401);
		await sandbox.control.advanceClock(5_000);
		const expired = await api.get('/accounts');
		expect(expired.status).toBe(401);
		expect(expired.body.message).toBe('token expired');
	});

	it('answers 401 for every token once tokens are revoked', async () => {
		const api = await apiAs(sandbox);
		sandbox.control.revokeTokens();
		expect((await api.get('/accounts')).status).toBe(401);
		expect((await (await apiAs(sandbox)).get('/accounts')).status).toBe(200);
	});

	it('answers 403 when a valid token lacks the scope (spec §Authentication Behaviour 1)', async () => {
		const readOnly = await apiAs(sandbox, 'readOnly');
		const { gbp } = sandbox.seeded.accounts;
		const created = await readOnly.post<ErrorBody>(`/account/${gbp}/payees`, {});
		expect(created.status).toBe(403);
		expect(created.body).toEqual({
			statusCode: 403,
			message: 'token lacks the scope create:payee',
		});
		const checks = [
			readOnly.post(
				'/payments',
				{},
				{ 'x-idempotent-key': '0b7c1f4e-3a52-4c1e-9d8f-2a4b6c8d0e1f' },
			),
			readOnly.post('/webhooks/subscribe', {}),
			readOnly.delete('/webhooks/unsubscribe', {}),
			readOnly.put(`/account/${gbp}/payees/${sandbox.seeded.payees.gbp}`, {}),
		];
		for (const reply of await Promise.all(checks)) expect(reply.status).toBe(403);
		const noUpdate = await apiAs(sandbox, 'noUpdatePayee');
		const upsert = await noUpdate.post(`/account/${gbp}/payee`, {});
		expect(upsert.status).toBe(403);
		expect(upsert.body.message).toBe('token lacks the scope update:payee');
	});

	it('never records secrets in the request log', async () => {
		const api = await apiAs(sandbox);
		await api.get('/accounts');
		const log = JSON.stringify(sandbox.control.requests());
		expect(log).not.toContain(sandbox.clients.full.clientSecret);
		expect(log).not.toContain(api.token);
		expect(log).not.toContain(tokenForm(sandbox, sandbox.clients.full));
		expect(sandbox.control.requests().map((r) => [r.area, r.path, r.status])).toEqual([
			['auth', '/oauth/token', 200],
			['api', '/accounts', 200],
		]);
	});
});

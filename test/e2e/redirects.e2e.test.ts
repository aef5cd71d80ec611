/**
 * Secrets never leave for another host, in a real n8n (both lines): n8n's request helper follows
 * redirects and re-adds Authorization on another origin by default. With a loopback "other host"
 * recording everything that reaches it, the sandbox redirects the token request, a read and a payment
 * there: each execution fails clearly and the other host receives nothing. A credential whose Base URL
 * is changed in the editor after a token was cached sends that token nowhere new; a production one
 * changed to plain http sends nothing at all.
 */
import { randomUUID } from 'node:crypto';

import { CREDENTIAL_EMPTY_VALUE } from 'n8n-workflow';

import { startOtherHost, type OtherHost } from '../helpers/otherHost';
import { call } from '../sandbox/testing';
import { selectedVersions } from './lib/config';
import {
	activate,
	CREDENTIAL_TYPE,
	createCredential,
	credentialData,
	type Execution,
	executionError,
	loadWorkflow,
	runWebhookWorkflow,
	type Stack,
	startStack,
} from './lib/stack';

interface StoredCredential {
	data: { name: string; type: string; data: Record<string, unknown> };
}

describe.each(selectedVersions())('n8n %s: no secret follows a redirect', (version) => {
	let stack: Stack;
	let other: OtherHost;
	let credentialId: string;
	const paths: Record<string, { workflowId: string; path: string }> = {};

	/** One of the scenario workflows on its own webhook path, without Retry On Fail. */
	async function importAs(name: string, file: string, forCredential: string): Promise<void> {
		const workflow = loadWorkflow(file, { CREDENTIAL_ID: forCredential }) as {
			name: string;
			nodes: Array<Record<string, unknown> & { parameters: Record<string, unknown> }>;
		};
		const path = `e2e-redirects-${name}`;
		workflow.name = `${workflow.name} (${name})`;
		for (const node of workflow.nodes) {
			if (node.type === 'n8n-nodes-base.webhook') {
				node.parameters.path = path;
				node.webhookId = randomUUID();
			}
			delete node.retryOnFail;
		}
		const created = await stack.n8n.apiOk<{ id: string }>('POST', '/workflows', workflow);
		await activate(stack.n8n, String(created.id));
		paths[name] = { workflowId: String(created.id), path };
	}

	async function run(name: string, body: Record<string, unknown>): Promise<Execution> {
		const { workflowId, path } = paths[name];
		return (await runWebhookWorkflow(stack.n8n, workflowId, path, body)).execution;
	}

	const balance = (name = 'balance') => run(name, { xaid: stack.sandbox.seeded.accounts.gbp });
	const pay = (reference: string) =>
		run('pay', {
			xaid: stack.sandbox.seeded.accounts.gbp,
			xpid: stack.sandbox.seeded.payees.gbp,
			amount: 4.25,
			reference,
		});
	const seen = () =>
		stack.sandbox.control.requests().map((r) => `${r.method} ${r.route ?? r.path} ${r.status}`);
	const clientSecret = () => credentialData(stack.sandbox).clientSecret;
	/** n8n 1.x keeps no response headers in the error the node gets, so only 2.x can name where a redirect pointed. */
	const apiRedirect = (status: number) =>
		`The API answered with a redirect (HTTP ${status})${stack.n8n.major >= 2 ? ` to ${other.origin}` : ''}, which is not followed`;

	/** The editor's Save after changing fields: the stored data as the editor gets it (secrets redacted), changed, sent back. */
	async function editInEditor(id: string, changes: Record<string, string>): Promise<void> {
		const stored = await stack.n8n.restOk<StoredCredential>(
			'GET',
			`/credentials/${id}?includeData=true`,
		);
		const { name, type, data } = stored.data;
		await stack.n8n.restOk('PATCH', `/credentials/${id}`, {
			name,
			type,
			data: { ...data, ...changes },
		});
	}

	/** Whether n8n still holds a cached token for the credential (the editor sees it redacted, or empty). */
	async function holdsToken(id: string): Promise<boolean> {
		const stored = await stack.n8n.restOk<StoredCredential>(
			'GET',
			`/credentials/${id}?includeData=true`,
		);
		return ![undefined, '', CREDENTIAL_EMPTY_VALUE].includes(
			stored.data.data.accessToken as string,
		);
	}

	beforeAll(async () => {
		stack = await startStack(version);
		other = await startOtherHost();
		({ id: credentialId } = await createCredential(
			stack.n8n,
			'Customer Banking sandbox',
			credentialData(stack.sandbox),
		));
		await importAs('balance', 'balance.json', credentialId);
		await importAs('pay', 'pay.json', credentialId);
		// a token is cached before the redirects start
		expect(executionError(await balance())).toBeUndefined();
	});

	afterAll(async () => {
		await stack?.stop();
		await other?.close();
	});

	beforeEach(() => {
		stack.sandbox.control.clearFaults();
		stack.sandbox.control.clearRequests();
		other.arrived.length = 0;
	});

	it('a read redirected to another host fails clearly; the token does not follow', async () => {
		stack.sandbox.control.setFaults([
			{
				path: '/account/{xaid}/balance',
				kind: 'redirect',
				status: 302,
				location: `${other.origin}/balance?x=1`,
			},
		]);
		const execution = await balance();
		expect(execution.status).toBe('error');
		expect(executionError(execution)).toContain(apiRedirect(302));
		expect(seen()).toEqual(['GET /account/{xaid}/balance 302']);
		expect(other.arrived).toHaveLength(0);
	});

	it('a payment redirected (307) is not re-posted elsewhere: the node looks it up and reports its state unknown', async () => {
		stack.sandbox.control.setFaults([
			{
				method: 'POST',
				path: '/payments',
				kind: 'redirect',
				status: 307,
				location: `${other.origin}/payments`,
				times: 1,
			},
		]);
		const execution = await pay('E2E-REDIRECT-1');
		expect(execution.status).toBe('error');
		expect(executionError(execution)).toMatch(
			/Payment state unknown — not resubmitted \(reference "E2E-REDIRECT-1"/,
		);
		expect(executionError(execution)).toContain(apiRedirect(307));
		expect(seen().filter((line) => !line.startsWith('GET '))).toEqual(['POST /payments 307']);
		expect(
			stack.sandbox.control
				.ledger()
				.paymentRequests.filter((p) => p.submitted.some((s) => s.reference === 'E2E-REDIRECT-1')),
		).toHaveLength(0);
		expect(other.arrived).toHaveLength(0);
	});

	it('a token request redirected (307) does not re-post the client secret elsewhere', async () => {
		// the bank revokes the cached token, so n8n asks the token service for a new one
		stack.sandbox.control.revokeTokens();
		stack.sandbox.control.setFaults([
			{
				path: '/oauth/token',
				kind: 'redirect',
				status: 307,
				location: `${other.origin}/oauth/token`,
			},
		]);
		const execution = await balance();
		expect(execution.status).toBe('error');
		expect(executionError(execution)).toContain(
			`The token service answered with a redirect (HTTP 307) to ${other.origin}, which is not followed`,
		);
		expect(seen()).toEqual(['GET /account/{xaid}/balance 401', 'POST /oauth/token 307']);
		expect(other.arrived).toHaveLength(0);
		expect(other.occurrences([clientSecret()])).toBe(0);
		expect(JSON.stringify(execution)).not.toContain(clientSecret());
	});

	it('after the Base URL is changed in the editor, the cached token is not sent to the new host', async () => {
		expect(executionError(await balance())).toBeUndefined(); // a token is cached
		// From now on the sandbox refuses the cached token: a token that reaches the other host and that the
		// sandbox still accepts was fetched after the change.
		stack.sandbox.control.revokeTokens();
		stack.sandbox.control.clearRequests();
		await editInEditor(credentialId, { baseUrl: `${other.origin}/api` });
		try {
			// the edit kept the cached token, as the editor's Save does
			expect(await holdsToken(credentialId)).toBe(true);
			await balance();
			expect(seen()).toEqual(['POST /oauth/token 200']);
			expect(
				other.arrived.map((request) => `${request.method} ${request.url.split('?')[0]}`),
			).toEqual([`GET /api/account/${stack.sandbox.seeded.accounts.gbp}/balance`]);
			const bearer = String(other.arrived[0].headers.authorization ?? '').replace(/^Bearer /, '');
			expect(bearer).toMatch(/^sbx_/);
			expect(
				(await call('GET', `${stack.sandbox.baseUrl}/accounts`, { token: bearer })).status,
			).toBe(200);
			expect(other.occurrences([clientSecret()])).toBe(0);
		} finally {
			await editInEditor(credentialId, { baseUrl: stack.sandbox.baseUrl });
		}
	});

	it('a production credential whose Base URL is changed to plain http sends nothing, not even its cached token', async () => {
		const cachedToken = `CANARY-production-token-${randomUUID()}`;
		const { id } = await createCredential(
			stack.n8n,
			'Customer Banking production',
			credentialData(stack.sandbox, 'full', {
				environment: 'production',
				baseUrl: 'https://api.bank.invalid',
				tokenUrl: 'https://auth.bank.invalid',
				accessToken: cachedToken,
			}),
		);
		await importAs('production', 'balance.json', id);
		await editInEditor(id, { baseUrl: `${other.origin}/api` });
		expect(await holdsToken(id)).toBe(true);
		const stored = await stack.n8n.restOk<StoredCredential>(
			'GET',
			`/credentials/${id}?includeData=true`,
		);
		expect(stored.data.type).toBe(CREDENTIAL_TYPE);
		expect(stored.data.data.baseUrl).toBe(`${other.origin}/api`);

		const execution = await balance('production');
		expect(execution.status).toBe('error');
		expect(executionError(execution)).toContain(
			'The Base URL of a production credential must start with https://',
		);
		expect(other.arrived).toHaveLength(0);
		expect(other.occurrences([cachedToken, clientSecret()])).toBe(0);
		expect(seen()).toEqual([]);
	});
});

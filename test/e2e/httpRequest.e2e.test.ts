/**
 * The credential in n8n's HTTP Request node (both lines): n8n serves the credential type with its
 * `authenticate`, which is what HTTP Request's "Predefined Credential Type" list asks for
 * ('has:authenticate'), and adds "Custom API Call" to the action node's lists. An HTTP Request node with
 * the credential reads the sandbox's accounts with the credential's token; redirected or pointed at
 * another host, it sends nothing there.
 */
import { randomUUID } from 'node:crypto';

import { startOtherHost, type OtherHost } from '../helpers/otherHost';
import { selectedVersions } from './lib/config';
import {
	activate,
	CREDENTIAL_TYPE,
	createCredential,
	credentialData,
	type Execution,
	executionError,
	nodeOutput,
	PACKAGE,
	runWebhookWorkflow,
	type Stack,
	startStack,
} from './lib/stack';

interface NodeTypeAnswer {
	name: string;
	version: number | number[];
	properties: Array<{
		name: string;
		options?: Array<{ name: string; value: unknown }>;
		credentialTypes?: string[];
	}>;
}

/** Webhook → HTTP Request (GET of the address in the webhook's body, the credential as predefined type). */
function httpRequestWorkflow(path: string, credentialId: string) {
	return {
		name: `E2E: HTTP Request with the credential (${path})`,
		nodes: [
			{
				id: randomUUID(),
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: {
					httpMethod: 'POST',
					path,
					responseMode: 'lastNode',
					responseData: 'firstEntryJson',
					options: {},
				},
			},
			{
				id: randomUUID(),
				name: 'HTTP Request',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [220, 0],
				parameters: {
					url: "={{ $('Webhook').first().json.body.url }}",
					authentication: 'predefinedCredentialType',
					nodeCredentialType: CREDENTIAL_TYPE,
					options: {},
				},
				credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: 'Customer Banking sandbox' } },
			},
		],
		connections: { Webhook: { main: [[{ node: 'HTTP Request', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

describe.each(selectedVersions())('n8n %s: the credential in the HTTP Request node', (version) => {
	let stack: Stack;
	let other: OtherHost;
	let workflowId: string;
	const path = 'e2e-http-request';

	const get = async (url: string): Promise<Execution> =>
		(await runWebhookWorkflow(stack.n8n, workflowId, path, { url })).execution;
	const seen = () =>
		stack.sandbox.control.requests().map((r) => `${r.method} ${r.route ?? r.path} ${r.status}`);

	beforeAll(async () => {
		stack = await startStack(version);
		other = await startOtherHost();
		const { id } = await createCredential(
			stack.n8n,
			'Customer Banking sandbox',
			credentialData(stack.sandbox),
		);
		const created = await stack.n8n.apiOk<{ id: string }>(
			'POST',
			'/workflows',
			httpRequestWorkflow(path, id),
		);
		workflowId = String(created.id);
		await activate(stack.n8n, workflowId);
	});

	afterAll(async () => {
		await stack?.stop();
		await other?.close();
	});

	beforeEach(() => {
		stack.sandbox.control.clearRequests();
		other.arrived.length = 0;
	});

	it('serves the credential type with authenticate, which is what HTTP Request lists', async () => {
		const { n8n } = stack;
		const credentials = await n8n.http<Array<{ name: string; authenticate?: unknown }>>(
			'GET',
			'/types/credentials.json',
			{
				headers: { cookie: n8n.cookie },
			},
		);
		expect(credentials.status).toBe(200);
		expect(credentials.body.find((c) => c.name === CREDENTIAL_TYPE)?.authenticate).toEqual({});

		const nodes = await n8n.http<NodeTypeAnswer[]>('GET', '/types/nodes.json', {
			headers: { cookie: n8n.cookie },
		});
		const httpRequest = nodes.body.find(
			(node) => node.name === 'n8n-nodes-base.httpRequest' && [node.version].flat().includes(4.2),
		);
		const predefined = httpRequest?.properties.find((p) => p.name === 'nodeCredentialType');
		expect(predefined?.credentialTypes).toContain('has:authenticate');
	});

	it('adds "Custom API Call" to the action node\'s resources and operations', async () => {
		const { n8n } = stack;
		const nodes = await n8n.http<NodeTypeAnswer[]>('GET', '/types/nodes.json', {
			headers: { cookie: n8n.cookie },
		});
		const action = nodes.body.find((node) => node.name === `${PACKAGE}.customerBanking`);
		const resource = action?.properties.find((p) => p.name === 'resource');
		expect(resource?.options?.at(-1)).toEqual({
			name: 'Custom API Call',
			value: '__CUSTOM_API_CALL__',
		});
		const operations = action?.properties.filter((p) => p.name === 'operation') ?? [];
		expect(operations.length).toBeGreaterThan(0);
		for (const operation of operations)
			expect(operation.options?.at(-1)?.value).toBe('__CUSTOM_API_CALL__');
	});

	it('reads the accounts with the credential: one token request, then the read with its token', async () => {
		const execution = await get(`${stack.sandbox.baseUrl}/accounts`);
		expect(executionError(execution)).toBeUndefined();
		const [answer] = nodeOutput(execution, 'HTTP Request');
		const xaids = (answer.results as Array<{ xaid: string }>).map((account) => account.xaid);
		expect(xaids).toContain(stack.sandbox.seeded.accounts.gbp);
		expect(answer.total).toBe(xaids.length);
		expect(seen()).toEqual(['POST /oauth/token 200', 'GET /accounts 200']);
	});

	it('follows no redirect: a read redirected to another host fails, the token does not follow', async () => {
		stack.sandbox.control.setFaults([
			{ path: '/accounts', kind: 'redirect', status: 302, location: `${other.origin}/accounts` },
		]);
		try {
			const execution = await get(`${stack.sandbox.baseUrl}/accounts`);
			expect(execution.status).toBe('error');
			// n8n's helper for HTTP Request fetches a new token and resends once after any failure, not only a 401
			expect(seen()).toEqual(['GET /accounts 302', 'POST /oauth/token 200', 'GET /accounts 302']);
			expect(other.arrived).toHaveLength(0);
		} finally {
			stack.sandbox.control.clearFaults();
		}
	});

	it('sends nothing to an address outside the Base URL', async () => {
		const execution = await get(`${other.origin}/accounts`);
		expect(execution.status).toBe('error');
		expect(executionError(execution)).toContain(
			'The request does not go to the Base URL of the credential',
		);
		expect(other.arrived).toHaveLength(0);
	});
});

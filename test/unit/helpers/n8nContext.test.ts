/** The test contexts are n8n-core's; what the adapter adds (credential store, static data, per-item values, records) behaves as n8n's server does. */
import type { IExecuteFunctions, INodeType } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	AxiosError,
	createExecuteContext,
	createHookContext,
	createLoadOptionsContext,
	createWebhookContext,
	runInEngine,
	testCredential,
} from '../../helpers/n8nContext';
import { scriptedCredentials, startScriptedApi, type ScriptedApi } from '../../helpers/scriptedApi';

let api: ScriptedApi;
beforeEach(async () => {
	api = await startScriptedApi();
});
afterEach(async () => {
	await api.close();
});

describe('getNodeParameter', () => {
	const nodeType = {
		description: {
			name: 'test.node',
			displayName: 'Test',
			group: [],
			version: 1,
			description: '',
			defaults: { name: 'Test' },
			inputs: [],
			outputs: [],
			credentials: [{ name: 'customerBankingApi', required: true }],
			properties: [
				{
					displayName: 'Resource',
					name: 'resource',
					type: 'options',
					noDataExpression: true,
					options: [
						{ name: 'A', value: 'a' },
						{ name: 'B', value: 'b' },
					],
					default: 'a',
				},
				{ displayName: 'Return All', name: 'returnAll', type: 'boolean', default: false },
				{
					displayName: 'Limit',
					name: 'limit',
					type: 'number',
					default: 50,
					displayOptions: { show: { returnAll: [false] } },
				},
				{
					displayName: 'Account',
					name: 'account',
					type: 'resourceLocator',
					default: { mode: 'id', value: '' },
					modes: [{ displayName: 'ID', name: 'id', type: 'string' }],
				},
				{
					displayName: 'Additional Fields',
					name: 'additionalFields',
					type: 'collection',
					default: {},
					options: [{ displayName: 'Reference', name: 'reference', type: 'string', default: '' }],
				},
			],
		},
	} as unknown as INodeType;

	const { context } = createExecuteContext({
		nodeType,
		credentials: {},
		parameters: {
			account: { __rl: true, mode: 'id', value: 'xaid-1' },
			additionalFields: { reference: 'REF-1' },
			undeclared: 'dropped',
		},
		itemParameters: [
			{},
			{ 'additionalFields.reference': 'REF-2' },
			{ additionalFields: { reference: 'REF-3' } },
		],
		items: [{ json: {} }, { json: {} }, { json: {} }],
	});

	it('applies the node description defaults and drops what it does not declare, like n8n', () => {
		expect(context.getNodeParameter('resource', 0)).toBe('a');
		expect(context.getNodeParameter('returnAll', 0)).toBe(false);
		expect(context.getNodeParameter('limit', 0)).toBe(50);
		expect(context.getNode().parameters.undeclared).toBeUndefined();
	});

	it('gives per-item values through an n8n expression, and plain values as they are', () => {
		expect(context.getNodeParameter('additionalFields.reference', 0)).toBe('REF-1');
		expect(context.getNodeParameter('additionalFields.reference', 1)).toBe('REF-2');
		expect(context.getNodeParameter('additionalFields.reference', 2)).toBe('REF-3');
		expect(context.getNodeParameter('additionalFields', 2)).toEqual({ reference: 'REF-3' });
		const parameters = context.getNode().parameters as {
			account: unknown;
			additionalFields: { reference: string };
		};
		expect(parameters.additionalFields.reference).toMatch(/^=\{\{ .*\$itemIndex.* \}\}$/);
		expect(parameters.account).toEqual({ __rl: true, mode: 'id', value: 'xaid-1' });
	});

	it('keeps a per-item value that contains expression braces a plain value', () => {
		const { context: braces } = createExecuteContext({
			nodeType,
			credentials: {},
			parameters: {},
			itemParameters: [
				{ 'additionalFields.reference': '}} {{ $json }}' },
				{ 'additionalFields.reference': '{{' },
			],
			items: [{ json: {} }, { json: {} }],
		});
		expect(braces.getNodeParameter('additionalFields.reference', 0)).toBe('}} {{ $json }}');
		expect(braces.getNodeParameter('additionalFields.reference', 1)).toBe('{{');
	});

	it('refuses a per-item value n8n cannot give (a parameter without expressions)', () => {
		expect(() =>
			createExecuteContext({
				nodeType,
				credentials: {},
				parameters: {},
				itemParameters: [{ resource: 'a' }, { resource: 'b' }],
				items: [{ json: {} }, { json: {} }],
			}),
		).toThrow('n8n cannot give "resource" a value per item');
	});

	it('uses the fallback, and throws like n8n when the value is still undefined', () => {
		expect(context.getNodeParameter('missing', 0, 'fallback')).toBe('fallback');
		expect(context.getNodeParameter('missing', 0, null)).toBeNull();
		expect(() => context.getNodeParameter('missing', 0)).toThrow(
			'Could not get parameter "missing"',
		);
		// n8n-core does not tell "no fallback" from an explicit undefined one
		expect(() => context.getNodeParameter('missing', 0, undefined)).toThrow(
			'Could not get parameter "missing"',
		);
	});

	it('extracts resource locator values on request', () => {
		expect(context.getNodeParameter('account', 0, undefined, { extractValue: true })).toBe(
			'xaid-1',
		);
		expect(context.getNodeParameter('account', 0)).toEqual({
			__rl: true,
			mode: 'id',
			value: 'xaid-1',
		});
	});

	it('returns copies, so a node cannot change the parameters of the next item', () => {
		(context.getNodeParameter('additionalFields', 0) as { reference: string }).reference =
			'changed';
		expect(context.getNodeParameter('additionalFields.reference', 0)).toBe('REF-1');
	});
});

describe('execution context data', () => {
	it('lives in the context data handed over, which the runs of one execution share', () => {
		const contextData = {};
		const first = createExecuteContext({ parameters: {}, credentials: {}, contextData });
		first.context.getContext('node').seen = 1;
		const second = createExecuteContext({
			parameters: {},
			credentials: {},
			contextData,
			mode: 'retry',
		});
		expect(second.context.getContext('node')).toEqual({ seen: 1 });
		expect(contextData).toEqual({ 'node:Customer Banking': { seen: 1 } });
	});
});

describe('execute context basics', () => {
	it('exposes items, continueOnFail, node, execution and workflow ids, n8n-core helpers', () => {
		const { context } = createExecuteContext({
			parameters: {},
			credentials: {},
			items: [{ json: { a: 1 } }],
			continueOnFail: true,
			executionId: 'exec-9',
			workflowId: 'wf-3',
			node: { name: 'Bank' },
		});
		expect(context.getInputData()).toEqual([{ json: { a: 1 } }]);
		expect(context.continueOnFail()).toBe(true);
		expect(context.getNode().name).toBe('Bank');
		expect(context.getExecutionId()).toBe('exec-9');
		expect(context.getWorkflow().id).toBe('wf-3');
		expect(context.helpers.returnJsonArray([{ a: 1 }, { json: { b: 2 } }] as never)).toEqual([
			{ json: { a: 1 } },
			{ json: { b: 2 } },
		]);
		expect(
			context.helpers.constructExecutionMetaData([{ json: { a: 1 } }], { itemData: { item: 4 } }),
		).toEqual([{ json: { a: 1 }, pairedItem: { item: 4 } }]);
	});
});

describe('httpRequestWithAuthentication (n8n-core semantics)', () => {
	it('fetches a token once, stores it in the credential, reuses it across items and contexts', async () => {
		api.setApi(() => ({ status: 200, body: { ok: true } }));
		const credentials = scriptedCredentials(api);
		const first = createExecuteContext({ parameters: {}, credentials });
		const second = createLoadOptionsContext({ credentials });
		const request = { method: 'GET' as const, url: `${api.baseUrl}/accounts` };
		await first.context.helpers.httpRequestWithAuthentication.call(
			first.context,
			'customerBankingApi',
			{ ...request },
		);
		await first.context.helpers.httpRequestWithAuthentication.call(
			first.context,
			'customerBankingApi',
			{ ...request },
		);
		await second.context.helpers.httpRequestWithAuthentication.call(
			second.context,
			'customerBankingApi',
			{ ...request },
		);
		expect(api.tokenRequests()).toHaveLength(1);
		expect(credentials.accessToken).toBe('token-1');
		expect(api.apiRequests().map((served) => served.headers.authorization)).toEqual([
			'Bearer token-1',
			'Bearer token-1',
			'Bearer token-1',
		]);
		expect(first.requests.map((recorded) => recorded.url)).toEqual([
			`${api.authUrl}/oauth/token`,
			`${api.baseUrl}/accounts`,
			`${api.baseUrl}/accounts`,
		]);
	});

	it('throws NodeApiError wrapping an axios-like error with response status, data and headers', async () => {
		api.setApi(() => ({
			status: 418,
			headers: { 'x-why': 'teapot' },
			body: { statusCode: 418, message: 'short and stout' },
		}));
		const { context } = createExecuteContext({
			parameters: {},
			credentials: scriptedCredentials(api),
		});
		const error = await context.helpers.httpRequestWithAuthentication
			.call(context, 'customerBankingApi', { method: 'GET', url: `${api.baseUrl}/x` })
			.catch((thrown: unknown) => thrown as NodeApiError);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.httpCode).toBe('418');
		const cause = error.cause as AxiosError;
		expect(cause.constructor.name).toBe('AxiosError');
		expect(cause.response).toMatchObject({
			status: 418,
			data: { message: 'short and stout' },
			headers: { 'x-why': 'teapot' },
		});
		expect((cause.config.headers as Record<string, string>).Authorization).toBe('Bearer token-1');
	});

	it('returns the full response or ignores status errors when asked, like n8n', async () => {
		api.setApi(() => ({ status: 404, body: { statusCode: 404, message: 'nope' } }));
		const { context } = createExecuteContext({
			parameters: {},
			credentials: scriptedCredentials(api),
		});
		const full = await context.helpers.httpRequestWithAuthentication.call(
			context,
			'customerBankingApi',
			{
				method: 'GET',
				url: `${api.baseUrl}/x`,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
			},
		);
		expect(full).toMatchObject({ statusCode: 404, body: { message: 'nope' } });
	});

	it('network errors carry the Node code', async () => {
		const { context } = createExecuteContext({
			parameters: {},
			credentials: scriptedCredentials(api, {
				baseUrl: 'http://127.0.0.1:1',
				accessToken: 'cached',
			}),
		});
		const error = await context.helpers.httpRequestWithAuthentication
			.call(context, 'customerBankingApi', { method: 'GET', url: 'http://127.0.0.1:1/x' })
			.catch((thrown: unknown) => thrown as NodeApiError);
		expect((error.cause as AxiosError).code).toBe('ECONNREFUSED');
		expect((error.cause as AxiosError).response).toBeUndefined();
	});

	it('rejects another credential type like n8n', async () => {
		const { context } = createExecuteContext({
			parameters: {},
			credentials: scriptedCredentials(api),
		});
		await expect(context.getCredentials('otherApi')).rejects.toThrow(
			/does not have any credentials/,
		);
	});
});

describe('credential test (as n8n runs it)', () => {
	it('passes with a working credential: token exchange then GET /accounts?limit=1', async () => {
		api.setApi(() => ({ status: 200, body: { total: 0, results: [] } }));
		const result = await testCredential(scriptedCredentials(api));
		expect(result.status).toBe('OK');
		expect(result.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
			`POST ${api.authUrl}/oauth/token`,
			`GET ${api.baseUrl}/accounts?limit=1`,
		]);
	});

	it('shows the credential message when the exchange fails', async () => {
		api.setToken(() => ({ status: 401, body: { error: 'invalid_client', message: 'no' } }));
		const result = await testCredential(scriptedCredentials(api));
		expect(result).toMatchObject({
			status: 'Error',
			message:
				'The token service rejected the Client ID or Client Secret (Client Authentication: Send in the Body)',
		});
	});
});

describe('hook and webhook contexts', () => {
	it("hook context: static data read and shown as JSON, as n8n keeps it in its database; n8n's webhook URL", () => {
		const staticData = { node: {}, global: {} };
		const url = 'https://n8n.example/webhook/abc/webhook';
		const first = createHookContext({ credentials: {}, staticData, webhookUrl: url });
		const live = first.context.getWorkflowStaticData('node') as Record<string, unknown>;
		live.ref = 'sub-1';
		live.at = new Date(0);
		expect(staticData.node).toEqual({ ref: 'sub-1', at: '1970-01-01T00:00:00.000Z' });
		const second = createHookContext({ credentials: {}, staticData });
		expect(second.context.getWorkflowStaticData('node')).toEqual({
			ref: 'sub-1',
			at: '1970-01-01T00:00:00.000Z',
		});
		expect(first.context.getNodeWebhookUrl('default')).toBe(url);
		expect(first.context.getWebhookName()).toBe('default');
		const manual = createHookContext({
			credentials: {},
			webhookUrl: 'https://n8n.example/webhook-test/abc/webhook',
			mode: 'manual',
		});
		expect(manual.context.getNodeWebhookUrl('default')).toBe(
			'https://n8n.example/webhook-test/abc/webhook',
		);
	});

	it('webhook context keeps the exact raw body and records the response', () => {
		const raw = '{"event":"TransactionReceived",  "xtid":"t1"}';
		const { context, response } = createWebhookContext({
			credentials: { webhookSigningSecret: 'whsec_x' },
			body: raw,
			headers: { 'X-CB-Signature': 'v1=abc' },
		});
		const request = context.getRequestObject() as unknown as { rawBody: Buffer };
		expect(request.rawBody.toString('utf8')).toBe(raw);
		expect(context.getBodyData()).toEqual({ event: 'TransactionReceived', xtid: 't1' });
		expect(context.getHeaderData()).toMatchObject({ 'x-cb-signature': 'v1=abc' });
		context.getResponseObject().status(401).json({ message: 'bad signature' });
		expect(response).toMatchObject({
			statusCode: 401,
			body: { message: 'bad signature' },
			ended: true,
		});
	});
});

describe("n8n-core's engine (WorkflowExecute)", () => {
	const xaid = '7d0c5bb4-2f0e-4d7a-9a43-6f1d2c3b4a5e';
	const account = { __rl: true, mode: 'id', value: xaid };

	it('runs the action node on its input items: outputs paired to their items, requests recorded', async () => {
		api.setApi(() => ({ status: 200, body: { xaid, name: 'Main', currency: 'GBP' } }));
		const result = await runInEngine({
			parameters: { resource: 'account', operation: 'get', account },
			items: [{ json: { n: 1 } }, { json: { n: 2 } }],
			credentials: scriptedCredentials(api),
		});
		expect(result.error).toBeUndefined();
		expect(result.output?.[0]).toHaveLength(2);
		expect(result.output?.[0].map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(result.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
			`POST ${api.authUrl}/oauth/token`,
			`GET ${api.baseUrl}/account/${xaid}`,
			`GET ${api.baseUrl}/account/${xaid}`,
		]);
	});

	it("fails the execution with the node's error, or makes error items under Continue On Fail", async () => {
		api.setApi(() => ({ status: 404, body: { statusCode: 404, message: 'no such account' } }));
		const failed = await runInEngine({
			parameters: { resource: 'account', operation: 'get', account },
			credentials: scriptedCredentials(api),
		});
		expect(failed.error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '404',
			context: { itemIndex: 0 },
		});
		expect(failed.output).toBeUndefined();
		const continued = await runInEngine({
			parameters: { resource: 'account', operation: 'get', account },
			credentials: scriptedCredentials(api),
			continueOnFail: true,
		});
		expect(continued.error).toBeUndefined();
		expect(continued.output?.[0]).toEqual([
			expect.objectContaining({ json: expect.objectContaining({ error: expect.any(String) }) }),
		]);
	});

	it('Retry On Fail runs the whole node again in the same execution, with the same context data', async () => {
		const seen: Array<{ executionId: string; tries: unknown }> = [];
		const flaky = {
			description: {
				name: 'test.flaky',
				displayName: 'Flaky',
				group: [],
				version: 1,
				description: '',
				defaults: { name: 'Flaky' },
				inputs: ['main'],
				outputs: ['main'],
				properties: [],
			},
			async execute(this: IExecuteFunctions) {
				const memory = this.getContext('node');
				memory.tries = Number(memory.tries ?? 0) + 1;
				seen.push({ executionId: this.getExecutionId(), tries: memory.tries });
				if (Number(memory.tries) < 3) throw new NodeOperationError(this.getNode(), 'not yet');
				return [this.getInputData()];
			},
		} as unknown as INodeType;
		const contextData = {};
		const result = await runInEngine({
			nodeType: flaky,
			parameters: {},
			credentials: {},
			executionId: 'exec-7',
			contextData,
			// n8n reads a wait of 0 as its default of 1 s
			retryOnFail: { maxTries: 3, waitBetweenTries: 1 },
		});
		expect(result.error).toBeUndefined();
		expect(seen).toEqual([
			{ executionId: 'exec-7', tries: 1 },
			{ executionId: 'exec-7', tries: 2 },
			{ executionId: 'exec-7', tries: 3 },
		]);
		expect(contextData).toEqual({ 'node:Flaky': { tries: 3 } });
	});
});

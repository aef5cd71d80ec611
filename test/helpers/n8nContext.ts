/**
 * The nodes in n8n-core's own execution contexts (ExecuteContext, LoadOptionsContext, HookContext,
 * WebhookContext, PollContext), built the way n8n builds them: a real `Workflow` from n8n-workflow over a
 * registry of our node types, so parameters get their defaults and expressions, credentials go through
 * n8n-core's `httpRequestWithAuthentication`, and HTTP goes through n8n's own client (axios) to the sandbox
 * over real sockets. `runInEngine` runs the action node in n8n-core's engine (WorkflowExecute) itself.
 *
 * What this adapter provides, because n8n's server would: the credential store (the object a suite passes,
 * read with the credential's defaults and written by preAuthentication, as n8n's CredentialsHelper does
 * with its database), the workflow's static data (JSON, as the database keeps it), the execution's
 * context data, the webhook's request and response, and a record of every request and log line. The
 * transport's waits between attempts are n8n-workflow's `sleep`: a suite that should not sleep through
 * them replaces it with a jest mock.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import axios, {
	type AxiosError as NativeAxiosError,
	type AxiosResponse,
	type InternalAxiosRequestConfig,
} from 'axios';
import {
	ExecuteContext,
	ExecutionLifecycleHooks,
	HookContext,
	LoadOptionsContext,
	PollContext,
	RoutingNode,
	WebhookContext,
	WorkflowExecute,
} from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IExecuteData,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestHelper,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IPollFunctions,
	IRun,
	IRunExecutionData,
	IWebhookData,
	IWebhookFunctions,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeHelpers, Workflow, createRunExecutionData } from 'n8n-workflow';

import { CustomerBankingApi } from '../../credentials/CustomerBankingApi.credentials';
import { CustomerBanking } from '../../nodes/CustomerBanking/CustomerBanking.node';
import { CustomerBankingApprovalTrigger } from '../../nodes/CustomerBankingApprovalTrigger/CustomerBankingApprovalTrigger.node';
import { CustomerBankingTrigger } from '../../nodes/CustomerBankingTrigger/CustomerBankingTrigger.node';

// n8n-core's InstanceSettings keeps its settings file in the user folder: a fresh one per test run.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-core-tests-'));

const PACKAGE = 'n8n-nodes-customer-banking';
const credentialType = new CustomerBankingApi();

// ----------------------------------------------------------------------------------------------
// Recorded traffic and logs

export interface RecordedRequest {
	method: string;
	/** Full URL including the query string. */
	url: string;
	/** Headers as sent (names as given by the caller/credential). */
	headers: Record<string, string>;
	/** Parsed JSON body, or the raw string for form/text bodies; undefined without a body. */
	body?: unknown;
	/** The exact bytes sent, as a string. */
	rawBody?: string;
	/** HTTP status of the answer; undefined on a network error. */
	status?: number;
	/** Network error code when no answer arrived. */
	errorCode?: string;
}

export interface LogEntry {
	level: 'debug' | 'info' | 'warn' | 'error';
	message: string;
	meta?: unknown;
}

/** The error n8n's HTTP client throws (axios'); NodeApiError reads it by its constructor name. */
export type AxiosError = NativeAxiosError & {
	config: InternalAxiosRequestConfig & { headers: IDataObject };
};

/** Which record a request or log line belongs to: set around every helper call of a context and every engine run. */
const recording = new AsyncLocalStorage<Pick<ContextParts, 'requests' | 'logs'>>();
const inFlight = new WeakMap<InternalAxiosRequestConfig, RecordedRequest>();

function parseBody(raw: string): unknown {
	if (raw === '') return '';
	try {
		return JSON.parse(raw) as unknown;
	} catch {
		return raw;
	}
}

/** Header names are case-insensitive in HTTP: the record answers for any spelling of a name it holds. */
function caseInsensitive(headers: Record<string, string>): Record<string, string> {
	const find = (name: string | symbol) =>
		typeof name === 'string'
			? Object.keys(headers).find((key) => key.toLowerCase() === name.toLowerCase())
			: undefined;
	return new Proxy(headers, {
		get: (target, name) => Reflect.get(target, find(name) ?? name),
		has: (target, name) => find(name) !== undefined || Reflect.has(target, name),
		getOwnPropertyDescriptor: (target, name) =>
			Reflect.getOwnPropertyDescriptor(target, find(name) ?? name),
	});
}

/** Completes a record from the config axios actually sent: final URL, headers and body bytes. */
function complete(
	config: InternalAxiosRequestConfig | undefined,
	outcome: { status?: number; errorCode?: string },
) {
	const record = config && inFlight.get(config);
	if (!config || !record) return;
	inFlight.delete(config);
	record.url = axios.getUri(config);
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(config.headers.toJSON())) {
		if (value !== undefined && value !== null) headers[name] = String(value);
	}
	record.headers = caseInsensitive(headers);
	if (typeof config.data === 'string' || Buffer.isBuffer(config.data)) {
		record.rawBody = config.data.toString();
		record.body = parseBody(record.rawBody);
	}
	record.status = outcome.status;
	record.errorCode = outcome.errorCode;
}

axios.interceptors.request.use((config) => {
	const requests = recording.getStore()?.requests;
	if (requests) {
		const record: RecordedRequest = {
			method: (config.method ?? 'get').toUpperCase(),
			url: axios.getUri(config),
			headers: {},
		};
		requests.push(record);
		inFlight.set(config, record);
	}
	return config;
});
axios.interceptors.response.use(
	(response: AxiosResponse) => {
		complete(response.config, { status: response.status });
		return response;
	},
	(error: NativeAxiosError) => {
		complete(error.config, {
			status: error.response?.status,
			errorCode: error.response ? undefined : error.code,
		});
		throw error;
	},
);

/** Runs every function of `helpers` inside the record of `parts`. */
function recordHelpers(helpers: object, parts: ContextParts): void {
	const target = helpers as Record<string, unknown>;
	for (const [name, value] of Object.entries(target)) {
		if (typeof value !== 'function') continue;
		const original = value as (...args: unknown[]) => unknown;
		target[name] = function (this: unknown, ...args: unknown[]) {
			return recording.run(parts, () => original.apply(this, args));
		};
	}
}

/** n8n-core's `helpers.httpRequest` (n8n's outbound client, axios), recorded into `requests`. */
export async function n8nHttpRequest(
	requestOptions: IHttpRequestOptions,
	requests: RecordedRequest[],
): Promise<unknown> {
	const { context } = createLoadOptionsContext({ credentials: {} });
	return await recording.run(
		{ requests, logs: [] },
		async () => await context.helpers.httpRequest(requestOptions),
	);
}

// ----------------------------------------------------------------------------------------------
// The credential store, behind the same interface as n8n's CredentialsHelper

class CredentialsHelper extends ICredentialsHelper {
	constructor(
		/** Plays n8n's credential store: what preAuthentication returns is saved here. */
		readonly store: ICredentialDataDecryptedObject,
		readonly type: ICredentialType = credentialType,
	) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	/** As n8n's for a credential whose `authenticate` is a function: it is called. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.typeNamed(typeName);
		if (typeof authenticate !== 'function')
			throw new Error('the test credential store applies a function authenticate only');
		return await authenticate(credentials, requestOptions);
	}

	/** As n8n's: run when the expirable field is empty, expired (after a 401) or under a credential test. */
	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.typeNamed(typeName);
		const expirable = type.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (!expirable || typeof type.preAuthentication !== 'function') return undefined;
		const testing = node.parameters?.temp === '' && node.type === 'n8n-nodes-base.noOp';
		if (credentials[expirable.name] !== '' && !credentialsExpired && !testing) return undefined;
		const output = (await type.preAuthentication.call(
			helpers,
			credentials,
		)) as ICredentialDataDecryptedObject;
		if (output[expirable.name] === undefined || !node.credentials) return undefined;
		await this.updateCredentials(node.credentials[type.name], type.name, {
			...this.store,
			...output,
		});
		return Object.assign(credentials, output);
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	) {
		const type = this.typeNamed(typeName);
		if (typeof type.preAuthentication !== 'function') return undefined;
		return (
			((await type.preAuthentication.call(helpers, credentials)) as
				| ICredentialDataDecryptedObject
				| undefined) ?? undefined
		);
	}

	async getCredentials(): Promise<never> {
		throw new Error('the test credential store hands out decrypted data only');
	}

	/** getDecrypted: the stored data with the defaults of the credential's properties, a fresh copy each time. */
	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		return this.decrypted(type);
	}

	decrypted(type = this.type.name): ICredentialDataDecryptedObject {
		const properties = this.typeNamed(type).properties;
		return NodeHelpers.getNodeParameters(
			properties,
			structuredClone(this.store) as never,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		_type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		Object.assign(this.store, data);
	}

	async updateCredentialsOauthTokenData(): Promise<void> {
		throw new Error('not an OAuth credential');
	}

	getCredentialsProperties(type: string) {
		return this.typeNamed(type).properties;
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	private typeNamed(name: string): ICredentialType {
		if (name !== this.type.name) throw new Error(`Unknown credential type "${name}"`);
		return this.type;
	}
}

// ----------------------------------------------------------------------------------------------
// Workflow, node and additional data, as n8n builds them

export type Parameters = Record<string, unknown>;

export interface CommonContextOptions {
	parameters?: Parameters;
	credentials: ICredentialDataDecryptedObject;
	node?: Partial<INode>;
	/** The node's type; parameters get its description's defaults, as in n8n. Our node by default. */
	nodeType?: INodeType;
	workflowId?: string;
	executionId?: string;
	mode?: 'manual' | 'trigger' | 'webhook' | 'internal' | 'retry';
}

export interface ContextParts {
	requests: RecordedRequest[];
	credentials: ICredentialDataDecryptedObject;
	logs: LogEntry[];
	credentialsHelper: CredentialsHelper;
}

function typeNameOf(nodeType: INodeType): string {
	const { name } = nodeType.description;
	return name.includes('.') ? name : `${PACKAGE}.${name}`;
}

const ourNodeTypes = [
	new CustomerBanking(),
	new CustomerBankingTrigger(),
	new CustomerBankingApprovalTrigger(),
];

/** n8n's node-types registry: our nodes, and the one a suite brings. */
function nodeTypesWith(nodeType: INodeType): INodeTypes {
	const known = new Map<string, INodeType>();
	for (const type of [...ourNodeTypes, nodeType]) known.set(typeNameOf(type), type);
	const byName = (name: string) => {
		const type = known.get(name);
		if (!type) throw new Error(`Unknown node type "${name}"`);
		return type;
	};
	return {
		getByName: byName,
		getByNameAndVersion: byName,
		getKnownTypes: () =>
			Object.fromEntries(
				[...known.keys()].map((name) => [name, { className: name, sourcePath: '' }]),
			),
	};
}

/**
 * Per-item values are what expressions give in n8n: each one becomes an expression that picks the
 * item's value by `$itemIndex`. Braces are escaped so no value can close the expression.
 */
function perItemExpression(values: unknown[]): string {
	const literal = JSON.stringify(JSON.stringify(values)).replace(/[{}]/g, (brace) =>
		brace === '{' ? '\\u007b' : '\\u007d',
	);
	return `={{ JSON.parse(${literal})[$itemIndex] }}`;
}

function getPath(source: unknown, path: string[]): unknown {
	let current = source;
	for (const segment of path) {
		if (typeof current !== 'object' || current === null) return undefined;
		current = (current as Record<string, unknown>)[segment];
	}
	return current;
}

const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
	if (path.some((segment) => PROTOTYPE_KEYS.has(segment)))
		throw new Error(`A parameter path cannot name a prototype key: ${path.join('.')}`);
	let current = target;
	for (const segment of path.slice(0, -1)) {
		const next = current[segment];
		current = (current[segment] = typeof next === 'object' && next !== null ? next : {}) as Record<
			string,
			unknown
		>;
	}
	current[path[path.length - 1]] = value;
}

/**
 * The node's parameters, with every value that differs between items as an expression over the items
 * (a value the same for every item is set as it is). n8n offers no expression for a parameter with
 * `noDataExpression`, so such a parameter cannot differ between items.
 */
function nodeParameters(
	parameters: Parameters,
	itemParameters: Parameters[] | undefined,
	nodeType: INodeType,
): Parameters {
	const result = structuredClone(parameters);
	if (!itemParameters?.length) return result;
	const leaves = new Map<string, string[]>();
	// an object holding a prototype key is one value: walking into it would write to a prototype
	const isGroup = (value: unknown): value is object =>
		typeof value === 'object' &&
		value !== null &&
		!Array.isArray(value) &&
		(value as { __rl?: unknown }).__rl !== true &&
		!Object.keys(value).some((key) => PROTOTYPE_KEYS.has(key));
	const collect = (value: unknown, path: string[]) => {
		if (isGroup(value)) {
			for (const [key, inner] of Object.entries(value)) collect(inner, [...path, key]);
		} else leaves.set(path.join('.'), path);
	};
	for (const overrides of itemParameters) {
		for (const [name, value] of Object.entries(overrides)) collect(value, name.split('.'));
	}
	// an item without a value of its own gets the node's, defaults included, as n8n reads it
	const node = {
		name: 'Test',
		type: typeNameOf(nodeType),
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	} as INode;
	let withDefaults: Parameters | undefined;
	const defaulted = () =>
		(withDefaults ??= (NodeHelpers.getNodeParameters(
			nodeType.description.properties,
			structuredClone(parameters) as never,
			true,
			false,
			node,
			nodeType.description,
		) ?? {}) as Parameters);
	for (const path of leaves.values()) {
		const values = itemParameters.map((overrides) => {
			const own = getPath(expandDotted(overrides), path);
			if (own !== undefined) return own;
			const given = getPath(parameters, path);
			return given === undefined ? getPath(defaulted(), path) : given;
		});
		const first = JSON.stringify(values[0]);
		if (values.every((value) => JSON.stringify(value) === first)) {
			setPath(result, path, structuredClone(values[0]));
			continue;
		}
		const property = nodeType.description.properties.find(
			(candidate) => candidate.name === path[0],
		);
		if (property?.noDataExpression) {
			throw new Error(
				`n8n cannot give "${path.join('.')}" a value per item: its parameter takes no expressions (noDataExpression)`,
			);
		}
		setPath(result, path, perItemExpression(values));
	}
	return result;
}

function expandDotted(overrides: Parameters): Parameters {
	const expanded: Parameters = {};
	for (const [name, value] of Object.entries(overrides)) {
		const path = name.split('.');
		const existing = getPath(expanded, path);
		setPath(
			expanded,
			path,
			typeof existing === 'object' && existing !== null
				? { ...existing, ...(value as object) }
				: value,
		);
	}
	return expanded;
}

function makeNode(
	options: CommonContextOptions,
	nodeType: INodeType,
	parameters: Parameters,
	defaults: Partial<INode>,
): INode {
	return {
		id: 'node-1',
		name: nodeType.description.defaults.name ?? 'Customer Banking',
		type: typeNameOf(nodeType),
		typeVersion: 1,
		position: [0, 0],
		credentials: { customerBankingApi: { id: 'cred-1', name: 'Customer Banking account' } },
		...defaults,
		...options.node,
		parameters: parameters as INode['parameters'],
	};
}

export type StaticData = Record<'node' | 'global', IDataObject>;

const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value ?? {})) as T;

/**
 * The workflow n8n builds for one call: static data read as the database holds it (JSON). The suite's
 * `staticData` then shows the workflow's static data, read as n8n would save it.
 */
function makeWorkflow(
	options: CommonContextOptions,
	node: INode,
	nodeType: INodeType,
	staticData?: StaticData,
): Workflow {
	const nodeKey = `node:${node.name}`;
	const workflow = new Workflow({
		id: options.workflowId ?? 'workflow-1',
		name: 'Test workflow',
		nodes: [node],
		connections: {},
		active: options.mode === 'trigger' || options.mode === 'webhook',
		nodeTypes: nodeTypesWith(nodeType),
		staticData: staticData
			? { [nodeKey]: asJson(staticData.node), global: asJson(staticData.global) }
			: {},
		settings: { timezone: 'UTC' },
	});
	if (staticData) {
		for (const [name, key] of [
			['node', nodeKey],
			['global', 'global'],
		] as const) {
			Object.defineProperty(staticData, name, {
				configurable: true,
				enumerable: true,
				get: () => asJson(workflow.staticData[key] as IDataObject),
				set: (value: IDataObject) => {
					workflow.staticData[key] = asJson(value);
				},
			});
		}
	}
	return workflow;
}

function makeAdditionalData(
	parts: ContextParts,
	options: CommonContextOptions,
	extra: Partial<IWorkflowExecuteAdditionalData> = {},
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper: parts.credentialsHelper,
		executionId: options.executionId ?? 'execution-1',
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		variables: {},
		currentNodeParameters: undefined,
		executeWorkflow: async () => {
			throw new Error('sub-workflows are not part of these tests');
		},
		getRunExecutionData: async () => undefined,
		logAiEvent: () => undefined,
		startRunnerTask: async () => {
			throw new Error('task runners are not part of these tests');
		},
		...extra,
	} as unknown as IWorkflowExecuteAdditionalData;
}

function makeParts(credentials: ICredentialDataDecryptedObject): ContextParts {
	return {
		requests: [],
		logs: [],
		credentials,
		credentialsHelper: new CredentialsHelper(credentials),
	};
}

function logger(logs: () => LogEntry[] | undefined) {
	const log = (level: LogEntry['level']) => (message: string, meta?: unknown) => {
		logs()?.push({ level, message, meta });
	};
	const recorder = {
		debug: log('debug'),
		info: log('info'),
		warn: log('warn'),
		error: log('error'),
		scoped: () => recorder,
	};
	return recorder;
}

// n8n logs to its own output; here each context, and each engine run, keeps its log lines.
Container.set(Logger, logger(() => recording.getStore()?.logs) as unknown as Logger);

function recordLogs(context: object, logs: LogEntry[]): void {
	Object.defineProperty(context, 'logger', { value: logger(() => logs) });
}

function finish<T extends object>(context: T, parts: ContextParts): T {
	recordHelpers((context as unknown as { helpers: object }).helpers, parts);
	recordLogs(context, parts.logs);
	return context;
}

// ----------------------------------------------------------------------------------------------
// Contexts

export interface ExecuteContextOptions extends CommonContextOptions {
	/** Node parameters, the same for every item … */
	parameters: Parameters;
	/** … or per-item values (what expressions give per item in n8n). */
	itemParameters?: Parameters[];
	items?: INodeExecutionData[];
	continueOnFail?: boolean;
	/** n8n's $runIndex: how many times the node already ran in this execution (loops); 0 by default. */
	runIndex?: number;
	/**
	 * The execution's context data (runExecutionData.executionData.contextData). Pass the same object to
	 * the runs of one execution: Retry On Fail, a loop's next run, and n8n's Retry of a failed execution,
	 * which keeps it (n8n 2.41.1 execution.service.js retry).
	 */
	contextData?: Record<string, IDataObject>;
}

/** What an execution of the node starts from: the node on its workflow, its items, the execution's data. */
function executionSetup(options: ExecuteContextOptions, nodeSettings: Partial<INode> = {}) {
	const nodeType = options.nodeType ?? new CustomerBanking();
	const parts = makeParts(options.credentials);
	const node = makeNode(
		options,
		nodeType,
		nodeParameters(options.parameters, options.itemParameters, nodeType),
		{
			onError: options.continueOnFail ? 'continueRegularOutput' : 'stopWorkflow',
			...nodeSettings,
		},
	);
	const workflow = makeWorkflow(options, node, nodeType);
	const items = options.items ?? [{ json: {} }];
	const runExecutionData: IRunExecutionData = createRunExecutionData({
		executionData: {
			contextData: (options.contextData ??= {}) as never,
			nodeExecutionStack: [{ node, data: { main: [items] }, source: null }],
			metadata: {},
			waitingExecution: {},
			waitingExecutionSource: {},
		},
	});
	return {
		parts,
		node,
		workflow,
		items,
		runExecutionData,
		mode: options.mode ?? 'manual',
		additionalData: makeAdditionalData(parts, options),
	};
}

export function createExecuteContext(
	options: ExecuteContextOptions,
): ContextParts & { context: IExecuteFunctions } {
	const { parts, node, workflow, items, runExecutionData, mode, additionalData } =
		executionSetup(options);
	const executeData: IExecuteData = {
		node,
		data: { main: [items] },
		source: { main: [{ previousNode: 'Start' }] },
	};
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		mode,
		runExecutionData,
		options.runIndex ?? 0,
		items,
		{ main: [items] },
		executeData,
		[],
	);
	return { ...parts, context: finish(context, parts) };
}

export interface EngineRun extends ContextParts {
	/** What n8n stores for the execution. */
	run: IRun;
	/** The node's outputs as the engine recorded them; undefined when the execution failed. */
	output?: INodeExecutionData[][];
	/** The execution's error, as n8n stores it (the node's error, serialised). */
	error?: IRun['data']['resultData']['error'];
}

/**
 * The node run by n8n-core's engine (WorkflowExecute), as n8n runs a node whose input items arrive:
 * with its settings (Continue On Fail, Retry On Fail) applied by the engine, not by the suite.
 */
export async function runInEngine(
	options: ExecuteContextOptions & { retryOnFail?: { maxTries: number; waitBetweenTries: number } },
): Promise<EngineRun> {
	const { parts, node, workflow, runExecutionData, mode, additionalData } = executionSetup(
		options,
		options.retryOnFail && { retryOnFail: true, ...options.retryOnFail },
	);
	additionalData.hooks = new ExecutionLifecycleHooks(
		mode,
		additionalData.executionId ?? 'execution-1',
		{
			id: workflow.id,
			name: workflow.name,
			nodes: [node],
			connections: {},
			active: false,
			settings: {},
		} as never,
	);
	const run = await recording.run(
		parts,
		async () =>
			await new WorkflowExecute(additionalData, mode, runExecutionData).processRunExecutionData(
				workflow,
			),
	);
	const error = run.data.resultData.error;
	const output = error
		? undefined
		: (run.data.resultData.runData[node.name]?.at(-1)?.data?.main as
				| INodeExecutionData[][]
				| undefined);
	return { ...parts, run, output, error };
}

export function createLoadOptionsContext(
	options: CommonContextOptions & { currentParameters?: Parameters },
): ContextParts & { context: ILoadOptionsFunctions } {
	const nodeType = options.nodeType ?? new CustomerBanking();
	const parts = makeParts(options.credentials);
	const node = makeNode(options, nodeType, structuredClone(options.parameters ?? {}), {});
	const workflow = makeWorkflow(options, node, nodeType);
	const currentNodeParameters = { ...node.parameters, ...options.currentParameters } as IDataObject;
	const context = new LoadOptionsContext(
		workflow,
		node,
		makeAdditionalData(parts, options, { currentNodeParameters } as never),
		'parameters',
	);
	return { ...parts, context: finish(context, parts) };
}

export interface HookContextOptions extends CommonContextOptions {
	/** The workflow's static data, as the database holds it between calls (see makeWorkflow). */
	staticData?: StaticData;
	webhookUrl?: string;
	webhookName?: string;
	activationMode?: WorkflowActivateMode;
}

const WEBHOOK_ID = 'webhook-1';

/**
 * Where n8n would serve a webhook URL a suite names: `<base>/<webhook id>/<path>`, the path being the
 * node's webhook path. n8n-core's getNodeWebhookUrl then gives back exactly that URL.
 */
function webhookAddress(
	webhookUrl: string | undefined,
	path: string,
): { baseUrl?: string; webhookId: string } {
	const match =
		webhookUrl === undefined ? null : new RegExp(`^(.*)/([^/]+)/${path}$`).exec(webhookUrl);
	return match ? { baseUrl: match[1], webhookId: match[2] } : { webhookId: WEBHOOK_ID };
}

/** The trigger node, its workflow and the webhook n8n registers for it (IWebhookData). */
function webhookSetup(options: HookContextOptions, mode: 'trigger' | 'webhook') {
	const nodeType = options.nodeType ?? new CustomerBankingTrigger();
	const parts = makeParts(options.credentials);
	const description = (nodeType.description.webhooks ?? []).find(
		(webhook) => webhook.name === (options.webhookName ?? 'default'),
	);
	const path = String(description?.path ?? 'webhook');
	const { baseUrl, webhookId } = webhookAddress(options.webhookUrl, path);
	const node = makeNode(options, nodeType, structuredClone(options.parameters ?? {}), {
		webhookId,
	});
	const staticData = options.staticData ?? { node: {}, global: {} };
	const workflow = makeWorkflow({ mode, ...options }, node, nodeType, staticData);
	const isTest = (options.mode ?? mode) === 'manual';
	const additionalData = makeAdditionalData(
		parts,
		{ mode, ...options },
		{
			...(baseUrl && (isTest ? { webhookTestBaseUrl: baseUrl } : { webhookBaseUrl: baseUrl })),
		},
	);
	const webhookData: IWebhookData | undefined = description && {
		httpMethod: 'POST',
		node: node.name,
		path,
		webhookDescription: description,
		workflowId: workflow.id,
		workflowExecuteAdditionalData: additionalData,
		webhookId: node.webhookId,
		isTest,
	};
	return { nodeType, parts, node, staticData, workflow, additionalData, webhookData };
}

export function createHookContext(
	options: HookContextOptions,
): ContextParts & { context: IHookFunctions; staticData: StaticData } {
	const { parts, node, staticData, workflow, additionalData, webhookData } = webhookSetup(
		options,
		'trigger',
	);
	const context = new HookContext(
		workflow,
		node,
		additionalData,
		options.mode ?? 'trigger',
		options.activationMode ?? 'activate',
		webhookData,
	);
	return { ...parts, staticData, context: finish(context, parts) };
}

/** A poll of an active workflow's polling trigger (n8n-core PollContext). */
export function createPollContext(
	options: HookContextOptions,
): ContextParts & { context: IPollFunctions; staticData: StaticData } {
	const nodeType = options.nodeType ?? new CustomerBankingApprovalTrigger();
	const parts = makeParts(options.credentials);
	const node = makeNode(options, nodeType, structuredClone(options.parameters ?? {}), {});
	const staticData = options.staticData ?? { node: {}, global: {} };
	const mode = options.mode ?? 'trigger';
	const workflow = makeWorkflow({ ...options, mode }, node, nodeType, staticData);
	const context = new PollContext(
		workflow,
		node,
		makeAdditionalData(parts, options),
		mode,
		options.activationMode ?? 'activate',
	);
	return { ...parts, staticData, context: finish(context, parts) };
}

export interface RecordedResponse {
	statusCode: number;
	headers: Record<string, string>;
	body?: unknown;
	ended: boolean;
	/** Whether the answer was sent in full (express' `writableFinished`): not when the sender hung up. */
	finished: boolean;
	/** What express does when the answer has been sent (by n8n, or the node) or the sender hung up. */
	close(): void;
}

export interface WebhookContextOptions extends HookContextOptions {
	/** The delivery: raw body bytes (string/Buffer) or an object serialised as JSON. */
	body?: string | Buffer | IDataObject;
	headers?: Record<string, string>;
	query?: IDataObject;
	method?: string;
}

/** The request n8n's webhook server hands the node: express' request with n8n's raw body. */
function webhookRequest(options: WebhookContextOptions) {
	const rawBody = Buffer.isBuffer(options.body)
		? options.body
		: Buffer.from(
				typeof options.body === 'string' ? options.body : JSON.stringify(options.body ?? {}),
			);
	let body: IDataObject = {};
	try {
		body = JSON.parse(rawBody.toString('utf8')) as IDataObject;
	} catch {
		body = {};
	}
	const headers: Record<string, string> = {};
	for (const [key, value] of Object.entries(options.headers ?? {}))
		headers[key.toLowerCase()] = value;
	headers['content-type'] ??= 'application/json';
	return {
		method: options.method ?? 'POST',
		headers,
		body,
		rawBody,
		query: options.query ?? {},
		params: {},
		url: `/webhook/${WEBHOOK_ID}/webhook`,
	};
}

/** express' response, recording what the node answers. */
function webhookResponse(recorded: RecordedResponse) {
	const events = new EventEmitter();
	recorded.close = () => {
		recorded.ended = true;
		events.emit('close');
	};
	const end = (body?: unknown) => {
		if (body !== undefined) recorded.body = body;
		recorded.finished = true;
		recorded.close();
		return response;
	};
	const response = {
		status(code: number) {
			recorded.statusCode = code;
			return response;
		},
		setHeader(name: string, value: string) {
			recorded.headers[name.toLowerCase()] = value;
			return response;
		},
		set(name: string, value: string) {
			return response.setHeader(name, value);
		},
		json: (body: unknown) => end(body),
		send: (body?: unknown) => end(body),
		end,
		once(event: string, listener: () => void) {
			events.once(event, listener);
			return response;
		},
		get statusCode() {
			return recorded.statusCode;
		},
		get headersSent() {
			return recorded.ended;
		},
		get closed() {
			return recorded.ended;
		},
		get writableFinished() {
			return recorded.finished;
		},
	};
	return response;
}

export function createWebhookContext(options: WebhookContextOptions): ContextParts & {
	context: IWebhookFunctions;
	staticData: StaticData;
	response: RecordedResponse;
} {
	const { parts, node, staticData, workflow, additionalData, webhookData } = webhookSetup(
		options,
		'webhook',
	);
	const recorded: RecordedResponse = {
		statusCode: 200,
		headers: {},
		ended: false,
		finished: false,
		close: () => undefined,
	};
	additionalData.httpRequest = webhookRequest(options) as never;
	additionalData.httpResponse = webhookResponse(recorded) as never;
	if (!webhookData)
		throw new Error(`${node.type} has no webhook "${options.webhookName ?? 'default'}"`);
	const context = new WebhookContext(
		workflow,
		node,
		additionalData,
		options.mode ?? 'webhook',
		webhookData,
		[],
		null,
	);
	return { ...parts, staticData, response: recorded, context: finish(context, parts) };
}

// ----------------------------------------------------------------------------------------------
// Credential test, as n8n's CredentialsTester runs a `test.request`: n8n-core's RoutingNode on a
// temporary No-Op node, which always runs preAuthentication first.

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
	requests: RecordedRequest[];
}

export async function testCredential(
	credentials: ICredentialDataDecryptedObject,
): Promise<CredentialTestResult> {
	const testRequest = (credentialType.test as ICredentialTestRequest).request;
	const noOp = {
		description: {
			displayName: 'No Operation, do nothing',
			name: 'n8n-nodes-base.noOp',
			group: ['organization'],
			version: 1,
			description: '',
			defaults: { name: 'Temp-Node' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: credentialType.name, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: testRequest },
					default: '',
				},
			],
		},
	} as unknown as INodeType;
	const parts = makeParts(credentials);
	const node = makeNode(
		{ credentials, mode: 'internal' },
		noOp,
		{},
		{ id: 'temp', name: 'Temp-Node' },
	);
	const workflow = makeWorkflow({ credentials }, node, noOp);
	const executeData: IExecuteData = { node, data: {}, source: null };
	const context = finish(
		new ExecuteContext(
			workflow,
			node,
			makeAdditionalData(parts, { credentials }),
			'internal',
			createRunExecutionData(),
			0,
			[],
			{ main: [[{ json: {} }]] },
			executeData,
			[],
		),
		parts,
	);
	const decrypted = parts.credentialsHelper.decrypted();
	try {
		await recording.run(
			parts,
			async () =>
				await new RoutingNode(context, noOp, {
					id: 'cred-1',
					name: 'Customer Banking account',
					type: credentialType.name,
					data: decrypted,
				}).runNode(),
		);
		return { status: 'OK', message: 'Connection successful!', requests: parts.requests };
	} catch (error) {
		const cause = (
			error as { cause?: { response?: { status: number; statusText?: string }; code?: string } }
		).cause;
		if (cause?.response) {
			return {
				status: 'Error',
				message: cause.response.statusText || `Received HTTP status code: ${cause.response.status}`,
				requests: parts.requests,
			};
		}
		if (cause?.code) return { status: 'Error', message: cause.code, requests: parts.requests };
		return { status: 'Error', message: String((error as Error).message), requests: parts.requests };
	}
}

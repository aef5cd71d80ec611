/**
 * Realistic n8n contexts for unit and integration tests.
 *
 * `helpers.httpRequest` mimics n8n-core's `httpRequest` (request-helper-functions.ts: convertN8nRequestToAxios
 * + axios): real HTTP, JSON/form bodies, a non-2xx answer throws an axios-like error carrying
 * `response.status/.data/.headers` and the request `config` (with the Authorization header, as axios does),
 * network failures throw with Node's `code` (ECONNREFUSED, ECONNRESET "socket hang up" …).
 *
 * `helpers.httpRequestWithAuthentication` mimics n8n-core's function of the same name with the credentials
 * helper: token empty → credential.preAuthentication() → token stored (in the `credentials` object, which
 * plays n8n's credential store, so it is reused across items and contexts); credential.authenticate applied;
 * on a 401 answer preAuthentication runs again once and the request is resent once; every failure is
 * wrapped in `new NodeApiError(node, error)` exactly like n8n does.
 *
 * Every HTTP request (token requests included) is recorded in `requests`.
 */
import * as http from 'node:http';
import * as https from 'node:https';

import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	INodeExecutionData,
	INodeType,
	IPairedItemData,
	IWebhookFunctions,
	IWorkflowMetadata,
} from 'n8n-workflow';
import { NodeApiError, NodeHelpers, NodeOperationError, isObjectEmpty } from 'n8n-workflow';

import { CustomerBankingApi } from '../../credentials/CustomerBankingApi.credentials';

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

// ----------------------------------------------------------------------------------------------
// n8n's httpRequest (axios) mimic

/** Same constructor name as axios' error: NodeApiError checks `constructor.name === 'AxiosError'`. */
export class AxiosError extends Error {
	isAxiosError = true;
	code?: string;
	config: IDataObject;
	request: IDataObject = {};
	response?: { status: number; statusText: string; headers: IDataObject; data: unknown; config: IDataObject };
	status?: number;

	constructor(
		message: string,
		code: string | undefined,
		config: IDataObject,
		response?: AxiosError['response'],
		cause?: unknown,
	) {
		super(message, cause === undefined ? undefined : { cause });
		this.name = 'AxiosError';
		this.code = code;
		this.config = config;
		if (response) {
			this.response = response;
			this.status = response.status;
		}
	}

	/** axios' own toJSON includes the request config (headers included). */
	toJSON() {
		return {
			message: this.message,
			name: this.name,
			stack: this.stack,
			config: this.config,
			code: this.code,
			status: this.status,
		};
	}
}

const STATUS_TEXT: Record<number, string> = http.STATUS_CODES as Record<number, string>;

function findHeader(headers: IDataObject, name: string): string | undefined {
	return Object.keys(headers).find((key) => key.toLowerCase() === name.toLowerCase());
}

function serialiseQuery(qs: IDataObject | undefined, arrayFormat?: IHttpRequestOptions['arrayFormat']) {
	const params = new URLSearchParams();
	for (const [key, value] of Object.entries(qs ?? {})) {
		if (value === undefined || value === null) continue;
		if (Array.isArray(value)) {
			if (arrayFormat === 'comma') params.append(key, value.join(','));
			else
				value.forEach((entry, index) =>
					params.append(
						arrayFormat === 'repeat' ? key : arrayFormat === 'indices' ? `${key}[${index}]` : `${key}[]`,
						String(entry),
					),
				);
		} else if (value instanceof Date) params.append(key, value.toISOString());
		else if (typeof value === 'object') params.append(key, JSON.stringify(value));
		else params.append(key, String(value));
	}
	return params.toString();
}

/** axios' combineURLs + buildURL. */
function buildUrl(options: IHttpRequestOptions): string {
	let url = options.url;
	if (options.baseURL && !/^[a-z][a-z\d+\-.]*:\/\//i.test(url)) {
		url = url
			? `${options.baseURL.replace(/\/?\/$/, '')}/${url.replace(/^\/+/, '')}`
			: options.baseURL;
	}
	const query = serialiseQuery(options.qs, options.arrayFormat);
	if (!query) return url;
	return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

interface WireResponse {
	status: number;
	statusText: string;
	headers: IDataObject;
	body: Buffer;
}

function sendOnce(
	url: string,
	method: string,
	headers: Record<string, string>,
	payload: Buffer | undefined,
	timeout: number | undefined,
): Promise<WireResponse> {
	return new Promise((resolve, reject) => {
		const target = new URL(url);
		const transport = target.protocol === 'https:' ? https : http;
		const request = transport.request(
			target,
			{ method, headers: payload ? { ...headers, 'content-length': String(payload.length) } : headers },
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('error', reject);
				response.on('end', () =>
					resolve({
						status: response.statusCode ?? 0,
						statusText: response.statusMessage ?? STATUS_TEXT[response.statusCode ?? 0] ?? '',
						headers: { ...response.headers } as IDataObject,
						body: Buffer.concat(chunks),
					}),
				);
			},
		);
		request.on('error', reject);
		if (timeout) {
			request.setTimeout(timeout, () =>
				request.destroy(Object.assign(new Error(`timeout of ${timeout}ms exceeded`), { code: 'ECONNABORTED' })),
			);
		}
		request.end(payload);
	});
}

function parseResponseBody(body: Buffer, encoding: IHttpRequestOptions['encoding']): unknown {
	if (encoding === 'arraybuffer') return body;
	const text = body.toString('utf8');
	if (text === '') return '';
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

function statusIsAccepted(status: number, options: IHttpRequestOptions): boolean {
	const ignore = options.ignoreHttpStatusErrors;
	if (ignore === true) return true;
	if (typeof ignore === 'object' && ignore !== null && (ignore as { ignore?: boolean }).ignore === true) {
		return !((ignore as { except?: number[] }).except ?? []).includes(status);
	}
	return status >= 200 && status < 300;
}

/** n8n-core httpRequest: removeEmptyBody + convertN8nRequestToAxios + axios. */
export async function n8nHttpRequest(
	requestOptions: IHttpRequestOptions,
	requests: RecordedRequest[],
): Promise<unknown> {
	const method = (requestOptions.method ?? 'GET').toUpperCase();
	const headers: Record<string, string> = {};
	for (const [key, value] of Object.entries(requestOptions.headers ?? {})) {
		if (value !== undefined && value !== null) headers[key] = String(value);
	}

	// Body: what convertN8nRequestToAxios + axios' transformRequest put on the wire.
	let payload: string | Buffer | undefined;
	const body = requestOptions.body;
	const hasBody =
		body !== undefined &&
		body !== null &&
		(typeof body === 'string' || (typeof body === 'object' && !isObjectEmpty(body as object)));
	// removeEmptyBody, then "no data on GET" (httpRequest).
	if (hasBody && method !== 'GET') {
		const contentTypeKey = findHeader(headers, 'content-type');
		const contentType = contentTypeKey ? headers[contentTypeKey] : undefined;
		if (body instanceof URLSearchParams) {
			payload = body.toString();
			if (!contentTypeKey) headers['Content-Type'] = 'application/x-www-form-urlencoded';
		} else if (Buffer.isBuffer(body)) {
			payload = body;
		} else if (typeof body === 'string') {
			payload = body;
		} else if (contentType?.includes('application/x-www-form-urlencoded')) {
			payload = new URLSearchParams(body as Record<string, string>).toString();
		} else {
			payload = JSON.stringify(body);
			if (!contentTypeKey) headers['content-type'] = 'application/json';
		}
	}
	if (requestOptions.json && !findHeader(headers, 'accept')) headers.Accept = 'application/json';
	if (!findHeader(headers, 'user-agent')) headers['User-Agent'] = 'n8n';
	if (!findHeader(headers, 'accept')) headers.Accept = 'application/json, text/plain, */*';

	const url = buildUrl(requestOptions);
	const config: IDataObject = {
		url,
		method: method.toLowerCase(),
		headers: { ...headers },
		data: payload === undefined ? undefined : payload.toString(),
		params: requestOptions.qs,
	};
	const record: RecordedRequest = {
		method,
		url,
		headers: { ...headers },
		rawBody: payload?.toString(),
		body: payload === undefined ? undefined : parseResponseBody(Buffer.from(payload), undefined),
	};
	requests.push(record);

	let response: WireResponse;
	let currentUrl = url;
	let redirects = 0;
	for (;;) {
		try {
			response = await sendOnce(
				currentUrl,
				method,
				headers,
				payload === undefined ? undefined : Buffer.from(payload),
				requestOptions.timeout,
			);
		} catch (error) {
			const nodeError = error as NodeJS.ErrnoException;
			record.errorCode = nodeError.code;
			throw new AxiosError(nodeError.message, nodeError.code, config, undefined, nodeError);
		}
		const location = response.headers.location;
		if (
			[301, 302, 303, 307, 308].includes(response.status) &&
			typeof location === 'string' &&
			requestOptions.disableFollowRedirect !== true &&
			redirects < (requestOptions.maxRedirects ?? 21)
		) {
			currentUrl = new URL(location, currentUrl).toString();
			redirects++;
			continue;
		}
		break;
	}
	record.status = response.status;

	const data = parseResponseBody(response.body, requestOptions.encoding);
	if (!statusIsAccepted(response.status, requestOptions)) {
		throw new AxiosError(
			`Request failed with status code ${response.status}`,
			response.status >= 500 ? 'ERR_BAD_RESPONSE' : 'ERR_BAD_REQUEST',
			config,
			{ status: response.status, statusText: response.statusText, headers: response.headers, data, config },
		);
	}
	if (requestOptions.returnFullResponse) {
		return { body: data, headers: response.headers, statusCode: response.status, statusMessage: response.statusText };
	}
	return data;
}

// ----------------------------------------------------------------------------------------------
// n8n's credentials helper mimic (preAuthentication, authenticate, getDecrypted defaults)

/** n8n resolves `={{ … }}` with its expression engine; plain JavaScript over $credentials is enough here. */
export function resolveExpression(value: unknown, credentials: ICredentialDataDecryptedObject): unknown {
	if (typeof value !== 'string' || !value.startsWith('=')) return value;
	const template = value.slice(1);
	const whole = /^\{\{([\s\S]*)\}\}$/.exec(template.trim());
	const evaluate = (expression: string) =>
		new Function('$credentials', `return (${expression});`)(credentials) as unknown;
	if (whole && !whole[1].includes('}}')) return evaluate(whole[1]);
	return template.replace(/\{\{([\s\S]*?)\}\}/g, (_, expression: string) => String(evaluate(expression) ?? ''));
}

export class CredentialsHelper {
	readonly type: ICredentialType;

	constructor(
		/** Plays n8n's credential store: preAuthentication results are written here. */
		readonly store: ICredentialDataDecryptedObject,
		type: ICredentialType = new CustomerBankingApi(),
	) {
		this.type = type;
	}

	/** getDecrypted: the stored data with the defaults of the credential's properties. */
	decrypted(): ICredentialDataDecryptedObject {
		const defaults: ICredentialDataDecryptedObject = {};
		for (const property of this.type.properties) {
			if (property.type === 'notice') continue;
			defaults[property.name] = property.default as ICredentialDataDecryptedObject[string];
		}
		return { ...defaults, ...this.store };
	}

	async preAuthentication(
		helpers: { httpRequest: (options: IHttpRequestOptions) => Promise<unknown> },
		credentials: ICredentialDataDecryptedObject,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const expirable = this.type.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (!expirable || typeof this.type.preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;
		const output = (await this.type.preAuthentication.call(
			{ helpers } as never,
			credentials,
		)) as IDataObject;
		if (output[expirable.name] === undefined) return undefined;
		const updated: ICredentialDataDecryptedObject = { ...credentials };
		for (const [key, value] of Object.entries(output)) {
			if (value !== undefined && value !== null) {
				updated[key] = value as ICredentialDataDecryptedObject[string];
				this.store[key] = value as ICredentialDataDecryptedObject[string];
			}
		}
		return updated;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.type;
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions);
		}
		if (authenticate && (authenticate as IAuthenticateGeneric).type === 'generic') {
			const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
			requestOptions.headers ??= {};
			for (const [outerKey, outerValue] of Object.entries((authenticate as IAuthenticateGeneric).properties)) {
				for (const [key, value] of Object.entries(outerValue as IDataObject)) {
					target[outerKey] ??= {};
					target[outerKey][String(resolveExpression(key, credentials))] = String(
						resolveExpression(value, credentials) ?? '',
					);
				}
			}
		}
		return requestOptions;
	}
}

/** n8n-core httpRequestWithAuthentication for a credential with preAuthentication (not OAuth1/2). */
async function n8nHttpRequestWithAuthentication(
	node: INode,
	credentialType: string,
	requestOptions: IHttpRequestOptions,
	credentialsHelper: CredentialsHelper,
	requests: RecordedRequest[],
	additional?: { credentialsDecrypted?: { data?: ICredentialDataDecryptedObject } },
): Promise<unknown> {
	const helpers = { httpRequest: async (options: IHttpRequestOptions) => await n8nHttpRequest(options, requests) };
	if (['GET', 'HEAD', 'OPTIONS'].includes(requestOptions.method ?? 'GET') && isObjectEmpty(requestOptions.body as object)) {
		delete requestOptions.body;
	}
	let credentials: ICredentialDataDecryptedObject | undefined;
	try {
		if (credentialType !== credentialsHelper.type.name) {
			throw new NodeOperationError(node, `Node "${node.name}" does not have any credentials of type "${credentialType}" set`);
		}
		// as n8n-core: credentials handed over are used (and a refreshed token written into them), not read again
		credentials = additional?.credentialsDecrypted?.data ?? credentialsHelper.decrypted();
		const data = await credentialsHelper.preAuthentication(helpers, credentials, false);
		if (data) Object.assign(credentials, data);
		requestOptions = await credentialsHelper.authenticate(credentials, requestOptions);
		return await n8nHttpRequest(requestOptions, requests);
	} catch (error) {
		if ((error as AxiosError).response?.status === 401) {
			try {
				if (credentials !== undefined) {
					const data = await credentialsHelper.preAuthentication(helpers, credentials, true);
					if (data) Object.assign(credentials, data);
					requestOptions = await credentialsHelper.authenticate(credentials, requestOptions);
				}
				return await n8nHttpRequest(requestOptions, requests);
			} catch (retryError) {
				throw new NodeApiError(node, retryError as never);
			}
		}
		throw new NodeApiError(node, error as never);
	}
}

// ----------------------------------------------------------------------------------------------
// Parameters

export type Parameters = Record<string, unknown>;

function getPath(source: unknown, path: string): unknown {
	let current = source;
	for (const segment of path.split('.')) {
		if (typeof current !== 'object' || current === null) return undefined;
		current = (current as Record<string, unknown>)[segment];
	}
	return current;
}

function lookUp(layers: Parameters[], name: string): unknown {
	for (const layer of layers) {
		if (name in layer) return layer[name];
		const nested = getPath(layer, name);
		if (nested !== undefined) return nested;
	}
	return undefined;
}

function withDefaults(parameters: Parameters, node: INode, nodeType?: INodeType): Parameters {
	if (!nodeType) return parameters;
	const description = nodeType.description;
	const resolved = NodeHelpers.getNodeParameters(
		description.properties,
		parameters as never,
		true,
		false,
		node,
		description,
	);
	return { ...(resolved as Parameters), ...parameters };
}

interface GetParameterOptions {
	extractValue?: boolean;
}

function parameterValue(value: unknown, options?: GetParameterOptions): unknown {
	if (
		options?.extractValue &&
		typeof value === 'object' &&
		value !== null &&
		(value as { __rl?: boolean }).__rl === true
	) {
		return (value as { value: unknown }).value;
	}
	return structuredClone(value);
}

/** getNodeParameter as n8n-core: a value still undefined after the fallback throws, even when the
 * caller passed `undefined` as the fallback explicitly. */
function readParameter(
	layers: Parameters[],
	name: string,
	fallback: unknown,
	options?: GetParameterOptions,
): unknown {
	const found = lookUp(layers, name);
	const value = found === undefined ? fallback : found;
	if (value === undefined) throw new Error(`Could not get parameter "${name}"`);
	return parameterValue(value, options);
}

// ----------------------------------------------------------------------------------------------
// n8n-core helpers that n8n-workflow does not export

export function returnJsonArray(jsonData: IDataObject | IDataObject[]): INodeExecutionData[] {
	const list = Array.isArray(jsonData) ? jsonData : [jsonData];
	return list.map((data) =>
		data?.json ? ({ ...data, json: data.json } as INodeExecutionData) : { json: data },
	);
}

export function constructExecutionMetaData(
	inputData: INodeExecutionData[],
	options: { itemData: IPairedItemData | IPairedItemData[] },
): INodeExecutionData[] {
	return inputData.map(({ json, ...other }) => ({ json, pairedItem: options.itemData, ...other }));
}

// ----------------------------------------------------------------------------------------------
// Contexts

export interface CommonContextOptions {
	parameters?: Parameters;
	credentials: ICredentialDataDecryptedObject;
	node?: Partial<INode>;
	/** Applies the defaults of the node description, as n8n does for parameters the user left untouched. */
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

function makeNode(overrides: Partial<INode> | undefined, nodeType?: INodeType): INode {
	return {
		id: 'node-1',
		name: 'Customer Banking',
		type: nodeType?.description.name ?? 'n8n-nodes-customer-banking.customerBanking',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { customerBankingApi: { id: 'cred-1', name: 'Customer Banking account' } },
		...overrides,
	};
}

function commonMembers(options: CommonContextOptions, node: INode, parts: ContextParts) {
	const { requests, logs, credentialsHelper } = parts;
	const workflow: IWorkflowMetadata = {
		id: options.workflowId ?? 'workflow-1',
		name: 'Test workflow',
		active: options.mode === 'trigger' || options.mode === 'webhook',
	};
	const log = (level: LogEntry['level']) => (message: string, meta?: unknown) => {
		logs.push({ level, message, meta });
	};
	return {
		getNode: () => structuredClone(node),
		getWorkflow: () => workflow,
		getExecutionId: () => options.executionId ?? 'execution-1',
		getMode: () => options.mode ?? 'manual',
		getTimezone: () => 'UTC',
		getInstanceBaseUrl: () => 'http://localhost:5678/',
		logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
		getCredentials: async (type: string) => {
			if (type !== credentialsHelper.type.name) {
				throw new NodeOperationError(node, `Node does not have any credentials set for "${type}"`);
			}
			return credentialsHelper.decrypted();
		},
		helpers: {
			httpRequest: async (requestOptions: IHttpRequestOptions) => await n8nHttpRequest(requestOptions, requests),
			httpRequestWithAuthentication: async (
				credentialType: string,
				requestOptions: IHttpRequestOptions,
				additional?: { credentialsDecrypted?: { data?: ICredentialDataDecryptedObject } },
			) => await n8nHttpRequestWithAuthentication(node, credentialType, requestOptions, credentialsHelper, requests, additional),
			returnJsonArray,
			constructExecutionMetaData,
		},
	};
}

function makeParts(credentials: ICredentialDataDecryptedObject): ContextParts {
	return {
		requests: [],
		logs: [],
		credentials,
		credentialsHelper: new CredentialsHelper(credentials),
	};
}

export interface ExecuteContextOptions extends CommonContextOptions {
	/** Node parameters, the same for every item … */
	parameters: Parameters;
	/** … or per-item overrides (what expressions would give per item). */
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

export function createExecuteContext(options: ExecuteContextOptions): ContextParts & { context: IExecuteFunctions } {
	const nodeType = options.nodeType;
	const node = makeNode({ parameters: options.parameters as never, ...options.node }, nodeType);
	const parts = makeParts(options.credentials);
	const parameters = withDefaults(options.parameters, node, nodeType);
	const items = options.items ?? [{ json: {} }];
	const context = {
		...commonMembers(options, node, parts),
		getInputData: () => items,
		continueOnFail: () => options.continueOnFail ?? false,
		getNodeParameter: (name: string, itemIndex: number, ...rest: unknown[]) =>
			readParameter(
				[options.itemParameters?.[itemIndex] ?? {}, parameters],
				name,
				rest[0],
				rest[1] as GetParameterOptions | undefined,
			),
		getWorkflowStaticData: () => ({}),
		// as n8n-workflow's node-helpers getContext: 'flow', or 'node:<node name>', created on first use
		getContext: (type: 'flow' | 'node') => {
			const contextData = options.contextData ?? (options.contextData = {});
			const key = type === 'flow' ? 'flow' : `node:${node.name}`;
			return (contextData[key] ??= {});
		},
		// the only member of n8n's data proxy the node reads; Retry On Fail keeps it, loops raise it
		getWorkflowDataProxy: () => ({ $runIndex: options.runIndex ?? 0 }),
		sendMessageToUI: () => undefined,
	};
	return { ...parts, context: context as unknown as IExecuteFunctions };
}

export function createLoadOptionsContext(
	options: CommonContextOptions & { currentParameters?: Parameters },
): ContextParts & { context: ILoadOptionsFunctions } {
	const node = makeNode({ parameters: (options.parameters ?? {}) as never, ...options.node }, options.nodeType);
	const parts = makeParts(options.credentials);
	const parameters = withDefaults(options.parameters ?? {}, node, options.nodeType);
	const getNodeParameter = (name: string, ...rest: unknown[]) =>
		readParameter([parameters], name, rest[0], rest[1] as GetParameterOptions | undefined);
	const context = {
		...commonMembers(options, node, parts),
		getNodeParameter,
		getCurrentNodeParameter: (name: string, extract?: GetParameterOptions) =>
			parameterValue(lookUp([options.currentParameters ?? {}, parameters], name), extract),
		getCurrentNodeParameters: () => ({ ...parameters, ...options.currentParameters }),
	};
	return { ...parts, context: context as unknown as ILoadOptionsFunctions };
}

export type StaticData = Record<'node' | 'global', IDataObject>;

export interface HookContextOptions extends CommonContextOptions {
	/** Shared between calls (checkExists/create/delete) like n8n's workflow static data. */
	staticData?: StaticData;
	webhookUrl?: string;
	webhookName?: string;
	activationMode?: 'init' | 'create' | 'update' | 'activate' | 'manual' | 'leadershipChange';
}

function staticDataAccessor(staticData: StaticData) {
	return (type: string) => {
		const key = type === 'global' ? 'global' : 'node';
		return staticData[key];
	};
}

/** What the trigger's hook and webhook contexts share: the node with its webhook, parameters, static data. */
function webhookNodeMembers(options: HookContextOptions, mode: 'trigger' | 'webhook') {
	const node = makeNode(
		{ parameters: (options.parameters ?? {}) as never, webhookId: 'webhook-1', ...options.node },
		options.nodeType,
	);
	const parts = makeParts(options.credentials);
	const parameters = withDefaults(options.parameters ?? {}, node, options.nodeType);
	const staticData = options.staticData ?? { node: {}, global: {} };
	const members = {
		...commonMembers({ mode, ...options }, node, parts),
		getNodeParameter: (name: string, ...rest: unknown[]) =>
			readParameter([parameters], name, rest[0], rest[1] as GetParameterOptions | undefined),
		getNodeWebhookUrl: () => options.webhookUrl ?? 'https://n8n.example.com/webhook/webhook-1/customer-banking',
		getWebhookName: () => options.webhookName ?? 'default',
		getWorkflowStaticData: staticDataAccessor(staticData),
	};
	return { parts, staticData, members };
}

export function createHookContext(
	options: HookContextOptions,
): ContextParts & { context: IHookFunctions; staticData: StaticData } {
	const { parts, staticData, members } = webhookNodeMembers(options, 'trigger');
	const context = {
		...members,
		getWebhookDescription: () => ({ name: options.webhookName ?? 'default', httpMethod: 'POST', path: 'customer-banking' }),
		getActivationMode: () => options.activationMode ?? 'activate',
	};
	return { ...parts, staticData, context: context as unknown as IHookFunctions };
}

export interface RecordedResponse {
	statusCode: number;
	headers: Record<string, string>;
	body?: unknown;
	ended: boolean;
}

export interface WebhookContextOptions extends HookContextOptions {
	/** The delivery: raw body bytes (string/Buffer) or an object serialised as JSON. */
	body?: string | Buffer | IDataObject;
	headers?: Record<string, string>;
	query?: IDataObject;
	method?: string;
}

export function createWebhookContext(options: WebhookContextOptions): ContextParts & {
	context: IWebhookFunctions;
	staticData: StaticData;
	response: RecordedResponse;
} {
	const { parts, staticData, members } = webhookNodeMembers(options, 'webhook');

	const rawBody = Buffer.isBuffer(options.body)
		? options.body
		: Buffer.from(typeof options.body === 'string' ? options.body : JSON.stringify(options.body ?? {}));
	let parsedBody: IDataObject = {};
	try {
		parsedBody = JSON.parse(rawBody.toString('utf8')) as IDataObject;
	} catch {
		parsedBody = {};
	}
	const headers: Record<string, string> = {};
	for (const [key, value] of Object.entries(options.headers ?? {})) headers[key.toLowerCase()] = value;
	if (!headers['content-type']) headers['content-type'] = 'application/json';
	const request = {
		method: options.method ?? 'POST',
		headers,
		body: parsedBody,
		rawBody,
		query: options.query ?? {},
		url: '/webhook/webhook-1/customer-banking',
	};

	const recorded: RecordedResponse = { statusCode: 200, headers: {}, ended: false };
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
		json(body: unknown) {
			recorded.body = body;
			recorded.ended = true;
			return response;
		},
		send(body?: unknown) {
			recorded.body = body;
			recorded.ended = true;
			return response;
		},
		end(body?: unknown) {
			if (body !== undefined) recorded.body = body;
			recorded.ended = true;
			return response;
		},
		get statusCode() {
			return recorded.statusCode;
		},
		get headersSent() {
			return recorded.ended;
		},
	};

	const context = {
		...members,
		getRequestObject: () => request,
		getResponseObject: () => response,
		getHeaderData: () => ({ ...headers }),
		getBodyData: () => parsedBody,
		getQueryData: () => request.query,
		getParamsData: () => ({}),
	};
	return { ...parts, staticData, response: recorded, context: context as unknown as IWebhookFunctions };
}

// ----------------------------------------------------------------------------------------------
// Credential test, as n8n's CredentialsTester runs it (RoutingNode → httpRequestWithAuthentication)

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
	requests: RecordedRequest[];
}

export async function testCredential(credentials: ICredentialDataDecryptedObject): Promise<CredentialTestResult> {
	const credentialType = new CustomerBankingApi();
	const helper = new CredentialsHelper(credentials, credentialType);
	const requests: RecordedRequest[] = [];
	const node = makeNode({ name: 'Temp-Node', type: 'n8n-nodes-base.noOp' });
	const testRequest = (credentialType.test as ICredentialTestRequest).request;
	const decrypted = helper.decrypted();
	const requestOptions: IHttpRequestOptions = {
		method: testRequest.method ?? 'GET',
		baseURL: String(resolveExpression(testRequest.baseURL, decrypted) ?? ''),
		url: String(resolveExpression(testRequest.url, decrypted) ?? ''),
		qs: testRequest.qs as IDataObject | undefined,
		headers: (testRequest.headers as IDataObject | undefined) ?? {},
		json: true,
	};
	try {
		await n8nHttpRequestWithAuthentication(node, credentialType.name, requestOptions, helper, requests);
		return { status: 'OK', message: 'Connection successful!', requests };
	} catch (error) {
		const cause = (error as { cause?: { response?: { status: number; statusText?: string }; code?: string } }).cause;
		if (cause?.response) {
			return {
				status: 'Error',
				message: cause.response.statusText || `Received HTTP status code: ${cause.response.status}`,
				requests,
			};
		}
		if (cause?.code) return { status: 'Error', message: cause.code, requests };
		return { status: 'Error', message: String((error as Error).message), requests };
	}
}

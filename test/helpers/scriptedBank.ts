/**
 * A bank scripted in the test, for unit tests of the payment wing: n8n-core's own execution context
 * (n8nContext.ts), with `helpers.httpRequestWithAuthentication` replaced by the test's script. No
 * sandbox, no sockets: each request the transport makes is handed to the script, which answers with a
 * body, an HTTP error (thrown as n8n's client throws it: `response.status`, `response.data`) or a lost
 * connection (ECONNRESET). Every request is recorded in `calls`.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
} from 'n8n-workflow';

import { createExecuteContext, type ExecuteContextOptions, type LogEntry } from './n8nContext';

const BASE_URL = 'https://bank.example.test/v1';

export interface BankCall {
	method: string;
	/** The path after the Base URL, e.g. `/transaction/tx-1`. */
	path: string;
	qs: IDataObject;
	body: unknown;
	headers: Record<string, string>;
}

export type BankReply =
	| { status: number; body?: unknown; headers?: Record<string, string> }
	/** The connection is lost: no answer (the outcome of a write is unknown). */
	| 'reset';

export type BankScript = (call: BankCall, calls: BankCall[]) => BankReply;

export function scriptedBankCredentials(): ICredentialDataDecryptedObject {
	return {
		environment: 'sandbox',
		baseUrl: BASE_URL,
		tokenUrl: 'https://auth.example.test/oauth/token',
		audience: 'https://api.customer-banking.example',
		clientId: 'client-id',
		clientSecret: 'client-secret-canary',
		accessToken: '',
	};
}

/** A 200 answer. */
export const ok = (body: unknown): BankReply => ({ status: 200, body });

/** An HTTP error answer. */
export const fails = (
	status: number,
	body: unknown = { message: `status ${status}` },
): BankReply => ({
	status,
	body,
});

/** One page of a list endpoint (spec §Pagination: page, limit; `{ total, results }`). */
export function page(records: IDataObject[], qs: IDataObject): BankReply {
	const limit = Number(qs.limit ?? records.length) || records.length || 1;
	const index = Number(qs.page ?? 0);
	return ok({ total: records.length, results: records.slice(index * limit, (index + 1) * limit) });
}

export interface ScriptedBank {
	context: IExecuteFunctions;
	calls: BankCall[];
	logs: LogEntry[];
	/** The script may be replaced between steps of a test. */
	setScript(script: BankScript): void;
}

function thrownFor(reply: Exclude<BankReply, 'reset'>): Error {
	return Object.assign(new Error(`Request failed with status code ${reply.status}`), {
		response: { status: reply.status, headers: reply.headers ?? {}, data: reply.body },
	});
}

/**
 * Replaces the context's `helpers.httpRequestWithAuthentication` with `script` (any n8n context: execute,
 * webhook, hook). Returns the record of calls and a way to change the script between steps.
 */
export function scriptRequests(
	context: { helpers: object },
	script: BankScript,
): Pick<ScriptedBank, 'calls' | 'setScript'> {
	const calls: BankCall[] = [];
	let current = script;
	const send = async (_type: string, request: IHttpRequestOptions): Promise<unknown> => {
		const url = new URL(request.url);
		const call: BankCall = {
			method: request.method ?? 'GET',
			path: url.pathname.replace(/^\/v1/, ''),
			qs: (request.qs ?? {}) as IDataObject,
			body: request.body === undefined ? undefined : structuredClone(request.body),
			headers: (request.headers ?? {}) as Record<string, string>,
		};
		calls.push(call);
		const reply = current(call, calls);
		if (reply === 'reset') throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
		if (reply.status >= 400) throw thrownFor(reply);
		return structuredClone(reply.body);
	};
	(context.helpers as { httpRequestWithAuthentication: unknown }).httpRequestWithAuthentication =
		send;
	return {
		calls,
		setScript: (next) => {
			current = next;
		},
	};
}

export function scriptedBank(
	script: BankScript,
	options: Partial<ExecuteContextOptions> = {},
): ScriptedBank {
	const { context, logs } = createExecuteContext({
		parameters: {},
		credentials: scriptedBankCredentials(),
		...options,
	});
	return { context, logs, ...scriptRequests(context, script) };
}

/** Answers GET requests from a table of paths (lists by their path, paged), anything else 404. */
export function readsFrom(
	records: Record<string, IDataObject | IDataObject[] | BankReply>,
): BankScript {
	return (call) => {
		const found = records[call.path];
		if (found === undefined) return fails(404, { message: 'not found' });
		if (Array.isArray(found)) return page(found, call.qs);
		if (found === 'reset' || (typeof found.status === 'number' && 'body' in found))
			return found as BankReply;
		return ok(found);
	};
}

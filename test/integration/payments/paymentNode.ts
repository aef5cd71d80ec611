/** Runs the action node's real `execute` for payments against the sandbox, with execution control. */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
} from 'n8n-workflow';

import { CustomerBanking } from '../../../nodes/CustomerBanking/CustomerBanking.node';
import { createExecuteContext, type RecordedRequest } from '../../helpers/n8nContext';
import type { Sandbox } from '../../sandbox';

export interface PaymentRun {
	output?: INodeExecutionData[][];
	error?: Error & { description?: string | null; context?: { itemIndex?: number }; httpCode?: string | null };
	requests: RecordedRequest[];
	/** POST /payments requests as sent: key and parsed body. */
	posts: Array<{ key: string; body: unknown }>;
}

export function byId(value: string) {
	return { __rl: true, mode: 'id', value };
}

export interface RunOptions {
	parameters: Record<string, unknown>;
	itemParameters?: Array<Record<string, unknown>>;
	items?: INodeExecutionData[];
	continueOnFail?: boolean;
	executionId?: string;
	/** n8n's $runIndex: loops run the node again in the same execution with the next one. */
	runIndex?: number;
	workflowId?: string;
	/** 'retry' for n8n's Retry of a failed execution. */
	mode?: 'manual' | 'trigger' | 'webhook' | 'retry';
	/** The execution's context data, shared by the runs of one execution and handed back by n8n's Retry. */
	contextData?: Record<string, IDataObject>;
	node?: Partial<INode>;
	/** Called after each API answer (or failure), before the node continues: what the world does meanwhile. */
	afterRequest?: (request: IHttpRequestOptions) => Promise<void>;
}

export async function runPayments(
	sandbox: Sandbox,
	credentials: ICredentialDataDecryptedObject,
	options: RunOptions,
): Promise<PaymentRun> {
	const nodeType = new CustomerBanking();
	const items =
		options.items ?? (options.itemParameters ? options.itemParameters.map((_, index) => ({ json: { index } })) : undefined);
	const { context, requests } = createExecuteContext({
		...options,
		parameters: { resource: 'payment', ...options.parameters },
		items,
		credentials,
		nodeType,
	});
	if (options.afterRequest) {
		const send = context.helpers.httpRequestWithAuthentication;
		const afterRequest = options.afterRequest;
		context.helpers.httpRequestWithAuthentication = async function (this: unknown, type, request, ...rest) {
			try {
				return await send.call(this as never, type, request, ...rest);
			} finally {
				await afterRequest(request);
			}
		} as typeof send;
	}
	const run: PaymentRun = { requests, posts: [] };
	try {
		run.output = await nodeType.execute.call(context);
	} catch (error) {
		run.error = error as PaymentRun['error'];
	}
	run.posts = requests
		.filter((request) => request.method === 'POST' && request.url === `${sandbox.baseUrl}/payments`)
		.map((request) => ({ key: request.headers['x-idempotent-key'], body: request.body }));
	return run;
}

export function jsonOf(run: PaymentRun, output = 0): IDataObject[] {
	if (run.error) throw run.error;
	return (run.output?.[output] ?? []).map((item) => item.json);
}

/** The sandbox's outgoing transactions with this reference. */
export function sentWithReference(sandbox: Sandbox, reference: string): IDataObject[] {
	return sandbox.control.ledger().transactions.filter((t) => t.reference === reference && t.direction === 'outgoing');
}

export function approvalsWithReference(sandbox: Sandbox, reference: string): IDataObject[] {
	return sandbox.control
		.ledger()
		.approvals.filter((a) => (a.transaction as IDataObject).reference === reference);
}

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** Runs the Customer Banking action node's real `execute` against the sandbox (shared by the action-node suites). */
import type { ICredentialDataDecryptedObject, INodeExecutionData } from 'n8n-workflow';

import { CustomerBanking } from '../../nodes/CustomerBanking/CustomerBanking.node';
import { createExecuteContext, type RecordedRequest } from '../helpers/n8nContext';
import type { Sandbox } from '../sandbox';

export interface NodeRun {
	output?: INodeExecutionData[][];
	error?: Error & {
		httpCode?: string | null;
		context?: { itemIndex?: number };
		description?: string | null;
	};
	/** Requests the node sent (token requests included), in order. */
	requests: RecordedRequest[];
	/** API requests only, as "METHOD /path?query" relative to the base URL. */
	calls: string[];
}

export function byId(value: string) {
	return { __rl: true, mode: 'id', value };
}

export async function runNode(
	sandbox: Sandbox,
	credentials: ICredentialDataDecryptedObject,
	options: {
		parameters: Record<string, unknown>;
		itemParameters?: Array<Record<string, unknown>>;
		items?: INodeExecutionData[];
		continueOnFail?: boolean;
		/** Payments derive their idempotency key from it: give each logical run its own. */
		executionId?: string;
	},
): Promise<NodeRun> {
	const nodeType = new CustomerBanking();
	const items =
		options.items ??
		(options.itemParameters
			? options.itemParameters.map((_, index) => ({ json: { index } }))
			: undefined);
	const { context, requests } = createExecuteContext({ ...options, items, credentials, nodeType });
	const run: NodeRun = { requests, calls: [] };
	try {
		run.output = await nodeType.execute.call(context);
	} catch (error) {
		run.error = error as NodeRun['error'];
	}
	run.calls = requests
		.filter((request) => request.url.startsWith(sandbox.baseUrl))
		.map((request) => `${request.method} ${request.url.slice(sandbox.baseUrl.length)}`);
	return run;
}

/** The json of every item of the first output. */
export function mainJson(run: NodeRun) {
	if (run.error) throw run.error;
	return (run.output?.[0] ?? []).map((item) => item.json);
}

/** Runs the action node's real `execute` for payments against the sandbox, with execution control. */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CustomerBanking } from '../../../nodes/CustomerBanking/CustomerBanking.node';
import { nextStepOf } from '../../../nodes/CustomerBanking/payments/paymentStatuses';
import { createExecuteContext, type RecordedRequest } from '../../helpers/n8nContext';
import type { Sandbox } from '../../sandbox';

export interface PaymentRun {
	output?: INodeExecutionData[][];
	error?: Error & {
		description?: string | null;
		context?: { itemIndex?: number };
		httpCode?: string | null;
	};
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
	/** Rewrites what the bank answered before the node reads it: a bank that shows less than the sandbox. */
	answerAs?: (request: IHttpRequestOptions, answer: unknown) => unknown;
	/** Run as n8n hands the node to an AI agent: its type named with "Tool" at the end (convertNodeToAiTool). */
	asAiTool?: boolean;
}

export async function runPayments(
	sandbox: Sandbox,
	credentials: ICredentialDataDecryptedObject,
	options: RunOptions,
): Promise<PaymentRun> {
	const nodeType = new CustomerBanking();
	if (options.asAiTool) {
		nodeType.description = { ...nodeType.description, name: `${nodeType.description.name}Tool` };
	}
	const items =
		options.items ??
		(options.itemParameters
			? options.itemParameters.map((_, index) => ({ json: { index } }))
			: undefined);
	const { context, requests } = createExecuteContext({
		...options,
		// These suites prove the key machinery (Retry On Fail, n8n's Retry, lost answers) where the keys
		// alone decide, so Skip Payments Already Made is off unless a test turns it on;
		// duplicateProtection.test.ts runs the same failure paths with it on.
		parameters: { resource: 'payment', skipAlreadyMade: false, ...options.parameters },
		items,
		credentials,
		nodeType,
	});
	if (options.afterRequest || options.answerAs) {
		const send = context.helpers.httpRequestWithAuthentication;
		const { afterRequest, answerAs } = options;
		context.helpers.httpRequestWithAuthentication = async function (
			this: unknown,
			type,
			request,
			...rest
		) {
			try {
				const answer = await send.call(this as never, type, request, ...rest);
				return answerAs ? answerAs(request, answer) : answer;
			} finally {
				await afterRequest?.(request);
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
	return sandbox.control
		.ledger()
		.transactions.filter((t) => t.reference === reference && t.direction === 'outgoing');
}

export function approvalsWithReference(sandbox: Sandbox, reference: string): IDataObject[] {
	return sandbox.control
		.ledger()
		.approvals.filter((a) => (a.transaction as IDataObject).reference === reference);
}

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The start of a state-unknown message: the reference, and the key when given (else any UUID). */
export function stateUnknownMessage(reference: string, key?: string): RegExp {
	return new RegExp(
		`^Payment state unknown — not resubmitted \\(reference "${escapeRegExp(reference)}", idempotency key ${key ? escapeRegExp(key) : '[0-9a-f-]{36}'}\\)$`,
	);
}

/**
 * The payment could not be proven to be made or not (a lost answer, a bank without creation times):
 * the node fails the item, names reference and key, lists exactly `candidates` (the matching
 * payments of the account, in the bank's order) and says it was not sent again.
 */
export function expectStateUnknown(
	error: PaymentRun['error'],
	expected: { reference: string; xaid: string; candidates: string[]; key?: string },
): void {
	expect(error).toBeInstanceOf(NodeOperationError);
	expect(error?.message).toMatch(stateUnknownMessage(expected.reference, expected.key));
	const { candidates, xaid } = expected;
	expect(error?.description).toContain(
		candidates.length > 0
			? `${candidates.length} payment(s) of account ${xaid} match reference, amount and payee (${candidates.join(', ')}), but none can be shown to be this one`
			: `with this reference was found among the approvals and transactions of account ${xaid}.`,
	);
	expect(error?.description).toContain('It was not sent again.');
	expect(error?.description ?? '').not.toMatch(/nothing was paid/i);
}

/** The same, as the error item Continue On Fail makes of it. */
export function expectStateUnknownItem(
	json: IDataObject,
	expected: { reference: string; candidates: string[]; key?: string },
): void {
	expect(json).toEqual({
		status: 'unknown',
		nextStep: nextStepOf('unknown'),
		idempotencyKey: expected.key ?? expect.stringMatching(UUID_V4),
		candidates: expected.candidates,
		error: expect.stringMatching(stateUnknownMessage(expected.reference, expected.key)),
	});
}

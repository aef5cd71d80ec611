/**
 * The workflows the benchmark runs side by side: this package's nodes, and what a user would build
 * with n8n's own nodes instead (HTTP Request with pagination + Split Out, Webhook → No Operation).
 */
import { randomUUID } from 'node:crypto';

type Node = Record<string, unknown> & { name: string };

export interface BenchWorkflow {
	name: string;
	nodes: Node[];
	connections: Record<string, unknown>;
	settings: Record<string, unknown>;
}

const credential = (id: string) => ({
	customerBankingApi: { id, name: 'Customer Banking sandbox' },
});

function chain(name: string, nodes: Node[]): BenchWorkflow {
	const connections: Record<string, unknown> = {};
	nodes.forEach((node, index) => {
		node.id = randomUUID();
		node.position = [index * 220, 0];
		const next = nodes[index + 1];
		if (next) connections[node.name] = { main: [[{ node: next.name, type: 'main', index: 0 }]] };
	});
	return { name, nodes, connections, settings: { executionOrder: 'v1' } };
}

/** A Webhook that answers when the workflow has finished, without the data (no 50,000-item response). */
function webhookAnsweringAtEnd(path: string): Node {
	return {
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId: randomUUID(),
		parameters: {
			httpMethod: 'POST',
			path,
			responseMode: 'lastNode',
			responseData: 'noData',
			options: {},
		},
	};
}

const XAID = "={{ $('Webhook').first().json.body.xaid }}";

/**
 * The workflow with n8n's "Save successful production executions" set to "Do not save": what n8n does
 * to keep an execution's data is then left out of its time and memory.
 */
export function notSavingSuccess(workflow: BenchWorkflow): BenchWorkflow {
	return {
		...workflow,
		name: `${workflow.name}, not saved`,
		settings: { ...workflow.settings, saveDataSuccessExecution: 'none' },
	};
}

export function emptyWorkflow(path: string): BenchWorkflow {
	return chain(`bench: empty (${path})`, [
		webhookAnsweringAtEnd(path),
		{ name: 'Nothing', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} },
	]);
}

/** Simplify as the user leaves it (on by default for Get Many), or switched off: the records as the bank sent them. */
export function returnAllWorkflow(
	path: string,
	credentialId: string,
	simplify = true,
): BenchWorkflow {
	return chain(
		`bench: Return All with this package, Simplify ${simplify ? 'on' : 'off'} (${path})`,
		[
			webhookAnsweringAtEnd(path),
			{
				name: 'All Transactions',
				type: 'n8n-nodes-customer-banking.customerBanking',
				typeVersion: 1,
				credentials: credential(credentialId),
				parameters: {
					resource: 'transaction',
					operation: 'getMany',
					scope: 'account',
					account: { __rl: true, mode: 'id', value: XAID },
					returnAll: true,
					...(!simplify && { simplify: false }),
				},
			},
		],
	);
}

/** What a user builds without this package: HTTP Request paging the list with the same credential, then Split Out. */
export function httpRequestWorkflow(
	path: string,
	credentialId: string,
	baseUrl: string,
	limit: number,
): BenchWorkflow {
	return chain(`bench: HTTP Request + Split Out, limit ${limit} (${path})`, [
		webhookAnsweringAtEnd(path),
		{
			name: 'HTTP Request',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			credentials: credential(credentialId),
			parameters: {
				method: 'GET',
				url: `=${baseUrl}/account/{{ $('Webhook').first().json.body.xaid }}/transactions`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'customerBankingApi',
				sendQuery: true,
				queryParameters: { parameters: [{ name: 'limit', value: String(limit) }] },
				options: {
					pagination: {
						pagination: {
							paginationMode: 'updateAParameterInEachRequest',
							parameters: {
								parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount }}' }],
							},
							paginationCompleteWhen: 'other',
							completeExpression: `={{ $response.body.results.length < ${limit} }}`,
							limitPagesFetched: false,
							requestInterval: 0,
						},
					},
				},
			},
		},
		{
			name: 'Split Out',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			parameters: { fieldToSplitOut: 'results', options: {} },
		},
	]);
}

export function webhookNoOpWorkflow(path: string): BenchWorkflow {
	return chain(`bench: Webhook → No Operation (${path})`, [
		{
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			webhookId: randomUUID(),
			parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
		},
		{ name: 'Nothing', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} },
	]);
}

/**
 * The floor: a community-package trigger that emits the body (test/bench/floorTrigger; its three paths
 * answer at once, when the execution has ended, and the same while remembering delivery ids), alone in
 * its workflow like this package's trigger in triggerWorkflow.
 */
export function floorTriggerWorkflow(): BenchWorkflow {
	return chain('bench: Bench Floor Trigger', [
		{
			name: 'Bench Floor Trigger',
			type: 'n8n-nodes-bench-floor.floorTrigger',
			typeVersion: 1,
			webhookId: randomUUID(),
			parameters: {},
		},
	]);
}

export function triggerWorkflow(
	credentialId: string,
	xaid: string,
	fetchTransaction: boolean,
): BenchWorkflow {
	return chain(`bench: Customer Banking Trigger, fetch ${fetchTransaction ? 'on' : 'off'}`, [
		{
			name: 'Customer Banking Trigger',
			type: 'n8n-nodes-customer-banking.customerBankingTrigger',
			typeVersion: 1.1,
			webhookId: randomUUID(),
			credentials: credential(credentialId),
			parameters: { accounts: [xaid], events: ['transactionReceived'], fetchTransaction },
		},
	]);
}

/**
 * Webhook → Split Out → Submit Batch. `mapping`: 'expressions' maps each field with an expression per
 * item; 'automatic' takes the fields of the items as they are (Map Automatically), whose names are then
 * the invoices' own (account, payee, amount, reference).
 */
export function submitBatchWorkflow(
	path: string,
	credentialId: string,
	mapping: 'expressions' | 'automatic' = 'expressions',
): BenchWorkflow {
	const fields =
		mapping === 'automatic'
			? { mappingMode: 'autoMapInputData' }
			: {
					account: { __rl: true, mode: 'id', value: '={{ $json.account }}' },
					payee: { __rl: true, mode: 'id', value: '={{ $json.payee }}' },
					amount: '={{ $json.amount }}',
					reference: '={{ $json.reference }}',
				};
	return chain(`bench: Submit Batch (${path})`, [
		webhookAnsweringAtEnd(path),
		{
			name: 'Invoices',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			parameters: { fieldToSplitOut: 'body.invoices', options: {} },
		},
		{
			name: 'Pay',
			type: 'n8n-nodes-customer-banking.customerBanking',
			typeVersion: 1,
			credentials: credential(credentialId),
			parameters: {
				resource: 'payment',
				operation: 'submitBatch',
				...fields,
				options: {},
			},
		},
	]);
}

/** The start of a workflow run from the command line (`n8n execute` starts at the Manual Trigger). */
function manualTrigger(): Node {
	return {
		name: 'When clicking Execute workflow',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		parameters: {},
	};
}

/** Return All of one account's transactions, run with `n8n execute`: Simplify as left (on) or off. */
export function cliReturnAllWorkflow(
	credentialId: string,
	xaid: string,
	simplify: boolean,
): BenchWorkflow {
	return chain(`bench cli: Return All, Simplify ${simplify ? 'on' : 'off'} (${xaid})`, [
		manualTrigger(),
		{
			name: 'All Transactions',
			type: 'n8n-nodes-customer-banking.customerBanking',
			typeVersion: 1,
			credentials: credential(credentialId),
			parameters: {
				resource: 'transaction',
				operation: 'getMany',
				scope: 'account',
				account: { __rl: true, mode: 'id', value: xaid },
				returnAll: true,
				...(!simplify && { simplify: false }),
			},
		},
	]);
}

/** The same list with n8n's own nodes, run with `n8n execute`: HTTP Request paging it, then Split Out. */
export function cliHttpRequestWorkflow(
	credentialId: string,
	baseUrl: string,
	xaid: string,
	limit: number,
): BenchWorkflow {
	const [, http, split] = httpRequestWorkflow('unused', credentialId, baseUrl, limit).nodes;
	http.parameters = {
		...(http.parameters as Record<string, unknown>),
		url: `${baseUrl}/account/${xaid}/transactions`,
	};
	return chain(`bench cli: HTTP Request + Split Out, limit ${limit} (${xaid})`, [
		manualTrigger(),
		http,
		split,
	]);
}

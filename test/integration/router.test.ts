import type { ICredentialDataDecryptedObject, INode, INodeTypes } from 'n8n-workflow';
import { NodeHelpers, NodeOperationError, Workflow } from 'n8n-workflow';

import { CustomerBanking } from '../../nodes/CustomerBanking/CustomerBanking.node';
import { credentialsFor } from '../helpers/sandboxCredentials';
import { type Sandbox, startSandbox } from '../sandbox';
import { byId, runNode } from './actionNode';

/** The outputs n8n computes from the node's `outputs` expression for these parameters. */
function outputsFor(parameters: INode['parameters']) {
	const nodeType = new CustomerBanking();
	const nodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	} as unknown as INodeTypes;
	const node: INode = {
		id: 'n1',
		name: 'Customer Banking',
		type: 'customerBanking',
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return NodeHelpers.getNodeOutputs(workflow, node, nodeType.description);
}

describe('node outputs (expression on resource and Route Rejected)', () => {
	it('payments with Route Rejected: two outputs, "Submitted" and "Rejected"', () => {
		expect(outputsFor({ resource: 'payment', operation: 'submit', routeRejected: true })).toEqual([
			{ type: 'main', displayName: 'Submitted' },
			{ type: 'main', displayName: 'Rejected' },
		]);
	});

	it.each([
		{ resource: 'payment', operation: 'submit', routeRejected: false },
		{ resource: 'payment', operation: 'submitBatch' },
		{ resource: 'payee', operation: 'create', routeRejected: true },
		{ resource: 'account', operation: 'getMany' },
	])('otherwise one output: %j', (parameters) => {
		expect(outputsFor(parameters)).toEqual(['main']);
	});
});

describe('router with payments (batch operations, outputs, pairedItem)', () => {
	let sandbox: Sandbox;
	let credentials: ICredentialDataDecryptedObject;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0 });
		credentials = credentialsFor(sandbox);
	});
	afterAll(async () => await sandbox.close());

	// item 1 asks for more than the account holds (50,000.00 opening balance): the bank rejects that item
	const payments = (reference: string) => ({
		executionId: `execution-${reference}`,
		parameters: {
			resource: 'payment',
			operation: 'submitBatch',
			account: byId(sandbox.seeded.accounts.gbp),
			payee: byId(sandbox.seeded.payees.gbp),
			amount: 10,
		},
		itemParameters: [
			{ reference: `${reference}-A` },
			{ reference: `${reference}-B`, amount: 900_000 },
			{ reference: `${reference}-C` },
		],
	});

	it('Route Rejected: rejected items leave on the second output, each paired with its input', async () => {
		const { parameters, ...run } = payments('ROUTE-1');
		const result = await runNode(sandbox, credentials, {
			...run,
			parameters: { ...parameters, routeRejected: true },
		});
		expect(result.error).toBeUndefined();
		const [submitted, rejected] = result.output ?? [];
		expect(result.output).toHaveLength(2);
		expect(
			submitted.map((item) => [item.json.reference, item.json.status, item.pairedItem]),
		).toEqual([
			['ROUTE-1-A', 'sent', { item: 0 }],
			['ROUTE-1-C', 'sent', { item: 2 }],
		]);
		expect(
			rejected.map((item) => [item.json.reference, item.json.status, item.pairedItem]),
		).toEqual([['ROUTE-1-B', 'rejected', { item: 1 }]]);
	});

	it('without Route Rejected: one output, in input order', async () => {
		const { parameters, ...run } = payments('ROUTE-2');
		const result = await runNode(sandbox, credentials, {
			...run,
			parameters: { ...parameters, routeRejected: false },
		});
		expect(result.output).toHaveLength(1);
		expect(result.output?.[0].map((item) => [item.json.status, item.pairedItem])).toEqual([
			['sent', { item: 0 }],
			['rejected', { item: 1 }],
			['sent', { item: 2 }],
		]);
	});

	it('continueOnFail with a batch operation: an invalid item becomes an error item on the main output', async () => {
		const { parameters, executionId } = payments('ROUTE-3');
		const result = await runNode(sandbox, credentials, {
			executionId,
			parameters: { ...parameters, routeRejected: true },
			itemParameters: [{ reference: 'ROUTE-3-A' }, { reference: 'ROUTE-3-B', amount: -5 }],
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		const [main, rejected] = result.output ?? [];
		expect(main.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(main[0].json.status).toBe('sent');
		expect(main[1].json).toEqual({
			status: 'invalid',
			nextStep: expect.stringContaining('Nothing was sent'),
			error: expect.stringContaining('mount'),
		});
		expect(rejected).toEqual([]);
	});

	it('a batch whose request fails: every item gets its error (continueOnFail), or the node stops on item 0', async () => {
		const { parameters, itemParameters, executionId } = payments('ROUTE-4');
		const wrongSecret = { ...credentialsFor(sandbox), clientSecret: 'cs_wrong' };
		const continued = await runNode(sandbox, wrongSecret, {
			executionId,
			parameters: { ...parameters, routeRejected: true },
			itemParameters,
			continueOnFail: true,
		});
		const [main, rejected] = continued.output ?? [];
		expect(main.map((item) => [Object.keys(item.json).sort(), item.pairedItem])).toEqual([
			[['error', 'idempotencyKey', 'nextStep', 'status'], { item: 0 }],
			[['error', 'idempotencyKey', 'nextStep', 'status'], { item: 1 }],
			[['error', 'idempotencyKey', 'nextStep', 'status'], { item: 2 }],
		]);
		// no token could be had: nothing reached the bank, and the items say so
		expect(main.map((item) => item.json.status)).toEqual(['not_sent', 'not_sent', 'not_sent']);
		expect(main.map((item) => item.json.error)).toEqual(
			Array(3).fill(
				'The token service rejected the Client ID or Client Secret (Client Authentication: Send in the Body)',
			),
		);
		expect(rejected).toEqual([]);

		const stopped = await runNode(
			sandbox,
			{ ...wrongSecret },
			{ executionId, parameters, itemParameters },
		);
		expect(stopped.error?.message).toBe(main[0].json.error);
		expect(stopped.error?.context?.itemIndex).toBe(0);
		expect(JSON.stringify(stopped.error)).not.toContain('cs_wrong');
	});

	it('a batch operation that throws: every item shares the error (continueOnFail), or the node stops', async () => {
		const { parameters, itemParameters, executionId } = payments('ROUTE-5');
		const invalidSize = { ...parameters, routeRejected: true, batchSize: 0 };
		const continued = await runNode(sandbox, credentials, {
			executionId,
			parameters: invalidSize,
			itemParameters,
			continueOnFail: true,
		});
		const message = 'Batch Size must be a whole number from 1 to 100';
		expect(continued.output).toEqual([
			[0, 1, 2].map((item) => ({ json: { error: message }, pairedItem: { item } })),
			[],
		]);
		const stopped = await runNode(sandbox, credentials, {
			executionId,
			parameters: invalidSize,
			itemParameters,
		});
		expect(stopped.error).toBeInstanceOf(NodeOperationError);
		expect(stopped.error?.message).toBe(message);
		expect(stopped.error?.context?.itemIndex).toBe(0);
		expect([...continued.calls, ...stopped.calls]).toEqual([]);
	});

	it('an operation that does not exist is a node error', async () => {
		const result = await runNode(sandbox, credentials, {
			parameters: { resource: 'account', operation: 'delete' },
		});
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(result.error?.message).toBe(
			'The operation "delete" is not supported for the resource "account"',
		);
		expect(result.requests).toEqual([]);
	});
});

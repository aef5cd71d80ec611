/**
 * The router with scripted operations (the resource table is replaced by fakes) and a fake context:
 * which operation runs, the item loop, Continue On Fail, pairedItem, the order of batch results and
 * the output each item leaves on. No bank is involved.
 */
import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type {
	BatchExecute,
	ItemOutput,
	OutputSwitch,
	PerItemExecute,
} from '../../../../nodes/CustomerBanking/actions/types';

const perItem = jest.fn<ReturnType<PerItemExecute>, [number]>();
const batch = jest.fn<ReturnType<BatchExecute>, [number[]]>();

/** The switch of the fake resource `split`: `second` or an item saying `{ side: 'second' }` goes to output 1. */
const SPLIT: OutputSwitch = {
	parameter: 'splitOutputs',
	displayNames: ['First', 'Second'],
	outputOf: (json, output) => (output === 'second' || json.side === 'second' ? 1 : 0),
};

jest.mock('../../../../nodes/CustomerBanking/actions/resources', () => ({
	resources: {
		thing: {
			get: {
				description: [],
				execute: async function (this: IExecuteFunctions, itemIndex: number) {
					return await perItem(itemIndex);
				},
			},
			notAnOperation: { description: [] },
		},
		split: {
			send: {
				description: [],
				executeBatch: async function (this: IExecuteFunctions, itemIndexes: number[]) {
					return await batch(itemIndexes);
				},
			},
		},
	},
	outputSwitchesFor: (resource: string) => (resource === 'split' ? [SPLIT] : []),
}));

import { router } from '../../../../nodes/CustomerBanking/actions/router';

const NODE: INode = {
	id: 'node-1',
	name: 'Customer Banking',
	type: 'n8n-nodes-customer-banking.customerBanking',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

function contextFor(
	parameters: IDataObject,
	{ items = 3, continueOnFail = false, nodeType = NODE.type } = {},
): IExecuteFunctions {
	return {
		getInputData: () => Array.from({ length: items }, (_item, index) => ({ json: { index } })),
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
			name in parameters ? parameters[name] : fallback,
		continueOnFail: () => continueOnFail,
		getNode: () => ({ ...NODE, type: nodeType }),
	} as unknown as IExecuteFunctions;
}

beforeEach(() => {
	perItem.mockReset();
	batch.mockReset();
});

describe('router: which operation runs', () => {
	it.each<[string, IDataObject, RegExp]>([
		[
			'a resource that does not exist',
			{ resource: 'nothing', operation: 'get' },
			/^Resource: the resource "nothing" is not supported$/,
		],
		[
			'a prototype key as resource',
			{ resource: 'constructor', operation: 'get' },
			/the resource "constructor" is not supported/,
		],
		[
			'an operation the resource does not have',
			{ resource: 'thing', operation: 'delete' },
			/^The operation "delete" is not supported for the resource "thing"$/,
		],
		[
			'a prototype key as operation',
			{ resource: 'thing', operation: 'toString' },
			/The operation "toString" is not supported/,
		],
		[
			'an entry of the resource without execute',
			{ resource: 'thing', operation: 'notAnOperation' },
			/The operation "notAnOperation" is not supported/,
		],
		['no operation at all', { resource: 'thing' }, /The operation "" is not supported/],
	])('%s: refused before any item runs', async (_case, parameters, message) => {
		const run = router.call(contextFor(parameters));
		await expect(run).rejects.toBeInstanceOf(NodeOperationError);
		await expect(run).rejects.toThrow(message);
		expect(perItem).not.toHaveBeenCalled();
		expect(batch).not.toHaveBeenCalled();
	});
});

describe('router: an operation run per item', () => {
	const GET = { resource: 'thing', operation: 'get' };

	it('runs each item in order; every output item is paired with its input item, arrays give several', async () => {
		perItem.mockImplementation(async (itemIndex) =>
			itemIndex === 1 ? [{ a: 1 }, { a: 2 }] : { item: itemIndex },
		);
		const outputs = await router.call(contextFor(GET));
		expect(perItem.mock.calls.map(([itemIndex]) => itemIndex)).toEqual([0, 1, 2]);
		expect(outputs).toEqual([
			[
				{ json: { item: 0 }, pairedItem: { item: 0 } },
				{ json: { a: 1 }, pairedItem: { item: 1 } },
				{ json: { a: 2 }, pairedItem: { item: 1 } },
				{ json: { item: 2 }, pairedItem: { item: 2 } },
			],
		]);
	});

	it('an empty array gives the item no output item', async () => {
		perItem.mockResolvedValue([]);
		expect(await router.call(contextFor(GET, { items: 2 }))).toEqual([[]]);
	});

	it('without Continue On Fail, the first failing item stops the node with an error naming that item', async () => {
		perItem.mockImplementation(async (itemIndex) => {
			if (itemIndex === 1) throw new Error('bank unavailable');
			return { item: itemIndex };
		});
		const run = router.call(contextFor(GET));
		await expect(run).rejects.toBeInstanceOf(NodeOperationError);
		await expect(run).rejects.toMatchObject({
			message: 'bank unavailable',
			context: { itemIndex: 1 },
		});
		// item 2 never ran: nothing after a failure is sent without Continue On Fail
		expect(perItem.mock.calls.map(([itemIndex]) => itemIndex)).toEqual([0, 1]);
	});

	it('with Continue On Fail, a failing item becomes an error item paired with it, and the next items run', async () => {
		perItem.mockImplementation(async (itemIndex) => {
			if (itemIndex === 1) throw new NodeOperationError(NODE, 'Amount: must be positive');
			return { item: itemIndex };
		});
		const outputs = await router.call(contextFor(GET, { continueOnFail: true }));
		expect(outputs).toEqual([
			[
				{ json: { item: 0 }, pairedItem: { item: 0 } },
				{ json: { error: 'Amount: must be positive' }, pairedItem: { item: 1 } },
				{ json: { item: 2 }, pairedItem: { item: 2 } },
			],
		]);
	});

	it.each<[string, () => Error, number]>([
		[
			'a NodeOperationError without an item gets the failing one',
			() => new NodeOperationError(NODE, 'x'),
			2,
		],
		[
			'a NodeApiError without an item gets the failing one',
			() => new NodeApiError(NODE, { message: 'x' }),
			2,
		],
		[
			'an error that already names an item keeps it',
			() => new NodeOperationError(NODE, 'x', { itemIndex: 0 }),
			0,
		],
	])('%s', async (_case, makeError, itemIndex) => {
		const error = makeError();
		perItem.mockImplementation(async (index) => {
			if (index === 2) throw error;
			return {};
		});
		const run = router.call(contextFor(GET));
		await expect(run).rejects.toBe(error);
		expect((error as NodeOperationError).context.itemIndex).toBe(itemIndex);
	});
});

describe('router: an operation run for all items at once', () => {
	const SEND = { resource: 'split', operation: 'send' };

	it('is called once with every item index; results are put in input order, each paired with its item', async () => {
		batch.mockResolvedValue([
			{ itemIndex: 2, items: [{ json: { paid: 2 } }] },
			{ itemIndex: 0, items: [{ json: { paid: 0 } }] },
			{ itemIndex: 1, items: [{ json: { paid: 1 } }] },
		]);
		const outputs = await router.call(contextFor(SEND));
		expect(batch.mock.calls).toEqual([[[0, 1, 2]]]);
		expect(outputs).toEqual([
			[0, 1, 2].map((item) => ({ json: { paid: item }, pairedItem: { item } })),
		]);
	});

	it('with Continue On Fail, a failed item becomes its error fields and the message, paired with it', async () => {
		const results: ItemOutput[] = [
			{ itemIndex: 0, items: [{ json: { paid: 0 } }] },
			{
				itemIndex: 1,
				error: new NodeOperationError(NODE, 'Payment state unknown'),
				errorFields: { status: 'unknown', idempotencyKey: 'key-1' },
			},
		];
		batch.mockResolvedValue(results);
		const outputs = await router.call(contextFor(SEND, { items: 2, continueOnFail: true }));
		expect(outputs[0]).toEqual([
			{ json: { paid: 0 }, pairedItem: { item: 0 } },
			{
				json: { status: 'unknown', idempotencyKey: 'key-1', error: 'Payment state unknown' },
				pairedItem: { item: 1 },
			},
		]);
	});

	it('without Continue On Fail, a failed item stops the node with its error, naming it', async () => {
		batch.mockResolvedValue([
			{ itemIndex: 0, items: [{ json: {} }] },
			{ itemIndex: 1, error: new NodeOperationError(NODE, 'Payment state unknown') },
		]);
		await expect(router.call(contextFor(SEND, { items: 2 }))).rejects.toMatchObject({
			message: 'Payment state unknown',
			context: { itemIndex: 1 },
		});
	});

	it('a batch that fails as a whole fails every item with the same error (Continue On Fail)', async () => {
		batch.mockRejectedValue(new Error('token service down'));
		const outputs = await router.call(contextFor(SEND, { continueOnFail: true }));
		expect(outputs[0]).toEqual(
			[0, 1, 2].map((item) => ({ json: { error: 'token service down' }, pairedItem: { item } })),
		);
	});

	it('a batch that fails as a whole stops the node, naming the first item (no Continue On Fail)', async () => {
		batch.mockRejectedValue(new Error('token service down'));
		await expect(router.call(contextFor(SEND))).rejects.toMatchObject({
			message: 'token service down',
			context: { itemIndex: 0 },
		});
	});
});

describe('router: outputs', () => {
	const SEND = { resource: 'split', operation: 'send' };
	const results: ItemOutput[] = [
		{ itemIndex: 0, items: [{ json: { paid: 0 } }] },
		{ itemIndex: 1, items: [{ json: { held: 1 }, output: 'second' }] },
		{
			itemIndex: 2,
			error: new NodeOperationError(NODE, 'refused'),
			errorFields: { side: 'second' },
		},
	];

	it('with the switch on, each item leaves on the output its result names (error items too)', async () => {
		batch.mockResolvedValue(results);
		const outputs = await router.call(
			contextFor({ ...SEND, splitOutputs: true }, { continueOnFail: true }),
		);
		expect(outputs).toEqual([
			[{ json: { paid: 0 }, pairedItem: { item: 0 } }],
			[
				{ json: { held: 1 }, pairedItem: { item: 1 } },
				{ json: { side: 'second', error: 'refused' }, pairedItem: { item: 2 } },
			],
		]);
	});

	it.each<[string, IDataObject, string]>([
		['with the switch off, one output', { ...SEND, splitOutputs: false }, NODE.type],
		// an AI agent reads only a tool's first output
		[
			'run as an AI tool, one output even with the switch on',
			{ ...SEND, splitOutputs: true },
			`${NODE.type}Tool`,
		],
	])('%s', async (_case, parameters, nodeType) => {
		batch.mockResolvedValue(results);
		const outputs = await router.call(contextFor(parameters, { continueOnFail: true, nodeType }));
		expect(outputs).toHaveLength(1);
		expect(outputs[0].map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
	});
});

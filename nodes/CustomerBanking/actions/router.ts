import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { CustomerBankingType } from './node.type';
import { outputSwitchesFor, resources } from './resources';
import { runsAsAiTool } from './simplify';
import type {
	BatchExecute,
	ItemOutput,
	OutputItem,
	OperationModule,
	OutputSwitch,
	PerItemExecute,
} from './types';

function findOperation(
	this: IExecuteFunctions,
	resource: string,
	operation: string,
): OperationModule {
	if (!Object.hasOwn(resources, resource)) {
		throw new NodeOperationError(
			this.getNode(),
			`Resource: the resource "${resource}" is not supported`,
		);
	}
	const resourceModule = resources[resource as keyof typeof resources] as Record<string, unknown>;
	const candidate = Object.hasOwn(resourceModule, operation)
		? (resourceModule[operation] as Partial<OperationModule>)
		: undefined;
	if (typeof candidate?.execute === 'function' || typeof candidate?.executeBatch === 'function') {
		return candidate as OperationModule;
	}
	throw new NodeOperationError(
		this.getNode(),
		`The operation "${operation}" is not supported for the resource "${resource}"`,
	);
}

/** Errors leave the node as NodeApiError / NodeOperationError that name the item they belong to. */
function toNodeError(
	this: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context = { ...error.context, itemIndex: error.context?.itemIndex ?? itemIndex };
		return error;
	}
	return new NodeOperationError(this.getNode(), error as Error, { itemIndex });
}

/** The node's outputs as they fill: results to their output, failures as error items or a node error. */
interface Outputs {
	outputs: INodeExecutionData[][];
	emit: (itemIndex: number, results: OutputItem[]) => void;
	/** The records a per-item operation returned, each made an output item in one step (a list may hold 50,000). */
	emitRecords: (itemIndex: number, records: IDataObject[]) => void;
	fail: (itemIndex: number, error: unknown, errorFields?: IDataObject) => void;
}

function outputsOf(this: IExecuteFunctions, switchedOn: OutputSwitch | undefined): Outputs {
	const outputs: INodeExecutionData[][] = (switchedOn?.displayNames ?? ['main']).map(() => []);
	return {
		outputs,
		emit: (itemIndex, results) => {
			for (const result of results) {
				outputs[switchedOn?.outputOf(result.json, result.output) ?? 0].push({
					json: result.json,
					pairedItem: { item: itemIndex },
				});
			}
		},
		emitRecords: (itemIndex, records) => {
			// one pairing object for all of an item's records, as n8n's constructExecutionMetaData does
			const pairedItem = { item: itemIndex };
			for (const json of records)
				outputs[switchedOn?.outputOf(json, undefined) ?? 0].push({ json, pairedItem });
		},
		fail: (itemIndex, error, errorFields = {}) => {
			const nodeError = toNodeError.call(this, error, itemIndex);
			if (!this.continueOnFail()) throw nodeError;
			const json = { ...errorFields, error: nodeError.message };
			outputs[switchedOn?.outputOf(json, undefined) ?? 0].push({
				json,
				pairedItem: { item: itemIndex },
			});
		},
	};
}

/** An operation that takes all items at once; when it fails as a whole, every item shares the error. */
async function runBatch(
	this: IExecuteFunctions,
	executeBatch: BatchExecute,
	itemCount: number,
	sink: Outputs,
): Promise<void> {
	const itemIndexes = Array.from({ length: itemCount }, (_item, itemIndex) => itemIndex);
	let batchResults: ItemOutput[];
	try {
		batchResults = await executeBatch.call(this, itemIndexes);
	} catch (error) {
		for (const itemIndex of itemIndexes) sink.fail(itemIndex, error);
		return;
	}
	const ordered = [...batchResults].sort((a, b) => a.itemIndex - b.itemIndex);
	for (const result of ordered) {
		if ('error' in result) sink.fail(result.itemIndex, result.error, result.errorFields);
		else sink.emit(result.itemIndex, result.items);
	}
}

/** An operation run once per item, in order. */
async function runEachItem(
	this: IExecuteFunctions,
	execute: PerItemExecute,
	itemCount: number,
	sink: Outputs,
): Promise<void> {
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		try {
			const json = await execute.call(this, itemIndex);
			sink.emitRecords(itemIndex, Array.isArray(json) ? json : [json]);
		} catch (error) {
			sink.fail(itemIndex, error);
		}
	}
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const { resource, operation } = {
		resource: this.getNodeParameter('resource', 0),
		// n8n drops an Operation that no known resource shows, so an unknown resource arrives without one
		operation: this.getNodeParameter('operation', 0, ''),
	} as CustomerBankingType;
	const selected = findOperation.call(this, resource, operation);
	// An AI agent reads only a tool's first output, so there every item (a refusal and its reason too) stays on it
	const switchedOn = runsAsAiTool.call(this)
		? undefined
		: outputSwitchesFor(resource).find(
				({ parameter }) => this.getNodeParameter(parameter, 0, false) === true,
			);
	const sink = outputsOf.call(this, switchedOn);
	if (selected.executeBatch) await runBatch.call(this, selected.executeBatch, items.length, sink);
	else await runEachItem.call(this, selected.execute, items.length, sink);
	return sink.outputs;
}

import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { CustomerBankingType } from './node.type';
import { outputSwitchFor, resources } from './resources';
import type { BatchItemResult, ItemResult, OperationModule, OutputName } from './types';

function findOperation(context: IExecuteFunctions, resource: string, operation: string): OperationModule {
	if (!Object.hasOwn(resources, resource)) {
		throw new NodeOperationError(context.getNode(), `Resource: the resource "${resource}" is not supported`);
	}
	const resourceModule = resources[resource as keyof typeof resources] as Record<string, unknown>;
	const candidate = Object.hasOwn(resourceModule, operation)
		? (resourceModule[operation] as Partial<OperationModule>)
		: undefined;
	if (typeof candidate?.execute === 'function' || typeof candidate?.executeBatch === 'function') {
		return candidate as OperationModule;
	}
	throw new NodeOperationError(
		context.getNode(),
		`The operation "${operation}" is not supported for the resource "${resource}"`,
	);
}

/** Errors leave the node as NodeApiError / NodeOperationError that name the item they belong to. */
function toNodeError(
	context: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context = { ...error.context, itemIndex: error.context?.itemIndex ?? itemIndex };
		return error;
	}
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const { resource, operation } = {
		resource: this.getNodeParameter('resource', 0),
		// n8n drops an Operation that no known resource shows, so an unknown resource arrives without one
		operation: this.getNodeParameter('operation', 0, ''),
	} as CustomerBankingType;
	const selected = findOperation(this, resource, operation);

	const outputSwitch = outputSwitchFor(resource);
	const switchedOn = outputSwitch !== undefined && this.getNodeParameter(outputSwitch.parameter, 0, false) === true;
	const outputs: INodeExecutionData[][] = switchedOn ? [[], []] : [[]];
	const outputIndex = (output: OutputName | undefined) => (switchedOn && output === 'second' ? 1 : 0);

	const emit = (itemIndex: number, results: ItemResult[]) => {
		for (const result of results) {
			outputs[outputIndex(result.output)].push({ json: result.json, pairedItem: { item: itemIndex } });
		}
	};
	const fail = (itemIndex: number, error: unknown, errorFields: IDataObject = {}) => {
		const nodeError = toNodeError(this, error, itemIndex);
		if (!this.continueOnFail()) throw nodeError;
		outputs[0].push({ json: { ...errorFields, error: nodeError.message }, pairedItem: { item: itemIndex } });
	};

	if (selected.executeBatch) {
		const itemIndexes = items.map((_item, itemIndex) => itemIndex);
		let batchResults: BatchItemResult[];
		try {
			batchResults = await selected.executeBatch.call(this, itemIndexes);
		} catch (error) {
			// the whole batch failed: every item shares the error
			for (const itemIndex of itemIndexes) fail(itemIndex, error);
			return outputs;
		}
		const ordered = [...batchResults].sort((a, b) => a.itemIndex - b.itemIndex);
		for (const result of ordered) {
			if ('error' in result) fail(result.itemIndex, result.error, result.errorFields);
			else emit(result.itemIndex, result.results);
		}
		return outputs;
	}

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const json = await selected.execute.call(this, itemIndex);
			emit(itemIndex, (Array.isArray(json) ? json : [json]).map((entry) => ({ json: entry })));
		} catch (error) {
			fail(itemIndex, error);
		}
	}
	return outputs;
}

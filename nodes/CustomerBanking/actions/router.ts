import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import * as account from './account/Account.resource';
import * as approval from './approval/Approval.resource';
import type { CustomerBankingType, ResourceName } from './node.type';
import * as payee from './payee/Payee.resource';
import * as payment from './payment/Payment.resource';
import * as transaction from './transaction/Transaction.resource';
import type { BatchItemResult, ItemResult, OperationModule, OutputName } from './types';

const resources: Record<ResourceName, object> = { account, approval, payee, payment, transaction };

function findOperation(context: IExecuteFunctions, resource: string, operation: string): OperationModule {
	const resourceModule = Object.hasOwn(resources, resource)
		? (resources[resource as ResourceName] as Record<string, unknown>)
		: undefined;
	const candidate = resourceModule && Object.hasOwn(resourceModule, operation)
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

function isItemResult(value: unknown): value is ItemResult {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
	const keys = Object.keys(value);
	const json = (value as ItemResult).json;
	return (
		keys.includes('json') &&
		keys.every((key) => key === 'json' || key === 'output') &&
		typeof json === 'object' &&
		json !== null &&
		!Array.isArray(json)
	);
}

function toItemResults(value: Awaited<ReturnType<NonNullable<OperationModule['execute']>>>): ItemResult[] {
	const entries: unknown[] = Array.isArray(value) ? value : [value];
	return entries.map((entry) => (isItemResult(entry) ? entry : { json: entry as ItemResult['json'] }));
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
		operation: this.getNodeParameter('operation', 0),
	} as CustomerBankingType;
	const selected = findOperation(this, resource, operation);

	// Two outputs ("Submitted", "Rejected") only for payments with Route Rejected on: the same
	// condition as the node's `outputs` expression
	const routeRejected =
		resource === 'payment' && this.getNodeParameter('routeRejected', 0, false) === true;
	const outputs: INodeExecutionData[][] = routeRejected ? [[], []] : [[]];
	const outputIndex = (output: OutputName | undefined) => (routeRejected && output === 'rejected' ? 1 : 0);

	const emit = (itemIndex: number, results: ItemResult[]) => {
		for (const result of results) {
			outputs[outputIndex(result.output)].push({ json: result.json, pairedItem: { item: itemIndex } });
		}
	};
	const fail = (itemIndex: number, error: unknown) => {
		const nodeError = toNodeError(this, error, itemIndex);
		if (!this.continueOnFail()) throw nodeError;
		// what the operation says of the item besides the message (e.g. a payment's status)
		const itemFields = nodeError.context?.itemFields;
		const fields = typeof itemFields === 'object' && itemFields !== null ? (itemFields as IDataObject) : {};
		outputs[0].push({ json: { ...fields, error: nodeError.message }, pairedItem: { item: itemIndex } });
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
		for (const { itemIndex, results, error } of ordered) {
			if (error) fail(itemIndex, error);
			else emit(itemIndex, results ?? []);
		}
		return outputs;
	}

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			emit(itemIndex, toItemResults(await selected.execute.call(this, itemIndex)));
		} catch (error) {
			fail(itemIndex, error);
		}
	}
	return outputs;
}

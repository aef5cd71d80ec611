import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

/** 'rejected' reaches the second output only when a payment node has Route Rejected on. */
export type OutputName = 'main' | 'rejected';

export interface ItemResult {
	json: IDataObject;
	output?: OutputName;
}

/** Runs once per input item; the router pairs whatever it returns with that item. */
export type PerItemExecute = (
	this: IExecuteFunctions,
	itemIndex: number,
) => Promise<IDataObject | IDataObject[] | ItemResult[]>;

export interface BatchItemResult {
	itemIndex: number;
	results?: ItemResult[];
	error?: NodeApiError | NodeOperationError;
}

/** Runs once for all input items (e.g. one batch request); reports a result or an error per item. */
export type BatchExecute = (
	this: IExecuteFunctions,
	itemIndexes: number[],
) => Promise<BatchItemResult[]>;

/** What every actions/<resource>/<operation>.operation.ts exports. */
export type OperationModule =
	| { description: INodeProperties[]; execute: PerItemExecute; executeBatch?: undefined }
	| { description: INodeProperties[]; executeBatch: BatchExecute; execute?: undefined };

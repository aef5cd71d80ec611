import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

/** Which output an item leaves on: 'second' only where the resource's output switch is on (OutputSwitch). */
export type OutputName = 'main' | 'second';

export interface OutputItem {
	json: IDataObject;
	output?: OutputName;
}

/** Runs once per input item; what it returns are that item's output items, on the main output. */
export type PerItemExecute = (
	this: IExecuteFunctions,
	itemIndex: number,
) => Promise<IDataObject | IDataObject[]>;

/** What one input item comes to: its output items, or its error. */
export type ItemOutput =
	| { itemIndex: number; items: OutputItem[] }
	/** With Continue On Fail the item becomes `{ ...errorFields, error: message }`; without, the node stops. */
	| { itemIndex: number; error: NodeApiError | NodeOperationError; errorFields?: IDataObject };

/** Runs once for all input items (e.g. one batch request); reports each item's output items or its error. */
export type BatchExecute = (
	this: IExecuteFunctions,
	itemIndexes: number[],
) => Promise<ItemOutput[]>;

/** What every actions/<resource>/<operation>.operation.ts exports. */
export type OperationModule =
	| { description: INodeProperties[]; execute: PerItemExecute; executeBatch?: undefined }
	| { description: INodeProperties[]; executeBatch: BatchExecute; execute?: undefined };

/**
 * A resource whose items may leave on several outputs: a boolean parameter of the resource turns it on,
 * the outputs are then named as given, and `outputOf` says which one an item leaves on (from the result's
 * `output`, or from what the item says). Read by the node's `outputs` expression and by the router; a
 * resource lists its switches in order, the first one on wins.
 */
export interface OutputSwitch {
	parameter: string;
	displayNames: readonly string[];
	outputOf(json: IDataObject, output: OutputName | undefined): number;
}

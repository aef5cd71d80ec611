import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireUuid } from '../parameters';

/** The Transaction ID parameter of the operations that take a transaction's xtid. */
export function transactionIdProperty(description: string): INodeProperties {
	return {
		displayName: 'Transaction ID',
		name: 'transactionId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 7b0e3c1d-2f4a-4b6c-8d9e-0a1b2c3d4e5f',
		description,
	};
}

export function readTransactionId(this: IExecuteFunctions, itemIndex: number): string {
	return requireUuid.call(
		this,
		this.getNodeParameter('transactionId', itemIndex),
		'Transaction ID',
		itemIndex,
	);
}

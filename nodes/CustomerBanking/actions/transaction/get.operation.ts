import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { readTransactionId, transactionIdProperty } from './transactionId';

const properties: INodeProperties[] = [
	transactionIdProperty('The transaction ID (a UUID), e.g. from a payment or a trigger event'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['get'] } },
	properties,
);

// spec §Transactions: GET /transaction/{xtid}, the full and current record
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const xtid = readTransactionId(this, itemIndex);
	return await apiRequest.call(this, { method: 'GET', path: `/transaction/${xtid}`, itemIndex });
}

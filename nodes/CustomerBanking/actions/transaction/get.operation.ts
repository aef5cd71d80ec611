import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { requireUuid } from '../parameters';

const properties: INodeProperties[] = [
	{
		displayName: 'Transaction ID',
		name: 'transactionId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 7b0e3c1d-2f4a-4b6c-8d9e-0a1b2c3d4e5f',
		description: 'The xtid of the transaction (a UUID), e.g. from a payment or a trigger event',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['get'] } },
	properties,
);

// spec §Transactions: GET /transaction/{xtid}, the full and current record
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const xtid = requireUuid(
		this,
		this.getNodeParameter('transactionId', itemIndex),
		'Transaction ID (xtid)',
		itemIndex,
	);
	return await apiRequest.call(this, { method: 'GET', path: `/transaction/${xtid}`, itemIndex });
}

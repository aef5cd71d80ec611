import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { ENDPOINTS, request } from '../../../shared/transport';
import { readSimplify, simplifyProperty } from '../simplify';
import { readTransactionId, transactionIdProperty } from './transactionId';

const properties: INodeProperties[] = [
	transactionIdProperty('The transaction ID (a UUID), e.g. from a payment or a trigger event'),
	simplifyProperty('transaction'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['get'] } },
	properties,
);

// spec §Transactions: GET /transaction/{xtid}, the full and current record
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const xtid = readTransactionId.call(this, itemIndex);
	const simplify = readSimplify.call(this, itemIndex, 'transaction');
	const transaction = await request.call(this, ENDPOINTS.transaction.at({ xtid }), { itemIndex });
	return simplify ? simplify(transaction) : transaction;
}

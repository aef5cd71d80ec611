import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequestAllItems } from '../../transport';
import { listScope, returnAllOrLimit } from '../common.descriptions';
import { getListOptions, getScopedPath } from '../parameters';
import { readSimplify, simplifyProperty } from '../simplify';
import { readTransactionFilters, transactionFilters } from './filters';

const properties: INodeProperties[] = [
	...listScope('transactions'),
	...returnAllOrLimit(),
	simplifyProperty('transaction', true),
	transactionFilters,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['getMany'] } },
	properties,
);

// spec §Transactions: GET /transactions or GET /account/{xaid}/transactions
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const path = getScopedPath(this, itemIndex, 'transactions');
	const list = getListOptions(this, itemIndex);
	const keep = readTransactionFilters(this, itemIndex);
	const output = readSimplify(this, itemIndex, 'transaction', true);
	const transactions = await apiRequestAllItems.call(this, { path, ...list, keep, itemIndex });
	return output(transactions);
}

import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { ENDPOINTS, requestAll } from '../../../shared/transport';
import { listScope, returnAllOrLimit } from '../common.descriptions';
import { getListOptions, getScope } from '../parameters';
import { readSimplify, simplifyProperty } from '../simplify';
import { readTransactionFilters, transactionFilters } from './filters';

const properties: INodeProperties[] = [
	...listScope('transactions'),
	...returnAllOrLimit(),
	simplifyProperty('transaction'),
	transactionFilters,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['getMany'] } },
	properties,
);

// spec §Transactions: GET /transactions or GET /account/{xaid}/transactions
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const scope = getScope.call(this, itemIndex);
	const list = getListOptions.call(this, itemIndex);
	const keep = readTransactionFilters.call(this, itemIndex);
	const shape = readSimplify.call(this, itemIndex, 'transaction');
	const transactions = await requestAll.call(this, ENDPOINTS.transactions.at(scope), {
		...list,
		keep,
		shape,
		itemIndex,
	});
	return transactions;
}

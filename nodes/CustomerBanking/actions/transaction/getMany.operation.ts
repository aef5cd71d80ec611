import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequestAllItems } from '../../transport';
import { listScope, returnAllOrLimit } from '../common.descriptions';
import { getListOptions, getScopedPath } from '../parameters';

const properties: INodeProperties[] = [...listScope('transactions'), ...returnAllOrLimit()];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['getMany'] } },
	properties,
);

// spec §Transactions: GET /transactions or GET /account/{xaid}/transactions
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await apiRequestAllItems.call(this, {
		path: getScopedPath(this, itemIndex, 'transactions'),
		...getListOptions(this, itemIndex),
		itemIndex,
	});
}

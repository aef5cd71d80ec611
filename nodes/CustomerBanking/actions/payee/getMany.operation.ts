import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequestAllItems } from '../../transport';
import { PAYEE_ENDPOINT } from '../../transport/endpoints';
import { listScope, returnAllOrLimit } from '../common.descriptions';
import { getListOptions, getScopedPath } from '../parameters';

const properties: INodeProperties[] = [...listScope('payees'), ...returnAllOrLimit()];

export const description = updateDisplayOptions(
	{ show: { resource: ['payee'], operation: ['getMany'] } },
	properties,
);

// spec §Payees: GET /payees or GET /account/{xaid}/payees (pages of at most 100)
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await apiRequestAllItems.call(this, {
		path: getScopedPath(this, itemIndex, 'payees'),
		...PAYEE_ENDPOINT,
		...getListOptions(this, itemIndex),
		itemIndex,
	});
}

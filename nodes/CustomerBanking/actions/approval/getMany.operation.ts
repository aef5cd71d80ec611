import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequestAllItems } from '../../transport';
import { listScope, returnAllOrLimit } from '../common.descriptions';
import { getListOptions, getScopedPath } from '../parameters';

const properties: INodeProperties[] = [...listScope('approvals'), ...returnAllOrLimit()];

export const description = updateDisplayOptions(
	{ show: { resource: ['approval'], operation: ['getMany'] } },
	properties,
);

// spec §Approvals: GET /approvals or GET /account/{xaid}/approvals
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await apiRequestAllItems.call(this, {
		path: getScopedPath(this, itemIndex, 'approvals'),
		...getListOptions(this, itemIndex),
		itemIndex,
	});
}

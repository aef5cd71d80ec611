import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { ENDPOINTS, requestAll } from '../../../shared/transport';
import { listScope, returnAllOrLimit } from '../common.descriptions';
import { getListOptions, getScope } from '../parameters';
import { readSimplify, simplifyProperty } from '../simplify';
import { payeeFilters, readPayeeFilters } from './filters';

const properties: INodeProperties[] = [
	...listScope('payees'),
	...returnAllOrLimit(),
	simplifyProperty('payee'),
	payeeFilters,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['payee'], operation: ['getMany'] } },
	properties,
);

// spec §Payees: GET /payees or GET /account/{xaid}/payees (pages of at most 100)
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const scope = getScope.call(this, itemIndex);
	const list = getListOptions.call(this, itemIndex);
	const keep = readPayeeFilters.call(this, itemIndex);
	const shape = readSimplify.call(this, itemIndex, 'payee');
	const payees = await requestAll.call(this, ENDPOINTS.payees.at(scope), {
		...list,
		keep,
		shape,
		itemIndex,
	});
	return payees;
}

import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { ENDPOINTS, requestAll } from '../../../shared/transport';
import { returnAllOrLimit } from '../common.descriptions';
import { getListOptions } from '../parameters';
import { readSimplify, simplifyProperty } from '../simplify';

const properties: INodeProperties[] = [...returnAllOrLimit(), simplifyProperty('account')];

export const description = updateDisplayOptions(
	{ show: { resource: ['account'], operation: ['getMany'] } },
	properties,
);

// spec §Accounts: GET /accounts (paged, { total, results })
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const shape = readSimplify.call(this, itemIndex, 'account');
	const accounts = await requestAll.call(this, ENDPOINTS.accounts.at({}), {
		...getListOptions.call(this, itemIndex),
		shape,
		itemIndex,
	});
	return accounts;
}

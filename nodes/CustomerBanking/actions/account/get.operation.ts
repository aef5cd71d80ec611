import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { ENDPOINTS, request } from '../../../shared/transport';
import { accountLocator } from '../common.descriptions';
import { getAccountId } from '../parameters';
import { readSimplify, simplifyProperty } from '../simplify';

const properties: INodeProperties[] = [accountLocator, simplifyProperty('account')];

export const description = updateDisplayOptions(
	{ show: { resource: ['account'], operation: ['get'] } },
	properties,
);

// spec §Accounts: GET /account/{xaid}
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const xaid = getAccountId.call(this, itemIndex);
	const simplify = readSimplify.call(this, itemIndex, 'account');
	const account = await request.call(this, ENDPOINTS.account.at({ xaid }), { itemIndex });
	return simplify ? simplify(account) : account;
}

import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { prepareUpdate } from '../../payees/payeeBody';
import { ENDPOINTS, request } from '../../../shared/transport';
import { accountLocator, payeeLocator } from '../common.descriptions';
import { getAccountId, getPayeeId } from '../parameters';
import { payeeFormForUpdate } from './payeeForm';
import { readSimplify, simplifyProperty } from '../simplify';
import { readPayeeInput } from './readPayeeInput';

const properties: INodeProperties[] = [
	accountLocator,
	payeeLocator,
	...payeeFormForUpdate(),
	simplifyProperty('payee'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['payee'], operation: ['update'] } },
	properties,
);

// spec §Update: PUT /account/{xaid}/payees/{xpid}
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const xaid = getAccountId.call(this, itemIndex);
	const xpid = getPayeeId.call(this, itemIndex);
	const body = await prepareUpdate.call(
		this,
		itemIndex,
		{ xaid, xpid },
		readPayeeInput.call(this, itemIndex, 'update'),
	);
	const simplify = readSimplify.call(this, itemIndex, 'payee');
	const payee = await request.call(this, ENDPOINTS.updatePayee.at({ xaid, xpid }), {
		body,
		itemIndex,
	});
	return simplify ? simplify(payee) : payee;
}

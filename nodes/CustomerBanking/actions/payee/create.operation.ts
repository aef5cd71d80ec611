import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { prepareCreate } from '../../payees/payeeBody';
import { ENDPOINTS, request } from '../../../shared/transport';
import { accountLocator } from '../common.descriptions';
import { getAccountId } from '../parameters';
import { payeeFormForCreate } from './payeeForm';
import { readSimplify, simplifyProperty } from '../simplify';
import { readPayeeInput } from './readPayeeInput';

const properties: INodeProperties[] = [
	accountLocator,
	...payeeFormForCreate(true),
	simplifyProperty('payee'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['payee'], operation: ['create'] } },
	properties,
);

// spec §Create: POST /account/{xaid}/payees
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const xaid = getAccountId.call(this, itemIndex);
	const body = await prepareCreate.call(
		this,
		itemIndex,
		xaid,
		readPayeeInput.call(this, itemIndex, 'create'),
	);
	const simplify = readSimplify.call(this, itemIndex, 'payee');
	const payee = await request.call(this, ENDPOINTS.createPayee.at({ xaid }), { body, itemIndex });
	return simplify ? simplify(payee) : payee;
}

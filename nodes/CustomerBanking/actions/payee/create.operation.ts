import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { PAYEE_ENDPOINT } from '../../transport/endpoints';
import { payeeCreateSchema } from '../../validation/payee.schema';
import { accountLocator } from '../common.descriptions';
import { getAccountId } from '../parameters';
import { payeeFormForCreate } from './fields';
import { getAccountCurrency, readPayeeInput, validatePayee } from './payeeInput';

const properties: INodeProperties[] = [accountLocator, ...payeeFormForCreate(true)];

export const description = updateDisplayOptions(
	{ show: { resource: ['payee'], operation: ['create'] } },
	properties,
);

// spec §Create: POST /account/{xaid}/payees; the payee inherits the account's currency
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const xaid = getAccountId(this, itemIndex);
	const input = readPayeeInput(this, itemIndex, 'create');
	// the rules that need no currency first, so a bad item sends no request at all
	validatePayee(this, itemIndex, payeeCreateSchema(), input);
	const currency = await getAccountCurrency(this, xaid, itemIndex);
	const body = validatePayee(this, itemIndex, payeeCreateSchema({ currency }), input);
	return await apiRequest.call(this, {
		method: 'POST',
		path: `/account/${xaid}/payees`,
		...PAYEE_ENDPOINT,
		body,
		itemIndex,
	});
}

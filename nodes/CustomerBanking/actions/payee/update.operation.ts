import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { PAYEE_ENDPOINT } from '../../transport/endpoints';
import { payeeUpdateSchema } from '../../validation/payee.schema';
import { accountLocator, payeeLocator } from '../common.descriptions';
import { getAccountId, getPayeeId } from '../parameters';
import { payeeFormForUpdate } from './fields';
import {
	changesBankDetails,
	getAccountCurrency,
	getPayee,
	readPayeeInput,
	validatePayee,
} from './payeeInput';

const properties: INodeProperties[] = [accountLocator, payeeLocator, ...payeeFormForUpdate()];

export const description = updateDisplayOptions(
	{ show: { resource: ['payee'], operation: ['update'] } },
	properties,
);

// spec §Update: PUT /account/{xaid}/payees/{xpid}; every field optional
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const xaid = getAccountId(this, itemIndex);
	const xpid = getPayeeId(this, itemIndex);
	const input = readPayeeInput(this, itemIndex, 'update');
	if (Object.keys(input).length === 0) {
		throw new NodeOperationError(this.getNode(), `Nothing to update in item ${itemIndex}`, {
			itemIndex,
			description: 'Add at least one payee field with a value',
		});
	}
	validatePayee(this, itemIndex, payeeUpdateSchema(), input);
	const currency = await getAccountCurrency(this, xaid, itemIndex);
	// changed bank details are re-validated together with the stored ones (spec §Update)
	const existing = changesBankDetails(input) ? await getPayee(this, xpid, itemIndex) : undefined;
	const body = validatePayee(this, itemIndex, payeeUpdateSchema({ currency, existing }), input);
	return await apiRequest.call(this, {
		method: 'PUT',
		path: `/account/${xaid}/payees/${encodeURIComponent(xpid)}`,
		...PAYEE_ENDPOINT,
		body,
		itemIndex,
	});
}

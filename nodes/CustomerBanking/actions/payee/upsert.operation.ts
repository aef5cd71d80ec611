import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { prepareUpsert } from '../../payees/payeeBody';
import { ENDPOINTS, request } from '../../../shared/transport';
import { requireId } from '../../../shared/validation/ids';
import { PAYEE_ID_LABEL } from '../../validation/payee.fields';
import { accountLocator } from '../common.descriptions';
import { getAccountId, getBoolean } from '../parameters';
import { payeeFormForCreate } from './payeeForm';
import { readSimplify, simplifyProperty } from '../simplify';
import { readPayeeInput } from './readPayeeInput';

const properties: INodeProperties[] = [
	accountLocator,
	{
		displayName: PAYEE_ID_LABEL,
		name: 'payeeId',
		type: 'string',
		default: '',
		placeholder: 'e.g. 2d9f6b1e-7c4a-4f3e-9b8d-1a2b3c4d5e6f',
		description:
			'The ID of the payee to update. Leave empty to create a payee, or to update the one found by the look-up below.',
	},
	{
		displayName: 'Look Up Existing Payee First',
		name: 'lookUpExisting',
		type: 'boolean',
		default: true,
		description:
			'Whether to search the account’s payees for one with the same name and bank details, and update it instead of creating a duplicate (used when Payee ID is empty)',
	},
	...payeeFormForCreate(false),
	simplifyProperty('payee'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['payee'], operation: ['upsert'] } },
	properties,
);

/** Payee ID is optional: empty (or only spaces, as an expression may give) means none was given. */
function givenPayeeId(this: IExecuteFunctions, itemIndex: number): string {
	const value: unknown = this.getNodeParameter('payeeId', itemIndex, '');
	if (value === null || (typeof value === 'string' && value.trim() === '')) return '';
	// it may go into GET /payee/{xpid}: checked like every ID in a path
	return requireId(this, value, PAYEE_ID_LABEL, itemIndex, 'text');
}

// spec §Upsert: POST /account/{xaid}/payee, creating without xpid and updating with it
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const xaid = getAccountId.call(this, itemIndex);
	const xpid = givenPayeeId.call(this, itemIndex);
	const lookUp = getBoolean.call(
		this,
		'lookUpExisting',
		itemIndex,
		true,
		'Look Up Existing Payee First',
	);
	const input = readPayeeInput.call(this, itemIndex, 'create');
	const body = await prepareUpsert.call(this, itemIndex, { xaid, xpid, lookUp }, input);
	const simplify = readSimplify.call(this, itemIndex, 'payee');
	const payee = await request.call(this, ENDPOINTS.upsertPayee.at({ xaid }), { body, itemIndex });
	return simplify ? simplify(payee) : payee;
}

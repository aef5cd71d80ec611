import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { PAYEE_ENDPOINT } from '../../transport/endpoints';
import { requireId } from '../../validation/ids';
import { payeeUpdateSchema, payeeUpsertSchema } from '../../validation/payee.schema';
import { accountLocator } from '../common.descriptions';
import { getAccountId, getBoolean } from '../parameters';
import { payeeFormForCreate } from './fields';
import {
	changesBankDetails,
	findExistingPayee,
	getAccountCurrency,
	getPayee,
	readPayeeInput,
	validatePayee,
} from './payeeInput';

const properties: INodeProperties[] = [
	accountLocator,
	{
		displayName: 'Payee ID',
		name: 'payeeId',
		type: 'string',
		default: '',
		placeholder: 'e.g. 2d9f6b1e-7c4a-4f3e-9b8d-1a2b3c4d5e6f',
		description:
			'The xpid of the payee to update. Leave empty to create a payee, or to update the one found by the look-up below.',
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
];

export const description = updateDisplayOptions(
	{ show: { resource: ['payee'], operation: ['upsert'] } },
	properties,
);

/** Payee ID is optional: empty (or only spaces, as an expression may give) means none was given. */
function givenPayeeId(context: IExecuteFunctions, itemIndex: number): string {
	const value: unknown = context.getNodeParameter('payeeId', itemIndex, '');
	if (value === null || (typeof value === 'string' && value.trim() === '')) return '';
	// it may go into GET /payee/{xpid}: checked like every ID in a path
	return requireId(context, value, 'Payee ID (xpid)', itemIndex, 'text');
}

// spec §Upsert: POST /account/{xaid}/payee, creating without xpid and updating with it;
// spec §Errors rule 6: look the payee up first and pass its xpid if it exists
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const xaid = getAccountId(this, itemIndex);
	const givenXpid = givenPayeeId(this, itemIndex);
	const lookUp = getBoolean(this, 'lookUpExisting', itemIndex, true, 'Look Up Existing Payee First');
	const input = readPayeeInput(this, itemIndex, 'create');

	const mayUpdate = givenXpid !== '' || lookUp;
	// before any request: every rule that holds whether the payee is created or updated
	validatePayee(this, itemIndex, mayUpdate ? payeeUpdateSchema() : payeeUpsertSchema(), input);
	if (givenXpid === '' && lookUp && input.name === undefined) {
		throw new NodeOperationError(
			this.getNode(),
			`Invalid payee in item ${itemIndex}: Name (name) is required to look up an existing payee`,
			{ itemIndex },
		);
	}

	const currency = await getAccountCurrency(this, xaid, itemIndex);
	const found =
		givenXpid === '' && lookUp ? await findExistingPayee(this, xaid, input, itemIndex) : undefined;
	const xpid = givenXpid || (found?.xpid as string | undefined);
	const existing =
		xpid && changesBankDetails(input) ? (found ?? (await getPayee(this, xpid, itemIndex))) : undefined;
	const body = validatePayee(
		this,
		itemIndex,
		payeeUpsertSchema({ currency, existing }),
		xpid ? { ...input, xpid } : input,
	);
	return await apiRequest.call(this, {
		method: 'POST',
		path: `/account/${xaid}/payee`,
		...PAYEE_ENDPOINT,
		body,
		itemIndex,
	});
}

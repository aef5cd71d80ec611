import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ENDPOINTS, request, requestAll } from '../../shared/transport';
import { ACCOUNT_IDENTIFYING_FIELDS } from '../validation/payee.fields';

// spec §Payees: GET /payee/{xpid}
export async function getPayee(
	this: IExecuteFunctions,
	xpid: string,
	itemIndex: number,
): Promise<IDataObject> {
	return await request.call(this, ENDPOINTS.payee.at({ xpid }), { itemIndex });
}

const normalisedName = (value: unknown) =>
	String(value ?? '')
		.trim()
		.replace(/\s+/g, ' ')
		.toLowerCase();
const normalisedCode = (value: unknown) =>
	String(value ?? '')
		.replace(/\s+/g, '')
		.toUpperCase();

/**
 * spec §Errors rule 6: before an upsert, look the payee up among the account's payees by name and
 * the bank details given; one match → that payee, none → undefined, several → error (ambiguous).
 */
export async function findExistingPayee(
	this: IExecuteFunctions,
	xaid: string,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject | undefined> {
	const payees = await requestAll.call(this, ENDPOINTS.payees.at({ xaid }), {
		returnAll: true,
		itemIndex,
		// a payee missed here would be created a second time
		ifShrinking: 'fail',
	});
	const bankFields = ACCOUNT_IDENTIFYING_FIELDS.filter((field) => body[field] !== undefined);
	const matches = payees.filter(
		(payee) =>
			normalisedName(payee.name) === normalisedName(body.name) &&
			bankFields.every((field) => normalisedCode(payee[field]) === normalisedCode(body[field])),
	);
	if (matches.length > 1) {
		throw new NodeOperationError(
			this.getNode(),
			`${matches.length} payees of the account match the name and bank details of item ${itemIndex}`,
			{
				itemIndex,
				description: `Matching payees: ${matches.map((payee) => payee.xpid).join(', ')}. Set "Payee ID" to choose the one to update.`,
			},
		);
	}
	return matches[0];
}

import type { INodeProperties } from 'n8n-workflow';

import { AMOUNT_DECIMALS, PAYMENT_FIELD_NAMES, PAYMENT_GROUP, paymentField, type PaymentField } from '../../validation/payment.fields';
import { accountLocator, byDisplayName, payeeLocator } from '../common.descriptions';

/** The parameters that pick a resource from a list. */
const LOCATORS: Record<string, INodeProperties> = { account: accountLocator, payee: payeeLocator };

function property(field: PaymentField): INodeProperties {
	const { label, parameter, rule, description, placeholder } = paymentField(field);
	const shown = { displayName: label, name: parameter, description, ...(placeholder !== undefined && { placeholder }) };
	switch (rule.kind) {
		case 'id':
			return { ...LOCATORS[parameter], ...shown };
		case 'amount':
			return {
				...shown,
				type: 'number',
				required: true,
				default: 0,
				typeOptions: { minValue: 10 ** -AMOUNT_DECIMALS, numberPrecision: AMOUNT_DECIMALS },
			};
		case 'reference':
			return { ...shown, type: 'string', required: true, default: '' };
		case 'bodyFields':
			return { ...shown, type: 'json', default: '{}' };
		default:
			return { ...shown, type: 'string', default: '' };
	}
}


/**
 * The payment object's fields, generated from the field table (validation/payment.fields.ts) and
 * shared by Submit and Submit Batch (one payment per input item).
 */
export const paymentFields: INodeProperties[] = [
	...PAYMENT_FIELD_NAMES.filter((field) => !paymentField(field).inGroup).map(property),
	{
		displayName: PAYMENT_GROUP.label,
		name: PAYMENT_GROUP.name,
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: byDisplayName(PAYMENT_FIELD_NAMES.filter((field) => paymentField(field).inGroup).map(property)),
	},
];

export const customKeyOption: INodeProperties = {
	displayName: 'Custom Idempotency Key',
	name: 'idempotencyKey',
	type: 'string',
	default: '',
	placeholder: 'e.g. {{ $json.invoiceId }}',
	description:
		'Without it, the key is derived from the workflow, the execution, this node and the item: Retry On Fail and n8n\'s Retry of a failed execution never pay twice, but running the workflow again (a new execution) pays again. With it (e.g. an invoice ID) the key stays the same across executions; a value that is not a UUID v4 is hashed into one together with the workflow and node IDs.',
};

export const validateOnlyOption: INodeProperties = {
	displayName: 'Validate Only',
	name: 'validateOnly',
	type: 'boolean',
	default: false,
	description:
		'Whether to only check every item and show what would be sent (body and idempotency key), sending nothing',
};

import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { spendingLimitOptions } from './spendingLimitOptions';
import type { ItemOutput } from '../types';
import {
	customKeyOption,
	paymentFields,
	lookBackOption,
	sendAgainOption,
	skipAlreadyMadeFields,
	validateOnlyOption,
} from './paymentForm';
import { submitPayments } from './submitPayments';

const properties: INodeProperties[] = [
	...paymentFields,
	...skipAlreadyMadeFields,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			customKeyOption,
			lookBackOption,
			sendAgainOption,
			...spendingLimitOptions,
			validateOnlyOption,
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['payment'], operation: ['submit'] } },
	properties,
);

/** One POST /payments per input item, each with its own key (submitPayments). */
export async function executeBatch(
	this: IExecuteFunctions,
	itemIndexes: number[],
): Promise<ItemOutput[]> {
	if (itemIndexes.length === 0) return [];
	return await submitPayments.call(this, itemIndexes, {});
}

import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { itemKey, keyScopeOf } from '../../payments/idempotencyKey';
import { PaymentMemory } from '../../payments/paymentMemory';
import { readSpendingLimits, spendingLimitOptions, withinLimits } from '../../payments/spendingLimits';
import { sendPayments } from '../../payments/submitPayments';
import type { BatchItemResult } from '../types';
import { customKeyOption, paymentFields, validateOnlyOption } from './paymentForm';
import { invalidItemResults, invalidResult, outcomeResult, overLimitResult, validatedResult } from './paymentResults';
import { readPayment } from './readPayment';

const properties: INodeProperties[] = [
	...paymentFields,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [customKeyOption, ...spendingLimitOptions, validateOnlyOption],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['payment'], operation: ['submit'] } },
	properties,
);

/**
 * One POST /payments per input item, each with its own key. Every item is checked before the
 * first payment is sent: a bad item 57 must not leave 56 payments sent and the workflow failed,
 * because running it again would be a new execution with new keys.
 */
export async function executeBatch(this: IExecuteFunctions, itemIndexes: number[]): Promise<BatchItemResult[]> {
	if (itemIndexes.length === 0) return [];
	const scope = keyScopeOf(this);
	const limits = readSpendingLimits(this, itemIndexes[0]);
	const read = itemIndexes.map((itemIndex) => readPayment(this, itemIndex));

	if (this.getNodeParameter('options.validateOnly', itemIndexes[0], false) === true) {
		return read.map((entry) =>
			entry.valid
				? validatedResult(entry.payment, itemKey(scope, entry.payment.itemIndex, entry.payment.customKey))
				: invalidResult(entry.itemIndex, entry.issues),
		);
	}

	const invalid = invalidItemResults(this.continueOnFail(), read);
	if (invalid.stop) return invalid.results;
	const results: BatchItemResult[] = invalid.results;
	const memory = PaymentMemory.of(this);
	const { allowed, refused } = withinLimits(
		this,
		read.flatMap((entry) => (entry.valid ? [entry.payment] : [])),
		limits,
		(payment) => itemKey(scope, payment.itemIndex, payment.customKey).key,
	);
	results.push(...refused.map(({ payment, reason }) => overLimitResult(payment, reason)));

	for (const payment of allowed) {
		const key = itemKey(scope, payment.itemIndex, payment.customKey);
		const [outcome] = await sendPayments.call(this, {
			key: key.key,
			payments: [payment],
			asBatch: false,
			memory,
			lookUpFirst: scope.keysLost,
		});
		results.push(outcomeResult(outcome, payment, key));
		// the node fails on this item: later items stay unsent, as n8n does item by item
		if (outcome.kind === 'failed' && !this.continueOnFail()) break;
	}
	return results;
}

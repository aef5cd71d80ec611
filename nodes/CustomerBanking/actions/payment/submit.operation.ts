import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { PaymentRun } from '../../payments/paymentRun';
import { readSpendingLimits, spendingLimitOptions } from './spendingLimitOptions';
import type { BatchItemResult } from '../types';
import {
	customKeyOption,
	paymentFields,
	lookBackOption,
	sendAgainOption,
	skipAlreadyMadeFields,
	validateOnlyOption,
} from './paymentForm';
import {
	invalidItemResults,
	invalidResult,
	outcomeResult,
	unsentResult,
	withCheckNotes,
	validatedResult,
} from './paymentResults';
import { lookBackDaysOf, readPayments, skipsAlreadyMade } from './readPayment';

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

/**
 * One POST /payments per input item, each with its own key. Every item is checked before the
 * first payment is sent: a bad item 57 must not leave 56 payments sent and the workflow failed,
 * because running it again would be a new execution with new keys.
 */
export async function executeBatch(
	this: IExecuteFunctions,
	itemIndexes: number[],
): Promise<BatchItemResult[]> {
	if (itemIndexes.length === 0) return [];
	const skipAlreadyMade = skipsAlreadyMade.call(this, itemIndexes[0]);
	const run = new PaymentRun(this, skipAlreadyMade, lookBackDaysOf.call(this, itemIndexes[0]));
	const limits = readSpendingLimits.call(this, itemIndexes[0]);
	const read = readPayments.call(this, itemIndexes, skipAlreadyMade);

	if (this.getNodeParameter('options.validateOnly', itemIndexes[0], false) === true) {
		return read.map((entry) =>
			entry.valid
				? validatedResult(entry.payment, run.keyOf(entry.payment))
				: invalidResult(entry.itemIndex, entry.issues),
		);
	}

	const invalid = invalidItemResults(this.continueOnFail(), read);
	if (invalid.stop) return invalid.results;
	const results: BatchItemResult[] = invalid.results;
	const valid = read.flatMap((entry) => (entry.valid ? [entry.payment] : []));
	const steps = await run.steps(valid, limits, (fresh) =>
		fresh.map((payment) => ({ members: [payment], key: run.keyOf(payment), asBatch: false })),
	);
	for (const step of steps) {
		const outcomes = await run.perform(step);
		if (outcomes === undefined) {
			results.push(unsentResult(step));
			continue;
		}
		results.push(...outcomes.map((outcome) => outcomeResult(outcome)));
		// the node fails on this item: later items stay unsent, as n8n does item by item
		if (outcomes.some((outcome) => outcome.kind === 'failed') && !this.continueOnFail()) break;
	}
	return withCheckNotes(results, run.checkedAtBank);
}

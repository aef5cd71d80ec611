import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { TEMPORARY_REJECTION } from '../../payments/rejections';
import type { ItemOutput } from '../types';
import { spendingLimitOptions } from './spendingLimitOptions';
import {
	customKeyOption,
	lookBackOption,
	sendAgainOption,
	paymentFields,
	skipAlreadyMadeFields,
	validateOnlyOption,
} from './paymentForm';
import { submitPayments } from './submitPayments';

/** Maximum payments in one request (spec §Limits: not shown; docs/bank-assumptions.md#batch-size). */
export const MAX_BATCH_SIZE = 100;

const properties: INodeProperties[] = [
	...paymentFields,
	...skipAlreadyMadeFields,
	{
		displayName: 'Batch Size',
		name: 'batchSize',
		type: 'number',
		default: MAX_BATCH_SIZE,
		typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE },
		description: `How many input items go into one request (at most ${MAX_BATCH_SIZE}); each request has its own idempotency key. Items with a Custom Idempotency Key are sent one per request, each with its own key, so each is protected on its own.`,
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				...customKeyOption,
				description:
					"Evaluated per item (e.g. an invoice ID). An item with a custom key is sent in a request of its own with that key (the same key Submit would use), so that key is paid once, whatever the order or grouping of the items around it, in this or any later execution. Without it, items are batched and the request's key comes from its payments' details (Skip Payments Already Made on) or from the execution, this node and the items of the request (off: Retry On Fail and n8n's Retry of a failed execution never pay twice, running the workflow again pays again).",
			},
			{
				displayName: 'Resubmit Rejected Items',
				name: 'resubmitRejected',
				type: 'boolean',
				default: false,
				description:
					'Whether to send rejected items once more, in one new request with a new key, when the rejection may be temporary (see Resubmit When Reason Matches). Accepted items are never sent again. Never resubmitted: field errors, unknown account or payee, currency mismatch (they fail the same way again), and duplicates, compliance, limits and inactive accounts.',
			},
			{
				displayName: 'Resubmit When Reason Matches',
				name: 'resubmitWhen',
				type: 'string',
				default: TEMPORARY_REJECTION,
				description:
					'Regular expression (case-insensitive) on the rejection reason, used by Resubmit Rejected Items. The default matches reasons that say they are temporary. Insufficient funds is only resubmitted when this names it, e.g. "insufficient".',
			},
			lookBackOption,
			sendAgainOption,
			...spendingLimitOptions,
			validateOnlyOption,
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['payment'], operation: ['submitBatch'] } },
	properties,
);

function batchSizeOf(this: IExecuteFunctions, itemIndex: number): number {
	const size = this.getNodeParameter('batchSize', itemIndex, MAX_BATCH_SIZE) as number;
	if (!Number.isInteger(size) || size < 1 || size > MAX_BATCH_SIZE) {
		throw new NodeOperationError(
			this.getNode(),
			`Batch Size must be a whole number from 1 to ${MAX_BATCH_SIZE}`,
			{
				itemIndex,
				description: `Got ${String(size)}. Nothing was sent.`,
			},
		);
	}
	return size;
}

function resubmitPatternOf(this: IExecuteFunctions, itemIndex: number): RegExp | undefined {
	if (this.getNodeParameter('options.resubmitRejected', itemIndex, false) !== true)
		return undefined;
	const source = String(
		this.getNodeParameter('options.resubmitWhen', itemIndex, TEMPORARY_REJECTION),
	);
	try {
		return new RegExp(source, 'i');
	} catch (error) {
		throw new NodeOperationError(
			this.getNode(),
			'Resubmit When Reason Matches is not a valid regular expression',
			{
				itemIndex,
				description: `${(error as Error).message}. Nothing was sent.`,
			},
		);
	}
}

/**
 * Input items grouped into requests of Batch Size (paymentPlan.ts plannedRequests); a payment already
 * sent in this execution goes again only in its first request (planPayments).
 */
export async function executeBatch(
	this: IExecuteFunctions,
	itemIndexes: number[],
): Promise<ItemOutput[]> {
	if (itemIndexes.length === 0) return [];
	const first = itemIndexes[0];
	const grouping = { batchSize: batchSizeOf.call(this, first) };
	const resubmitWhen = resubmitPatternOf.call(this, first);
	return await submitPayments.call(this, itemIndexes, grouping, resubmitWhen);
}

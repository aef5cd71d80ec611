import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { batchKey, keyScopeOf } from '../../payments/idempotencyKey';
import { TEMPORARY_REJECTION } from '../../payments/rejections';
import { type ResubmissionNote, resubmitRejected } from '../../payments/resubmitRejected';
import { sendPayments } from '../../payments/submitPayments';
import type { BatchItemResult } from '../types';
import {
	customKeyOption,
	type PaymentInputItem,
	paymentFields,
	readPayment,
	validateOnlyOption,
} from './paymentFields';
import {
	type BatchPlacement,
	invalidItemResults,
	invalidResult,
	outcomeResult,
	validatedResult,
} from './paymentResults';

/** Maximum payments in one request (spec §Limits: not shown; test/sandbox/DECISIONS.md: 100). */
export const MAX_BATCH_SIZE = 100;

const properties: INodeProperties[] = [
	...paymentFields,
	{
		displayName: 'Batch Size',
		name: 'batchSize',
		type: 'number',
		default: MAX_BATCH_SIZE,
		typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE },
		description: `How many input items go into one request (at most ${MAX_BATCH_SIZE}); each request has its own idempotency key. With custom keys a request's key comes from the keys of its items in order, so a re-run protects only when the same items arrive in the same order with the same Batch Size; for payments that must never be paid twice across executions, use Submit, where each payment has its own key.`,
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
					'Evaluated per item (e.g. an invoice ID); the key of a request is derived from the custom keys of its items, in order, together with the workflow and node IDs, so re-running the same items in the same batches never pays twice. Without it, the key is derived from the execution, this node and the items of the request: Retry On Fail never pays twice, running the workflow again pays again.',
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
			validateOnlyOption,
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['payment'], operation: ['submitBatch'] } },
	properties,
);

function batchSizeOf(context: IExecuteFunctions, itemIndex: number): number {
	const size = context.getNodeParameter('batchSize', itemIndex, MAX_BATCH_SIZE) as number;
	if (!Number.isInteger(size) || size < 1 || size > MAX_BATCH_SIZE) {
		throw new NodeOperationError(context.getNode(), `Batch Size must be a whole number from 1 to ${MAX_BATCH_SIZE}`, {
			itemIndex,
			description: `Got ${String(size)}. Nothing was sent.`,
		});
	}
	return size;
}

function resubmitPatternOf(context: IExecuteFunctions, itemIndex: number): RegExp | undefined {
	if (context.getNodeParameter('options.resubmitRejected', itemIndex, false) !== true) return undefined;
	const source = String(context.getNodeParameter('options.resubmitWhen', itemIndex, TEMPORARY_REJECTION));
	try {
		return new RegExp(source, 'i');
	} catch (error) {
		throw new NodeOperationError(context.getNode(), 'Resubmit When Reason Matches is not a valid regular expression', {
			itemIndex,
			description: `${(error as Error).message}. Nothing was sent.`,
		});
	}
}

function chunk<T>(list: T[], size: number): T[][] {
	const chunks: T[][] = [];
	for (let start = 0; start < list.length; start += size) chunks.push(list.slice(start, start + size));
	return chunks;
}

/**
 * Input items grouped into requests of Batch Size, one key per request (spec §Payments rule 2).
 * Every item is checked before the first request; invalid items (with Continue On Fail) are left
 * out of the batches. The key of a request depends on the items in it (see idempotencyKey.ts).
 */
export async function executeBatch(this: IExecuteFunctions, itemIndexes: number[]): Promise<BatchItemResult[]> {
	if (itemIndexes.length === 0) return [];
	const first = itemIndexes[0];
	const scope = keyScopeOf(this);
	const size = batchSizeOf(this, first);
	const resubmitWhen = resubmitPatternOf(this, first);
	const read = itemIndexes.map((itemIndex) => readPayment(this, itemIndex));
	const payments: PaymentInputItem[] = read.flatMap((entry) => (entry.valid ? [entry.payment] : []));
	const batches = chunk(payments, size).map((members, index) => {
		const customKeys = members.every((member) => member.customKey !== undefined)
			? members.map((member) => member.customKey as string)
			: undefined;
		const placement: BatchPlacement = { index, itemIndexes: members.map((member) => member.itemIndex) };
		return { members, placement, key: batchKey(scope, index, placement.itemIndexes, customKeys) };
	});

	if (this.getNodeParameter('options.validateOnly', first, false) === true) {
		return [
			...read.flatMap((entry) => (entry.valid ? [] : [invalidResult(entry.itemIndex, entry.issues)])),
			...batches.flatMap(({ members, placement, key }) =>
				members.map((member) => validatedResult(member, key, placement)),
			),
		];
	}

	const invalid = invalidItemResults(this.continueOnFail(), read);
	if (invalid.stop) return invalid.results;
	const results: BatchItemResult[] = invalid.results;
	// xtids reported for earlier items: a look-up never gives one of them to a later item
	const claimedXtids = new Set<string>();

	for (const { members, placement, key } of batches) {
		let outcomes = await sendPayments.call(this, { key: key.key, payments: members, asBatch: true, claimedXtids });
		let notes = new Map<number, ResubmissionNote>();
		if (resubmitWhen) {
			({ outcomes, notes } = await resubmitRejected.call(this, {
				key: key.key,
				payments: members,
				outcomes,
				resubmitWhen,
				claimedXtids,
			}));
		}
		for (const outcome of outcomes) {
			const member = members.find((candidate) => candidate.itemIndex === outcome.itemIndex) as PaymentInputItem;
			results.push(
				outcomeResult(outcome, member, key, { batch: placement, resubmission: notes.get(outcome.itemIndex) }),
			);
		}
		// the node fails on this batch: later batches stay unsent
		if (outcomes.some((outcome) => outcome.kind === 'failed') && !this.continueOnFail()) break;
	}
	return results;
}

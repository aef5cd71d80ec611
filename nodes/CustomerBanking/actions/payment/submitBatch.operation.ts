import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { Payment } from '../../payments/payment';
import type { PlannedRequest } from '../../payments/paymentPlan';
import { PaymentRun } from '../../payments/paymentRun';
import { TEMPORARY_REJECTION } from '../../payments/rejections';
import type { ResubmissionNote } from '../../payments/resubmission';
import type { SpendingLimits } from '../../payments/spendingLimits';
import type { BatchItemResult } from '../types';
import { readSpendingLimits, spendingLimitOptions } from './spendingLimitOptions';
import {
	customKeyOption,
	lookBackOption,
	sendAgainOption,
	paymentFields,
	skipAlreadyMadeFields,
	validateOnlyOption,
} from './paymentForm';
import {
	type BatchPlacement,
	invalidItemResults,
	invalidResult,
	outcomeResult,
	unsentResult,
	withCheckNotes,
	validatedResult,
} from './paymentResults';
import { lookBackDaysOf, type ReadResult, readPayments, skipsAlreadyMade } from './readPayment';

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

function chunk<T>(list: T[], size: number): T[][] {
	const chunks: T[][] = [];
	for (let start = 0; start < list.length; start += size)
		chunks.push(list.slice(start, start + size));
	return chunks;
}

/**
 * The requests, in input order: items without a custom key in batches of `size` with a derived key
 * (spec §Payments rule 2: one key per batch); each item with a custom key, or sent again after a
 * refusal, alone with its own key. A batch key covers the whole batch, so it could not protect one
 * invoice that moves to another batch.
 */
function planRequests(run: PaymentRun, payments: Payment[], size: number): PlannedRequest[] {
	const alone = (payment: Payment) =>
		payment.customKey !== undefined || run.planner.sendsAgain(payment);
	const derived = chunk(
		payments.filter((payment) => !alone(payment)),
		size,
	);
	const requests = [
		...derived.map((members) => ({ members, asBatch: true })),
		...payments.filter(alone).map((payment) => ({ members: [payment], asBatch: false })),
	].sort((a, b) => a.members[0].itemIndex - b.members[0].itemIndex);
	return requests.map(({ members, asBatch }, index) => ({
		members,
		asBatch,
		key: asBatch ? run.batchKeyOf(index, members) : run.keyOf(members[0]),
	}));
}

const placementOf = (request: PlannedRequest, index: number): BatchPlacement => ({
	index,
	itemIndexes: request.members.map((member) => member.itemIndex),
});

/**
 * Input items grouped into requests (planRequests); a payment already sent in this execution goes
 * again only in its first request (PaymentPlanner, paymentPlan.ts). Every item is checked before the first request;
 * invalid items (with Continue On Fail) are left out of the requests.
 */
export async function executeBatch(
	this: IExecuteFunctions,
	itemIndexes: number[],
): Promise<BatchItemResult[]> {
	if (itemIndexes.length === 0) return [];
	const first = itemIndexes[0];
	const skipAlreadyMade = skipsAlreadyMade.call(this, first);
	const run = new PaymentRun(this, skipAlreadyMade, lookBackDaysOf.call(this, first));
	const size = batchSizeOf.call(this, first);
	const resubmitWhen = resubmitPatternOf.call(this, first);
	const limits = readSpendingLimits.call(this, first);
	const read = readPayments.call(this, itemIndexes, skipAlreadyMade);
	const payments: Payment[] = read.flatMap((entry) => (entry.valid ? [entry.payment] : []));

	if (this.getNodeParameter('options.validateOnly', first, false) === true) {
		return validatedResults(read, planRequests(run, payments, size));
	}

	const invalid = invalidItemResults(this.continueOnFail(), read);
	if (invalid.stop) return invalid.results;
	const results: BatchItemResult[] = invalid.results;
	await sendInTurn.call(this, run, payments, { limits, size, resubmitWhen }, results);
	return withCheckNotes(results, run.checkedAtBank);
}

/** Validate Only: the invalid items, and each valid one with the request it would go in; nothing sent. */
function validatedResults(read: ReadResult[], requests: PlannedRequest[]): BatchItemResult[] {
	return [
		...read.flatMap((entry) => (entry.valid ? [] : [invalidResult(entry.itemIndex, entry.issues)])),
		...requests.flatMap((request, index) =>
			request.members.map((member) =>
				validatedResult(member, request.key, placementOf(request, index)),
			),
		),
	];
}

interface SendSettings {
	limits: SpendingLimits;
	size: number;
	resubmitWhen: RegExp | undefined;
}

/** The run's steps one after the other, each one's results added to `results` as it ends. */
async function sendInTurn(
	this: IExecuteFunctions,
	run: PaymentRun,
	payments: Payment[],
	{ limits, size, resubmitWhen }: SendSettings,
	results: BatchItemResult[],
): Promise<void> {
	let sent = 0;
	const steps = await run.steps(payments, limits, (fresh) => planRequests(run, fresh, size));
	for (const step of steps) {
		let outcomes = await run.perform(step);
		if (outcomes === undefined) {
			results.push(unsentResult(step));
			continue;
		}
		let notes = new Map<number, ResubmissionNote>();
		const placement = step.kind === 'send' ? placementOf(step.request, sent++) : undefined;
		if (resubmitWhen && step.kind === 'send')
			({ outcomes, notes } = await run.resubmitRejected(outcomes, resubmitWhen));
		for (const outcome of outcomes) {
			results.push(
				outcomeResult(outcome, {
					batch: placement,
					resubmission: notes.get(outcome.payment.itemIndex),
				}),
			);
		}
		// the node fails on this batch: later batches stay unsent
		if (outcomes.some((outcome) => outcome.kind === 'failed') && !this.continueOnFail()) break;
	}
}

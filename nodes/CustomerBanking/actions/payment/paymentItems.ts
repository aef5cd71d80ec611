import type { IDataObject } from 'n8n-workflow';

import { holdsMoney, stateOf } from '../../payments/earlierPayments';
import type { IdempotencyKey } from '../../payments/idempotencyKey';
import type { PaymentOutcome } from '../../payments/outcomes';
import type { Payment } from '../../payments/payment';
import type { FoundPayment } from '../../payments/paymentLookUp';
import { nextStepOf, type PaymentStatus } from '../../payments/paymentStatuses';
import type { Grouping, PaymentStep, PlannedRequest } from '../../payments/paymentPlan';
import type { PerformedRun } from '../../payments/paymentRun';
import type { ResubmissionNote } from '../../payments/resubmission';
import { ENDPOINTS, wireRequestOf } from '../../../shared/transport';
import type { PaymentIssue } from '../../validation/payment.schema';
import { withPlainNames } from '../../../shared/outputNames';
import type { ItemOutput, OutputName } from '../types';
import type { ReadItem } from './readPayment';

/** Rejected and invalid payments leave on the second output when Route Rejected is on (Payment.resource.ts). */
const REJECTED: OutputName = 'second';

/** Where a Submit Batch item travelled: which request, and which items shared it. */
export interface BatchPlacement {
	index: number;
	itemIndexes: number[];
}

const placementOf = (request: PlannedRequest, index: number): BatchPlacement => ({
	index,
	itemIndexes: request.members.map((member) => member.itemIndex),
});

function keyFields(key: IdempotencyKey): IDataObject {
	return {
		idempotencyKey: key.key,
		keySource: key.source,
		...(key.customKey !== undefined && { customIdempotencyKey: key.customKey }),
	};
}

/**
 * The accepted entry as the bank answered it, minus its position in the request and its own words for
 * the state (the spec calls every accepted payment "submitted"), then what the evidence read from the
 * bank says of it (evidence.ts).
 */
function acceptedFields(outcome: Extract<PaymentOutcome, { kind: 'accepted' }>): IDataObject {
	const fields = { ...outcome.accepted };
	delete fields.index;
	delete fields.status;
	delete fields.approvalRef;
	const { fromEvidence } = outcome;
	return withPlainNames({
		...fields,
		...fromEvidence?.fields,
		...(fromEvidence?.check !== undefined && { approvalCheck: fromEvidence.check }),
	});
}

type Reported = Exclude<PaymentOutcome, { kind: 'failed' }>;

/** What an output item shows of an outcome: fields before the payment's own, fields after it, and its output. */
interface Shown {
	before: IDataObject;
	after: IDataObject;
	output?: OutputName;
}

/** One input item's one output item, on `output` (the main output when none). */
const oneItem = (itemIndex: number, json: IDataObject, output?: OutputName): ItemOutput => ({
	itemIndex,
	items: [output ? { json, output } : { json }],
});

/** The bank's ID of the request, for its support. */
const requestIdOf = ({ requestId }: { requestId?: string }): IDataObject =>
	requestId !== undefined ? { bankRequestId: requestId } : {};

/**
 * One row per kind of outcome: status sent / pending_approval (spec §States and transitions: an
 * approval request, nothing sent yet) / accepted (its state not visible yet) / not_sent (its approval
 * was refused) / replayed / rejected / undetermined / found_after_error.
 */
const SHOWN: { [Kind in Reported['kind']]: (outcome: Extract<Reported, { kind: Kind }>) => Shown } =
	{
		accepted: (outcome) => {
			const state = outcome.fromEvidence?.status ?? 'accepted';
			// a replay: the bank answered this key with this payment before, nothing new was made now
			const status = outcome.replayed && state !== 'not_sent' ? 'replayed' : state;
			return {
				before: { status },
				after: { ...acceptedFields(outcome), ...requestIdOf(outcome) },
			};
		},
		rejected: (outcome) => ({
			before: {
				status: 'rejected',
				rejectionReason: outcome.reason,
				...(outcome.reasonUncertain && { rejectionReasonUncertain: true }),
			},
			after: requestIdOf(outcome),
			output: REJECTED,
		}),
		undetermined: ({ statement, notPaid, xtids, sharedWith, ...outcome }) => ({
			before: { status: 'undetermined', statement, notPaid, transactionIds: xtids, sharedWith },
			after: requestIdOf(outcome),
		}),
		found: ({ found, failure }) => ({
			before: {
				status: 'found_after_error',
				transactionId: found.xtid,
				...(found.approvalRef !== undefined && { approvalId: found.approvalRef }),
				...(found.approvalStatus !== undefined && { approvalStatus: found.approvalStatus }),
				...(found.transactionStatus !== undefined && {
					transactionStatus: found.transactionStatus,
				}),
				foundIn: found.foundIn,
			},
			after: { requestError: failure },
		}),
	};

function shown(outcome: Reported): Shown {
	return (SHOWN[outcome.kind] as (reported: Reported) => Shown)(outcome);
}

/**
 * One output item per payment, as its row of SHOWN says; failures become errors that the router
 * turns into error items (continueOnFail) or a node error.
 */
export function itemOfOutcome(
	outcome: PaymentOutcome,
	placement?: { batch?: BatchPlacement; resubmission?: ResubmissionNote },
): ItemOutput {
	const { payment } = outcome;
	const { itemIndex } = payment;
	if (outcome.kind === 'failed') {
		const { status, key, candidates } = outcome;
		const errorFields = {
			status,
			nextStep: nextStepOf(status),
			idempotencyKey: key.key,
			...(candidates !== undefined && { candidates }),
		};
		return { itemIndex, error: outcome.error, errorFields };
	}
	const context: IDataObject = {
		...keyFields(outcome.key),
		...(placement?.batch && { batch: { ...placement.batch } }),
		...(placement?.resubmission && { resubmission: { ...placement.resubmission } }),
	};
	const { before, after, output } = shown(outcome);
	const nextStep = nextStepOf(before.status as PaymentStatus);
	const json = { ...before, nextStep, ...withPlainNames(payment.body), ...after, ...context };
	return oneItem(itemIndex, json, output);
}

/** A payment over a spending limit (Maximum Amount / Maximum Total per Execution): never sent. */
function overLimitItem(payment: Payment, reason: string): ItemOutput {
	return oneItem(
		payment.itemIndex,
		{
			status: 'rejected',
			nextStep: nextStepOf('rejected'),
			rejectionReason: reason,
			notSent: true,
			...withPlainNames(payment.body),
		},
		REJECTED,
	);
}

/** What an output item shows of an earlier payment the bank holds. */
function earlierPaymentFields(found: FoundPayment): IDataObject {
	return {
		transactionId: found.xtid,
		state: stateOf(found),
		...(found.approvalRef !== undefined && { approvalId: found.approvalRef }),
		...(found.approvalStatus !== undefined && { approvalStatus: found.approvalStatus }),
		...(found.transactionStatus !== undefined && { transactionStatus: found.transactionStatus }),
		foundIn: found.foundIn,
	};
}

/**
 * Skip Payments Already Made: the bank shows a payment with these details already, so this one was not
 * sent. `already_made` when one of them may hold money (sent, on its way, waiting for approval, or a
 * status we cannot read); `not_sent` when every one shows a refusal (declined, expired, failed), which is
 * not sent again automatically (spec §Errors rule 5). The earlier payments are all listed, with their state.
 */
function alreadyMadeItem(payment: Payment, earlier: FoundPayment[]): ItemOutput {
	const holding = earlier.filter(holdsMoney);
	const [first] = holding.length > 0 ? holding : earlier;
	const listed =
		earlier.length === 1
			? `payment ${first.xtid}, ${stateOf(first)}`
			: `${earlier.length} payments: ${earlier.map((found) => `${found.xtid} (${stateOf(found)})`).join(', ')}`;
	const status: PaymentStatus = holding.length > 0 ? 'already_made' : 'not_sent';
	// advice for this item alone: never the node-wide switch, which would send every other item again
	const message =
		holding.length > 0
			? `Not sent: the bank already holds a payment with the same account, payee, amount, currency and reference (${listed}). If this is another payment, give it a reference of its own.`
			: `Not sent: the bank refused a payment with the same account, payee, amount, currency and reference before (${listed}), and a refused payment is not sent again automatically. To send this one again, set Send Again If Refused (Options) for this item only.`;
	return oneItem(
		payment.itemIndex,
		{
			status,
			nextStep: nextStepOf(status),
			transactionId: first.xtid,
			message,
			notSent: true,
			...withPlainNames(payment.body),
			earlierPayments: earlier.map(earlierPaymentFields),
		},
		REJECTED,
	);
}

/** A payment the run did not send: over a spending limit, or already made. */
export function unsentItem(step: PaymentStep): ItemOutput {
	if (step.kind === 'overLimit') return overLimitItem(step.payment, step.reason);
	if (step.kind === 'alreadyMade') return alreadyMadeItem(step.payment, step.earlier);
	throw new Error(`a ${step.kind} step is sent, not left out`);
}

/** Validate Only: what would be sent for a valid item. */
export function validatedItem(
	payment: Payment,
	key: IdempotencyKey,
	batch?: BatchPlacement,
): ItemOutput {
	return oneItem(payment.itemIndex, {
		status: 'valid',
		nextStep: nextStepOf('valid'),
		...withPlainNames(payment.body),
		...keyFields(key),
		request: {
			...wireRequestOf(ENDPOINTS.payments.at({}), { idempotencyKey: key.key }),
			...(batch ? { batch: { ...batch }, payment: payment.body } : { body: payment.body }),
		},
	});
}

/**
 * Validate Only: Submit's items in input order, each valid one with its key; Submit Batch's invalid items,
 * then each valid one with the request it would go in. Nothing is sent.
 */
export function validatedItems(
	read: ReadItem[],
	requests: PlannedRequest[],
	{ batchSize }: Grouping,
): ItemOutput[] {
	const batched = batchSize !== undefined;
	const items = [
		...read.flatMap((entry) => (entry.valid ? [] : [invalidItem(entry.itemIndex, entry.issues)])),
		...requests.flatMap((request, index) =>
			request.members.map((member) =>
				validatedItem(member, request.key, batched ? placementOf(request, index) : undefined),
			),
		),
	];
	return batched ? items : items.sort((a, b) => a.itemIndex - b.itemIndex);
}

/**
 * A run's items (PaymentRun.execute), step after step, with what each check at the bank read; Submit
 * Batch's sent items say which request they went in and, with Resubmit Rejected Items, whether they were
 * resubmitted.
 */
export function runItems(run: PerformedRun, { batchSize }: Grouping): ItemOutput[] {
	let sent = 0;
	const items = run.steps.flatMap(({ step, outcomes, resubmission }) => {
		if (outcomes === undefined) return [unsentItem(step)];
		const request = step.kind === 'send' ? placementOf(step.request, sent++) : undefined;
		const batch = batchSize !== undefined ? request : undefined;
		return outcomes.map((outcome) =>
			itemOfOutcome(outcome, { batch, resubmission: resubmission?.get(outcome.payment.itemIndex) }),
		);
	});
	return withCheckNotes(items, run.checkedAtBank);
}

/** Validate Only: an item that would not be sent, and why. */
export function invalidItem(itemIndex: number, issues: PaymentIssue[]): ItemOutput {
	return oneItem(
		itemIndex,
		{
			status: 'invalid',
			nextStep: nextStepOf('invalid'),
			issues: issues.map(({ field, rule }) => `${field} ${rule}`),
		},
		REJECTED,
	);
}

/**
 * The items that failed their checks. Without Continue On Fail the node stops on the first one
 * (`stop`), before any payment is sent; with it, each becomes its own error item.
 */
export function invalidItems(
	continueOnFail: boolean,
	read: ReadItem[],
): { items: ItemOutput[]; stop: boolean } {
	const items: ItemOutput[] = [];
	for (const entry of read) {
		if (entry.valid) continue;
		items.push({
			itemIndex: entry.itemIndex,
			error: entry.error,
			errorFields: { status: 'invalid', nextStep: nextStepOf('invalid') },
		});
		if (!continueOnFail) return { items, stop: true };
	}
	return { items, stop: false };
}

/**
 * Skip Payments Already Made: on each item whose payment was checked at the bank, what the check read
 * (`earlierPaymentsChecked`: how far back, or every record and why), so the item says what its
 * `already_made` or its sending rests on.
 */
export function withCheckNotes(
	items: ItemOutput[],
	notes: ReadonlyMap<number, string>,
): ItemOutput[] {
	for (const output of items) {
		const note = notes.get(output.itemIndex);
		if (note === undefined) continue;
		if ('items' in output) {
			for (const item of output.items) item.json.earlierPaymentsChecked = note;
		} else {
			output.errorFields = { ...output.errorFields, earlierPaymentsChecked: note };
		}
	}
	return items;
}

import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { paymentEvidence } from '../../payments/acceptedStates';
import { paymentsWithReference } from '../../payments/paymentLookUp';
import { readAmount } from '../../validation/amount';
import { statusOfAccepted, type AcceptedEvidence } from '../../../shared/evidence';
import { nextStepOf } from '../../payments/paymentStatuses';
import { accountLocator } from '../common.descriptions';
import { getAccountId, getOption } from '../parameters';
import { readTransactionId, transactionIdProperty } from '../transaction/transactionId';

const properties: INodeProperties[] = [
	{
		...accountLocator,
		displayName: 'Source Account',
		description: 'The account the payment was paid from (accountId in the payment’s output)',
	},
	{
		displayName: 'Find By',
		name: 'findBy',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Transaction ID',
				value: 'transactionId',
				description: 'The ID Submit or Submit Batch gave the payment',
			},
			{
				name: 'Reference',
				value: 'reference',
				description: 'The reference the payment was paid with, when its transaction ID was lost',
			},
		],
		default: 'transactionId',
	},
	{
		...transactionIdProperty(
			'The payment’s transaction ID (transactionId in the output of Submit or Submit Batch)',
		),
		displayOptions: { show: { findBy: ['transactionId'] } },
	},
	{
		displayName: 'Reference',
		name: 'reference',
		type: 'string',
		required: true,
		default: '',
		description: 'The reference the payment was paid with, exactly as it was sent',
		displayOptions: { show: { findBy: ['reference'] } },
	},
	{
		displayName: 'Amount',
		name: 'amount',
		type: 'string',
		default: '',
		placeholder: 'e.g. 125.50',
		description:
			'Optional: the amount it was paid with, to tell it from other payments with the same reference',
		displayOptions: { show: { findBy: ['reference'] } },
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['payment'], operation: ['getStatus'] } },
	properties,
);

/** The reference and the optional amount of Find By Reference, or an error naming the field. */
function readReference(
	this: IExecuteFunctions,
	itemIndex: number,
): { reference: string; amount?: number } {
	const reference = this.getNodeParameter('reference', itemIndex);
	if (typeof reference !== 'string' || reference.trim() === '') {
		throw new NodeOperationError(this.getNode(), 'Reference: enter the payment’s reference', {
			itemIndex,
		});
	}
	const typed = this.getNodeParameter('amount', itemIndex, '');
	if (typed === '' || typed === undefined || typed === null) return { reference };
	const reading = readAmount(typed);
	if ('problem' in reading) {
		throw new NodeOperationError(this.getNode(), `Amount: ${reading.problem}`, { itemIndex });
	}
	return { reference, amount: reading.amount };
}

/**
 * The one payment of the account with this reference (and amount). Several, or none, is no state of
 * a payment: the item fails, naming the payments found or what was read, and never picks one.
 */
async function transactionIdOfReference(
	this: IExecuteFunctions,
	xaid: string,
	itemIndex: number,
): Promise<string> {
	const sought = readReference.call(this, itemIndex);
	const { found, lookedAt } = await paymentsWithReference.call(
		this,
		{ xaid, ...sought },
		itemIndex,
	);
	const what = `reference ${sought.reference}${sought.amount === undefined ? '' : ` and amount ${sought.amount}`}`;
	if (found.length === 1) return found[0].xtid;
	if (found.length === 0) {
		throw new NodeOperationError(this.getNode(), `No payment with ${what} in account ${xaid}`, {
			itemIndex,
			description: `${lookedAt} The reference or the Source Account may be wrong; or the payment waited for approval that was declined or expired, which some banks no longer show; or it was sent a moment ago and is not shown yet. Do not pay it again before checking the account in the bank’s app.`,
		});
	}
	throw new NodeOperationError(
		this.getNode(),
		`${found.length} payments with ${what} in account ${xaid}`,
		{
			itemIndex,
			description: `Their transaction IDs: ${found.map((payment) => payment.xtid).join(', ')}. Get the status of each by its Transaction ID${sought.amount === undefined ? ', or give the Amount to tell them apart' : ''}.`,
		},
	);
}

/** A read that failed is not evidence of anything: the item fails, saying which read. */
function failedRead(evidence: AcceptedEvidence): string | undefined {
	if (evidence.transaction.read === 'failed') return evidence.transaction.why;
	if (evidence.approval.read === 'failed') return evidence.approval.why;
	return undefined;
}

/**
 * Where a payment is, in the words Submit uses for it: its transaction record and its approval (spec
 * §States and transitions), read and judged as after Submit (shared/evidence.ts), so the two never
 * disagree. Works for payments that needed no approval too.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const xaid = getAccountId.call(this, itemIndex);
	const findBy = getOption.call(
		this,
		'findBy',
		itemIndex,
		'transactionId',
		['transactionId', 'reference'],
		'Find By',
	);
	const xtid =
		findBy === 'reference'
			? await transactionIdOfReference.call(this, xaid, itemIndex)
			: readTransactionId.call(this, itemIndex);
	const evidence = await paymentEvidence.call(this, xtid, xaid, itemIndex);
	const failed = failedRead(evidence);
	if (failed !== undefined) {
		throw new NodeOperationError(this.getNode(), `The payment ${xtid} could not be read`, {
			itemIndex,
			description: `${failed}. Nothing is known of its state from this run: try again later.`,
		});
	}
	if (evidence.transaction.read === 'missing' && evidence.approval.read === 'none') {
		// a bank may stop showing a decided approval, and need never show a transaction for it
		throw new NodeOperationError(this.getNode(), `No payment ${xtid} in account ${xaid}`, {
			itemIndex,
			description:
				'The bank shows neither a transaction nor an approval with this ID in this account. The ID or the Source Account may be wrong; or the payment waited for approval that was declined or expired, which some banks no longer show; or it was sent a moment ago and is not shown yet. Do not pay it again before checking the account in the bank’s app.',
		});
	}
	const known = statusOfAccepted(evidence);
	const { approvalRef, approvalStatus, transactionStatus } = known.fields;
	return {
		status: known.status,
		nextStep: nextStepOf(known.status),
		...(known.check !== undefined && { message: known.check }),
		transactionId: xtid,
		accountId: xaid,
		...(approvalRef !== undefined && { approvalId: approvalRef }),
		...(approvalStatus !== undefined && { approvalStatus }),
		...(transactionStatus !== undefined && { transactionStatus }),
	};
}

import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { paymentEvidence } from '../../payments/acceptedStates';
import { acceptedStatement, type AcceptedEvidence } from '../../payments/evidence';
import { nextStepOf } from '../../payments/paymentOutcomes';
import { accountLocator } from '../common.descriptions';
import { getAccountId } from '../parameters';
import { readTransactionId, transactionIdProperty } from '../transaction/transactionId';

const properties: INodeProperties[] = [
	{
		...accountLocator,
		displayName: 'Source Account',
		description: 'The account the payment was paid from (accountId in the payment’s output)',
	},
	transactionIdProperty(
		'The payment’s transaction ID (transactionId in the output of Submit or Submit Batch)',
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['payment'], operation: ['getStatus'] } },
	properties,
);

/** A read that failed is not evidence of anything: the item fails, saying which read. */
function failedRead(evidence: AcceptedEvidence): string | undefined {
	if (evidence.transaction.read === 'failed') return evidence.transaction.why;
	if (evidence.approval.read === 'failed') return evidence.approval.why;
	return undefined;
}

/**
 * Where a payment is, in the words Submit uses for it: its transaction record and its approval (spec
 * §States and transitions), read and judged as after Submit (payments/evidence.ts), so the two never
 * disagree. Works for payments that needed no approval too.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const xaid = getAccountId.call(this, itemIndex);
	const xtid = readTransactionId.call(this, itemIndex);
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
	const statement = acceptedStatement(evidence);
	const { approvalRef, approvalStatus, transactionStatus } = statement.fields;
	return {
		status: statement.status,
		nextStep: nextStepOf(statement.status),
		...(statement.check !== undefined && { message: statement.check }),
		transactionId: xtid,
		accountId: xaid,
		...(approvalRef !== undefined && { approvalId: approvalRef }),
		...(approvalStatus !== undefined && { approvalStatus }),
		...(transactionStatus !== undefined && { transactionStatus }),
	};
}

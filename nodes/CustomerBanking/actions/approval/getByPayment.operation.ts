import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { searchApprovals } from '../../../shared/approvals/approvalRecords';
import { listScope } from '../common.descriptions';
import { getScope } from '../parameters';
import { readSimplify, simplifyProperty } from '../simplify';
import { readTransactionId, transactionIdProperty } from '../transaction/transactionId';
import { PAYMENT_STATE_IN_WORDS, withPaymentState } from './paymentState';

const properties: INodeProperties[] = [
	transactionIdProperty('The transaction ID the payment was given when it was submitted'),
	...listScope('approvals'),
	simplifyProperty('approval', PAYMENT_STATE_IN_WORDS),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['approval'], operation: ['getByPayment'] } },
	properties,
);

// spec §Approvals: clients find the approval of a payment by matching xtid, reading pages of 50;
// the search stops at the page holding the match
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const xtid = readTransactionId.call(this, itemIndex);
	const simplify = readSimplify.call(this, itemIndex, 'approval');
	const isThePayment = (approval: IDataObject) => approval.xtid === xtid;
	const approvals = await searchApprovals.call(
		this,
		getScope.call(this, itemIndex),
		isThePayment,
		itemIndex,
	);
	const match = approvals.find(isThePayment);
	if (match) return simplify ? withPaymentState(simplify(match), match) : match;
	throw new NodeOperationError(this.getNode(), `No approval found for the payment ${xtid}`, {
		itemIndex,
		description:
			'Only payments covered by an approval policy have an approval; a payment without one was sent directly: Transaction → Get with the same ID shows it.',
	});
}

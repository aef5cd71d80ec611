import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { SpendingLimits } from '../../payments/spendingLimits';
import { readAmount } from '../../validation/amount';

/** The spending limits in the form (Options of Submit and Submit Batch), and how the node reads them. */
export const spendingLimitOptions: INodeProperties[] = [
	{
		displayName: 'Maximum Amount',
		name: 'maxAmount',
		type: 'string',
		default: '',
		placeholder: 'e.g. 5000',
		description:
			'The largest amount one payment may have; a payment over it is never sent and comes out as rejected with the reason (on the Not Paid output, with Outputs by Outcome). Empty means no limit.',
	},
	{
		displayName: 'Maximum Total per Execution',
		name: 'maxTotal',
		type: 'string',
		default: '',
		placeholder: 'e.g. 20000',
		description:
			"The most this node may pay from one account in one execution (every run of it, Retry On Fail and n8n's Retry included), in that account's currency; payments that would go over it are never sent and come out as rejected with the reason (on the Not Paid output, with Outputs by Outcome). Empty means no limit.",
	},
];

// text fields, like Amount: the form never rounds or clamps a limit, and an unreadable one stops the node
function limitOf(
	this: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): number | undefined {
	const value: unknown = this.getNodeParameter(`options.${name}`, itemIndex, '');
	if (value === null || (typeof value === 'string' && value.trim() === '')) return undefined;
	const reading = readAmount(value);
	if ('problem' in reading) {
		throw new NodeOperationError(this.getNode(), `${label} ${reading.problem}`, {
			itemIndex,
			description: `Got ${JSON.stringify(value)}. Leave it empty for no limit. Nothing was sent.`,
		});
	}
	return reading.amount;
}

export function readSpendingLimits(this: IExecuteFunctions, itemIndex: number): SpendingLimits {
	return {
		maxAmount: limitOf.call(this, 'maxAmount', 'Maximum Amount', itemIndex),
		maxTotal: limitOf.call(this, 'maxTotal', 'Maximum Total per Execution', itemIndex),
	};
}

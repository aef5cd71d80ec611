import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { isPending, listApprovals } from '../../../shared/approvals/approvalRecords';
import { listScope, returnAllOrLimit } from '../common.descriptions';
import { getListOptions, getScope } from '../parameters';
import { readSimplify, simplifyProperty } from '../simplify';
import { PAYMENT_STATE_IN_WORDS, withPaymentState } from './paymentState';

// spec §Approval: "the value pending occurs; names of the other values are not shown", so the filter
// offers what every bank can answer: pending, or anything else (decided, whatever the bank calls it).
const STATUS_FILTERS = [
	{ name: 'Any', value: 'any', description: 'Every approval the bank lists' },
	{ name: 'Pending', value: 'pending', description: "Waiting for a decision in the bank's app" },
	{
		name: 'Decided',
		value: 'decided',
		description: "Approved, declined or expired (the bank's own status name is in the output)",
	},
] as const;
type StatusFilter = (typeof STATUS_FILTERS)[number]['value'];

const properties: INodeProperties[] = [
	...listScope('approvals'),
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		default: 'any',
		options: STATUS_FILTERS.map((filter) => ({ ...filter })),
		description: 'Which approvals to return. Some banks list pending approvals only.',
	},
	...returnAllOrLimit(),
	simplifyProperty('approval', PAYMENT_STATE_IN_WORDS),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['approval'], operation: ['getMany'] } },
	properties,
);

// spec §Approvals: GET /approvals or GET /account/{xaid}/approvals
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const status = this.getNodeParameter('status', itemIndex, 'any') as StatusFilter;
	if (!STATUS_FILTERS.some((filter) => filter.value === status)) {
		throw new NodeOperationError(
			this.getNode(),
			`Status must be one of ${STATUS_FILTERS.map((f) => f.name).join(', ')}`,
			{ itemIndex },
		);
	}
	const scope = getScope.call(this, itemIndex);
	const list = getListOptions.call(this, itemIndex);
	const simplify = readSimplify.call(this, itemIndex, 'approval');
	const shape =
		simplify && ((approval: IDataObject) => withPaymentState(simplify(approval), approval));
	// filtered while paging (the lists take no status parameter, spec §Pagination), so Limit counts matches
	const keep =
		status === 'any'
			? undefined
			: (approval: IDataObject) =>
					status === 'pending' ? isPending(approval) : !isPending(approval);
	const approvals = await listApprovals.call(this, scope, { ...list, keep, shape, itemIndex });
	return approvals;
}

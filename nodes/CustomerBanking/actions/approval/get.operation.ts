import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { ENDPOINTS, request } from '../../../shared/transport';
import { requireUuid } from '../parameters';
import { PAYMENT_STATE_IN_WORDS, withPaymentState } from './paymentState';
import { readSimplify, simplifyProperty } from '../simplify';

const properties: INodeProperties[] = [
	{
		displayName: 'Approval Reference',
		name: 'approvalRef',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 0c9d8e7f-6a5b-4c3d-2e1f-0a9b8c7d6e5f',
		description: 'The ref of the approval (a UUID)',
	},
	simplifyProperty('approval', PAYMENT_STATE_IN_WORDS),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['approval'], operation: ['get'] } },
	properties,
);

// spec §Approvals: GET /approval/{ref}
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const ref = requireUuid.call(
		this,
		this.getNodeParameter('approvalRef', itemIndex),
		'Approval Reference (ref)',
		itemIndex,
	);
	const simplify = readSimplify.call(this, itemIndex, 'approval');
	const approval = await request.call(this, ENDPOINTS.approval.at({ ref }), { itemIndex });
	return simplify ? withPaymentState(simplify(approval), approval) : approval;
}

import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { readListPage } from '../../transport/paginate';
import { listScope } from '../common.descriptions';
import { getScopedPath, requireUuid } from '../parameters';

// spec §Approvals: "The approvals list is also used with a page size of 50"
const PAGE_SIZE = 50;

const properties: INodeProperties[] = [
	{
		displayName: 'Transaction ID',
		name: 'transactionId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 7b0e3c1d-2f4a-4b6c-8d9e-0a1b2c3d4e5f',
		description: 'The xtid returned for the payment when it was submitted',
	},
	...listScope('approvals'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['approval'], operation: ['getByPayment'] } },
	properties,
);

// spec §Approvals: clients find the approval of a payment by matching xtid; pages are read one at a
// time and the search stops at the first match
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const xtid = requireUuid(
		this,
		this.getNodeParameter('transactionId', itemIndex),
		'Transaction ID (xtid)',
		itemIndex,
	);
	const path = getScopedPath(this, itemIndex, 'approvals');
	let seen = 0;
	for (let page = 0; ; page++) {
		const response = await apiRequest.call(this, {
			method: 'GET',
			path,
			qs: { page, limit: PAGE_SIZE },
			itemIndex,
		});
		const listPage = readListPage(response);
		if (!listPage) {
			throw new NodeOperationError(this.getNode(), `Unexpected answer to GET ${path}: not a list`, {
				itemIndex,
			});
		}
		const { items: results, total } = listPage;
		const match = results.find((approval) => approval.xtid === xtid);
		if (match) return match;
		seen += results.length;
		if (results.length < PAGE_SIZE || (total !== undefined && seen >= total)) break;
	}
	throw new NodeOperationError(this.getNode(), `No approval found for the payment ${xtid}`, {
		itemIndex,
		description:
			'Only payments covered by an approval policy have an approval (spec §States and transitions); a payment without one was sent directly and its xtid is among the account transactions',
	});
}

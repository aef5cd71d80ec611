import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { ENDPOINTS, request } from '../../../shared/transport';
import { accountLocator } from '../common.descriptions';
import { getAccountId } from '../parameters';

const properties: INodeProperties[] = [accountLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['account'], operation: ['getBalance'] } },
	properties,
);

// spec §Balance: available (spendable now), pending (awaiting approval or in flight) and ledger balance
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const xaid = getAccountId.call(this, itemIndex);
	const balance = await request.call(this, ENDPOINTS.balance.at({ xaid }), { itemIndex });
	// the balance object does not name its account; keep the output self-describing
	return { accountId: xaid, ...balance };
}

import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getPayee } from '../../payees/existingPayee';
import { payeeLocator } from '../common.descriptions';
import { getPayeeId } from '../parameters';

const properties: INodeProperties[] = [payeeLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['payee'], operation: ['get'] } },
	properties,
);

// spec §Payees: GET /payee/{xpid}
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await getPayee(this, getPayeeId(this, itemIndex), itemIndex);
}

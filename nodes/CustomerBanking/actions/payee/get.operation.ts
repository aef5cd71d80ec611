import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getPayee } from '../../payees/existingPayee';
import { payeeLocator } from '../common.descriptions';
import { getPayeeId } from '../parameters';
import { readSimplify, simplifyProperty } from '../simplify';

const properties: INodeProperties[] = [payeeLocator, simplifyProperty('payee')];

export const description = updateDisplayOptions(
	{ show: { resource: ['payee'], operation: ['get'] } },
	properties,
);

// spec §Payees: GET /payee/{xpid}
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const xpid = getPayeeId.call(this, itemIndex);
	const simplify = readSimplify.call(this, itemIndex, 'payee');
	const payee = await getPayee.call(this, xpid, itemIndex);
	return simplify ? simplify(payee) : payee;
}

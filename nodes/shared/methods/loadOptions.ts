import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { ENDPOINTS, requestAll } from '../transport';
import { accountLabel } from './labels';

/** Accounts as options (the trigger's account picker): "Main GBP · GBP · ••1234" → xaid. */
export async function getAccounts(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const accounts = await requestAll.call(this, ENDPOINTS.accounts.at({}), {
		returnAll: true,
		// a picker: the user sees the list and can open it again
		ifShrinking: 'accept',
	});
	return accounts.map((account) => ({
		name: accountLabel(account),
		value: account.xaid as string,
	}));
}

import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { UUID_PATTERN } from './common.descriptions';

const uuid = new RegExp(UUID_PATTERN);

/** spec §Identifiers: xaid, xtid and ref are UUIDs; checked before any request is sent. */
export function requireUuid(
	context: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): string {
	const text = typeof value === 'string' ? value.trim() : '';
	if (!uuid.test(text)) {
		throw new NodeOperationError(
			context.getNode(),
			`${field}: must be a UUID (item ${itemIndex})`,
			{
				itemIndex,
				description: text === '' ? `${field} is empty` : `"${text}" is not a UUID`,
			},
		);
	}
	return text;
}

export function getAccountId(context: IExecuteFunctions, itemIndex: number): string {
	const xaid = context.getNodeParameter('account', itemIndex, '', { extractValue: true });
	return requireUuid(context, xaid, 'Account (xaid)', itemIndex);
}

export function getPayeeId(context: IExecuteFunctions, itemIndex: number): string {
	const xpid = context.getNodeParameter('payee', itemIndex, '', { extractValue: true });
	const text = typeof xpid === 'string' ? xpid.trim() : '';
	if (text === '') {
		throw new NodeOperationError(
			context.getNode(),
			`Payee (xpid): is required (item ${itemIndex})`,
			{ itemIndex },
		);
	}
	return text;
}

/** Return All / Limit of the list operations. */
export function getListOptions(
	context: IExecuteFunctions,
	itemIndex: number,
): { returnAll: boolean; limit?: number } {
	const returnAll = context.getNodeParameter('returnAll', itemIndex, false) as boolean;
	if (returnAll) return { returnAll };
	return { returnAll, limit: context.getNodeParameter('limit', itemIndex, 50) as number };
}

/** The list path of a resource, for every account or (scope "One Account") for one. */
export function getScopedPath(
	context: IExecuteFunctions,
	itemIndex: number,
	collection: 'approvals' | 'payees' | 'transactions',
): string {
	const scope = context.getNodeParameter('scope', itemIndex, 'all') as string;
	if (scope !== 'account') return `/${collection}`;
	return `/account/${getAccountId(context, itemIndex)}/${collection}`;
}

import type { INodeProperties, INodePropertyMode } from 'n8n-workflow';

import { UUID_PATTERN } from '../../shared/validation/ids';

/** A resource picked from a searchable list, or given by its ID. */
function locator(
	parameter: Pick<INodeProperties, 'displayName' | 'name' | 'description'>,
	searchListMethod: string,
	byId: Pick<INodePropertyMode, 'placeholder' | 'validation'>,
): INodeProperties {
	return {
		...parameter,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod, searchable: true },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', ...byId },
		],
	};
}

export const accountLocator = locator(
	{ displayName: 'Account', name: 'account', description: 'The bank account to work with' },
	'searchAccounts',
	{
		placeholder: 'e.g. 3f1c2a9e-6d1b-4c8e-9a57-0c1d2e3f4a5b',
		validation: [
			{
				type: 'regex',
				properties: {
					regex: UUID_PATTERN,
					errorMessage: 'Not a valid account ID (account IDs are UUIDs)',
				},
			},
		],
	},
);

export const payeeLocator = locator(
	{
		displayName: 'Payee',
		name: 'payee',
		description: 'The payee (beneficiary); the list shows the payees of the selected account',
	},
	'searchPayees',
	{ placeholder: 'e.g. 2d9f6b1e-7c4a-4f3e-9b8d-1a2b3c4d5e6f' },
);

/** Return All + Limit, as every n8n list operation has them. */
export function returnAllOrLimit(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/** "All accounts" or "one account" for the list operations that have both endpoints. */
export function listScope(what: string): INodeProperties[] {
	return [
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'options',
			noDataExpression: true,
			options: [
				{
					name: 'All Accounts',
					value: 'all',
					description: `List the ${what} of every account the credentials can see`,
				},
				{
					name: 'One Account',
					value: 'account',
					description: `List the ${what} of one account`,
				},
			],
			default: 'all',
		},
		{
			...accountLocator,
			displayOptions: { show: { scope: ['account'] } },
		},
	];
}

/** The options of a collection in the order n8n lists them: by display name, ignoring case. */
export function byDisplayName(options: INodeProperties[]): INodeProperties[] {
	const key = (property: INodeProperties) => property.displayName.toLowerCase();
	return [...options].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

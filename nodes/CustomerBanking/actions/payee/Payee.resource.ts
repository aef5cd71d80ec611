import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';
import * as upsert from './upsert.operation';

export { create, get, getMany, update, upsert };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['payee'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a payee on an account',
				action: 'Create a payee',
			},
			{
				name: 'Create or Update',
				value: 'upsert',
				description: 'Create a new record, or update the current one if it already exists (upsert)',
				action: 'Create or update a payee',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a payee',
				action: 'Get a payee',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Get many payees, of every account or of one',
				action: 'Get many payees',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Update a payee',
				action: 'Update a payee',
			},
		],
		default: 'get',
	},
	...create.description,
	...get.description,
	...getMany.description,
	...update.description,
	...upsert.description,
];

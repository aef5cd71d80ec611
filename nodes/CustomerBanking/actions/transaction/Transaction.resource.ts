import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getMany from './getMany.operation';

export { get, getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['transaction'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get a transaction by its ID',
				action: 'Get a transaction',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Get many transactions, of every account or of one',
				action: 'Get many transactions',
			},
		],
		default: 'get',
	},
	...get.description,
	...getMany.description,
];

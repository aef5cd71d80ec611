import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getBalance from './getBalance.operation';
import * as getMany from './getMany.operation';

export { get, getBalance, getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['account'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get an account',
				action: 'Get an account',
			},
			{
				name: 'Get Balance',
				value: 'getBalance',
				description: 'Get the available, pending and ledger balance of an account',
				action: 'Get the balance of an account',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Get many accounts',
				action: 'Get many accounts',
			},
		],
		default: 'get',
	},
	...get.description,
	...getBalance.description,
	...getMany.description,
];

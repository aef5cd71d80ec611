import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getByPayment from './getByPayment.operation';
import * as getMany from './getMany.operation';

export { get, getByPayment, getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['approval'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get an approval by its reference',
				action: 'Get an approval',
			},
			{
				name: 'Get by Payment',
				value: 'getByPayment',
				description: 'Find the approval of a submitted payment by its transaction ID',
				action: 'Get the approval of a payment',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Get many approvals, of every account or of one',
				action: 'Get many approvals',
			},
		],
		default: 'get',
	},
	...get.description,
	...getByPayment.description,
	...getMany.description,
];

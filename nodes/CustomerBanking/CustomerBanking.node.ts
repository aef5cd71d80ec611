import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { outputsExpression, resources } from './actions/resources';
import { router } from './actions/router';
import { subtitleExpression } from './actions/subtitle';
import { ACTIONS_DESCRIPTION } from '../shared/appDescription';
import { listSearch, loadOptions } from './methods';
import { CREDENTIAL_TYPE } from '../shared/transport';

const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Account', value: 'account' },
			{ name: 'Approval', value: 'approval' },
			{ name: 'Payee', value: 'payee' },
			{ name: 'Payment', value: 'payment' },
			{ name: 'Transaction', value: 'transaction' },
		],
		default: 'account',
	},
	...Object.values(resources).flatMap((resource) => resource.description),
];

export class CustomerBanking implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Customer Banking',
		name: 'customerBanking',
		icon: {
			light: 'file:../../icons/customerBanking.svg',
			dark: 'file:../../icons/customerBanking.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: subtitleExpression(properties),
		description: ACTIONS_DESCRIPTION,
		defaults: {
			name: 'Customer Banking',
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: outputsExpression(),
		credentials: [
			{
				name: CREDENTIAL_TYPE,
				required: true,
			},
		],
		properties,
	};

	methods = { listSearch, loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}

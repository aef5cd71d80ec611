import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as account from './actions/account/Account.resource';
import * as approval from './actions/approval/Approval.resource';
import * as payee from './actions/payee/Payee.resource';
import * as payment from './actions/payment/Payment.resource';
import { router } from './actions/router';
import * as transaction from './actions/transaction/Transaction.resource';
import { listSearch, loadOptions } from './methods';

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
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Read accounts, balances, transactions and approvals, manage payees and send payments',
		defaults: {
			name: 'Customer Banking',
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		// Payments with "Route Rejected" get a second output; router.ts applies the same condition
		outputs: `={{ $parameter.resource === "payment" && $parameter.routeRejected === true ? [{ type: "${NodeConnectionTypes.Main}", displayName: "Submitted" }, { type: "${NodeConnectionTypes.Main}", displayName: "Rejected" }] : ["${NodeConnectionTypes.Main}"] }}`,
		credentials: [
			{
				name: 'customerBankingApi',
				required: true,
			},
		],
		properties: [
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
			...account.description,
			...approval.description,
			...payee.description,
			...payment.description,
			...transaction.description,
		],
	};

	methods = { listSearch, loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}

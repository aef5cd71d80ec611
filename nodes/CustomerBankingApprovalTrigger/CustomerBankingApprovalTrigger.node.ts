import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { getAccounts } from '../shared/methods/loadOptions';
import { CREDENTIAL_TYPE } from '../shared/transport';
import { textList } from '../shared/validation/text';
import type { ApprovalEvent } from './approvalEvents';
import { pollApprovals } from './approvalPoll';

export class CustomerBankingApprovalTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Customer Banking Approval Trigger',
		name: 'customerBankingApprovalTrigger',
		icon: {
			light: 'file:../../icons/customerBanking.svg',
			dark: 'file:../../icons/customerBanking.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{ [].concat($parameter["events"]).join(", ") }}',
		description:
			'Starts the workflow when a Customer Banking payment needs approval, and when its approval is decided',
		defaults: { name: 'Customer Banking Approval Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: [
			{
				displayName:
					"Approving happens in the bank's web or mobile app; this trigger checks the approvals on every poll and starts the workflow once per event.",
				name: 'pollNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['approvalRequested', 'approvalDecided'],
				options: [
					{
						name: 'Approval Decided',
						value: 'approvalDecided',
						description:
							"A pending approval was decided: approved (the payment was sent), declined, expired, not sent, or undetermined when the bank's answers do not say",
					},
					{
						name: 'Approval Requested',
						value: 'approvalRequested',
						description: 'A payment needs approval',
					},
				],
			},
			{
				displayName: 'Account Names or IDs',
				name: 'accounts',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getAccounts' },
				default: [],
				description:
					'Only approvals of these accounts; leave empty for every account of the credential. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'Simplify',
				name: 'simplify',
				type: 'boolean',
				default: true,
				description:
					"Whether to return a simplified version of the response instead of the raw data: each event names the approval, payment, account and payee plainly. Off, the event also holds the bank's records of the approval and of its transaction as the bank sent them, under the bank's own field names.",
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Include Approvals Pending at Activation',
						name: 'includePendingAtStart',
						type: 'boolean',
						default: false,
						description:
							'Whether the first poll emits Approval Requested for approvals that were already pending; by default it only remembers them, and emits their decisions later',
					},
				],
			},
		],
	};

	methods = { loadOptions: { getAccounts } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const events = textList(this.getNodeParameter('events', [])) as ApprovalEvent[];
		if (events.length === 0) {
			throw new NodeOperationError(this.getNode(), 'Events must contain at least one event');
		}
		const accounts = textList(this.getNodeParameter('accounts', []));
		const includePendingAtStart =
			this.getNodeParameter('options.includePendingAtStart', false) === true;
		const simplify = this.getNodeParameter('simplify', true) !== false;
		return await pollApprovals.call(this, { events, accounts, includePendingAtStart, simplify });
	}
}

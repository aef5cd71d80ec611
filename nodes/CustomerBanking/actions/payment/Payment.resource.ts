import type { INodeProperties } from 'n8n-workflow';

import { STATUS_OUTPUTS, outputOfStatus } from '../../payments/paymentStatuses';
import type { OutputSwitch } from '../types';

import * as getStatus from './getStatus.operation';
import * as submit from './submit.operation';
import * as submitBatch from './submitBatch.operation';

export { getStatus, submit, submitBatch };

/** Outputs by Outcome: one output per kind of outcome, by each item's status (payments/paymentStatuses.ts). */
const byOutcome: OutputSwitch = {
	parameter: 'outputsByOutcome',
	displayNames: STATUS_OUTPUTS,
	outputOf: (json) => outputOfStatus(json.status),
};

/** Route Rejected: rejected payments leave on a second output. */
const rejectedApart: OutputSwitch = {
	parameter: 'routeRejected',
	displayNames: ['Submitted', 'Rejected'],
	outputOf: (_json, output) => (output === 'second' ? 1 : 0),
};

/** Outputs by Outcome takes precedence: Route Rejected is hidden while it is on. */
export const outputSwitches: readonly OutputSwitch[] = [byOutcome, rejectedApart];

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['payment'] } },
		options: [
			{
				name: 'Get Status',
				value: 'getStatus',
				description:
					'Say where a payment is: waiting for approval, sent, not sent, or not known yet, with what to do next',
				action: 'Get the status of a payment',
			},
			{
				name: 'Submit',
				value: 'submit',
				description: 'Send one payment per input item, each with its own idempotency key',
				action: 'Submit a payment',
			},
			{
				name: 'Submit Batch',
				value: 'submitBatch',
				description: 'Send the input items as batch requests, one idempotency key per request',
				action: 'Submit a batch of payments',
			},
		],
		default: 'submit',
	},
	{
		displayName: 'Outputs by Outcome',
		name: byOutcome.parameter,
		type: 'boolean',
		noDataExpression: true,
		default: false,
		displayOptions: { show: { resource: ['payment'] } },
		description: `Whether to give each kind of outcome its own output (${STATUS_OUTPUTS.join(', ')}), so each can go to its next step without a Switch node; otherwise every payment goes to one output with its status and nextStep`,
	},
	{
		displayName: 'Route Rejected to Second Output',
		name: rejectedApart.parameter,
		type: 'boolean',
		noDataExpression: true,
		default: false,
		displayOptions: {
			show: { resource: ['payment'] },
			hide: { [byOutcome.parameter]: [true] },
		},
		description:
			'Whether to send rejected payments to a second output, "Rejected"; otherwise every payment goes to one output with its status (sent, pending_approval, rejected, to check…)',
	},
	...getStatus.description,
	...submit.description,
	...submitBatch.description,
];

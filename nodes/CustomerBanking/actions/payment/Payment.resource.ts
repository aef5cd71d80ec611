import type { INodeProperties } from 'n8n-workflow';

import type { OutputSwitch } from '../types';

import * as submit from './submit.operation';
import * as submitBatch from './submitBatch.operation';

export { submit, submitBatch };

/** Route Rejected: rejected payments leave on a second output. */
export const outputSwitch: OutputSwitch = {
	parameter: 'routeRejected',
	displayNames: { main: 'Submitted', second: 'Rejected' },
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['payment'] } },
		options: [
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
		displayName: 'Route Rejected to Second Output',
		name: outputSwitch.parameter,
		type: 'boolean',
		noDataExpression: true,
		default: false,
		displayOptions: { show: { resource: ['payment'] } },
		description:
			'Whether to send rejected payments to a second output, "Rejected"; otherwise every payment goes to one output with its status (submitted, pending_approval, rejected or found_after_error)',
	},
	...submit.description,
	...submitBatch.description,
];

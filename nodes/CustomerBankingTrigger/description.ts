import type { INodeProperties } from 'n8n-workflow';

import { BANKING_EVENT_OPTIONS } from './events';

// Literal defaults (n8n's lint wants literals); a unit test holds them equal to DEFAULT_SIGNATURE_SCHEME.
export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			'Deliveries are verified with the "Webhook Signing Secret" of the credential, the way the Signature Scheme below says; a delivery without a valid signature is refused and starts nothing, and why shows as a failed execution (at most once a minute).',
		name: 'signingNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Account Names or IDs',
		name: 'accounts',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getAccounts' },
		required: true,
		default: [],
		description:
			'The accounts to watch; one webhook subscription is made per account and event. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: ['transactionReceived', 'transactionConfirmed'],
		options: [...BANKING_EVENT_OPTIONS],
	},
	{
		displayName: 'Fetch Full Transaction',
		name: 'fetchTransaction',
		type: 'boolean',
		default: true,
		description:
			'Whether to fetch the full, current transaction for each delivery; a delivery itself only signals that something happened',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Maximum Running Executions',
				name: 'maxRunningExecutions',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 1000 },
				default: 10,
				description:
					"How many executions this trigger may have running at once. When that many are still running, a further event waits up to 3 seconds for one to end; if none does, the bank is asked to send it again a few seconds later, so a burst of events waits at the bank instead of filling n8n's memory. Raise it for workflows that wait a long time.",
			},
		],
	},
	{
		displayName: 'Signature Scheme',
		name: 'signatureScheme',
		type: 'options',
		default: 'customerBanking',
		description:
			"How the bank signs its deliveries. Its webhook documentation names the headers: find them below (docs/triggers.md of this package shows how to read a bank's page).",
		options: [
			{
				name: 'Custom',
				value: 'custom',
				description: 'Set the header names, algorithm, encoding and signed content yourself',
			},
			{
				name: 'Customer Banking',
				value: 'customerBanking',
				description:
					'Headers x-cb-signature (v1=hex) and x-cb-timestamp; the secret as given. The Customer Banking API.',
			},
			{
				name: 'GitHub-Style',
				value: 'github',
				description:
					'Header x-hub-signature-256 (sha256=hex of the body); no timestamp, so old deliveries cannot be refused by time',
			},
			{
				name: 'Standard Webhooks (Svix)',
				value: 'standardWebhooks',
				description:
					'Headers webhook-ID, webhook-timestamp and webhook-signature (v1,base64), or the same as svix-*; the secret starts with whsec_',
			},
			{
				name: 'Stripe-Style',
				value: 'stripe',
				description: 'Header Stripe-Signature (t=…,v1=hex); the secret as given, whsec_ included',
			},
		],
	},
	{
		displayName:
			"GitHub-style signatures carry no timestamp: a delivery someone captured can be sent again at any time and still verifies. The trigger recognises a copy of a delivery it has taken for about a day (by the payload's delivery ID, else by its exact body), not longer.",
		name: 'githubReplayNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { signatureScheme: ['github'] } },
	},
	{
		displayName: 'Signature Verification',
		name: 'signature',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: 'How deliveries are signed. The defaults match the Customer Banking API.',
		displayOptions: { show: { signatureScheme: ['custom'] } },
		options: [
			{
				displayName: 'Algorithm',
				name: 'algorithm',
				type: 'options',
				default: 'sha256',
				options: [
					{ name: 'HMAC-SHA256', value: 'sha256' },
					{ name: 'HMAC-SHA512', value: 'sha512' },
				],
			},
			{
				displayName: 'Encoding',
				name: 'encoding',
				type: 'options',
				default: 'hex',
				options: [
					{ name: 'Hex', value: 'hex' },
					{ name: 'Base64', value: 'base64' },
				],
			},
			{
				displayName: 'Signature Header',
				name: 'signatureHeader',
				type: 'string',
				default: 'x-cb-signature',
				description: 'Header carrying the signature, or a comma-separated list of signatures',
			},
			{
				displayName: 'Signature Prefix',
				name: 'signaturePrefix',
				type: 'string',
				default: 'v1=',
				description:
					'Prefix in front of each signature in the header (e.g. v1=); signatures with another prefix are ignored. Leave empty for bare signatures.',
			},
			{
				displayName: 'Signed Content',
				name: 'signedContent',
				type: 'options',
				default: 'timestampAndBody',
				description:
					'What the signature covers. Only a signed timestamp protects against replays: with the raw body alone, anyone who captured a delivery can send it again later, and it is recognised as a copy only for about a day.',
				options: [
					{
						name: 'Timestamp + "." + Raw Body',
						value: 'timestampAndBody',
					},
					{ name: 'Raw Body', value: 'body' },
				],
			},
			{
				displayName: 'Timestamp Header',
				name: 'timestampHeader',
				type: 'string',
				default: 'x-cb-timestamp',
				description:
					'Header carrying the Unix time of the delivery attempt. Leave empty only when the raw body alone is signed and the sender sends no timestamp. A timestamp that is not signed is still checked against the tolerance, but it is not a defence against replays: anyone can change it.',
			},
			{
				displayName: 'Timestamp Tolerance (Seconds)',
				name: 'toleranceSeconds',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 900 },
				default: 300,
				description:
					'Deliveries whose timestamp is further than this from now are refused (at most 900). This protects against replays only when the timestamp is part of the signed content.',
			},
		],
	},
	{
		displayName: 'Payload Field Names',
		name: 'payloadFields',
		type: 'collection',
		placeholder: 'Add Field Name',
		default: {},
		description:
			"Where the delivery body keeps each fact. The bank does not document the body of its deliveries: the defaults name the account, the transaction and the event as its API does elsewhere. Set a name here when your bank's deliveries use another.",
		options: [
			{
				displayName: 'Account Field',
				name: 'account',
				type: 'string',
				default: 'xaid',
			},
			{
				displayName: 'Delivery ID Field',
				name: 'deliveryId',
				type: 'string',
				default: 'deliveryId',
				description:
					'The ID a retried delivery keeps; without one, a delivery is recognised by its exact body',
			},
			{
				displayName: 'Event Field',
				name: 'event',
				type: 'string',
				default: 'event',
			},
			{
				displayName: 'Occurred At Field',
				name: 'occurredAt',
				type: 'string',
				default: 'occurredAt',
			},
			{
				displayName: 'Transaction ID Field',
				name: 'transaction',
				type: 'string',
				default: 'xtid',
			},
		],
	},
];

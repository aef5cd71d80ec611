import type {
	IDataObject,
	IHookFunctions,
	INodeProperties,
	IWebhookFunctions,
} from 'n8n-workflow';

import { textList } from '../CustomerBanking/validation/text';
import { DEFAULT_SIGNATURE_SCHEME } from './signature';
import type { SignatureScheme } from './signature';
import { BANKING_EVENTS, isBankingEvent } from './subscriptions';
import type { BankingEvent } from './subscriptions';

// Literal defaults (n8n's lint wants literals); a unit test holds them equal to DEFAULT_SIGNATURE_SCHEME.
export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			'Deliveries are verified with the "Webhook Signing Secret" of the credential; a delivery without a valid signature is refused with 401 and starts nothing.',
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
		default: ['TransactionReceived', 'TransactionConfirmed'],
		options: [
			{
				name: 'Transaction Confirmed',
				value: 'TransactionConfirmed',
				description: 'An outgoing transaction on the account has settled',
			},
			{
				name: 'Transaction Received',
				value: 'TransactionReceived',
				description: 'Money arrived on the account',
			},
		],
	},
	{
		displayName: 'Fetch Full Transaction',
		name: 'fetchTransaction',
		type: 'boolean',
		default: true,
		description:
			'Whether to fetch the full, current transaction (GET /transaction/{xtid}) for each delivery; a delivery itself only signals that something happened',
	},
	{
		displayName: 'Signature Verification',
		name: 'signature',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: 'How deliveries are signed. The defaults match the Customer Banking API.',
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
					'Header carrying the Unix time of the delivery attempt. Leave empty only when the raw body alone is signed and the sender sends no timestamp.',
			},
			{
				displayName: 'Timestamp Tolerance (Seconds)',
				name: 'toleranceSeconds',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 300,
				description:
					'Deliveries whose timestamp is further than this from now are refused, against replays',
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
			'Where the delivery body keeps each fact. The API documentation does not show the payload; the defaults are the Customer Banking sandbox\'s.',
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

/** Where the delivery body keeps each fact (spec §Events rule 3: the payload shape is not shown). */
export interface PayloadFields {
	deliveryId: string;
	event: string;
	account: string;
	transaction: string;
	occurredAt: string;
}

export const DEFAULT_PAYLOAD_FIELDS: Readonly<PayloadFields> = {
	deliveryId: 'deliveryId',
	event: 'event',
	account: 'xaid',
	transaction: 'xtid',
	occurredAt: 'occurredAt',
};

type TriggerContext = IHookFunctions | IWebhookFunctions;

export function readAccounts(this: TriggerContext): string[] {
	return textList(this.getNodeParameter('accounts', []));
}

/** Every selected value, valid or not: validation names the invalid ones. */
export function readEventValues(this: TriggerContext): string[] {
	return textList(this.getNodeParameter('events', []));
}

export function readEvents(this: TriggerContext): BankingEvent[] {
	return readEventValues.call(this).filter(isBankingEvent);
}

export function readPayloadFields(this: TriggerContext): PayloadFields {
	const given = (this.getNodeParameter('payloadFields', {}) ?? {}) as IDataObject;
	const name = (key: keyof PayloadFields) => {
		const value = given[key];
		return typeof value === 'string' && value.trim() !== '' ? value.trim() : DEFAULT_PAYLOAD_FIELDS[key];
	};
	return {
		deliveryId: name('deliveryId'),
		event: name('event'),
		account: name('account'),
		transaction: name('transaction'),
		occurredAt: name('occurredAt'),
	};
}

export function readFetchTransaction(this: TriggerContext): boolean {
	return this.getNodeParameter('fetchTransaction', true) !== false;
}

export function readScheme(this: TriggerContext): SignatureScheme {
	const options = (this.getNodeParameter('signature', {}) ?? {}) as IDataObject;
	const text = (key: keyof SignatureScheme): string => {
		const value = options[key];
		return typeof value === 'string' ? value.trim() : String(DEFAULT_SIGNATURE_SCHEME[key]);
	};
	const tolerance = options.toleranceSeconds;
	return {
		signatureHeader: text('signatureHeader'),
		signaturePrefix: text('signaturePrefix'),
		timestampHeader: text('timestampHeader'),
		algorithm: text('algorithm') as SignatureScheme['algorithm'],
		encoding: text('encoding') as SignatureScheme['encoding'],
		signedContent: text('signedContent') as SignatureScheme['signedContent'],
		toleranceSeconds:
			typeof tolerance === 'number' ? tolerance : DEFAULT_SIGNATURE_SCHEME.toleranceSeconds,
	};
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Each problem names the field and the rule; an empty list means the scheme can be used. */
export function schemeProblems(scheme: SignatureScheme): string[] {
	const problems: string[] = [];
	if (!HEADER_NAME.test(scheme.signatureHeader)) {
		problems.push('Signature Header must be a valid HTTP header name');
	}
	if (scheme.timestampHeader !== '' && !HEADER_NAME.test(scheme.timestampHeader)) {
		problems.push('Timestamp Header must be a valid HTTP header name or empty');
	}
	if (scheme.signedContent === 'timestampAndBody' && scheme.timestampHeader === '') {
		problems.push('Timestamp Header is required when the timestamp is part of the signed content');
	}
	if (!['sha256', 'sha512'].includes(scheme.algorithm)) {
		problems.push('Algorithm must be HMAC-SHA256 or HMAC-SHA512');
	}
	if (!['hex', 'base64'].includes(scheme.encoding)) {
		problems.push('Encoding must be Hex or Base64');
	}
	if (!['timestampAndBody', 'body'].includes(scheme.signedContent)) {
		problems.push('Signed Content must be "Timestamp + "." + Raw Body" or "Raw Body"');
	}
	if (!Number.isInteger(scheme.toleranceSeconds) || scheme.toleranceSeconds < 1) {
		problems.push('Timestamp Tolerance (Seconds) must be a whole number of at least 1');
	}
	return problems;
}

/** Problems with the accounts and events, each naming the field and the rule. */
export function subscriptionProblems(accounts: string[], eventValues: string[]): string[] {
	const problems: string[] = [];
	if (accounts.length === 0) problems.push('Accounts must contain at least one account');
	if (eventValues.length === 0) problems.push('Events must contain at least one event');
	const unknown = eventValues.filter((value) => !isBankingEvent(value));
	if (unknown.length > 0) {
		problems.push(
			`Events must be ${BANKING_EVENTS.join(' or ')}; not supported: ${unknown.join(', ')}`,
		);
	}
	return problems;
}

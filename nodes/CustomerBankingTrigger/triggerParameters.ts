import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { textList } from '../shared/validation/text';
import {
	DEFAULT_SIGNATURE_SCHEME,
	MAX_TOLERANCE_SECONDS,
	NAMED_SCHEMES,
	SCHEME_NAMES,
} from './signature';
import type { SchemeName, SignatureScheme } from './signature';
import { BANKING_EVENTS, isBankingEvent } from './events';
import { DEFAULT_MAX_RUNNING, MAX_RUNNING_LIMIT } from './runningDeliveries';
import type { BankingEvent } from './events';

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
		return typeof value === 'string' && value.trim() !== ''
			? value.trim()
			: DEFAULT_PAYLOAD_FIELDS[key];
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

/** As set, unchecked: `optionProblems` names a value that cannot be used. */
export function readMaxRunning(this: TriggerContext): number {
	const options = (this.getNodeParameter('options', {}) ?? {}) as IDataObject;
	const value = options.maxRunningExecutions;
	return value === undefined || value === null || value === ''
		? DEFAULT_MAX_RUNNING
		: Number(value);
}

export function isUsableMaxRunning(value: number): boolean {
	return Number.isInteger(value) && value >= 1 && value <= MAX_RUNNING_LIMIT;
}

/** Problems with the Options, each naming the field and the rule. */
export function optionProblems(maxRunning: number): string[] {
	return isUsableMaxRunning(maxRunning)
		? []
		: [`Maximum Running Executions must be a whole number from 1 to ${MAX_RUNNING_LIMIT}`];
}

function isSchemeName(value: unknown): value is SchemeName {
	return (SCHEME_NAMES as readonly unknown[]).includes(value);
}

/**
 * The scheme chosen by name, or for Custom the fields as set (unchecked: `schemeProblems` names a
 * value that cannot be used). An unknown name reads as the default's fields under that name, which
 * `schemeProblems` refuses.
 */
export function readScheme(this: TriggerContext): SignatureScheme {
	const chosen = this.getNodeParameter('signatureScheme', DEFAULT_SIGNATURE_SCHEME.name) as unknown;
	if (chosen !== 'custom') {
		if (isSchemeName(chosen) && chosen !== 'custom') return { ...NAMED_SCHEMES[chosen] };
		return { ...DEFAULT_SIGNATURE_SCHEME, name: String(chosen) as SchemeName };
	}
	const options = (this.getNodeParameter('signature', {}) ?? {}) as IDataObject;
	const text = (key: keyof SignatureScheme): string => {
		const value = options[key];
		return typeof value === 'string' ? value.trim() : String(DEFAULT_SIGNATURE_SCHEME[key]);
	};
	const tolerance = options.toleranceSeconds;
	return {
		name: 'custom',
		layout: 'separateHeaders',
		signatureHeader: text('signatureHeader'),
		signaturePrefix: text('signaturePrefix'),
		timestampHeader: text('timestampHeader'),
		algorithm: text('algorithm') as SignatureScheme['algorithm'],
		encoding: text('encoding') as SignatureScheme['encoding'],
		signedContent: text('signedContent') as SignatureScheme['signedContent'],
		secretFormat: 'text',
		toleranceSeconds:
			typeof tolerance === 'number' ? tolerance : DEFAULT_SIGNATURE_SCHEME.toleranceSeconds,
	};
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Each problem names the field and the rule; an empty list means the scheme can be used. */
export function schemeProblems(scheme: SignatureScheme): string[] {
	if (!isSchemeName(scheme.name)) {
		return [
			'Signature Scheme must be Customer Banking, Standard Webhooks, Stripe-Style, GitHub-Style or Custom',
		];
	}
	if (scheme.name !== 'custom') return [];
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
	if (
		!Number.isInteger(scheme.toleranceSeconds) ||
		scheme.toleranceSeconds < 1 ||
		scheme.toleranceSeconds > MAX_TOLERANCE_SECONDS
	) {
		problems.push(
			`Timestamp Tolerance (Seconds) must be a whole number from 1 to ${MAX_TOLERANCE_SECONDS}`,
		);
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

/**
 * The trigger's parameters read with a fake context: accounts and events, Payload Field Names with
 * their defaults, Fetch Full Transaction, Max Running Executions, the signature scheme (named or
 * custom), and the problems each names before activation.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import {
	DEFAULT_SIGNATURE_SCHEME,
	MAX_TOLERANCE_SECONDS,
	NAMED_SCHEMES,
} from '../../../nodes/CustomerBankingTrigger/signature';
import type { SignatureScheme } from '../../../nodes/CustomerBankingTrigger/signature';
import {
	DEFAULT_PAYLOAD_FIELDS,
	isUsableMaxRunning,
	optionProblems,
	readAccounts,
	readEvents,
	readEventValues,
	readFetchTransaction,
	readMaxRunning,
	readPayloadFields,
	readScheme,
	schemeProblems,
	subscriptionProblems,
} from '../../../nodes/CustomerBankingTrigger/triggerParameters';

function contextWith(parameters: IDataObject): IWebhookFunctions {
	return {
		getNodeParameter: (name: string, fallback: unknown) =>
			Object.hasOwn(parameters, name) ? parameters[name] : fallback,
	} as unknown as IWebhookFunctions;
}

describe('accounts and events', () => {
	it('lists of text; only known events are read, every value is kept for validation', () => {
		const context = contextWith({
			accounts: ['acc-1', ' acc-2 '],
			events: ['transactionReceived', 'PaymentSent'],
		});
		expect(readAccounts.call(context)).toEqual(expect.arrayContaining(['acc-1']));
		expect(readEventValues.call(context)).toEqual(['transactionReceived', 'PaymentSent']);
		expect(readEvents.call(context)).toEqual(['transactionReceived']);
		// the bank's word is not a value of the Events field
		expect(readEvents.call(contextWith({ events: ['TransactionReceived'] }))).toEqual([]);
		expect(readAccounts.call(contextWith({}))).toEqual([]);
	});

	it.each<[string[], string[], string[]]>([
		[['acc-1'], ['transactionReceived'], []],
		[[], ['transactionReceived'], ['Accounts must contain at least one account']],
		[['acc-1'], [], ['Events must contain at least one event']],
		[
			['acc-1'],
			['transactionReceived', 'PaymentSent'],
			['Events must be transactionConfirmed or transactionReceived; not supported: PaymentSent'],
		],
		[
			['acc-1'],
			['TransactionConfirmed', 'transactionReceived'],
			[
				'Events must be transactionConfirmed or transactionReceived; not supported: TransactionConfirmed',
			],
		],
	])('subscriptionProblems(%j, %j)', (accounts, events, problems) => {
		expect(subscriptionProblems(accounts, events)).toEqual(problems);
	});
});

describe('Payload Field Names and Fetch Full Transaction', () => {
	it('the defaults, or the names given (trimmed; blank is the default)', () => {
		expect(readPayloadFields.call(contextWith({}))).toEqual(DEFAULT_PAYLOAD_FIELDS);
		expect(
			readPayloadFields.call(
				contextWith({ payloadFields: { event: ' type ', account: '  ', transaction: 7 } }),
			),
		).toEqual({ ...DEFAULT_PAYLOAD_FIELDS, event: 'type' });
	});

	it('Fetch Full Transaction is on unless set off', () => {
		expect(readFetchTransaction.call(contextWith({}))).toBe(true);
		expect(readFetchTransaction.call(contextWith({ fetchTransaction: false }))).toBe(false);
		expect(readFetchTransaction.call(contextWith({ fetchTransaction: 'no' }))).toBe(true);
	});
});

describe('Max Running Executions', () => {
	it.each<[IDataObject, number, boolean]>([
		[{}, 10, true],
		[{ options: { maxRunningExecutions: '' } }, 10, true],
		[{ options: { maxRunningExecutions: 3 } }, 3, true],
		[{ options: { maxRunningExecutions: 0 } }, 0, false],
		[{ options: { maxRunningExecutions: 2.5 } }, 2.5, false],
		[{ options: { maxRunningExecutions: 'x' } }, Number.NaN, false],
		[{ options: { maxRunningExecutions: 1001 } }, 1001, false],
	])('%j → %s, usable: %s', (parameters, value, usable) => {
		const read = readMaxRunning.call(contextWith(parameters));
		expect(read).toBe(value);
		expect(isUsableMaxRunning(read)).toBe(usable);
		expect(optionProblems(read)).toEqual(
			usable ? [] : ['Maximum Running Executions must be a whole number from 1 to 1000'],
		);
	});
});

describe('the signature scheme', () => {
	it('the default when none is chosen; a named one as defined', () => {
		expect(readScheme.call(contextWith({}))).toEqual(DEFAULT_SIGNATURE_SCHEME);
		for (const [name, scheme] of Object.entries(NAMED_SCHEMES))
			expect(readScheme.call(contextWith({ signatureScheme: name }))).toEqual(scheme);
	});

	it('an unknown name is refused by schemeProblems, never read as another scheme', () => {
		const scheme = readScheme.call(contextWith({ signatureScheme: 'constructor' }));
		expect(schemeProblems(scheme)).toEqual([
			'Signature Scheme must be Customer Banking, Standard Webhooks, Stripe-Style, GitHub-Style or Custom',
		]);
	});

	const custom = (signature: IDataObject): SignatureScheme =>
		readScheme.call(contextWith({ signatureScheme: 'custom', signature }));

	it('custom: the fields as set, trimmed, defaults for those not set', () => {
		const scheme = custom({
			signatureHeader: ' X-Sig ',
			algorithm: 'sha512',
			toleranceSeconds: 60,
		});
		expect(scheme).toMatchObject({
			name: 'custom',
			signatureHeader: 'X-Sig',
			algorithm: 'sha512',
			encoding: DEFAULT_SIGNATURE_SCHEME.encoding,
			toleranceSeconds: 60,
		});
		expect(schemeProblems(scheme)).toEqual([]);
	});

	it.each<[IDataObject, string]>([
		[{ signatureHeader: 'X Sig' }, 'Signature Header must be a valid HTTP header name'],
		[{ timestampHeader: 'X:Ts' }, 'Timestamp Header must be a valid HTTP header name or empty'],
		[
			{ timestampHeader: '', signedContent: 'timestampAndBody' },
			'Timestamp Header is required when the timestamp is part of the signed content',
		],
		[{ algorithm: 'md5' }, 'Algorithm must be HMAC-SHA256 or HMAC-SHA512'],
		[{ encoding: 'base32' }, 'Encoding must be Hex or Base64'],
		[
			{ signedContent: 'headers' },
			'Signed Content must be "Timestamp + "." + Raw Body" or "Raw Body"',
		],
		[
			{ toleranceSeconds: 0 },
			`Timestamp Tolerance (Seconds) must be a whole number from 1 to ${MAX_TOLERANCE_SECONDS}`,
		],
		[
			{ toleranceSeconds: MAX_TOLERANCE_SECONDS + 1 },
			`Timestamp Tolerance (Seconds) must be a whole number from 1 to ${MAX_TOLERANCE_SECONDS}`,
		],
	])('custom %j: %s', (signature, problem) => {
		expect(schemeProblems(custom(signature))).toContain(problem);
	});
});

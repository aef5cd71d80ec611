/**
 * Reading each item's payment in n8n-core's execution context, the node's own parameters: Map
 * Automatically and Map Each Field Below, the options that change money (a "true" from an expression
 * is not true), the custom key, Look Back, and repeats with Skip Payments Already Made. Bad input is
 * an error naming the item and the field; nothing is sent from here.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	lookBackDaysOf,
	readPayment,
	readPayments,
	skipsAlreadyMade,
} from '../../../../../nodes/CustomerBanking/actions/payment/readPayment';
import { createExecuteContext, type Parameters } from '../../../../helpers/n8nContext';
import { scriptedBankCredentials } from '../../../../helpers/scriptedBank';

const ACCOUNT = '0b5d4e3c-1111-4aaa-8bbb-000000000001';
const PAYEE = '0b5d4e3c-2222-4aaa-8bbb-000000000002';

const row = (fields: IDataObject = {}): IDataObject => ({
	accountId: ACCOUNT,
	payeeId: PAYEE,
	amount: 12.5,
	reference: 'INV-0001',
	...fields,
});

function automatic(rows: IDataObject[], options: IDataObject = {}, parameters: Parameters = {}) {
	return createExecuteContext({
		credentials: scriptedBankCredentials(),
		parameters: {
			resource: 'payment',
			operation: 'submit',
			mappingMode: 'autoMapInputData',
			options,
			...parameters,
		},
		items: rows.map((json) => ({ json })),
	}).context;
}

function perField(itemParameters: Parameters[], parameters: Parameters = {}) {
	return createExecuteContext({
		credentials: scriptedBankCredentials(),
		parameters: {
			resource: 'payment',
			operation: 'submit',
			mappingMode: 'defineBelow',
			account: { __rl: true, mode: 'id', value: ACCOUNT },
			payee: { __rl: true, mode: 'id', value: PAYEE },
			amount: 12.5,
			reference: 'INV-0001',
			...parameters,
		},
		itemParameters,
		items: itemParameters.map(() => ({ json: {} })),
	}).context;
}

describe('readPayment, Map Automatically', () => {
	it('the payment body from the item, numbers given as text read as numbers', () => {
		const context = automatic([row({ amount: '7.25', currency: 'GBP', description: 'March' })]);
		expect(readPayment.call(context, 0)).toEqual({
			valid: true,
			payment: {
				itemIndex: 0,
				body: {
					xaid: ACCOUNT,
					xpid: PAYEE,
					amount: 7.25,
					currency: 'GBP',
					reference: 'INV-0001',
					description: 'March',
				},
			},
		});
	});

	it.each<[string, IDataObject, RegExp]>([
		[
			'a missing amount',
			{ amount: undefined },
			/^Invalid payment in item 0: Input field 'amount' is required$/,
		],
		[
			'a field that is not a payment field',
			{ note: 'x' },
			/Input field 'note' is not a payment field/,
		],
		['a negative amount', { amount: -5 }, /Input field 'amount'/],
	])('%s: invalid, naming the input field', (_case, fields, message) => {
		const given = row(fields);
		for (const [name, value] of Object.entries(given)) if (value === undefined) delete given[name];
		const read = readPayment.call(automatic([given]), 0);
		expect(read.valid).toBe(false);
		if (!read.valid) {
			expect(read.error.message).toMatch(message);
			expect(read.error.description).toMatch(/This payment was not sent\.$/);
			expect(read.error.context.itemIndex).toBe(0);
		}
	});

	it.each<[string, IDataObject, string, Parameters?]>([
		['Validate Only as text', { validateOnly: 'true' }, 'Validate Only: must be true or false'],
		[
			'Resubmit Rejected Items as a number',
			{ resubmitRejected: 1 },
			'Resubmit Rejected Items: must be true or false',
			// an option of Submit Batch
			{ operation: 'submitBatch' },
		],
		[
			'an empty Custom Idempotency Key',
			{ idempotencyKey: '  ' },
			'Custom Idempotency Key: is empty for this item',
		],
	])('%s: invalid (never quietly read as off)', (_case, options, issue, parameters = {}) => {
		const read = readPayment.call(automatic([row()], options, parameters), 0);
		expect(read.valid).toBe(false);
		if (!read.valid) expect(read.error.description).toContain(issue);
	});

	it('a custom key is kept trimmed, a number as text; Send Again If Refused is carried on the payment', () => {
		const withKey = readPayment.call(automatic([row()], { idempotencyKey: ' inv-7 ' }), 0);
		expect(withKey).toMatchObject({ valid: true, payment: { customKey: 'inv-7' } });
		const numberKey = readPayment.call(automatic([row()], { idempotencyKey: 42 }), 0);
		expect(numberKey).toMatchObject({ valid: true, payment: { customKey: '42' } });
		const sendAgain = readPayment.call(automatic([row()], { sendAgainIfRefused: true }), 0);
		expect(sendAgain).toMatchObject({ valid: true, payment: { sendAgainIfRefused: true } });
	});
});

describe('readPayment, Map Each Field Below', () => {
	it('reads the form per item', () => {
		const context = perField([{ amount: 10 }, { amount: 20, reference: 'INV-0002' }]);
		expect(readPayment.call(context, 1)).toEqual({
			valid: true,
			payment: {
				itemIndex: 1,
				body: { xaid: ACCOUNT, xpid: PAYEE, amount: 20, reference: 'INV-0002' },
			},
		});
	});

	it('an invalid value names the form field and the item', () => {
		const read = readPayment.call(perField([{ amount: 10 }, { amount: 0 }]), 1);
		expect(read.valid).toBe(false);
		if (!read.valid) {
			expect(read.error.message).toMatch(/^Invalid payment in item 1: Amount/);
			expect(read.itemIndex).toBe(1);
		}
	});
});

describe('readPayments with Skip Payments Already Made', () => {
	it('an item repeating an earlier one is refused before anything is sent; off, both are read', () => {
		const context = automatic([row(), row({ reference: 'INV-0002' }), row()]);
		const on = readPayments.call(context, [0, 1, 2], true);
		expect(on.map((read) => read.valid)).toEqual([true, true, false]);
		const third = on[2];
		if (!third.valid) expect(third.error.message).toMatch(/Payment repeats item 0/);
		expect(readPayments.call(context, [0, 1, 2], false).map((read) => read.valid)).toEqual([
			true,
			true,
			true,
		]);
	});
});

describe('skipsAlreadyMade and lookBackDaysOf', () => {
	it('Skip Payments Already Made is on unless set off', () => {
		expect(skipsAlreadyMade.call(automatic([row()]), 0)).toBe(true);
		expect(skipsAlreadyMade.call(automatic([row()], {}, { skipAlreadyMade: false }), 0)).toBe(
			false,
		);
	});

	it.each<[unknown, number | RegExp]>([
		[undefined, 0],
		[30, 30],
		[-1, /Look Back \(Days\) must be a whole number from 0 to \d+/],
		[1.5, /must be a whole number/],
		[100000, /must be a whole number/],
	])('Look Back %s → %s', (days, expected) => {
		const context = automatic([row()], days === undefined ? {} : { lookBackDays: days });
		if (typeof expected === 'number') expect(lookBackDaysOf.call(context, 0)).toBe(expected);
		else expect(() => lookBackDaysOf.call(context, 0)).toThrow(expected);
	});
});

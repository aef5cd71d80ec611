/** The Transaction ID parameter: a UUID, checked before any request, the field and item named. */
import type { IExecuteFunctions } from 'n8n-workflow';

import {
	readTransactionId,
	transactionIdProperty,
} from '../../../../../nodes/CustomerBanking/actions/transaction/transactionId';

const XTID = '7b0e3c1d-2f4a-4b6c-8d9e-0a1b2c3d4e5f';

const contextWith = (transactionId: unknown) =>
	({
		getNode: () => ({ name: 'Customer Banking' }),
		getNodeParameter: () => transactionId,
	}) as unknown as IExecuteFunctions;

describe('readTransactionId', () => {
	it('a UUID, trimmed', () => {
		expect(readTransactionId.call(contextWith(` ${XTID}`), 0)).toBe(XTID);
	});

	it.each(['', 'tx-1', `${XTID}/..`, null])('%j is refused, naming the field', (value) => {
		expect(() => readTransactionId.call(contextWith(value), 4)).toThrow(/Transaction ID/);
	});
});

describe('transactionIdProperty', () => {
	it('a required text field named transactionId with the description given', () => {
		expect(transactionIdProperty('Which one')).toMatchObject({
			name: 'transactionId',
			type: 'string',
			required: true,
			description: 'Which one',
		});
	});
});

/**
 * Reading the spending limits from Options: empty is no limit; a limit is read like an amount (text,
 * never rounded or clamped); an unreadable one stops the node before anything is sent, naming the field.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readSpendingLimits } from '../../../../../nodes/CustomerBanking/actions/payment/spendingLimitOptions';

function contextWith(options: IDataObject): IExecuteFunctions {
	return {
		getNode: () => ({ name: 'Customer Banking' }),
		getNodeParameter: (name: string, _itemIndex: number, fallback: unknown) => {
			const [, option] = name.split('.');
			return option in options ? options[option] : fallback;
		},
	} as unknown as IExecuteFunctions;
}

describe('readSpendingLimits', () => {
	it.each<[IDataObject, { maxAmount?: number; maxTotal?: number }]>([
		[{}, { maxAmount: undefined, maxTotal: undefined }],
		[
			{ maxAmount: '', maxTotal: '   ' },
			{ maxAmount: undefined, maxTotal: undefined },
		],
		[{ maxAmount: null }, { maxAmount: undefined, maxTotal: undefined }],
		[
			{ maxAmount: '5000', maxTotal: '20000.50' },
			{ maxAmount: 5000, maxTotal: 20000.5 },
		],
		[{ maxAmount: 250 }, { maxAmount: 250, maxTotal: undefined }],
	])('%j → %j', (options, limits) => {
		expect(readSpendingLimits.call(contextWith(options), 0)).toEqual(limits);
	});

	it.each<[IDataObject, RegExp]>([
		[{ maxAmount: '5,000' }, /^Maximum Amount must be written without thousands separators/],
		[{ maxAmount: '10.005' }, /^Maximum Amount must have at most 2 decimal places/],
		[{ maxTotal: '0' }, /^Maximum Total per Execution must be greater than 0/],
		[{ maxTotal: 'lots' }, /^Maximum Total per Execution must be a number/],
		[{ maxAmount: -1 }, /^Maximum Amount must be greater than 0/],
	])('%j stops the node: %s', (options, message) => {
		const read = () => readSpendingLimits.call(contextWith(options), 3);
		expect(read).toThrow(NodeOperationError);
		expect(read).toThrow(message);
		try {
			read();
		} catch (error) {
			expect((error as NodeOperationError).description).toMatch(/Nothing was sent\.$/);
			expect((error as NodeOperationError).context.itemIndex).toBe(3);
		}
	});
});

/**
 * Finding the payee an upsert updates (spec §Errors rule 6) against a scripted bank: by name (case and
 * spaces aside) and the bank details given; several matches are an error, never a guess.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

import {
	findExistingPayee,
	getPayee,
} from '../../../../nodes/CustomerBanking/payees/existingPayee';
import { ok, page, scriptedBank } from '../../../helpers/scriptedBank';

const PAYEES: IDataObject[] = [
	{ xpid: 'p-1', name: 'Acme  Ltd', sortCode: '12-34-56', accountNumber: '12345678' },
	{ xpid: 'p-2', name: 'Acme Ltd', sortCode: '65-43-21', accountNumber: '87654321' },
	{ xpid: 'p-3', name: 'Other', iban: 'GB82 WEST 1234 5698 7654 32' },
];

async function find(body: IDataObject, payees = PAYEES) {
	const bank = scriptedBank((call) => page(payees, call.qs));
	return await findExistingPayee.call(bank.context, 'acc-1', body, 0);
}

describe('findExistingPayee', () => {
	it.each<[string, IDataObject, string | undefined]>([
		[
			'name and bank details, case and spaces aside',
			{ name: ' acme ltd', sortCode: '12-34-56', accountNumber: '12345678' },
			'p-1',
		],
		[
			'an IBAN written with other spacing and case',
			{ name: 'Other', iban: 'gb82west12345698765432' },
			'p-3',
		],
		[
			'the name alone does not match other bank details',
			{ name: 'Acme Ltd', sortCode: '00-00-00' },
			undefined,
		],
		[
			'another name with the same bank details',
			{ name: 'Acme Group', sortCode: '12-34-56' },
			undefined,
		],
	])('%s → %s', async (_case, body, xpid) => {
		expect((await find(body))?.xpid).toBe(xpid);
	});

	it('several matches (the name alone, no bank details given) are an error naming them', async () => {
		const search = find({ name: 'ACME LTD' });
		await expect(search).rejects.toBeInstanceOf(NodeOperationError);
		await expect(search).rejects.toThrow(
			'2 payees of the account match the name and bank details of item 0',
		);
	});

	it('reads the whole list of the account', async () => {
		const many = Array.from({ length: 250 }, (_entry, index) => ({
			xpid: `p-${index}`,
			name: `Payee ${index}`,
		}));
		const bank = scriptedBank((call) => page(many, call.qs));
		const found = await findExistingPayee.call(bank.context, 'acc-1', { name: 'payee 249' }, 0);
		expect(found?.xpid).toBe('p-249');
		expect(bank.calls.every((call) => call.path === '/account/acc-1/payees')).toBe(true);
	});
});

describe('getPayee', () => {
	it('GET /payee/{xpid}', async () => {
		const bank = scriptedBank(() => ok({ xpid: 'p-1' }));
		expect(await getPayee.call(bank.context, 'p-1', 0)).toEqual({ xpid: 'p-1' });
		expect(bank.calls.map((call) => call.path)).toEqual(['/payee/p-1']);
	});
});

/**
 * How approval records are read, against a scripted bank: the payment an approval is about, its xtid
 * and account; one record read by its ID (404 is "not shown", any other failure is an error); the
 * approvals searched in pages of 50 until every payment sought is found.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

import {
	approvalAccount,
	approvalPayment,
	approvalsOfPayments,
	approvalXtid,
	isPending,
	readApproval,
	readPaymentTransaction,
} from '../../../../nodes/shared/approvals/approvalRecords';
import { fails, ok, page, readsFrom, scriptedBank } from '../../../helpers/scriptedBank';

describe('what an approval record says of its payment', () => {
	it.each<[string, IDataObject, string | undefined, string | undefined]>([
		['details in `transaction`', { transaction: { xtid: 'tx-1', xaid: 'acc-1' } }, 'tx-1', 'acc-1'],
		['details at the top level', { xtid: 'tx-1', xaid: 'acc-1' }, 'tx-1', 'acc-1'],
		[
			'parent_xaid names the account first',
			{ parent_xaid: 'acc-2', transaction: { xaid: 'acc-1' } },
			undefined,
			'acc-2',
		],
		[
			'`transaction` wins over the top level',
			{ xtid: 'tx-top', transaction: { xtid: 'tx-1' } },
			'tx-1',
			undefined,
		],
		['empty IDs are none', { xtid: '', transaction: { xtid: '' } }, undefined, undefined],
		[
			'a `transaction` that is not an object is ignored',
			{ xtid: 'tx-1', transaction: 'tx-9' },
			'tx-1',
			undefined,
		],
	])('%s', (_case, approval, xtid, account) => {
		expect(approvalXtid(approval)).toBe(xtid);
		expect(approvalAccount(approval)).toBe(account);
	});

	it('approvalPayment: the record with its `transaction` details on top', () => {
		expect(
			approvalPayment({ ref: 'ap-1', amount: 1, transaction: { amount: 2, xtid: 'tx-1' } }),
		).toMatchObject({
			ref: 'ap-1',
			amount: 2,
			xtid: 'tx-1',
		});
	});

	it.each<[unknown, boolean]>([
		['pending', true],
		['PENDING_APPROVAL', true],
		['approved', false],
		['NEW', false],
		[undefined, false],
	])('isPending(%j) = %s', (status, pending) => {
		expect(isPending({ status } as IDataObject)).toBe(pending);
	});
});

describe('readApproval and readPaymentTransaction', () => {
	it('a record the bank shows is returned; 404 is "not shown"', async () => {
		const bank = scriptedBank(readsFrom({ '/approval/ap-1': { ref: 'ap-1' } }));
		expect(await readApproval.call(bank.context, 'ap-1')).toEqual({ ref: 'ap-1' });
		expect(await readApproval.call(bank.context, 'ap-2')).toBeUndefined();
		expect(await readPaymentTransaction.call(bank.context, 'tx-1')).toBeUndefined();
	});

	it('any other failure is an error, never "not shown"', async () => {
		for (const reply of [fails(500), fails(403), fails(401)]) {
			const bank = scriptedBank(() => reply);
			await expect(readPaymentTransaction.call(bank.context, 'tx-1', 3)).rejects.toBeInstanceOf(
				NodeApiError,
			);
		}
	});

	it('an ID that would reach another endpoint is refused before any request', async () => {
		const bank = scriptedBank(() => ok({}));
		await expect(readApproval.call(bank.context, '..')).rejects.toThrow(/Invalid request path/);
		expect(bank.calls).toEqual([]);
	});
});

describe('approvalsOfPayments', () => {
	const approvals = Array.from({ length: 120 }, (_entry, index) => ({
		ref: `ap-${index}`,
		status: 'pending',
		transaction: { xtid: `tx-${index}` },
	}));

	it('reads pages of 50 until every payment sought is found', async () => {
		const bank = scriptedBank((call) => page(approvals, call.qs));
		const found = await approvalsOfPayments.call(
			bank.context,
			'acc-1',
			new Set(['tx-3', 'tx-60']),
			0,
		);
		expect([...found.keys()].sort()).toEqual(['tx-3', 'tx-60']);
		expect(found.get('tx-60')).toMatchObject({ ref: 'ap-60' });
		expect(bank.calls.map((call) => [call.path, call.qs.limit, call.qs.page])).toEqual([
			['/account/acc-1/approvals', 50, 0],
			['/account/acc-1/approvals', 50, 1],
		]);
	});

	it('reads to the end when one is not there, and returns those found', async () => {
		const bank = scriptedBank((call) => page(approvals, call.qs));
		const found = await approvalsOfPayments.call(
			bank.context,
			'acc-1',
			new Set(['tx-3', 'tx-none']),
			0,
		);
		expect([...found.keys()]).toEqual(['tx-3']);
		expect(bank.calls).toHaveLength(3);
	});
});

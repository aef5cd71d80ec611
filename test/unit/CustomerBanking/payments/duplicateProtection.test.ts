import {
	holdsMoney,
	repeatsInInput,
	stateOf,
} from '../../../../nodes/CustomerBanking/payments/duplicateProtection';
import type { Payment } from '../../../../nodes/CustomerBanking/payments/payment';
import type { FoundPayment } from '../../../../nodes/CustomerBanking/payments/paymentLookUp';

const payment = (itemIndex: number, body: Record<string, unknown> = {}): Payment => ({
	itemIndex,
	body: { xaid: 'a', xpid: 'p', amount: 10, reference: 'INV-1', ...body },
});

describe('repeatsInInput: the items of one input that are the same payment', () => {
	it.each<[string, Payment[], Array<[number, number]>]>([
		['all different', [payment(0), payment(1, { reference: 'INV-2' })], []],
		['the same details twice', [payment(0), payment(1)], [[1, 0]]],
		[
			'three times: each later one names the first',
			[payment(0), payment(1), payment(2)],
			[
				[1, 0],
				[2, 0],
			],
		],
		['10 and 10.00 are one amount', [payment(0), payment(1, { amount: 10.0 })], [[1, 0]]],
		['another amount', [payment(0), payment(1, { amount: 10.01 })], []],
		['another payee', [payment(0), payment(1, { xpid: 'q' })], []],
		['another account', [payment(0), payment(1, { xaid: 'b' })], []],
		['another currency', [payment(0, { currency: 'GBP' }), payment(1, { currency: 'EUR' })], []],
		[
			'a currency and none (the account’s)',
			[payment(0, { currency: 'GBP' }), payment(1)],
			[[1, 0]],
		],
		[
			'another description is still the same payment',
			[payment(0), payment(1, { description: 'x' })],
			[[1, 0]],
		],
		['input order decides which is first', [payment(3), payment(1)], [[3, 1]]],
	])('%s', (_name, payments, expected) => {
		const repeats = repeatsInInput(payments);
		expect([...repeats].map(([later, first]) => [later.itemIndex, first.itemIndex]).sort()).toEqual(
			expected.sort(),
		);
	});
});

const found = (fields: Partial<FoundPayment>): FoundPayment => ({
	xtid: 'x',
	foundIn: 'transactions',
	...fields,
});

describe('holdsMoney and stateOf: what an earlier matching record says', () => {
	it.each<[string, FoundPayment, boolean, string | RegExp]>([
		[
			'a transaction without a status (it says nothing known: it may hold money)',
			found({}),
			true,
			"in the account's transactions, with no status",
		],
		['a settled transaction', found({ transactionStatus: 'SETTLED' }), true, 'sent'],
		[
			'a transaction held for approval',
			found({ transactionStatus: 'PENDING_APPROVAL' }),
			true,
			'waiting for approval',
		],
		['a failed transaction', found({ transactionStatus: 'FAILED' }), false, /status "FAILED"/],
		[
			'a transaction with a word nobody knows',
			found({ transactionStatus: 'ZORBLED' }),
			true,
			/status "ZORBLED"/,
		],
		[
			'a pending approval',
			found({ foundIn: 'approvals', approvalStatus: 'pending' }),
			true,
			'waiting for approval',
		],
		[
			'an approved approval',
			found({ foundIn: 'approvals', approvalStatus: 'APPROVED' }),
			true,
			'approved',
		],
		[
			'a declined approval',
			found({ foundIn: 'approvals', approvalStatus: 'DECLINED' }),
			false,
			/status "DECLINED"/,
		],
		[
			'an expired approval',
			found({ foundIn: 'approvals', approvalStatus: 'expired' }),
			false,
			/status "expired"/,
		],
		['an approval without a status', found({ foundIn: 'approvals' }), true, /with no status/],
		[
			'a declined approval whose transaction says it was sent',
			found({ foundIn: 'transactions', approvalStatus: 'DECLINED', transactionStatus: 'SENT' }),
			true,
			'sent',
		],
	])('%s', (_name, record, holds, state) => {
		expect(holdsMoney(record)).toBe(holds);
		if (typeof state === 'string') expect(stateOf(record)).toBe(state);
		else expect(stateOf(record)).toMatch(state);
	});
});

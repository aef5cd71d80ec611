/**
 * Looking payments up among their account's approvals and transactions (spec §Errors rule 3: matching
 * on reference), against a scripted bank. A record is claimed as a payment only when it is the one
 * match and the bank answered this payment's key with it; any other match is a candidate only.
 */
import type { IDataObject } from 'n8n-workflow';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

import type { Payment } from '../../../../nodes/CustomerBanking/payments/payment';
import {
	coverageNote,
	findCandidates,
	lookBackSince,
	lookUpPayments,
	paymentsAlreadyAtBank,
} from '../../../../nodes/CustomerBanking/payments/paymentLookUp';
import type { XtidClaims } from '../../../../nodes/CustomerBanking/payments/paymentMemory';
import { type BankReply, readsFrom, scriptedBank } from '../../../helpers/scriptedBank';

const ONE: Payment = {
	itemIndex: 0,
	body: { xaid: 'acc-1', xpid: 'payee-1', amount: 10, currency: 'GBP', reference: 'INV-1' },
};
const TWIN: Payment = { itemIndex: 1, body: { ...ONE.body } };

const transaction = (xtid: string, extra: IDataObject = {}): IDataObject => ({
	xtid,
	reference: 'INV-1',
	amount: 10,
	xpid: 'payee-1',
	currency: 'GBP',
	status: 'SETTLED',
	...extra,
});
const approval = (xtid: string, status = 'pending', extra: IDataObject = {}): IDataObject => ({
	ref: `ap-${xtid}`,
	status,
	transaction: { xtid, reference: 'INV-1', amount: 10, xpid: 'payee-1', ...extra },
});

function claims(initial: string[] = []): XtidClaims & { all: Set<string> } {
	const all = new Set(initial);
	return { all, has: (xtid) => all.has(xtid), add: (xtid) => all.add(xtid) };
}

function bank(
	transactions: IDataObject[] | BankReply = [],
	approvals: IDataObject[] | BankReply = [],
) {
	return scriptedBank(
		readsFrom({
			'/account/acc-1/transactions': transactions,
			'/account/acc-1/approvals': approvals,
		}),
	);
}

describe('lookUpPayments: which records may be claimed', () => {
	it.each<[string, IDataObject[], IDataObject[], string[], unknown]>([
		[
			'the one matching transaction, named for this key: found',
			[transaction('tx-1')],
			[],
			['tx-1'],
			{
				found: true,
				payment: { xtid: 'tx-1', foundIn: 'transactions', transactionStatus: 'SETTLED' },
			},
		],
		[
			'the one matching transaction, not named for this key: a candidate only (it may be an earlier payment)',
			[transaction('tx-1')],
			[],
			[],
			{ found: false, candidates: ['tx-1'] },
		],
		[
			'two matching records, one named: neither can be shown to be this one',
			[transaction('tx-1'), transaction('tx-2')],
			[],
			['tx-1'],
			{ found: false, candidates: ['tx-1', 'tx-2'] },
		],
		[
			'a pending approval of it, named: found in the approvals',
			[],
			[approval('tx-1')],
			['tx-1'],
			{
				found: true,
				payment: {
					xtid: 'tx-1',
					foundIn: 'approvals',
					approvalRef: 'ap-tx-1',
					approvalStatus: 'pending',
				},
			},
		],
		[
			'an approved payment has both records: one match, with both states',
			[transaction('tx-1')],
			[approval('tx-1', 'approved')],
			['tx-1'],
			{
				found: true,
				payment: {
					xtid: 'tx-1',
					foundIn: 'transactions',
					approvalRef: 'ap-tx-1',
					approvalStatus: 'approved',
					transactionStatus: 'SETTLED',
				},
			},
		],
		['nothing matching', [], [], [], { found: false, candidates: [] }],
	])('%s', async (_case, transactions, approvals, named, expected) => {
		const scripted = bank(transactions, approvals);
		const results = await lookUpPayments.call(scripted.context, [ONE], claims(), new Set(named));
		expect(results.get(0)).toEqual(expected);
	});

	it.each<[string, IDataObject]>([
		['another reference', { reference: 'INV-2' }],
		['another amount', { amount: 10.01 }],
		['another payee', { xpid: 'payee-2' }],
		['another currency', { currency: 'EUR' }],
		['an incoming transaction', { direction: 'incoming' }],
		['no xtid', { xtid: '' }],
	])('a transaction with %s does not match', async (_case, differs) => {
		const scripted = bank([transaction('tx-1', differs)]);
		const results = await lookUpPayments.call(scripted.context, [ONE], claims(), new Set(['tx-1']));
		expect(results.get(0)).toEqual({ found: false, candidates: [] });
	});

	it.each<[string, IDataObject]>([
		['an amount as text', { amount: '10.00' }],
		['no payee and no currency shown', { xpid: undefined, currency: undefined }],
	])('a transaction with %s matches', async (_case, shown) => {
		const scripted = bank([transaction('tx-1', shown)]);
		const results = await lookUpPayments.call(scripted.context, [ONE], claims(), new Set(['tx-1']));
		expect(results.get(0)).toMatchObject({ found: true });
	});

	it('a record already reported for another payment is not a candidate, unless this key was answered with it', async () => {
		const scripted = bank([transaction('tx-1')]);
		const claimed = claims(['tx-1']);
		expect((await lookUpPayments.call(scripted.context, [ONE], claimed)).get(0)).toEqual({
			found: false,
			candidates: [],
		});
		expect(
			(await lookUpPayments.call(scripted.context, [ONE], claimed, new Set(['tx-1']))).get(0),
		).toMatchObject({ found: true });
	});

	it('a record is claimed for one payment only, and noted as claimed', async () => {
		const scripted = bank([transaction('tx-1')]);
		const claimed = claims();
		const results = await lookUpPayments.call(
			scripted.context,
			[ONE, TWIN],
			claimed,
			new Set(['tx-1']),
		);
		expect(results.get(0)).toMatchObject({ found: true });
		expect(results.get(1)).toEqual({ found: false, candidates: [] });
		expect([...claimed.all]).toEqual(['tx-1']);
	});

	it('reads each account once for all its payments', async () => {
		const scripted = bank([]);
		await lookUpPayments.call(scripted.context, [ONE, TWIN], claims());
		expect(scripted.calls.map((call) => call.path)).toEqual([
			'/account/acc-1/approvals',
			'/account/acc-1/transactions',
		]);
	});

	it('a list that cannot be read fails the look-up (the caller reports the state unknown)', async () => {
		const scripted = bank({ status: 500, body: { message: 'down' } });
		await expect(lookUpPayments.call(scripted.context, [ONE], claims())).rejects.toThrow();
	});
});

describe('findCandidates', () => {
	it('every matching record not claimed, per payment', async () => {
		const scripted = bank([transaction('tx-1'), transaction('tx-2')], [approval('tx-3')]);
		const found = await findCandidates.call(scripted.context, [ONE], claims(['tx-2']));
		expect(found.get(0)?.sort()).toEqual(['tx-1', 'tx-3']);
	});
});

describe('paymentsAlreadyAtBank (Skip Payments Already Made)', () => {
	it('matches per payment, every xtid the lists show, and what was read', async () => {
		const scripted = bank(
			[transaction('tx-1'), transaction('tx-9', { reference: 'OTHER' })],
			[approval('tx-5', 'declined')],
		);
		const read = await paymentsAlreadyAtBank.call(scripted.context, [ONE], 0);
		expect(
			read.matches
				.get(0)
				?.map((found) => found.xtid)
				.sort(),
		).toEqual(['tx-1', 'tx-5']);
		expect([...read.listed].sort()).toEqual(['tx-1', 'tx-5', 'tx-9']);
		expect(read.lookedAt.get(0)).toBe(
			"Looked for an earlier payment with these details among all the account's approvals and all the account's transactions.",
		);
	});

	it('claims nothing: the same record matches every payment with its details', async () => {
		const scripted = bank([transaction('tx-1')]);
		const read = await paymentsAlreadyAtBank.call(scripted.context, [ONE, TWIN], 0);
		expect(read.matches.get(0)?.map((found) => found.xtid)).toEqual(['tx-1']);
		expect(read.matches.get(1)?.map((found) => found.xtid)).toEqual(['tx-1']);
	});
});

describe('lookBackSince and coverageNote', () => {
	it('Look Back reaches a day further than asked (the bank writes times without a zone)', () => {
		const day = 24 * 60 * 60 * 1000;
		expect(lookBackSince(10 * day, 3)).toBe(6 * day);
	});

	it.each<[string, Parameters<typeof coverageNote>[0], string]>([
		[
			'recent ends of both lists',
			{ approvals: { read: 'recent' }, transactions: { read: 'recent' } } as never,
			"Looked for an earlier payment with these details among the account's approvals of the last 7 days and the account's transactions of the last 7 days.",
		],
		[
			'whole lists, one because its records show no times',
			{ approvals: { read: 'whole', why: 'noTimes' }, transactions: { read: 'whole' } } as never,
			"Looked for an earlier payment with these details among all the account's approvals (every page: the bank's records do not show when they were made) and all the account's transactions.",
		],
	])('%s', (_case, coverage, note) => {
		expect(coverageNote(coverage, 7)).toBe(note);
	});
});

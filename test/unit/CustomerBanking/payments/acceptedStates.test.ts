/**
 * The accepted-state reader against a scripted bank: which records it reads for an accepted payment,
 * which of them it believes (only records carrying the payment's xtid and details), and the statement
 * it gives. A word not in the vocabulary, a record of another payment or a failed read never gives a
 * definite "paid" or "not paid".
 */
import type { IDataObject } from 'n8n-workflow';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

import {
	accountedTogether,
	confirmAcceptedStates,
	paymentEvidence,
	xtidOf,
} from '../../../../nodes/CustomerBanking/payments/acceptedStates';
import type { IdempotencyKey } from '../../../../nodes/CustomerBanking/payments/idempotencyKey';
import type { AcceptedOutcome } from '../../../../nodes/CustomerBanking/payments/outcomes';
import type { Payment } from '../../../../nodes/CustomerBanking/payments/payment';
import { type BankReply, fails, readsFrom, scriptedBank } from '../../../helpers/scriptedBank';

const BODY = { xaid: 'acc-1', xpid: 'payee-1', amount: 12.5, currency: 'GBP', reference: 'INV-1' };
const payment = (itemIndex = 0, body: IDataObject = BODY): Payment => ({ itemIndex, body });
const KEY: IdempotencyKey = { key: 'key-1', source: 'derived' } as IdempotencyKey;

function acceptedOutcome(accepted: IDataObject, forPayment = payment()): AcceptedOutcome {
	return { kind: 'accepted', payment: forPayment, key: KEY, accepted, replayed: false };
}

const tx = (status: string | undefined, extra: IDataObject = {}): IDataObject => ({
	xtid: 'tx-1',
	reference: 'INV-1',
	amount: 12.5,
	...(status !== undefined && { status }),
	...extra,
});
const approvalOf = (status: string, xtid = 'tx-1'): IDataObject => ({
	ref: 'ap-1',
	status,
	transaction: { xtid, reference: 'INV-1', amount: 12.5, xaid: 'acc-1' },
});

type Records = Record<string, IDataObject | IDataObject[] | BankReply>;

async function stateOf(records: Records, accepted: IDataObject = { xtid: 'tx-1' }) {
	const bank = scriptedBank(readsFrom(records));
	const outcome = acceptedOutcome(accepted);
	await confirmAcceptedStates.call(bank.context, [outcome]);
	return {
		state: outcome.fromEvidence,
		paths: bank.calls.map((call) => `${call.method} ${call.path}`),
	};
}

describe('xtidOf', () => {
	it.each([
		[{ xtid: 'tx-1' }, 'tx-1'],
		[{ xtid: '' }, undefined],
		[{ xtid: 42 }, undefined],
		[{}, undefined],
	])('%j → %s', (entry, expected) => {
		expect(xtidOf(entry as IDataObject)).toBe(expected);
	});
});

describe('confirmAcceptedStates: the statement follows the evidence read from the bank', () => {
	const NO_APPROVALS = { '/account/acc-1/approvals': [] as IDataObject[] };

	it.each<[string, Records, string]>([
		[
			'its transaction says SETTLED',
			{ '/transaction/tx-1': tx('SETTLED'), ...NO_APPROVALS },
			'sent',
		],
		[
			'its transaction says failed',
			{ '/transaction/tx-1': tx('failed'), ...NO_APPROVALS },
			'not_sent',
		],
		[
			'no transaction, its approval (found in the list) pending',
			{ '/account/acc-1/approvals': [approvalOf('pending')] },
			'pending_approval',
		],
		[
			'no transaction, its approval declined',
			{ '/account/acc-1/approvals': [approvalOf('DECLINED')] },
			'not_sent',
		],
		// adversarial: nothing shown is not "not paid"
		['no transaction and no approval shown', { ...NO_APPROVALS }, 'accepted'],
		// adversarial: words not in the vocabulary say nothing
		[
			'its transaction says a word nobody knows (PROCESSING_X)',
			{ '/transaction/tx-1': tx('PROCESSING_X'), ...NO_APPROVALS },
			'accepted',
		],
		[
			'its transaction says SUBMITTED (the spec calls every accepted payment so)',
			{ '/transaction/tx-1': tx('SUBMITTED'), ...NO_APPROVALS },
			'accepted',
		],
		[
			'its transaction has no status',
			{ '/transaction/tx-1': tx(undefined), ...NO_APPROVALS },
			'accepted',
		],
		[
			'its approval says a word nobody knows (NEW)',
			{ '/account/acc-1/approvals': [approvalOf('NEW')] },
			'accepted',
		],
		// adversarial: a record of another xtid is not this payment's
		[
			'GET /transaction/tx-1 answered with transaction tx-9, SETTLED',
			{ '/transaction/tx-1': tx('SETTLED', { xtid: 'tx-9' }), ...NO_APPROVALS },
			'accepted',
		],
		[
			"an approval in the list for another xtid (declined) is not this payment's",
			{ '/account/acc-1/approvals': [approvalOf('declined', 'tx-9')] },
			'accepted',
		],
		// adversarial: failed reads
		[
			'the transaction read fails (500) and the approvals cannot be read (500)',
			{ '/transaction/tx-1': fails(500), '/account/acc-1/approvals': fails(500) },
			'accepted',
		],
		[
			'the approvals cannot be read and no transaction is shown',
			{ '/account/acc-1/approvals': fails(403) },
			'accepted',
		],
		[
			'approved, its transaction says failed',
			{
				'/transaction/tx-1': tx('failed'),
				'/account/acc-1/approvals': [approvalOf('approved')],
			},
			'not_sent',
		],
	])('%s → %s', async (_case, records, status) => {
		const { state } = await stateOf(records);
		expect(state?.status).toBe(status);
		if (status === 'accepted') expect(state?.check).toMatch(/transaction ID tx-1/);
	});

	it("a definite state gives the bank's words as fields; a settled transaction needs no approvals read", async () => {
		const { state, paths } = await stateOf({ '/transaction/tx-1': tx('SETTLED') });
		expect(state).toEqual({
			status: 'sent',
			fields: { transactionStatus: 'SETTLED' },
			shown: true,
		});
		expect(paths).toEqual(['GET /transaction/tx-1']);
	});

	it("a record showing another payment's reference or amount marks the entry as another's, never paid", async () => {
		for (const other of [{ reference: 'INV-2' }, { amount: 99 }]) {
			const { state } = await stateOf({
				'/transaction/tx-1': tx('SETTLED', other),
				'/account/acc-1/approvals': [],
			});
			expect(state).toMatchObject({ status: 'accepted', ofAnother: true });
			expect(state?.shown).toBeUndefined();
		}
	});

	it('a record without reference and amount does not show the payment (no `shown`)', async () => {
		const { state } = await stateOf({
			'/transaction/tx-1': { xtid: 'tx-1', status: 'SETTLED' },
		});
		expect(state).toEqual({
			status: 'sent',
			fields: { transactionStatus: 'SETTLED' },
		});
	});

	it('the approval named by the answer, pending and carrying the xtid, settles it without the transaction', async () => {
		const { state, paths } = await stateOf(
			{ '/approval/ap-7': { ...approvalOf('pending'), ref: 'ap-7' } },
			{ xtid: 'tx-1', approvalRef: 'ap-7' },
		);
		expect(state).toMatchObject({
			status: 'pending_approval',
			fields: { approvalRef: 'ap-7', approvalStatus: 'pending' },
		});
		expect(paths).toEqual(['GET /approval/ap-7']);
	});

	it("the approval named by the answer but carrying another xtid is not believed: the payment's own records are read", async () => {
		const { state, paths } = await stateOf(
			{
				'/approval/ap-7': approvalOf('declined', 'tx-9'),
				'/transaction/tx-1': tx('SETTLED'),
			},
			{ xtid: 'tx-1', approvalRef: 'ap-7' },
		);
		expect(state?.status).toBe('sent');
		expect(paths).toEqual(['GET /approval/ap-7', 'GET /transaction/tx-1']);
	});

	it('the approval named by the answer that the bank does not show (404) leaves the state open', async () => {
		const { state } = await stateOf(
			{ '/account/acc-1/approvals': [] },
			{ xtid: 'tx-1', approvalRef: 'ap-gone' },
		);
		expect(state?.status).toBe('accepted');
		expect(state?.check).toMatch(/ap-gone/);
	});

	it('an accepted entry without an xtid is accepted, state unknown, with nothing read', async () => {
		const { state, paths } = await stateOf({}, { status: 'submitted' });
		expect(state?.status).toBe('accepted');
		expect(state?.check).toMatch(/names no transaction ID/);
		expect(paths).toEqual([]);
	});

	it("the approvals list is read once per account for all payments still open, until each one's approval is found", async () => {
		const bank = scriptedBank(
			readsFrom({
				'/account/acc-1/approvals': [
					approvalOf('pending', 'tx-1'),
					{ ...approvalOf('declined', 'tx-2'), ref: 'ap-2' },
				],
			}),
		);
		const first = acceptedOutcome({ xtid: 'tx-1' }, payment(0));
		const second = acceptedOutcome({ xtid: 'tx-2' }, payment(1, { ...BODY, reference: 'INV-1' }));
		await confirmAcceptedStates.call(bank.context, [first, second]);
		expect(first.fromEvidence?.status).toBe('pending_approval');
		expect(second.fromEvidence?.status).toBe('not_sent');
		expect(bank.calls.filter((call) => call.path === '/account/acc-1/approvals')).toHaveLength(1);
	});
});

describe('paymentEvidence (Payment → Get Status)', () => {
	it('reads the transaction, then the approvals of the account given, and returns the evidence', async () => {
		const bank = scriptedBank(
			readsFrom({ '/account/acc-2/approvals': [{ ...approvalOf('pending'), ref: 'ap-1' }] }),
		);
		const evidence = await paymentEvidence.call(bank.context, 'tx-1', 'acc-2', 3);
		expect(evidence).toEqual({
			xtid: 'tx-1',
			approval: { read: 'record', ref: 'ap-1', status: 'pending' },
			transaction: { read: 'missing' },
		});
		expect(bank.calls.map((call) => call.path)).toEqual([
			'/transaction/tx-1',
			'/account/acc-2/approvals',
		]);
	});

	it('a failed approvals read is kept as such, not as "no approval"', async () => {
		const bank = scriptedBank(readsFrom({ '/account/acc-2/approvals': fails(403) }));
		const evidence = await paymentEvidence.call(bank.context, 'tx-1', 'acc-2', 0);
		expect(evidence.approval.read).toBe('failed');
	});
});

describe('accountedTogether: payments an answer accounts for only together', () => {
	const two = [payment(0), payment(1, { ...BODY, reference: 'INV-2' })];
	const lead = 'The answer does not say which is which.';

	it.each<[string, Records, { reasons: string[]; contradicts: boolean }, boolean, RegExp]>([
		[
			'one xtid pending and one rejection, in an answer that adds up: none paid',
			{ '/account/acc-1/approvals': [approvalOf('pending')] },
			{ reasons: ['insufficient funds'], contradicts: false },
			true,
			/waiting for approval \(transaction ID tx-1\).*The other was rejected \(insufficient funds\)\. None of them has been paid\./,
		],
		[
			'one xtid whose state is not known: one may have been paid',
			{ '/account/acc-1/approvals': [] },
			{ reasons: ['insufficient funds'], contradicts: false },
			false,
			/its state not known.*One of them may have been paid\./,
		],
		[
			'one xtid paid: one may have been paid',
			{ '/transaction/tx-1': tx('settled') },
			{ reasons: ['insufficient funds'], contradicts: false },
			false,
			/paid \(transaction ID tx-1\).*One of them may have been paid\./,
		],
		[
			'an answer that contradicts itself: its rejections account for nothing',
			{ '/account/acc-1/approvals': [approvalOf('pending')] },
			{ reasons: ['insufficient funds'], contradicts: true },
			false,
			/It also lists as rejected: insufficient funds\. One of them may have been paid\./,
		],
	])('%s', async (_case, records, options, notPaid, statement) => {
		const bank = scriptedBank(readsFrom(records));
		const group = await accountedTogether.call(bank.context, lead, two, {
			xtids: ['tx-1'],
			...options,
		});
		expect(group.notPaid).toBe(notPaid);
		expect(group.statement.startsWith(lead)).toBe(true);
		expect(group.statement).toMatch(statement);
		expect(group.statement).toMatch(/None was sent again: check them in the account/);
		expect(group.sharedWith).toEqual([0, 1]);
		expect(group.xtids).toEqual(['tx-1']);
	});

	it('names no accepted payment when the answer names no xtid', async () => {
		const bank = scriptedBank(readsFrom({}));
		const group = await accountedTogether.call(bank.context, lead, two, {
			xtids: [],
			reasons: ['a', 'b'],
			contradicts: false,
		});
		expect(group.statement).toMatch(
			/It names no payment the bank accepted\. The others were rejected \(a \| b\)\. None of them has been paid\./,
		);
		expect(group.notPaid).toBe(true);
		expect(bank.calls).toEqual([]);
	});
});

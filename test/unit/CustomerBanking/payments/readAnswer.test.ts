/**
 * The answer reader with a scripted bank (the records it reads to confirm accepted payments) and scripted
 * dependencies (look-ups, the memory of answers). Every payment of a request gets one outcome or is
 * left open; a definite one only when the answer, read with the bank's records, says it; an answer that
 * is empty, ambiguous or contradicts itself leaves payments undetermined or open (the executor looks
 * them up), and nothing is ever sent from here.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

import type { IdempotencyKey } from '../../../../nodes/CustomerBanking/payments/idempotencyKey';
import type { PaymentOutcome } from '../../../../nodes/CustomerBanking/payments/outcomes';
import type { Payment } from '../../../../nodes/CustomerBanking/payments/payment';
import type { LookUpFinding } from '../../../../nodes/CustomerBanking/payments/paymentLookUp';
import {
	type AnswerDependencies,
	readAnswer,
} from '../../../../nodes/CustomerBanking/payments/readAnswer';
import { type BankReply, readsFrom, scriptedBank } from '../../../helpers/scriptedBank';

const body = (reference: string, amount = 10): IDataObject => ({
	xaid: 'acc-1',
	xpid: 'payee-1',
	amount,
	currency: 'GBP',
	reference,
});
const PAYMENTS: Payment[] = [
	{ itemIndex: 0, body: body('INV-1', 10) },
	{ itemIndex: 1, body: body('INV-2', 20) },
	{ itemIndex: 2, body: body('INV-3', 30) },
];
const KEY: IdempotencyKey = { key: 'key-1', source: 'derived' } as IdempotencyKey;

/** A transaction record showing the payment's own details. */
const settled = (xtid: string, payment: Payment, status = 'SETTLED'): IDataObject => ({
	xtid,
	status,
	reference: payment.body.reference,
	amount: payment.body.amount,
});

type Records = Record<string, IDataObject | IDataObject[] | BankReply>;

interface Script {
	records?: Records;
	/** xtids the bank answered this key with before (a replay). */
	answeredBefore?: string[];
	/** What looking the payments up finds, by item index; `throws` makes the look-up fail. */
	found?: Record<number, string> | 'throws';
}

function dependencies(context: IExecuteFunctions, script: Script) {
	const noted: Array<[string, string]> = [];
	const lookUps: Array<{ items: number[]; named: string[] }> = [];
	const deps: AnswerDependencies = {
		context,
		noteAnswer: (key, xtid) => {
			noted.push([key, xtid]);
			return (script.answeredBefore ?? []).includes(xtid);
		},
		lookUp: async (payments, named) => {
			lookUps.push({ items: payments.map((payment) => payment.itemIndex), named: [...named] });
			if (script.found === 'throws') throw new Error('approvals list unavailable');
			const results = new Map<number, LookUpFinding>();
			for (const payment of payments) {
				const xtid = script.found?.[payment.itemIndex];
				results.set(
					payment.itemIndex,
					xtid === undefined
						? { found: false, candidates: [] }
						: { found: true, payment: { xtid, foundIn: 'transactions' } },
				);
			}
			return results;
		},
	};
	return { deps, noted, lookUps };
}

async function read(answer: unknown, payments: Payment[], script: Script = {}) {
	const bank = scriptedBank(readsFrom(script.records ?? {}));
	const { deps, noted, lookUps } = dependencies(bank.context, script);
	const reading = await readAnswer(deps, answer as IDataObject, { key: KEY, payments });
	// the reader reads; it never sends a payment
	expect(bank.calls.filter((call) => call.method !== 'GET')).toEqual([]);
	// every payment has an outcome or is open, never both
	expect(reading.outcomes).toHaveLength(payments.length);
	payments.forEach((payment, position) =>
		expect(reading.outcomes[position] === undefined).toBe(reading.open.includes(payment)),
	);
	// the open ones as the executor reports them when its look-up finds nothing
	const unknowns = reading.open.length
		? [{ items: reading.open.map((payment) => payment.itemIndex), failure: reading.unexplained }]
		: [];
	const outcomes = payments.map(
		(payment, position): PaymentOutcome =>
			reading.outcomes[position] ?? {
				kind: 'failed',
				status: 'unknown',
				payment,
				key: KEY,
				error: new NodeOperationError(bank.context.getNode(), reading.unexplained),
			},
	);
	outcomes.forEach((outcome, position) => expect(outcome.payment).toBe(payments[position]));
	return { outcomes, noted, lookUps, unknowns, logs: bank.logs };
}

/** One word per outcome: what the node will say of each payment. */
function said(outcome: PaymentOutcome): string {
	switch (outcome.kind) {
		case 'accepted':
			return `${outcome.fromEvidence?.status ?? 'unread'} ${String(outcome.accepted.xtid)}`;
		case 'rejected':
			return `rejected: ${outcome.reason}`;
		case 'undetermined':
			return `undetermined ${outcome.xtids.join(',')}${outcome.notPaid ? ' notPaid' : ''}`;
		case 'found':
			return `found ${outcome.found.xtid}`;
		case 'failed':
			return `failed ${outcome.status}`;
	}
}

const [one, two, three] = PAYMENTS;

describe('readAnswer: what each payment of a request comes out as', () => {
	it.each<[string, unknown, Payment[], Script, string[]]>([
		[
			'one payment, one xtid, its transaction settled',
			{ requestId: 'req-1', submitted: [{ xtid: 'tx-1' }], rejectedCount: 0 },
			[one],
			{ records: { '/transaction/tx-1': settled('tx-1', one) } },
			['sent tx-1'],
		],
		[
			'one payment, one rejection',
			{ submitted: [], rejected: [{ error: 'insufficient funds' }], rejectedCount: 1 },
			[one],
			{},
			['rejected: insufficient funds'],
		],
		[
			'a rejection without a reason',
			{ rejected: [{}] },
			[one],
			{},
			['rejected: rejected without a reason'],
		],
		[
			'by position: one accepted, one rejected',
			{
				submitted: [{ xtid: 'tx-1', index: 0 }],
				rejected: [{ index: 1, error: 'payee closed' }],
				rejectedCount: 1,
			},
			[one, two],
			{ records: { '/transaction/tx-1': settled('tx-1', one) } },
			['sent tx-1', 'rejected: payee closed'],
		],
		[
			'by echoed reference, the rejection left to the payment left',
			{ submitted: [{ xtid: 'tx-2', reference: 'INV-2' }], rejected: [{ error: 'limit' }] },
			[one, two],
			{ records: { '/transaction/tx-2': settled('tx-2', two) } },
			['rejected: limit', 'sent tx-2'],
		],
		[
			'by order, confirmed by records showing each payment',
			{ submitted: [{ xtid: 'tx-1' }, { xtid: 'tx-2' }] },
			[one, two],
			{
				records: {
					'/transaction/tx-1': settled('tx-1', one),
					'/transaction/tx-2': settled('tx-2', two),
				},
			},
			['sent tx-1', 'sent tx-2'],
		],
		[
			'a status word nobody knows stays "accepted" (state unknown), never paid',
			{ submitted: [{ xtid: 'tx-1' }] },
			[one],
			{
				records: {
					'/transaction/tx-1': settled('tx-1', one, 'IN_REVIEW'),
					'/account/acc-1/approvals': [],
				},
			},
			['accepted tx-1'],
		],
	])('%s', async (_case, answer, payments, script, expected) => {
		const { outcomes, unknowns } = await read(answer, payments, script);
		expect(outcomes.map(said)).toEqual(expected);
		expect(unknowns).toEqual([]);
	});

	it('an accepted outcome carries the request ID and the key, and is a replay only when noteAnswer says so', async () => {
		const records = { '/transaction/tx-1': settled('tx-1', one) };
		const answer = { requestId: 'req-9', submitted: [{ xtid: 'tx-1' }] };
		const fresh = await read(answer, [one], { records });
		expect(fresh.outcomes[0]).toMatchObject({
			kind: 'accepted',
			requestId: 'req-9',
			key: KEY,
			replayed: false,
		});
		expect(fresh.noted).toEqual([['key-1', 'tx-1']]);
		const replay = await read(answer, [one], { records, answeredBefore: ['tx-1'] });
		expect(replay.outcomes[0]).toMatchObject({ kind: 'accepted', replayed: true });
	});
});

describe('readAnswer: an answer that does not say what happened is looked up, never taken as a result', () => {
	it.each<[string, unknown]>([
		['an empty answer', {}],
		['no answer body at all', undefined],
		['a text answer', 'OK'],
		['entries that are not objects', { submitted: ['tx-1', 7, null, ['tx-2']] }],
		['submitted entries with no usable xtid and no position', { submitted: 'tx-1' }],
	])('%s: every payment is left open, to be looked up', async (_case, answer) => {
		const { outcomes, unknowns } = await read(answer, [one, two]);
		expect(unknowns).toEqual([
			{
				items: [0, 1],
				failure: expect.stringMatching(/does not say what happened to this payment/) as string,
			},
		]);
		expect(outcomes.map(said)).toEqual(['failed unknown', 'failed unknown']);
	});

	it('names the request ID in why they are open', async () => {
		const { unknowns } = await read({ requestId: 'req-5' }, [one]);
		expect(unknowns[0].failure).toMatch(/request req-5 but/);
	});

	it('a rejection whose echoed details are of no payment left does not make that payment "not paid"', async () => {
		const { outcomes, unknowns } = await read(
			{
				submitted: [{ xtid: 'tx-1', reference: 'INV-1' }],
				rejected: [{ error: 'payee closed', reference: 'INV-9' }],
			},
			[one, two],
			{ records: { '/transaction/tx-1': settled('tx-1', one) } },
		);
		expect(outcomes.map(said)).toEqual(['sent tx-1', 'failed unknown']);
		expect(unknowns.map((unknown) => unknown.items)).toEqual([[1]]);
	});

	it('an accepted entry whose echo contradicts the only payment is not paired by its words: the xtid is read, and its record decides', async () => {
		const { outcomes } = await read({ submitted: [{ xtid: 'tx-1', reference: 'OTHER' }] }, [one], {
			records: {
				'/transaction/tx-1': { xtid: 'tx-1', status: 'SETTLED', reference: 'OTHER', amount: 10 },
			},
		});
		expect(outcomes[0]).toMatchObject({
			kind: 'accepted',
			fromEvidence: { status: 'accepted', ofAnother: true },
		});
	});
});

describe('readAnswer: an answer that contradicts itself accounts for no payment', () => {
	it.each<[string, IDataObject, Payment[]]>([
		[
			'more outcomes than payments (one payment both accepted and rejected)',
			{ submitted: [{ xtid: 'tx-1' }], rejected: [{ error: 'limit' }] },
			[one],
		],
		['one xtid for two payments', { submitted: [{ xtid: 'tx-1' }, { xtid: 'tx-1' }] }, [one, two]],
		[
			'rejectedCount that disagrees with the rejections listed',
			{ submitted: [{ xtid: 'tx-1' }], rejected: [], rejectedCount: 1 },
			[one, two],
		],
	])(
		'%s: every payment undetermined, none "not paid", nothing sent again',
		async (_case, answer, payments) => {
			const { outcomes, noted, unknowns } = await read(answer, payments, {
				records: { '/account/acc-1/approvals': [] },
			});
			for (const outcome of outcomes) {
				expect(outcome).toMatchObject({
					kind: 'undetermined',
					notPaid: false,
					xtids: ['tx-1'],
					sharedWith: payments.map((payment) => payment.itemIndex),
				});
				if (outcome.kind === 'undetermined') {
					expect(outcome.statement).toMatch(/contradicts itself/);
					expect(outcome.statement).toMatch(/None was sent again/);
				}
			}
			expect(noted).toEqual([['key-1', 'tx-1']]);
			expect(unknowns).toEqual([]);
		},
	);
});

describe('readAnswer: a pairing by order alone holds only when records confirm it', () => {
	const answer = { submitted: [{ xtid: 'tx-1' }, { xtid: 'tx-2' }] };
	// tx-1 is the second payment's, tx-2 the first's: the order of the answer is not the request's
	const swapped = {
		'/transaction/tx-1': settled('tx-1', two),
		'/transaction/tx-2': settled('tx-2', one),
	};

	it('records showing swapped details: the answer is read again, and the look-up pairs each xtid with its payment', async () => {
		const { outcomes, lookUps } = await read(answer, [one, two], {
			records: swapped,
			found: { 0: 'tx-2', 1: 'tx-1' },
		});
		expect(outcomes.map(said)).toEqual(['sent tx-2', 'sent tx-1']);
		expect(lookUps).toEqual([{ items: [0, 1], named: ['tx-1', 'tx-2'] }]);
	});

	it('records showing swapped details and a look-up that finds neither: both undetermined, never "paid" by order', async () => {
		const { outcomes, unknowns } = await read(answer, [one, two], {
			records: swapped,
			found: {},
		});
		for (const outcome of outcomes) {
			expect(outcome).toMatchObject({ kind: 'undetermined', notPaid: false, sharedWith: [0, 1] });
			if (outcome.kind === 'undetermined') {
				expect(outcome.xtids.sort()).toEqual(['tx-1', 'tx-2']);
				expect(outcome.statement).toMatch(/does not say which of items 0, 1 is which/);
			}
		}
		expect(unknowns).toEqual([]);
	});

	it('records without reference and amount do not confirm an order: undetermined', async () => {
		const { outcomes } = await read(answer, [one, two], {
			records: {
				'/transaction/tx-1': { xtid: 'tx-1', status: 'SETTLED' },
				'/transaction/tx-2': { xtid: 'tx-2', status: 'SETTLED' },
			},
		});
		expect(outcomes.map((outcome) => outcome.kind)).toEqual(['undetermined', 'undetermined']);
	});

	it('a failing look-up is logged and leaves the payments undetermined', async () => {
		const { outcomes, logs } = await read(answer, [one, two], {
			records: swapped,
			found: 'throws',
		});
		expect(outcomes.map((outcome) => outcome.kind)).toEqual(['undetermined', 'undetermined']);
		expect(logs).toContainEqual(
			expect.objectContaining({
				level: 'warn',
				message: expect.stringMatching(
					/pairing the answer of request key-1 by look-up failed: approvals list unavailable/,
				) as string,
			}),
		);
	});

	it('noteAnswer is told of each xtid once, even when the answer is read twice', async () => {
		const { noted } = await read(answer, [one, two], {
			records: swapped,
			found: { 0: 'tx-2', 1: 'tx-1' },
		});
		expect(noted.map(([, xtid]) => xtid).sort()).toEqual(['tx-1', 'tx-2']);
	});
});

describe('readAnswer: payments accounted for together', () => {
	it('one xtid and one rejection for two payments, with nothing to tell which is which: undetermined, "none paid" only when the xtid is not paid', async () => {
		const answer = { submitted: [{ xtid: 'tx-1' }], rejected: [{ error: 'limit' }] };
		const pending = await read(answer, [one, two], {
			records: {
				'/account/acc-1/approvals': [
					{ ref: 'ap-1', status: 'pending', transaction: { xtid: 'tx-1' } },
				],
			},
		});
		expect(pending.outcomes.map(said)).toEqual([
			'undetermined tx-1 notPaid',
			'undetermined tx-1 notPaid',
		]);
		const paid = await read(answer, [one, two], {
			records: { '/transaction/tx-1': { xtid: 'tx-1', status: 'SETTLED' } },
		});
		expect(paid.outcomes.map(said)).toEqual(['undetermined tx-1', 'undetermined tx-1']);
	});

	it('two rejections with different reasons for the two payments left: rejected, the reason marked uncertain', async () => {
		const { outcomes } = await read(
			{
				submitted: [{ xtid: 'tx-1', reference: 'INV-1' }],
				rejected: [{ error: 'limit' }, { error: 'payee closed' }],
			},
			[one, two, three],
			{ records: { '/transaction/tx-1': settled('tx-1', one) } },
		);
		expect(outcomes[0]).toMatchObject({ kind: 'accepted' });
		for (const outcome of outcomes.slice(1))
			expect(outcome).toMatchObject({
				kind: 'rejected',
				reason: 'one of the rejections of this request: limit | payee closed',
				reasonUncertain: true,
			});
	});
});

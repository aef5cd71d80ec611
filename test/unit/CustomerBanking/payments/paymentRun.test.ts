/**
 * The payment executor against a scripted bank, in n8n-core's execution context (its node context is
 * the run's memory, shared between runs of one execution as n8n shares it across Retry On Fail). What
 * it sends (one key, one body), what a failure makes of each payment, and that a payment whose outcome
 * is unknown is looked up and never sent under another key. The transport's waits between attempts go
 * through n8n-workflow's `sleep`, scripted here.
 */
import type { IDataObject } from 'n8n-workflow';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

import type { IdempotencyKey } from '../../../../nodes/CustomerBanking/payments/idempotencyKey';
import type { PaymentOutcome } from '../../../../nodes/CustomerBanking/payments/outcomes';
import type { Payment } from '../../../../nodes/CustomerBanking/payments/payment';
import { PaymentRun } from '../../../../nodes/CustomerBanking/payments/paymentRun';
import {
	type BankCall,
	type BankReply,
	fails,
	ok,
	page,
	scriptedBank,
} from '../../../helpers/scriptedBank';

const body = (reference: string, amount: number): IDataObject => ({
	xaid: 'acc-1',
	xpid: 'payee-1',
	amount,
	currency: 'GBP',
	reference,
});
const ONE: Payment = { itemIndex: 0, body: body('INV-1', 10) };
const TWO: Payment = { itemIndex: 1, body: body('INV-2', 20) };

interface Bank {
	/** The answer to the n-th POST /payments (0-based). */
	post: (call: BankCall, n: number) => BankReply;
	transactions?: IDataObject[];
	approvals?: IDataObject[] | BankReply;
}

function bankScript(bank: Bank) {
	let posts = 0;
	return (call: BankCall): BankReply => {
		if (call.method === 'POST' && call.path === '/payments') return bank.post(call, posts++);
		if (call.path === '/account/acc-1/transactions') return page(bank.transactions ?? [], call.qs);
		if (call.path === '/account/acc-1/approvals') {
			const approvals = bank.approvals ?? [];
			return Array.isArray(approvals) ? page(approvals, call.qs) : approvals;
		}
		const transaction = /^\/transaction\/(.+)$/.exec(call.path);
		const record = (bank.transactions ?? []).find((entry) => entry.xtid === transaction?.[1]);
		return record ? ok(record) : fails(404, { message: 'not found' });
	};
}

/**
 * A run of the node in one execution; runs given the same `memory` are runs of the same execution
 * (Retry On Fail, a loop's next run).
 */
function runOf(bank: Bank, memory: Record<string, IDataObject> = {}) {
	const scripted = scriptedBank(bankScript(bank), { contextData: memory });
	return { run: new PaymentRun(scripted.context, false), ...scripted, memory };
}

const posts = (calls: BankCall[]) => calls.filter((call) => call.method === 'POST');
const keysSent = (calls: BankCall[]) =>
	posts(calls).map((call) => call.headers['x-idempotent-key']);

/** A transaction the bank shows for a payment (matching its reference, amount and payee). */
const transactionOf = (xtid: string, payment: Payment, status = 'SETTLED'): IDataObject => ({
	xtid,
	status,
	reference: payment.body.reference,
	amount: payment.body.amount,
	xpid: payment.body.xpid,
	direction: 'outgoing',
});

function statusOf(outcome: PaymentOutcome): string {
	switch (outcome.kind) {
		case 'accepted':
			return `accepted ${outcome.state?.status ?? ''}${outcome.replayed ? ' replayed' : ''}`;
		case 'failed':
			return `failed ${outcome.status}`;
		default:
			return outcome.kind;
	}
}

describe('PaymentRun.send: one request, one key, one body', () => {
	it('sends the payment once with its key; an accepted answer is read against the bank', async () => {
		const { run, calls } = runOf({
			post: () => ok({ submitted: [{ xtid: 'tx-1' }] }),
			transactions: [transactionOf('tx-1', ONE)],
		});
		const key = run.keyOf(ONE);
		const outcomes = await run.send([ONE], key, false);
		expect(outcomes.map(statusOf)).toEqual(['accepted sent']);
		expect(posts(calls)).toEqual([
			expect.objectContaining({
				body: ONE.body,
				headers: expect.objectContaining({ 'x-idempotent-key': key.key }) as object,
			}),
		]);
		expect(key.key).toMatch(/^[0-9a-f-]{36}$/);
	});

	it('a batch goes as one array under one key', async () => {
		const { run, calls } = runOf({
			post: () =>
				ok({
					submitted: [
						{ xtid: 'tx-1', index: 0 },
						{ xtid: 'tx-2', index: 1 },
					],
				}),
			transactions: [transactionOf('tx-1', ONE), transactionOf('tx-2', TWO)],
		});
		const key = run.batchKeyOf(0, [ONE, TWO]);
		const outcomes = await run.send([ONE, TWO], key, true);
		expect(outcomes.map(statusOf)).toEqual(['accepted sent', 'accepted sent']);
		expect(posts(calls).map((call) => call.body)).toEqual([[ONE.body, TWO.body]]);
		expect(outcomes.map((outcome) => outcome.key)).toEqual([key, key]);
	});

	it('a 503 then an answer: sent again with the same key and the same body', async () => {
		const { run, calls } = runOf({
			post: (_call, n) => (n === 0 ? fails(503) : ok({ submitted: [{ xtid: 'tx-1' }] })),
			transactions: [transactionOf('tx-1', ONE)],
		});
		const key = run.keyOf(ONE);
		expect((await run.send([ONE], key, false)).map(statusOf)).toEqual(['accepted sent']);
		expect(keysSent(calls)).toEqual([key.key, key.key]);
		expect(posts(calls).map((call) => call.body)).toEqual([ONE.body, ONE.body]);
	});
});

describe('PaymentRun.send: a lost answer is looked up, never sent under another key', () => {
	it('no answer to any attempt: the payment is looked up and reported unknown, with no further send', async () => {
		const { run, calls } = runOf({ post: () => 'reset', transactions: [] });
		const key = run.keyOf(ONE);
		const [outcome] = await run.send([ONE], key, false);
		expect(statusOf(outcome)).toBe('failed unknown');
		// every attempt the transport made carried the same key and body
		expect(new Set(keysSent(calls))).toEqual(new Set([key.key]));
		// the look-up came after the last send, and nothing was sent after it
		const lastPost = calls.map((call) => call.method).lastIndexOf('POST');
		const lookUps = calls.slice(lastPost + 1).map((call) => `${call.method} ${call.path}`);
		expect(lookUps).toEqual(['GET /account/acc-1/approvals', 'GET /account/acc-1/transactions']);
		if (outcome.kind === 'failed') {
			expect(outcome.error.message).toMatch(/^Payment state unknown — not resubmitted/);
			expect(outcome.candidates).toEqual([]);
		}
	});

	it('a matching record after a lost answer is a candidate, never claimed as this payment (it may be an earlier one)', async () => {
		const { run } = runOf({ post: () => 'reset', transactions: [transactionOf('tx-old', ONE)] });
		const [outcome] = await run.send([ONE], run.keyOf(ONE), false);
		expect(outcome).toMatchObject({ kind: 'failed', status: 'unknown', candidates: ['tx-old'] });
	});

	it('the look-up failing too leaves it unknown and says so', async () => {
		const { run } = runOf({ post: () => 'reset', approvals: fails(403) });
		const [outcome] = await run.send([ONE], run.keyOf(ONE), false);
		expect(statusOf(outcome)).toBe('failed unknown');
		if (outcome.kind === 'failed')
			expect(outcome.error.description).toMatch(/Looking the payment up failed too/);
	});

	it('the next run of the execution (Retry On Fail) sends it with the same key, which the bank pays once', async () => {
		const memory: Record<string, IDataObject> = {};
		const first = runOf({ post: () => 'reset' }, memory);
		const firstKey = first.run.keyOf(ONE);
		await first.run.send([ONE], firstKey, false);
		const second = runOf(
			{
				post: () => ok({ submitted: [{ xtid: 'tx-1' }] }),
				transactions: [transactionOf('tx-1', ONE)],
			},
			memory,
		);
		const secondKey = second.run.keyOf(ONE);
		expect(secondKey.key).toBe(firstKey.key);
		expect((await second.run.send([ONE], secondKey, false)).map(statusOf)).toEqual([
			'accepted sent',
		]);
		expect(keysSent(second.calls)).toEqual([firstKey.key]);
	});

	it('a refusal in a later run does not undo an earlier attempt that may have been made: unknown, looked up', async () => {
		const memory: Record<string, IDataObject> = {};
		const first = runOf({ post: () => 'reset' }, memory);
		await first.run.send([ONE], first.run.keyOf(ONE), false);
		const second = runOf({ post: () => fails(400, { message: 'amount invalid' }) }, memory);
		const [outcome] = await second.run.send([ONE], second.run.keyOf(ONE), false);
		expect(statusOf(outcome)).toBe('failed unknown');
		if (outcome.kind === 'failed')
			expect(outcome.error.description).toMatch(
				/An earlier attempt with this idempotency key, in an earlier run of this node, may have been processed/,
			);
		expect(second.calls.at(-1)?.method).toBe('GET');
	});
});

describe('PaymentRun.send: what a failed request proves', () => {
	it.each<[string, BankReply, string, RegExp]>([
		[
			'a 400 refusal: nothing was paid',
			fails(400, { message: 'bad payee' }),
			'failed rejected',
			/nothing was paid/,
		],
		[
			'a 422 (the key used with another body)',
			fails(422, { message: 'key reused' }),
			'failed rejected',
			/already used for a different payment request: nothing new was paid/,
		],
		[
			'a 409 (the key is in use by another request, which may pay): unknown, looked up',
			fails(409, { message: 'in use' }),
			'failed unknown',
			/in use by another request/,
		],
	])('%s', async (_case, reply, status, words) => {
		const { run, calls } = runOf({ post: () => reply });
		const [outcome] = await run.send([ONE], run.keyOf(ONE), false);
		expect(statusOf(outcome)).toBe(status);
		if (outcome.kind === 'failed')
			expect(`${outcome.error.message} ${outcome.error.description}`).toMatch(words);
		// a refusal is not sent again
		expect(posts(calls)).toHaveLength(1);
		const lookedUp = calls.some((call) => call.method === 'GET');
		expect(lookedUp).toBe(status === 'failed unknown');
	});

	it('after the bank refused the first attempt, the key is known to have made nothing: a later refusal stays "rejected"', async () => {
		const memory: Record<string, IDataObject> = {};
		const first = runOf({ post: () => fails(400) }, memory);
		await first.run.send([ONE], first.run.keyOf(ONE), false);
		const second = runOf({ post: () => fails(400) }, memory);
		const [outcome] = await second.run.send([ONE], second.run.keyOf(ONE), false);
		expect(statusOf(outcome)).toBe('failed rejected');
	});
});

describe('PaymentRun: answers remembered across runs of one execution', () => {
	it('the bank answering a key with an xtid it answered before is a replay', async () => {
		const memory: Record<string, IDataObject> = {};
		const bank: Bank = {
			post: () => ok({ submitted: [{ xtid: 'tx-1' }] }),
			transactions: [transactionOf('tx-1', ONE)],
		};
		const first = runOf(bank, memory);
		expect((await first.run.send([ONE], first.run.keyOf(ONE), false)).map(statusOf)).toEqual([
			'accepted sent',
		]);
		const second = runOf(bank, memory);
		expect((await second.run.send([ONE], second.run.keyOf(ONE), false)).map(statusOf)).toEqual([
			'accepted sent replayed',
		]);
	});

	it('resolveUnknown claims a record only when the bank answered this key with it', async () => {
		const { run } = runOf({ post: () => ok({}), transactions: [transactionOf('tx-1', ONE)] });
		const key: IdempotencyKey = run.keyOf(ONE);
		const [before] = await run.resolveUnknown([ONE], key, 'The answer was lost.');
		expect(before).toMatchObject({ kind: 'failed', status: 'unknown', candidates: ['tx-1'] });
		run.noteAnswer(key.key, 'tx-1');
		const [after] = await run.resolveUnknown([ONE], key, 'The answer was lost.');
		expect(after).toMatchObject({
			kind: 'found',
			found: { xtid: 'tx-1', foundIn: 'transactions' },
			failure: 'The answer was lost.',
		});
	});

	it('an answer that names no payment (202 without entries) is looked up, not sent again', async () => {
		const { run, calls } = runOf({ post: () => ok({ requestId: 'req-1' }), transactions: [] });
		const [outcome] = await run.send([ONE], run.keyOf(ONE), false);
		expect(statusOf(outcome)).toBe('failed unknown');
		expect(posts(calls)).toHaveLength(1);
		if (outcome.kind === 'failed')
			expect(outcome.error.description).toMatch(/does not say what happened to this payment/);
	});
});

describe('PaymentRun.send after n8n retried an execution whose keys were lost', () => {
	/** A run in an execution n8n retried (mode retry) without the failed execution's node context. */
	function retriedRun(bank: Bank) {
		const scripted = scriptedBank(bankScript(bank), { mode: 'retry', contextData: {} });
		return { run: new PaymentRun(scripted.context, false), ...scripted };
	}

	it('a payment matching one the bank shows is held back (unknown); the others go under a key for just them', async () => {
		let sent = false;
		const { run, calls } = retriedRun({
			post: () => {
				sent = true;
				return ok({ submitted: [{ xtid: 'tx-2', index: 0 }] });
			},
			// tx-2 exists once this run sent it
			get transactions() {
				const before = [transactionOf('tx-old', ONE)];
				return sent ? [...before, transactionOf('tx-2', TWO)] : before;
			},
		});
		const key = run.batchKeyOf(0, [ONE, TWO]);
		const outcomes = await run.send([ONE, TWO], key, true);
		expect(outcomes[0]).toMatchObject({
			kind: 'failed',
			status: 'unknown',
			payment: ONE,
			candidates: ['tx-old'],
		});
		expect(outcomes[1]).toMatchObject({ kind: 'accepted', payment: TWO });
		expect(posts(calls).map((call) => call.body)).toEqual([[TWO.body]]);
		expect(keysSent(calls)).not.toContain(key.key);
	});

	it('when the account cannot be read, nothing is sent: every payment is held back as unknown', async () => {
		const { run, calls } = retriedRun({ post: () => ok({}), approvals: fails(500) });
		const outcomes = await run.send([ONE, TWO], run.batchKeyOf(0, [ONE, TWO]), true);
		expect(outcomes.map(statusOf)).toEqual(['failed unknown', 'failed unknown']);
		expect(posts(calls)).toEqual([]);
	});
});

describe('PaymentRun.resubmitRejected', () => {
	it('a rejection whose reason matches is sent once more under a key of its own; others are left with a note', async () => {
		const { run, calls } = runOf({
			post: (_call, n) =>
				n === 0
					? ok({
							submitted: [],
							rejected: [
								{ index: 0, error: 'temporarily unavailable' },
								{ index: 1, error: 'invalid payee' },
							],
						})
					: ok({ submitted: [{ xtid: 'tx-1', index: 0 }] }),
			transactions: [transactionOf('tx-1', ONE)],
		});
		const key = run.batchKeyOf(0, [ONE, TWO]);
		const first = await run.send([ONE, TWO], key, true);
		expect(first.map(statusOf)).toEqual(['rejected', 'rejected']);
		const { outcomes, notes } = await run.resubmitRejected(first, /temporar/i);
		expect(outcomes.map(statusOf)).toEqual(['accepted sent', 'rejected']);
		const resent = posts(calls)[1];
		expect(resent.body).toEqual([ONE.body]);
		expect(resent.headers['x-idempotent-key']).not.toBe(key.key);
		expect(outcomes[0].key.source).toBe('resubmission');
		expect(notes.get(0)).toEqual({
			resubmitted: true,
			firstRejection: 'temporarily unavailable',
			firstIdempotencyKey: key.key,
		});
		expect(notes.get(1)).toMatchObject({ resubmitted: false });
	});

	it('nothing matching: nothing is sent again', async () => {
		const { run, calls } = runOf({
			post: () => ok({ rejected: [{ error: 'invalid payee' }] }),
		});
		const first = await run.send([ONE], run.keyOf(ONE), false);
		const { outcomes } = await run.resubmitRejected(first, /temporar/i);
		expect(outcomes).toEqual(first);
		expect(posts(calls)).toHaveLength(1);
	});
});

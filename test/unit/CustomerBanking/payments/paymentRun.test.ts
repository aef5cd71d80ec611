/**
 * The payment executor (PaymentRun.execute) against a scripted bank, in n8n-core's execution context
 * (its node context is the run's memory, shared between runs of one execution as n8n shares it across
 * Retry On Fail). What it sends (one key, one body), what a failure makes of each payment, that a
 * payment whose outcome is unknown is looked up and never sent under another key, and where a run stops
 * without Continue On Fail. The transport's waits between attempts go through n8n-workflow's `sleep`,
 * scripted here.
 */
import type { IDataObject } from 'n8n-workflow';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

import type { PaymentOutcome } from '../../../../nodes/CustomerBanking/payments/outcomes';
import type { Payment } from '../../../../nodes/CustomerBanking/payments/payment';
import { PaymentRun, type RunOptions } from '../../../../nodes/CustomerBanking/payments/paymentRun';
import type { ExecuteContextOptions } from '../../../helpers/n8nContext';
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

/** Submit's settings: one payment per request, keys from this execution, no limits. */
const SUBMIT: RunOptions = { skipAlreadyMade: false, lookBackDays: 0, limits: {}, grouping: {} };
/** Submit Batch's, in batches of two. */
const BATCH: Partial<RunOptions> = { grouping: { batchSize: 2 } };

/**
 * A run of the node in one execution; runs given the same `memory` are runs of the same execution
 * (Retry On Fail, a loop's next run). `execute` runs it over payments and gives every outcome, in
 * step order.
 */
function runOf(
	bank: Bank,
	memory: Record<string, IDataObject> = {},
	settings: Partial<ExecuteContextOptions> = {},
) {
	const scripted = scriptedBank(bankScript(bank), { contextData: memory, ...settings });
	const run = new PaymentRun(scripted.context);
	const execute = async (payments: Payment[], options: Partial<RunOptions> = {}) => {
		const result = await run.execute(payments, { ...SUBMIT, ...options });
		return { result, outcomes: result.steps.flatMap((step) => step.outcomes ?? []) };
	};
	return { execute, ...scripted, memory };
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
			return `accepted ${outcome.fromEvidence?.status ?? ''}${outcome.replayed ? ' replayed' : ''}`;
		case 'failed':
			return `failed ${outcome.status}`;
		default:
			return outcome.kind;
	}
}

describe('PaymentRun.execute: one request, one key, one body', () => {
	it('sends the payment once with its key; an accepted answer is read against the bank', async () => {
		const { execute, calls } = runOf({
			post: () => ok({ submitted: [{ xtid: 'tx-1' }] }),
			transactions: [transactionOf('tx-1', ONE)],
		});
		const { outcomes } = await execute([ONE]);
		expect(outcomes.map(statusOf)).toEqual(['accepted sent']);
		const key = outcomes[0].key.key;
		expect(posts(calls)).toEqual([
			expect.objectContaining({
				body: ONE.body,
				headers: expect.objectContaining({ 'x-idempotent-key': key }) as object,
			}),
		]);
		expect(key).toMatch(/^[0-9a-f-]{36}$/);
	});

	it('Submit Batch: a batch goes as one array under one key', async () => {
		const { execute, calls } = runOf({
			post: () =>
				ok({
					submitted: [
						{ xtid: 'tx-1', index: 0 },
						{ xtid: 'tx-2', index: 1 },
					],
				}),
			transactions: [transactionOf('tx-1', ONE), transactionOf('tx-2', TWO)],
		});
		const { outcomes, result } = await execute([ONE, TWO], BATCH);
		expect(outcomes.map(statusOf)).toEqual(['accepted sent', 'accepted sent']);
		expect(posts(calls).map((call) => call.body)).toEqual([[ONE.body, TWO.body]]);
		expect(keysSent(calls)).toEqual([outcomes[0].key.key]);
		expect(outcomes[1].key).toEqual(outcomes[0].key);
		expect(result.steps.map(({ step }) => step.kind)).toEqual(['send']);
	});

	it('a 503 then an answer: sent again with the same key and the same body', async () => {
		const { execute, calls } = runOf({
			post: (_call, n) => (n === 0 ? fails(503) : ok({ submitted: [{ xtid: 'tx-1' }] })),
			transactions: [transactionOf('tx-1', ONE)],
		});
		const { outcomes } = await execute([ONE]);
		expect(outcomes.map(statusOf)).toEqual(['accepted sent']);
		expect(keysSent(calls)).toEqual([outcomes[0].key.key, outcomes[0].key.key]);
		expect(posts(calls).map((call) => call.body)).toEqual([ONE.body, ONE.body]);
	});
});

describe('PaymentRun.execute: a lost answer is looked up, never sent under another key', () => {
	it('no answer to any attempt: the payment is looked up and reported unknown, with no further send', async () => {
		const { execute, calls } = runOf({ post: () => 'reset', transactions: [] });
		const {
			outcomes: [outcome],
		} = await execute([ONE]);
		expect(statusOf(outcome)).toBe('failed unknown');
		// every attempt the transport made carried the same key and body
		expect(new Set(keysSent(calls))).toEqual(new Set([outcome.key.key]));
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
		const { execute } = runOf({
			post: () => 'reset',
			transactions: [transactionOf('tx-old', ONE)],
		});
		const { outcomes } = await execute([ONE]);
		expect(outcomes).toEqual([
			expect.objectContaining({ kind: 'failed', status: 'unknown', candidates: ['tx-old'] }),
		]);
	});

	it('a lost answer to a key the bank had answered with a record: the look-up finds that record', async () => {
		const memory: Record<string, IDataObject> = {};
		const bank: Bank = {
			post: () => ok({ submitted: [{ xtid: 'tx-1' }] }),
			transactions: [transactionOf('tx-1', ONE)],
		};
		await runOf(bank, memory).execute([ONE]);
		const second = runOf({ ...bank, post: () => 'reset' }, memory);
		const { outcomes } = await second.execute([ONE]);
		expect(outcomes).toEqual([
			expect.objectContaining({
				kind: 'found',
				found: expect.objectContaining({ xtid: 'tx-1', foundIn: 'transactions' }) as object,
			}),
		]);
	});

	it('the look-up failing too leaves it unknown and says so', async () => {
		const { execute } = runOf({ post: () => 'reset', approvals: fails(403) });
		const {
			outcomes: [outcome],
		} = await execute([ONE]);
		expect(statusOf(outcome)).toBe('failed unknown');
		if (outcome.kind === 'failed')
			expect(outcome.error.description).toMatch(/Looking the payment up failed too/);
	});

	it('the next run of the execution (Retry On Fail) sends it with the same key, which the bank pays once', async () => {
		const memory: Record<string, IDataObject> = {};
		const first = runOf({ post: () => 'reset' }, memory);
		const firstKey = (await first.execute([ONE])).outcomes[0].key.key;
		const second = runOf(
			{
				post: () => ok({ submitted: [{ xtid: 'tx-1' }] }),
				transactions: [transactionOf('tx-1', ONE)],
			},
			memory,
		);
		const { outcomes } = await second.execute([ONE]);
		expect(outcomes.map(statusOf)).toEqual(['accepted sent']);
		expect(keysSent(second.calls)).toEqual([firstKey]);
	});

	it('a refusal in a later run does not undo an earlier attempt that may have been made: unknown, looked up', async () => {
		const memory: Record<string, IDataObject> = {};
		await runOf({ post: () => 'reset' }, memory).execute([ONE]);
		const second = runOf({ post: () => fails(400, { message: 'amount invalid' }) }, memory);
		const {
			outcomes: [outcome],
		} = await second.execute([ONE]);
		expect(statusOf(outcome)).toBe('failed unknown');
		if (outcome.kind === 'failed')
			expect(outcome.error.description).toMatch(
				/An earlier attempt with this idempotency key, in an earlier run of this node, may have been processed/,
			);
		expect(second.calls.at(-1)?.method).toBe('GET');
	});
});

describe('PaymentRun.execute: what a failed request proves', () => {
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
		const { execute, calls } = runOf({ post: () => reply });
		const {
			outcomes: [outcome],
		} = await execute([ONE]);
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
		await runOf({ post: () => fails(400) }, memory).execute([ONE]);
		const { outcomes } = await runOf({ post: () => fails(400) }, memory).execute([ONE]);
		expect(outcomes.map(statusOf)).toEqual(['failed rejected']);
	});
});

describe('PaymentRun.execute: where a run stops', () => {
	const refusedFirst: Bank = {
		post: (_call, n) =>
			n === 0 ? fails(400, { message: 'bad payee' }) : ok({ submitted: [{ xtid: 'tx-2' }] }),
		transactions: [transactionOf('tx-2', TWO)],
	};

	it('without Continue On Fail: the first failed payment ends the run, later payments are not sent', async () => {
		const { execute, calls } = runOf(refusedFirst);
		const { result, outcomes } = await execute([ONE, TWO]);
		expect(outcomes.map(statusOf)).toEqual(['failed rejected']);
		expect(result.steps).toHaveLength(1);
		expect(posts(calls).map((call) => call.body)).toEqual([ONE.body]);
	});

	it('with Continue On Fail: every payment goes', async () => {
		const { execute, calls } = runOf(refusedFirst, {}, { continueOnFail: true });
		const { outcomes } = await execute([ONE, TWO]);
		expect(outcomes.map(statusOf)).toEqual(['failed rejected', 'accepted sent']);
		expect(posts(calls)).toHaveLength(2);
	});

	it('a payment over a limit is not sent and does not stop the run', async () => {
		const { execute, calls } = runOf({
			post: () => ok({ submitted: [{ xtid: 'tx-2' }] }),
			transactions: [transactionOf('tx-2', TWO)],
		});
		const { result } = await execute([{ ...ONE, body: body('INV-1', 500) }, TWO], {
			limits: { maxAmount: 100 },
		});
		expect(result.steps.map(({ step, outcomes }) => [step.kind, outcomes?.map(statusOf)])).toEqual([
			['overLimit', undefined],
			['send', ['accepted sent']],
		]);
		expect(posts(calls).map((call) => call.body)).toEqual([TWO.body]);
	});

	it('no payments: nothing read, nothing sent', async () => {
		const { execute, calls } = runOf({ post: () => ok({}) });
		expect((await execute([])).result).toEqual({ steps: [], checkedAtBank: new Map() });
		expect(calls).toEqual([]);
	});
});

describe('PaymentRun.execute: what the node remembers across runs of one execution', () => {
	it('the bank answering a key with an xtid it answered before is a replay', async () => {
		const memory: Record<string, IDataObject> = {};
		const bank: Bank = {
			post: () => ok({ submitted: [{ xtid: 'tx-1' }] }),
			transactions: [transactionOf('tx-1', ONE)],
		};
		expect((await runOf(bank, memory).execute([ONE])).outcomes.map(statusOf)).toEqual([
			'accepted sent',
		]);
		expect((await runOf(bank, memory).execute([ONE])).outcomes.map(statusOf)).toEqual([
			'accepted sent replayed',
		]);
	});

	it('an answer that names no payment (202 without entries) is looked up, not sent again', async () => {
		const { execute, calls } = runOf({ post: () => ok({ requestId: 'req-1' }), transactions: [] });
		const {
			outcomes: [outcome],
		} = await execute([ONE]);
		expect(statusOf(outcome)).toBe('failed unknown');
		expect(posts(calls)).toHaveLength(1);
		if (outcome.kind === 'failed')
			expect(outcome.error.description).toMatch(/does not say what happened to this payment/);
	});

	it('what a run may have paid counts against Maximum Total in the next run, before anything is sent', async () => {
		const memory: Record<string, IDataObject> = {};
		await runOf({ post: () => 'reset' }, memory).execute([ONE], { limits: { maxTotal: 25 } });
		const next = runOf({ post: () => ok({ submitted: [{ xtid: 'tx-2' }] }) }, memory);
		const { result } = await next.execute([TWO], { limits: { maxTotal: 25 } });
		expect(result.steps.map(({ step }) => step.kind)).toEqual(['overLimit']);
		expect(posts(next.calls)).toEqual([]);
	});
});

describe('PaymentRun.execute: Skip Payments Already Made', () => {
	it('a payment the bank shows is not sent; the others are, and each says what the check read', async () => {
		let sent = false;
		const { execute, calls } = runOf({
			post: () => {
				sent = true;
				return ok({ submitted: [{ xtid: 'tx-2' }] });
			},
			// tx-2 exists once this run sent it
			get transactions() {
				const before = [transactionOf('tx-old', ONE)];
				return sent ? [...before, transactionOf('tx-2', TWO)] : before;
			},
		});
		const { result } = await execute([ONE, TWO], { skipAlreadyMade: true });
		expect(result.steps.map(({ step }) => step.kind)).toEqual(['alreadyMade', 'send']);
		expect(posts(calls).map((call) => call.body)).toEqual([TWO.body]);
		expect([...result.checkedAtBank.keys()]).toEqual([0, 1]);
	});

	it('the account cannot be read: nothing is sent, each payment says it was not sent', async () => {
		const { execute, calls } = runOf({ post: () => ok({}), approvals: fails(500) });
		const { result, outcomes } = await execute([ONE, TWO], {
			skipAlreadyMade: true,
		});
		expect(result.steps.map(({ step }) => step.kind)).toEqual(['known']);
		expect(outcomes.map(statusOf)).toEqual(['failed not_sent']);
		expect(posts(calls)).toEqual([]);
	});
});

describe('PaymentRun.execute after n8n retried an execution whose keys were lost', () => {
	const retried = (bank: Bank) => runOf(bank, {}, { mode: 'retry' });

	it('a payment matching one the bank shows is held back (unknown); the others go under a key for just them', async () => {
		let sent = false;
		const { execute, calls } = retried({
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
		const { outcomes } = await execute([ONE, TWO], BATCH);
		expect(outcomes[0]).toMatchObject({
			kind: 'failed',
			status: 'unknown',
			payment: ONE,
			candidates: ['tx-old'],
		});
		expect(outcomes[1]).toMatchObject({ kind: 'accepted', payment: TWO });
		expect(posts(calls).map((call) => call.body)).toEqual([[TWO.body]]);
		// the batch's own key is never sent: the payments it held may have been made
		expect(keysSent(calls)).not.toContain(outcomes[0].key.key);
	});

	it('when the account cannot be read, nothing is sent: every payment is held back as unknown', async () => {
		const { execute, calls } = retried({ post: () => ok({}), approvals: fails(500) });
		const { outcomes } = await execute([ONE, TWO], { ...BATCH });
		expect(outcomes.map(statusOf)).toEqual(['failed unknown', 'failed unknown']);
		expect(posts(calls)).toEqual([]);
	});
});

describe('PaymentRun.execute: Resubmit Rejected Items', () => {
	it('a rejection whose reason matches is sent once more under a key of its own; others are left with a note', async () => {
		const { execute, calls } = runOf({
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
		const { result, outcomes } = await execute([ONE, TWO], {
			...BATCH,
			resubmitWhen: /temporar/i,
		});
		expect(outcomes.map(statusOf)).toEqual(['accepted sent', 'rejected']);
		const [first, resent] = posts(calls);
		expect(resent.body).toEqual([ONE.body]);
		expect(resent.headers['x-idempotent-key']).not.toBe(first.headers['x-idempotent-key']);
		expect(outcomes[0].key.source).toBe('resubmission');
		expect(outcomes[1].key.key).toBe(first.headers['x-idempotent-key']);
		const notes = result.steps[0].resubmission;
		expect(notes?.get(0)).toEqual({
			resubmitted: true,
			firstRejection: 'temporarily unavailable',
			firstIdempotencyKey: first.headers['x-idempotent-key'],
		});
		expect(notes?.get(1)).toMatchObject({ resubmitted: false });
	});

	it('nothing matching: nothing is sent again', async () => {
		const { execute, calls } = runOf({
			post: () => ok({ rejected: [{ error: 'invalid payee' }] }),
		});
		const { outcomes } = await execute([ONE], { resubmitWhen: /temporar/i });
		expect(outcomes.map(statusOf)).toEqual(['rejected']);
		expect(posts(calls)).toHaveLength(1);
	});
});

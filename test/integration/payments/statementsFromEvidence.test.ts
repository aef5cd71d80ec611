/**
 * Every money statement comes from evidence, against banks that keep to the API documentation but choose
 * differently where it says "not shown" (test/sandbox/variants.ts): how answer entries are numbered and
 * ordered, what they echo, answers that do not add up, the words of statuses, how times are written,
 * whose clock the Date header shows, a key in use by another execution, a read answered with another
 * record. Each test is the sequence that made a false statement before.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { credentialsFor } from '../../helpers/sandboxCredentials';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../sandbox';
import type { BankVariants } from '../../sandbox/variants';
import {
	approvalsWithReference,
	byId,
	type PaymentRun,
	type RunOptions,
	runPayments,
	sentWithReference,
} from './paymentNode';

// the transport's waits between attempts are not slept through: outcomes, not timing, are under test
jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

let counter = 0;
const newReference = (prefix: string) =>
	`${prefix}-${process.pid % 1000}-${++counter}`.slice(0, 18);

interface Bank {
	sandbox: Sandbox;
	credentials: ICredentialDataDecryptedObject;
	gbp: { xaid: string; xpid: string };
}

async function openBank(
	variants: Partial<BankVariants>,
	options: SandboxOptions = {},
): Promise<Bank> {
	const sandbox = await startSandbox({ port: 0, seed: 30, ...options, variants });
	return {
		sandbox,
		credentials: credentialsFor(sandbox),
		gbp: { xaid: sandbox.seeded.accounts.gbp, xpid: sandbox.seeded.payees.gbp },
	};
}

/** Runs the node with a bank opened for this test only. */
async function withBank(
	variants: Partial<BankVariants>,
	test: (bank: Bank) => Promise<void>,
	options: SandboxOptions = {},
): Promise<void> {
	const bank = await openBank(variants, options);
	try {
		await test(bank);
	} finally {
		await bank.sandbox.close();
	}
}

function pay(
	bank: Bank,
	operation: 'submit' | 'submitBatch',
	options: Omit<RunOptions, 'parameters'> & { parameters?: IDataObject },
) {
	return runPayments(bank.sandbox, bank.credentials, {
		workflowId: 'wf-evidence',
		executionId: `exec-evidence-${++counter}`,
		continueOnFail: true,
		...options,
		parameters: {
			operation,
			account: byId(bank.gbp.xaid),
			payee: byId(bank.gbp.xpid),
			...options.parameters,
		},
	});
}

/** Every output item, in input order. */
function byItem(run: PaymentRun): IDataObject[] {
	if (run.error) throw run.error;
	return [...(run.output?.[0] ?? []), ...(run.output?.[1] ?? [])]
		.sort(
			(a, b) =>
				Number((a.pairedItem as { item: number }).item) -
				Number((b.pairedItem as { item: number }).item),
		)
		.map((item) => item.json);
}

const timesPaid = (bank: Bank, reference: string) =>
	sentWithReference(bank.sandbox, reference).length;

const resubmitInsufficient = { options: { resubmitRejected: true, resubmitWhen: 'insufficient' } };

describe('answer entries are paired with items only when their positions and echoes agree', () => {
	it.each<[string, Partial<BankVariants>]>([
		['numbered from 1, echoing each item', { answerPositions: 'oneBased' }],
		['numbered from 1, echoing nothing', { answerPositions: 'oneBased', answerEchoes: false }],
		[
			'not numbered, in another order, echoing each item',
			{ answerPositions: 'absent', answerOrder: 'shuffled' },
		],
	])(
		'a bank whose entries are %s: the paid item is never resubmitted, each item gets its own answer',
		async (_name, variants) =>
			await withBank(variants, async (bank) => {
				const paid = newReference('P1');
				const refused = newReference('P1X');
				const run = await pay(bank, 'submitBatch', {
					parameters: resubmitInsufficient,
					itemParameters: [
						{ amount: 12, reference: paid },
						{ amount: 999_999, reference: refused },
					],
				});
				const [first, second] = byItem(run);
				expect(timesPaid(bank, paid)).toBe(1);
				expect(first).toMatchObject({
					status: 'sent',
					reference: paid,
					transactionId: sentWithReference(bank.sandbox, paid)[0].xtid,
				});
				expect(second).toMatchObject({ status: 'rejected', reference: refused });
				expect(String(second.rejectionReason)).toMatch(/insufficient/);
				// what was resent is the refused item only, under a new key
				const resent = run.posts.slice(1).flatMap((post) => post.body as IDataObject[]);
				expect(resent.map((body) => body.reference)).not.toContain(paid);
			}),
	);

	it("a bank that answers in another order, with no positions and no echoes: each item is paired by its own record, never given another's ID", async () =>
		await withBank(
			{ answerPositions: 'absent', answerEchoes: false, answerOrder: 'shuffled' },
			async (bank) => {
				const references = [0, 1, 2, 3].map(() => newReference('P1O'));
				const run = await pay(bank, 'submitBatch', {
					itemParameters: references.map((reference, at) => ({ amount: 30 + at, reference })),
				});
				expect(byItem(run).map((item) => [item.status, item.transactionId])).toEqual(
					references.map((reference) => [
						'sent',
						sentWithReference(bank.sandbox, reference)[0].xtid,
					]),
				);
			},
		));

	it("the same bank showing new payments late: no record confirms the order, so no item is given an ID that may be another's", async () =>
		await withBank(
			{
				answerPositions: 'absent',
				answerEchoes: false,
				answerOrder: 'shuffled',
				newPaymentVisibilityMs: 60_000,
			},
			async (bank) => {
				const references = [0, 1, 2, 3].map(() => newReference('P1L'));
				const run = await pay(bank, 'submitBatch', {
					itemParameters: references.map((reference, at) => ({ amount: 40 + at, reference })),
				});
				const made = references.map(
					(reference) => sentWithReference(bank.sandbox, reference)[0].xtid,
				);
				for (const [at, item] of byItem(run).entries()) {
					expect(item.status).toBe('undetermined');
					expect(item.transactionId).toBeUndefined();
					expect([...(item.transactionIds as string[])].sort()).toEqual([...made].sort());
					expect(item.sharedWith).toEqual([0, 1, 2, 3]);
					expect(at).toBeLessThan(4);
				}
			},
		));

	it.each(['submit', 'submitBatch'] as const)(
		'%s: an answer listing the one payment both accepted and rejected ("try again") is contradictory: not resubmitted, not "rejected", paid once',
		async (operation) =>
			await withBank({ answerOddity: 'alsoRejected' }, async (bank) => {
				const reference = newReference('P1B');
				const run = await pay(bank, operation, {
					parameters: { options: { resubmitRejected: true } },
					itemParameters: [{ amount: 14, reference }],
				});
				const [item] = byItem(run);
				expect(timesPaid(bank, reference)).toBe(1);
				expect(run.posts).toHaveLength(1);
				expect(item.status).toBe('undetermined');
				expect(String(item.statement)).toMatch(/both accepted and rejected/);
				expect(item.transactionIds).toEqual([sentWithReference(bank.sandbox, reference)[0].xtid]);
			}),
	);

	it('an answer that names one transaction for two items is contradictory for both', async () =>
		await withBank({ answerOddity: 'repeatedXtid' }, async (bank) => {
			const [a, b] = [newReference('P1R'), newReference('P1S')];
			const run = await pay(bank, 'submitBatch', {
				parameters: { options: { resubmitRejected: true } },
				itemParameters: [
					{ amount: 15, reference: a },
					{ amount: 16, reference: b },
				],
			});
			for (const item of byItem(run)) {
				expect(item.status).toBe('undetermined');
				expect(item.transactionId).toBeUndefined();
			}
			expect(run.posts).toHaveLength(1);
			expect([timesPaid(bank, a), timesPaid(bank, b)]).toEqual([1, 1]);
		}));

	it('an answer that names one transaction for two items, that transaction failed: never "none of them has been paid" while the other\'s may be', async () =>
		await withBank({ answerOddity: 'repeatedXtid', answerEchoes: false }, async (bank) => {
			const [a, b] = [newReference('P1F'), newReference('P1G')];
			const execution = { executionId: `exec-evidence-${++counter}`, contextData: {} };
			const items = {
				itemParameters: [
					{ amount: 10, reference: a },
					{ amount: 11, reference: b },
				],
			};
			await pay(bank, 'submitBatch', { ...execution, ...items });
			await bank.sandbox.control.fail(String(sentWithReference(bank.sandbox, a)[0].xtid));
			// Retry On Fail: the same execution reads the named transaction again, now failed
			const rerun = byItem(await pay(bank, 'submitBatch', { ...execution, ...items }));
			expect(timesPaid(bank, b)).toBe(1);
			for (const item of rerun) {
				expect(item.status).toBe('undetermined');
				expect(item.notPaid).toBe(false);
				expect(String(item.statement)).not.toMatch(/None of them has been paid/);
			}
		}));

	it('an answer whose rejectedCount disagrees with its rejections is contradictory: nothing resubmitted', async () =>
		await withBank({ answerOddity: 'wrongRejectedCount' }, async (bank) => {
			const [a, b] = [newReference('P1C'), newReference('P1D')];
			const run = await pay(bank, 'submitBatch', {
				parameters: resubmitInsufficient,
				itemParameters: [
					{ amount: 17, reference: a },
					{ amount: 999_999, reference: b },
				],
			});
			for (const item of byItem(run)) expect(item.status).toBe('undetermined');
			expect(run.posts).toHaveLength(1);
			expect(timesPaid(bank, a)).toBe(1);
		}));
});

describe('whether a payment was sent or is held comes from its approval or its transaction, never from a word guessed at', () => {
	it('a bank whose answer says "submitted" for every accepted payment (the documentation\'s word): the one an approval policy holds is reported pending_approval', async () =>
		await withBank({ answerStatus: 'specWord' }, async (bank) => {
			const [held, sent] = [newReference('P2H'), newReference('P2S')];
			const run = await pay(bank, 'submitBatch', {
				itemParameters: [
					{ amount: 1500, reference: held },
					{ amount: 18, reference: sent },
				],
			});
			const [first, second] = byItem(run);
			const [approval] = approvalsWithReference(bank.sandbox, held);
			expect(first).toMatchObject({ status: 'pending_approval', transactionId: approval.xtid });
			expect(second).toMatchObject({
				status: 'sent',
				transactionId: sentWithReference(bank.sandbox, sent)[0].xtid,
			});
		}));

	it.each(['NEW', 'IN_PROGRESS', 'OPEN', 'REQUESTED', 'submitted', 'Pending', 'ACCEPTED'])(
		'a paid payment with no approval whose transaction says %p is never reported waiting for approval, nor sent on that word alone',
		async (word) =>
			await withBank({ transactionStatusWords: { sent: word } }, async (bank) => {
				const reference = newReference('P2W');
				const run = await pay(bank, 'submit', { itemParameters: [{ amount: 19, reference }] });
				const [item] = byItem(run);
				expect(item).toMatchObject({
					status: 'accepted',
					transactionId: sentWithReference(bank.sandbox, reference)[0].xtid,
					transactionStatus: word,
				});
				expect(String(item.approvalCheck)).toContain(`"${word}"`);
			}),
	);

	it.each(['PENDING_SETTLEMENT', 'SETTLING', 'COMPLETED'])(
		'a transaction that says %p was sent: sent',
		async (word) =>
			await withBank({ transactionStatusWords: { sent: word } }, async (bank) => {
				const reference = newReference('P2T');
				const run = await pay(bank, 'submit', { itemParameters: [{ amount: 20, reference }] });
				expect(byItem(run)[0]).toMatchObject({ status: 'sent', transactionStatus: word });
			}),
	);

	it('an approval the bank calls PARTIALLY_APPROVED is not final: never "sent", on the first run or on a re-run with the same Custom Idempotency Key', async () =>
		await withBank({ approvalStatusWords: { pending: 'PARTIALLY_APPROVED' } }, async (bank) => {
			const reference = newReference('P2P');
			const parameters = { options: { idempotencyKey: `invoice-${reference}` } };
			for (const run of [1, 2]) {
				const [item] = byItem(
					await pay(bank, 'submit', {
						executionId: `exec-p2p-${reference}-${run}`,
						parameters,
						itemParameters: [{ amount: 1500, reference }],
					}),
				);
				expect(item).toMatchObject({ status: 'accepted', approvalStatus: 'PARTIALLY_APPROVED' });
				expect(String(item.approvalCheck)).toMatch(/not final/);
			}
			expect(timesPaid(bank, reference)).toBe(0);
		}));

	it('approved, then the bank could not pay it: a re-run with the same Custom Idempotency Key says not_sent, not "sent"', async () =>
		await withBank({}, async (bank) => {
			const reference = newReference('P2F');
			const parameters = { options: { idempotencyKey: `invoice-${reference}` } };
			const first = byItem(
				await pay(bank, 'submit', { parameters, itemParameters: [{ amount: 1500, reference }] }),
			);
			expect(first[0]).toMatchObject({ status: 'pending_approval' });
			const [approval] = approvalsWithReference(bank.sandbox, reference);
			await bank.sandbox.control.approve(String(approval.ref));
			await bank.sandbox.control.fail(String(approval.xtid));
			const [again] = byItem(
				await pay(bank, 'submit', { parameters, itemParameters: [{ amount: 1500, reference }] }),
			);
			expect(again).toMatchObject({
				status: 'not_sent',
				transactionId: approval.xtid,
				approvalStatus: 'approved',
				transactionStatus: 'failed',
			});
		}));
});

describe('another payment is never claimed as this one', () => {
	it.each<[string, Partial<BankVariants>]>([
		[
			'a bank in UTC+1 writing times without a zone',
			{ recordTimes: 'zoneless', bankUtcOffsetMinutes: 60 },
		],
		['a gateway whose Date is 10 minutes slow', { dateHeaderSkewMs: -600_000 }],
		['a bank that sends no Date', { dateHeaderSkewMs: null }],
	])(
		'%s: an identical payment made before, this one failing with 500 on every attempt → unknown, the earlier one only a candidate',
		async (_name, variants) =>
			await withBank(variants, async (bank) => {
				const reference = newReference('P3');
				const itemParameters = [{ amount: 21, reference }];
				const [earlier] = byItem(await pay(bank, 'submit', { itemParameters }));
				expect(earlier.status).toBe('sent');
				bank.sandbox.control.setFaults([
					{ method: 'POST', path: '/payments', kind: 'status', status: 500, retryAfterSeconds: 0 },
				]);
				const [item] = byItem(await pay(bank, 'submit', { itemParameters }));
				expect(item.status).toBe('unknown');
				expect(item.candidates).toEqual([earlier.transactionId]);
				expect(timesPaid(bank, reference)).toBe(1);
			}),
		30_000,
	);
});

describe('a key in use by another execution is never "nothing was paid"', () => {
	it('two executions at once with one Custom Idempotency Key, the bank answering 409 "in use" to the second: the second says unknown, the invoice is paid once', async () =>
		await withBank({ keyInUse: 'conflict' }, async (bank) => {
			const reference = newReference('P4');
			const parameters = { options: { idempotencyKey: `invoice-${reference}` } };
			const itemParameters = [{ amount: 22, reference }];
			bank.sandbox.control.setFaults([
				{ method: 'POST', path: '/payments', kind: 'latency', latencyMs: 1500, times: 1 },
			]);
			const first = pay(bank, 'submit', { parameters, itemParameters });
			await new Promise((resolve) => setTimeout(resolve, 400));
			const [second] = byItem(await pay(bank, 'submit', { parameters, itemParameters }));
			const [made] = byItem(await first);
			expect(made.status).toBe('sent');
			expect(second.status).toBe('unknown');
			expect(JSON.stringify(second)).not.toMatch(/nothing was paid|"rejected"/i);
			expect(timesPaid(bank, reference)).toBe(1);
		}));
});

describe('a record is taken only for the payment it names', () => {
	it('one payment, an answer listing two accepted entries: the item does not take either for its own', async () =>
		await withBank({ answerOddity: 'extraAccepted' }, async (bank) => {
			const reference = newReference('P5');
			const run = await pay(bank, 'submit', {
				parameters: { options: { resubmitRejected: true } },
				itemParameters: [{ amount: 23, reference }],
			});
			const [item] = byItem(run);
			const [made] = sentWithReference(bank.sandbox, reference);
			expect(item.status).toBe('undetermined');
			expect(item.transactionId).toBeUndefined();
			expect(item.transactionIds).toContain(made.xtid);
			expect(String(item.statement)).toMatch(/more outcomes than payments/);
			expect(run.posts).toHaveLength(1);
		}));

	it("a read of the payment's transaction answered with another payment's record is not believed", async () =>
		await withBank(
			{ transactionById: 'anyRecord', paymentAnswer: 'xtidOnly', newPaymentVisibilityMs: 60_000 },
			async (bank) => {
				// the seeded payments are shown by now; this one is not yet
				await bank.sandbox.control.advanceClock(61_000);
				const reference = newReference('P5T');
				const [item] = byItem(
					await pay(bank, 'submit', { itemParameters: [{ amount: 24, reference }] }),
				);
				expect(item).toMatchObject({
					status: 'accepted',
					transactionId: sentWithReference(bank.sandbox, reference)[0].xtid,
				});
				expect(item.transactionStatus).toBeUndefined();
				expect(String(item.approvalCheck)).toMatch(/another transaction/);
			},
		));
});

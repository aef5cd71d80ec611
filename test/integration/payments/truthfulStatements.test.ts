/**
 * Every payment status is one the evidence says, under banks the API
 * documentation allows (sandbox variants) and after the failures users meet (Retry On Fail, n8n's Retry
 * after the workflow was edited). Each case is the sequence that made a false statement before.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { credentialsFor } from '../../helpers/sandboxCredentials';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../sandbox';
import type { FaultRule } from '../../sandbox/faults';
import { SPEC_MINIMAL } from '../../sandbox/variants';
import {
	approvalsWithReference,
	byId,
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

async function openBank(options: SandboxOptions = {}): Promise<Bank> {
	const sandbox = await startSandbox({ port: 0, seed: 20, ...options });
	return {
		sandbox,
		credentials: credentialsFor(sandbox),
		gbp: { xaid: sandbox.seeded.accounts.gbp, xpid: sandbox.seeded.payees.gbp },
	};
}

function pay(
	bank: Bank,
	operation: 'submit' | 'submitBatch',
	options: Omit<RunOptions, 'parameters'> & { parameters?: IDataObject },
) {
	return runPayments(bank.sandbox, bank.credentials, {
		workflowId: 'wf-truth',
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

const outputsOf = (run: Awaited<ReturnType<typeof runPayments>>): IDataObject[] =>
	[...(run.output?.[0] ?? []), ...(run.output?.[1] ?? [])].map((item) => item.json);

/** The first attempt is made and its answer lost; every later attempt is dropped before it runs. */
const lostAnswers = (): FaultRule[] => [
	{ method: 'POST', path: '/payments', kind: 'commitThenDrop', times: 1 },
	{ method: 'POST', path: '/payments', kind: 'reset' },
];

describe('case 3: a refusal in a later run never turns "may have been made" into "nothing was paid"', () => {
	let bank: Bank;
	beforeAll(
		async () =>
			(bank = await openBank({
				variants: { newPaymentVisibilityMs: 60_000, keyInUse: 'conflict' },
			})),
	);
	afterAll(async () => await bank.sandbox.close());
	afterEach(() => bank.sandbox.control.clearFaults());

	describe.each<[string, FaultRule]>([
		['409 key in use', { method: 'POST', path: '/payments', kind: 'status', status: 409 }],
		['a gateway 400', { method: 'POST', path: '/payments', kind: 'status', status: 400 }],
		['a gateway 404', { method: 'POST', path: '/payments', kind: 'status', status: 404 }],
	])(
		'every attempt of the first run loses its answer after the bank made the payment; the retry gets %s',
		(_name, refusal) => {
			it.each(['submit', 'submitBatch'] as const)(
				'%s: the item stays "may have been made", never rejected',
				async (operation) => {
					const reference = newReference('T3');
					const contextData: Record<string, IDataObject> = {};
					const itemParameters = [{ amount: 41.5, reference }];
					bank.sandbox.control.setFaults(lostAnswers());
					const first = await pay(bank, operation, {
						executionId: `exec-t3-${reference}`,
						contextData,
						itemParameters,
					});
					expect(outputsOf(first)[0]).toMatchObject({ status: 'unknown' });
					expect(sentWithReference(bank.sandbox, reference)).toHaveLength(1);

					// Retry On Fail: the same execution and run, with the node's context
					bank.sandbox.control.setFaults([{ ...refusal }]);
					const retried = await pay(bank, operation, {
						executionId: `exec-t3-${reference}`,
						contextData,
						itemParameters,
					});
					const [result] = outputsOf(retried);
					expect(result.status).toBe('unknown');
					expect(JSON.stringify(result)).not.toMatch(/nothing was paid|rejected/i);
					expect(sentWithReference(bank.sandbox, reference)).toHaveLength(1);
				},
			);
		},
	);
});

describe("case 4: n8n's Retry after the workflow was edited pays nothing twice", () => {
	let bank: Bank;
	beforeAll(async () => (bank = await openBank()));
	afterAll(async () => await bank.sandbox.close());
	afterEach(() => bank.sandbox.control.clearFaults());

	const invoices = (prefix: string) =>
		Array.from({ length: 30 }, (_, index) => ({
			amount: 10 + index,
			reference: `${prefix}-INV-${index}`.slice(0, 18),
		}));
	const timesPaid = (items: IDataObject[]) =>
		items.map((item) => sentWithReference(bank.sandbox, String(item.reference)).length);

	async function failMiddleBatch(items: IDataObject[], contextData: Record<string, IDataObject>) {
		// the first batch of 10 is paid, the second is refused as rate limited until the node gives up
		bank.sandbox.control.setFaults([
			{
				method: 'POST',
				path: '/payments',
				kind: 'status',
				status: 429,
				retryAfterSeconds: 0,
				after: 1,
			},
		]);
		const failed = await pay(bank, 'submitBatch', {
			executionId: `exec-t4-a-${String(items[0].reference)}`,
			contextData,
			continueOnFail: false,
			parameters: { batchSize: 10 },
			itemParameters: items,
		});
		expect(failed.error).toBeDefined();
		expect(timesPaid(items)).toEqual(items.map((_, index) => (index < 10 ? 1 : 0)));
		bank.sandbox.control.clearFaults();
	}

	it.each<[string, 'submit' | 'submitBatch', IDataObject, (items: IDataObject[]) => IDataObject[]]>(
		[
			['Batch Size 10 → 4', 'submitBatch', { batchSize: 4 }, (items) => items],
			['Submit Batch → Submit', 'submit', {}, (items) => items],
			['items in reverse order', 'submitBatch', { batchSize: 10 }, (items) => [...items].reverse()],
			[
				'Maximum Total lowered',
				'submitBatch',
				{ batchSize: 10, options: { maxTotal: 200 } },
				(items) => items,
			],
		],
	)(
		"%s, then Retry with the execution's context: each invoice paid once, outputs agree with the ledger",
		async (_name, operation, parameters, reorder) => {
			const items = invoices(`T4${++counter}`);
			const contextData: Record<string, IDataObject> = {};
			await failMiddleBatch(items, contextData);
			const retried = await pay(bank, operation, {
				executionId: `exec-t4-b-${String(items[0].reference)}`,
				mode: 'retry',
				contextData,
				parameters,
				itemParameters: reorder(items),
			});
			expect(timesPaid(items).every((n) => n <= 1)).toBe(true);
			// what the failed run paid (invoices 0-9: 145) stays; a lowered limit stops the Retry paying past it
			const maxTotal = (parameters.options as IDataObject | undefined)?.maxTotal;
			const paid = items
				.filter((item) => sentWithReference(bank.sandbox, String(item.reference)).length > 0)
				.reduce((sum, item) => sum + Number(item.amount), 0);
			if (typeof maxTotal === 'number') expect(paid).toBeLessThanOrEqual(Math.max(maxTotal, 145));
			for (const output of outputsOf(retried)) {
				const made = sentWithReference(bank.sandbox, String(output.reference));
				if (['sent', 'replayed', 'found_after_error'].includes(String(output.status))) {
					expect(output.transactionId).toBe(made[0]?.xtid);
				} else {
					expect(made.length === 0 || output.status === 'unknown').toBe(true);
				}
			}
		},
	);
});

describe('case 5: one key is bound to one body', () => {
	let bank: Bank;
	beforeAll(async () => (bank = await openBank()));
	afterAll(async () => await bank.sandbox.close());

	it.each(['submit', 'submitBatch'] as const)(
		'%s: two items with the same Custom Idempotency Key and other amounts: the second is refused before anything is sent',
		async (operation) => {
			const reference = newReference('T5');
			const run = await pay(bank, operation, {
				executionId: `exec-t5-${operation}`,
				parameters: { options: { idempotencyKey: `invoice-${reference}` } },
				itemParameters: [
					{ amount: 10, reference },
					{ amount: 99, reference },
				],
			});
			const [first, second] = outputsOf(run);
			expect(first).toMatchObject({ status: 'sent', amount: 10 });
			expect(second.status).toBe('not_sent');
			expect(String(second.error)).toMatch(/Custom Idempotency Key/);
			expect(run.posts.map((post) => (post.body as IDataObject).amount)).toEqual([10]);
			expect(sentWithReference(bank.sandbox, reference)).toHaveLength(1);
		},
	);

	it('the amount edited between a run and its retry: the edited item is not sent under the key of the first', async () => {
		const reference = newReference('T5E');
		const contextData: Record<string, IDataObject> = {};
		bank.sandbox.control.setFaults(lostAnswers());
		await pay(bank, 'submit', {
			executionId: 'exec-t5e',
			contextData,
			itemParameters: [{ amount: 10, reference }],
		});
		bank.sandbox.control.clearFaults();
		const retried = await pay(bank, 'submit', {
			executionId: 'exec-t5e-b',
			mode: 'retry',
			contextData,
			itemParameters: [{ amount: 12, reference }],
		});
		const [result] = outputsOf(retried);
		expect(['unknown', 'not_sent']).toContain(result.status);
		expect(String(result.error)).toMatch(/changed|other details|different/i);
		expect(sentWithReference(bank.sandbox, reference)).toHaveLength(1);
	});

	it('Maximum Total: a repeated key counts once, and a key with another amount can never pass the limit (a bank that pays both)', async () => {
		const reference = newReference('T5M');
		const options = (key: string) => ({ idempotencyKey: `${key}-${reference}`, maxTotal: 50 });
		const run = await pay(bank, 'submitBatch', {
			executionId: 'exec-t5m',
			itemParameters: [
				{ amount: 40, reference, options: options('a') },
				{ amount: 40, reference, options: options('a') },
				{ amount: 45, reference, options: options('a') },
				{ amount: 9, reference: `${reference}X`.slice(0, 18), options: options('b') },
			],
		});
		const outputs = outputsOf(run);
		// what a bank that does not bind keys to bodies would pay: every distinct body sent
		const sentBodies = new Set(run.posts.map((post) => JSON.stringify(post.body)));
		const wouldPay = [...sentBodies].reduce(
			(sum, body) => sum + Number((JSON.parse(body) as IDataObject).amount),
			0,
		);
		expect(wouldPay).toBeLessThanOrEqual(50);
		expect(
			outputs
				.filter((output) => output.amount === 40)
				.map((output) => output.status)
				.sort(),
		).toEqual(['replayed', 'sent']);
		expect(outputs.find((output) => output.amount === 9)).toMatchObject({ status: 'sent' });
	});
});

describe('case 6: an accepted payment is never reported "not sent" without evidence', () => {
	it('a bank that shows new payments late: the xtid-only answer is reported accepted, not "not sent"', async () => {
		const bank = await openBank({
			variants: { paymentAnswer: 'xtidOnly', newPaymentVisibilityMs: 60_000 },
		});
		try {
			const reference = newReference('T6');
			const run = await pay(bank, 'submit', {
				executionId: 'exec-t6',
				itemParameters: [{ amount: 15, reference }],
			});
			const [result] = outputsOf(run);
			expect(result.status).toBe('accepted');
			expect(result.transactionId).toBe(sentWithReference(bank.sandbox, reference)[0].xtid);
		} finally {
			await bank.sandbox.close();
		}
	});

	it('a replayed answer for an approval decided since is reported with the decision, not "pending approval"', async () => {
		const bank = await openBank();
		try {
			const reference = newReference('T6R');
			const parameters = { options: { idempotencyKey: `invoice-${reference}` } };
			const first = await pay(bank, 'submit', {
				executionId: 'exec-t6r-1',
				parameters,
				itemParameters: [{ amount: 1500, reference }],
			});
			expect(outputsOf(first)[0]).toMatchObject({ status: 'pending_approval' });
			await bank.sandbox.control.decline(
				String(approvalsWithReference(bank.sandbox, reference)[0].ref),
			);
			const again = await pay(bank, 'submit', {
				executionId: 'exec-t6r-2',
				parameters,
				itemParameters: [{ amount: 1500, reference }],
			});
			// a bank that lists only pending approvals and answers only xtids shows nothing of a decided approval
			const decision =
				bank.sandbox.variants.approvalList === 'allStatuses' ||
				bank.sandbox.variants.paymentAnswer === 'detailed';
			expect(outputsOf(again)[0]).toMatchObject(
				decision
					? { status: 'not_sent', approvalStatus: expect.stringMatching(/declined|REJECTED/) }
					: { status: 'accepted' },
			);
		} finally {
			await bank.sandbox.close();
		}
	});
});

describe('case 7: another payment is never claimed as this one', () => {
	it.each<[string, number]>([
		['clocks agree', 0],
		["the bank's clock 20 s behind", -20_000],
		["the bank's clock 20 s ahead", 20_000],
	])(
		'%s: an identical payment made a second before, this one failing with 500 five times → not found, nothing claimed',
		async (_name, skew) => {
			const bank = await openBank({ now: new Date(Date.now() + skew) });
			try {
				const reference = newReference('T7');
				const itemParameters = [{ amount: 21, reference }];
				const legit = await pay(bank, 'submit', { executionId: 'exec-t7-1', itemParameters });
				const [made] = outputsOf(legit);
				expect(made.status).toBe('sent');
				await new Promise((resolve) => setTimeout(resolve, 1000));
				bank.sandbox.control.setFaults([
					{ method: 'POST', path: '/payments', kind: 'status', status: 500, retryAfterSeconds: 0 },
				]);
				const failing = await pay(bank, 'submit', { executionId: 'exec-t7-2', itemParameters });
				const [result] = outputsOf(failing);
				expect(result.status).toBe('unknown');
				expect(JSON.stringify(result)).not.toContain(`"xtid":"${String(made.xtid)}"`);
				expect(sentWithReference(bank.sandbox, reference)).toHaveLength(1);
			} finally {
				await bank.sandbox.close();
			}
		},
		30_000,
	);
});

describe('case 8: a mixed batch answer from a bank that answers only what the spec promises', () => {
	it.each<[string, SandboxOptions['variants']]>([
		['spec-minimal', 'specMinimal'],
		[
			'spec-minimal, approval records without payment details',
			{ ...SPEC_MINIMAL, approvalRecord: 'bare' },
		],
	])(
		'%s: held for approval, rejected and sent in one batch → no item "state unknown"; what cannot be told apart is said, and that neither is paid',
		async (_name, variants) => {
			const bank = await openBank({ variants });
			try {
				const reference = newReference('T8');
				const run = await pay(bank, 'submitBatch', {
					executionId: 'exec-t8',
					parameters: { batchSize: 10 },
					itemParameters: [
						{ amount: 1500, reference: `${reference}A` },
						{ amount: 20, reference: `${reference}B`, payee: byId(bank.sandbox.seeded.payees.eur) },
						{ amount: 25, reference: `${reference}C` },
					],
				});
				const byItem = [...(run.output?.[0] ?? []), ...(run.output?.[1] ?? [])].sort(
					(a, b) =>
						Number((a.pairedItem as { item: number }).item) -
						Number((b.pairedItem as { item: number }).item),
				);
				const [held, refused, sent] = byItem.map((item) => item.json);
				expect(sent).toMatchObject({
					status: 'sent',
					transactionId: sentWithReference(bank.sandbox, `${reference}C`)[0].xtid,
				});
				const [approval] = approvalsWithReference(bank.sandbox, `${reference}A`);
				if (held.status === 'undetermined') {
					// the answer's order cannot be read: one of the two awaits approval, the other was refused, neither is paid
					for (const item of [held, refused]) {
						expect(item).toMatchObject({
							status: 'undetermined',
							notPaid: true,
							transactionIds: [approval.xtid],
						});
						expect(String(item.statement)).toMatch(/waiting for approval/);
						expect(String(item.statement)).toMatch(/rejected/);
					}
				} else {
					expect(held).toMatchObject({ status: 'pending_approval', transactionId: approval.xtid });
					expect(refused).toMatchObject({ status: 'rejected' });
				}
				expect(sentWithReference(bank.sandbox, `${reference}A`)).toEqual([]);
				expect(sentWithReference(bank.sandbox, `${reference}B`)).toEqual([]);
			} finally {
				await bank.sandbox.close();
			}
		},
		30_000,
	);
});

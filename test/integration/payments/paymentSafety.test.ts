/**
 * Custom keys protect each payment on its own in Submit Batch, whatever the order or
 * grouping; a look-up never claims another payment; a repeated key says it was a replay.
 */
import { AMOUNT_RULES } from '../../../nodes/CustomerBanking/validation/amount';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { credentialsFor } from '../../helpers/sandboxCredentials';
import { type Sandbox, startSandbox } from '../../sandbox';
import { byId, expectStateUnknown, jsonOf, runPayments, sentWithReference } from './paymentNode';

// the transport's waits between attempts are not slept through: outcomes, not timing, are under test
jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

let sandbox: Sandbox;
let credentials: ICredentialDataDecryptedObject;
let gbp: { xaid: string; xpid: string };
let counter = 0;

beforeAll(async () => {
	// the bank's clock starts two minutes behind n8n's; tests move it forward where they need it
	sandbox = await startSandbox({ port: 0, seed: 31, now: new Date(Date.now() - 120_000) });
	credentials = credentialsFor(sandbox);
	gbp = { xaid: sandbox.seeded.accounts.gbp, xpid: sandbox.seeded.payees.gbp };
});
afterAll(async () => await sandbox.close());
afterEach(() => sandbox.control.clearFaults());

function run(
	operation: 'submit' | 'submitBatch',
	items: IDataObject[],
	extra: { batchSize?: number; executionId?: string } = {},
) {
	return runPayments(sandbox, credentials, {
		executionId: extra.executionId ?? `exec-safety-${++counter}`,
		workflowId: 'wf-safety',
		parameters: {
			operation,
			account: byId(gbp.xaid),
			payee: byId(gbp.xpid),
			...(operation === 'submitBatch' && { batchSize: extra.batchSize ?? 10 }),
		},
		itemParameters: items,
	});
}

const invoices = (count: number, tag: string) =>
	Array.from({ length: count }, (_, index) => ({
		amount: 100 + index,
		reference: `INV-${tag}-${index}`.slice(0, 18),
		options: { idempotencyKey: `${tag}-invoice-${index}` },
	}));

describe('Submit Batch with a Custom Idempotency Key per item', () => {
	it('re-runs with the items reordered, regrouped and one added pay nothing twice (20 invoices, three re-runs)', async () => {
		const tag = `CK${++counter}`;
		const all = invoices(21, tag);
		const first = all.slice(0, 20);
		jsonOf(await run('submitBatch', first, { batchSize: 10 }));
		jsonOf(await run('submitBatch', [...first].reverse(), { batchSize: 7 }));
		jsonOf(await run('submitBatch', [first[5], all[20], ...first.slice(0, 5)], { batchSize: 3 }));
		const shuffled = jsonOf(
			await run(
				'submitBatch',
				[...all].sort((a, b) => (a.reference < b.reference ? 1 : -1)),
				{ batchSize: 4 },
			),
		);
		expect(all.map((invoice) => sentWithReference(sandbox, invoice.reference).length)).toEqual(
			all.map(() => 1),
		);
		// the last run: every invoice already paid is a replay, reported with the payment it made
		for (const output of shuffled) {
			expect(output.transactionId).toBe(
				sentWithReference(sandbox, String(output.reference))[0].xtid,
			);
		}
	});

	it('shares the protection with Submit: an invoice paid by Submit is not paid again by Submit Batch', async () => {
		const tag = `CS${++counter}`;
		const items = invoices(3, tag);
		jsonOf(await run('submit', items));
		jsonOf(await run('submitBatch', items));
		expect(items.map((invoice) => sentWithReference(sandbox, invoice.reference).length)).toEqual([
			1, 1, 1,
		]);
	});

	it('two items with the same custom key: one payment, the second reported as a replay of it', async () => {
		const tag = `CR${++counter}`;
		const [invoice] = invoices(1, tag);
		for (const operation of ['submit', 'submitBatch'] as const) {
			const outputs = jsonOf(await run(operation, [invoice, invoice]));
			// each run is its own execution: its first answer is news to it, the second repeats it
			expect(outputs.map((output) => output.status)).toEqual(['sent', 'replayed']);
			expect(outputs[0].transactionId).toBe(outputs[1].transactionId);
		}
		expect(sentWithReference(sandbox, invoice.reference)).toHaveLength(1);
	});
});

describe('a look-up never claims a payment that is not provably this one', () => {
	it('an earlier payment with the same reference, amount and payee is not taken for one whose answers were lost', async () => {
		const reference = `LOOKUP-${++counter}`;
		// made "two minutes ago" on the bank's clock
		const [earlier] = jsonOf(await run('submit', [{ amount: 55, reference }]));
		await sandbox.control.advanceClock(120_000);
		// this one never reaches the bank: every attempt is reset before it is processed
		sandbox.control.setFaults([{ method: 'POST', path: '/payments', kind: 'reset' }]);
		const lost = await run('submit', [{ amount: 55, reference }]);
		expect(sentWithReference(sandbox, reference).map((t) => t.xtid)).toEqual([
			earlier.transactionId,
		]);
		expect(lost.error?.message).toMatch(/^Payment state unknown — not resubmitted/);
		// nothing rules the earlier payment out (its time proves nothing): a candidate, never claimed
		expectStateUnknown(lost.error, {
			reference,
			xaid: gbp.xaid,
			candidates: [earlier.transactionId as string],
			key: lost.posts[0].key,
		});
	});
});

describe('spending limits (Maximum Amount, Maximum Total per Execution)', () => {
	it('a payment over the Maximum Amount is never sent and goes to Rejected with the reason', async () => {
		const tag = `MA${++counter}`;
		const items = [50, 150.01, 80].map((amount, index) => ({
			amount,
			reference: `LIMIT-${tag}-${index}`,
		}));
		const result = await runPayments(sandbox, credentials, {
			executionId: `exec-limit-${counter}`,
			parameters: {
				operation: 'submit',
				account: byId(gbp.xaid),
				payee: byId(gbp.xpid),
				routeRejected: true,
				options: { maxAmount: 150 },
			},
			itemParameters: items,
		});
		const [sent, rejected] = [jsonOf(result, 0), jsonOf(result, 1)];
		expect(sent.map((output) => output.reference)).toEqual([
			items[0].reference,
			items[2].reference,
		]);
		expect(rejected).toEqual([
			expect.objectContaining({
				status: 'rejected',
				notSent: true,
				reference: items[1].reference,
				rejectionReason: 'Amount 150.01 is over the Maximum Amount of 150: not sent',
			}),
		]);
		expect(result.posts).toHaveLength(2);
		expect(sentWithReference(sandbox, items[1].reference)).toEqual([]);
	});

	it('run by an AI agent with Route Rejected to Second Output on: the refusal comes back on the one output an agent reads', async () => {
		const tag = `MA${++counter}`;
		const items = [50, 150.01].map((amount, index) => ({
			amount,
			reference: `LIMIT-${tag}-${index}`,
		}));
		const result = await runPayments(sandbox, credentials, {
			executionId: `exec-limit-${counter}`,
			asAiTool: true,
			parameters: {
				operation: 'submit',
				account: byId(gbp.xaid),
				payee: byId(gbp.xpid),
				routeRejected: true,
				options: { maxAmount: 150 },
			},
			itemParameters: items,
		});
		expect(result.output).toHaveLength(1);
		expect(jsonOf(result, 0)).toEqual([
			expect.objectContaining({ reference: items[0].reference }),
			expect.objectContaining({
				status: 'rejected',
				notSent: true,
				reference: items[1].reference,
				rejectionReason: 'Amount 150.01 is over the Maximum Amount of 150: not sent',
			}),
		]);
		expect(result.posts).toHaveLength(1);
	});

	it.each(['submit', 'submitBatch'] as const)(
		'%s: the total per account and execution is kept across Retry On Fail, never counting a resend twice',
		async (operation) => {
			const tag = `MT${++counter}`;
			const items = [40, 40, 40].map((amount, index) => ({
				amount,
				reference: `TOTAL-${tag}-${index}`,
			}));
			const contextData: Record<string, IDataObject> = {};
			const execute = () =>
				runPayments(sandbox, credentials, {
					executionId: `exec-total-${counter}`,
					contextData,
					parameters: {
						operation,
						account: byId(gbp.xaid),
						payee: byId(gbp.xpid),
						routeRejected: true,
						options: { maxTotal: 100 },
					},
					itemParameters: items,
				});
			for (let attempt = 0; attempt < 2; attempt++) {
				const result = await execute();
				expect(jsonOf(result, 0).map((output) => output.reference)).toEqual([
					items[0].reference,
					items[1].reference,
				]);
				expect(jsonOf(result, 1).map((output) => output.rejectionReason)).toEqual([
					`Paying 40 would bring this execution's payments from account ${gbp.xaid} to 120, over the Maximum Total per Execution of 100: not sent`,
				]);
			}
			expect(items.map((item) => sentWithReference(sandbox, item.reference).length)).toEqual([
				1, 1, 0,
			]);
		},
	);

	it.each([
		[-1, AMOUNT_RULES.positive],
		['-50', AMOUNT_RULES.positive],
		['0', AMOUNT_RULES.positive],
		['10.123', AMOUNT_RULES.decimals],
		['1,000.50', AMOUNT_RULES.separators],
		['abc', AMOUNT_RULES.notANumber],
	])(
		'a limit of %p is bad input, named with its rule, and nothing is sent',
		async (limit, rule) => {
			const result = await run('submit', [
				{ amount: 5, reference: `NEG-LIMIT-${++counter}`, options: { maxAmount: limit } },
			]);
			expect(result.error?.message).toBe(`Maximum Amount ${rule}`);
			expect(result.error?.description).toContain('Leave it empty for no limit. Nothing was sent.');
			expect(result.posts).toEqual([]);
		},
	);

	it('an empty limit is no limit', async () => {
		const reference = `NO-LIMIT-${++counter}`;
		const result = await run('submit', [
			{ amount: 500, reference, options: { maxAmount: '', maxTotal: '  ' } },
		]);
		expect(jsonOf(result).map((output) => output.status)).toEqual(['sent']);
		expect(sentWithReference(sandbox, reference)).toHaveLength(1);
	});
});

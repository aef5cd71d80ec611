/**
 * Skip Payments Already Made (on by default): a workflow run again, by the user pressing Execute again or
 * by a schedule, never pays again, whatever changed between the runs (Batch Size, the operation, the order
 * of the items, a Custom Idempotency Key added). Each run is a new execution, as in n8n. Every assertion is
 * made against the bank's own ledger.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { credentialsFor } from '../../helpers/sandboxCredentials';
import { type Sandbox, startSandbox } from '../../sandbox';
import {
	approvalsWithReference,
	jsonOf,
	runPayments,
	sentWithReference,
	type PaymentRun,
	type RunOptions,
} from './paymentNode';

// the transport's waits between attempts are not slept through: outcomes, not timing, are under test
jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

let sandbox: Sandbox;
let credentials: ICredentialDataDecryptedObject;
let counter = 0;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	credentials = credentialsFor(sandbox);
});
afterAll(async () => await sandbox.close());
afterEach(() => sandbox.control.clearFaults());

/** Three invoices as a spreadsheet gives them; the third is over the seeded approval policy (1000.00). */
function invoices(): IDataObject[] {
	const tag = `${process.pid % 1000}-${++counter}`;
	return [12.5, 40, 1500].map((amount, index) => ({
		accountId: sandbox.seeded.accounts.gbp,
		payeeId: sandbox.seeded.payees.gbp,
		amount,
		reference: `DUP-${tag}-${index}`,
	}));
}

type Operation = 'submit' | 'submitBatch';

/** One execution of Manual Trigger → invoices → Payment (Map Automatically), Route Rejected on. */
function execute(
	operation: Operation,
	rows: IDataObject[],
	parameters: IDataObject = {},
	options: Omit<RunOptions, 'parameters'> = {},
): Promise<PaymentRun> {
	return runPayments(sandbox, credentials, {
		executionId: `exec-dup-${++counter}`,
		...options,
		parameters: {
			operation,
			mappingMode: 'autoMapInputData',
			routeRejected: true,
			skipAlreadyMade: true,
			...parameters,
		},
		items: rows.map((json) => ({ json })),
	});
}

/** How many times the bank holds each invoice: sent transactions plus approval requests. */
function heldAtBank(rows: IDataObject[]): number[] {
	return rows.map(
		(row) =>
			sentWithReference(sandbox, String(row.reference)).length +
			approvalsWithReference(sandbox, String(row.reference)).length,
	);
}

/** Every output item of a run, main and Rejected, by input item. */
function byItem(run: PaymentRun): IDataObject[] {
	if (run.error) throw run.error;
	return (run.output ?? [])
		.flatMap((output) => output)
		.sort(
			(a, b) => (a.pairedItem as { item: number }).item - (b.pairedItem as { item: number }).item,
		)
		.map((item) => item.json);
}

describe.each<Operation>(['submit', 'submitBatch'])(
	'%s with Skip Payments Already Made',
	(operation) => {
		it('executed three times in a row pays each invoice once; the later runs say each was made before, with its ID', async () => {
			const rows = invoices();
			const first = await execute(operation, rows);
			const paid = byItem(first);
			expect(paid.map((item) => item.status)).toEqual(['sent', 'sent', 'pending_approval']);
			for (const again of [await execute(operation, rows), await execute(operation, rows)]) {
				expect(again.posts).toEqual([]);
				const items = byItem(again);
				expect(items.map((item) => item.status)).toEqual([
					'already_made',
					'already_made',
					'already_made',
				]);
				expect(items.map((item) => item.transactionId)).toEqual(
					paid.map((item) => item.transactionId),
				);
				expect(items.map((item) => (item.earlierPayments as IDataObject[])[0].state)).toEqual([
					'sent',
					'sent',
					'waiting for approval',
				]);
				// they leave on the Rejected output, with a sentence that says what to do
				expect(jsonOf(again, 1)).toHaveLength(3);
				expect(String(items[0].message)).toContain(
					'If this is another payment, give it a reference of its own.',
				);
			}
			expect(heldAtBank(rows)).toEqual([1, 1, 1]);
		});

		it('a Custom Idempotency Key added between runs does not pay again', async () => {
			const rows = invoices();
			await execute(operation, rows);
			const withKeys = await execute(operation, rows, {
				options: { idempotencyKey: '={{ $json.reference }}' },
			});
			expect(withKeys.posts).toEqual([]);
			expect(byItem(withKeys).map((item) => item.status)).toEqual([
				'already_made',
				'already_made',
				'already_made',
			]);
			expect(heldAtBank(rows)).toEqual([1, 1, 1]);
		});

		it('with it off, the second run pays again (what the form notice says)', async () => {
			const rows = invoices().slice(0, 2);
			await execute(operation, rows, { skipAlreadyMade: false });
			const again = await execute(operation, rows, { skipAlreadyMade: false });
			expect(byItem(again).map((item) => item.status)).toEqual(['sent', 'sent']);
			expect(heldAtBank(rows)).toEqual([2, 2]);
		});

		it('an item that repeats another of the same input is refused before anything is sent', async () => {
			const [row, other] = invoices();
			const run = await execute(operation, [row, other, { ...row }]);
			expect(run.posts).toEqual([]);
			expect(run.error?.message).toBe(
				'Invalid payment in item 2: Payment repeats item 0 (same account, payee, amount, currency and reference): with Skip Payments Already Made on, each payment is paid once; to pay both, give each a reference of its own',
			);
			expect(heldAtBank([row, other])).toEqual([0, 0]);
		});

		it('the first run’s answer lost after the bank made the payments: the next execution pays nothing again', async () => {
			const rows = invoices().slice(0, 2);
			sandbox.control.setFaults([{ method: 'POST', path: '/payments', kind: 'commitThenDrop' }]);
			const lost = await execute(operation, rows, {}, { continueOnFail: true });
			sandbox.control.clearFaults();
			expect(lost.posts.length).toBeGreaterThan(0);
			expect(heldAtBank(rows)).toEqual([1, 1]);
			const again = await execute(operation, rows);
			expect(again.posts).toEqual([]);
			expect(byItem(again).map((item) => item.status)).toEqual(['already_made', 'already_made']);
			expect(heldAtBank(rows)).toEqual([1, 1]);
		});

		it('two executions at once, both checking before either sends: the bank makes each payment once', async () => {
			const rows = invoices().slice(0, 2);
			let second: Promise<PaymentRun> | undefined;
			// the second execution runs whole between the first one's look-up and its first payment
			const first = await execute(
				operation,
				rows,
				{},
				{
					afterRequest: async (request) => {
						if (
							second === undefined &&
							request.method === 'GET' &&
							/transactions/.test(String(request.url))
						)
							await (second = execute(operation, rows));
					},
				},
			);
			const [a, b] = [byItem(first), byItem(await (second as Promise<PaymentRun>))];
			expect(heldAtBank(rows)).toEqual([1, 1]);
			// both name the one payment the bank made for each invoice
			expect(a.map((item) => item.transactionId)).toEqual(b.map((item) => item.transactionId));
		});

		it('a payment the approver declined is not sent again by the next run: it says not_sent, with the declined one', async () => {
			const [, , big] = invoices();
			const first = await execute(operation, [big]);
			const [held] = byItem(first);
			await sandbox.control.decline(String(held.approvalId));
			const again = await execute(operation, [big]);
			// a bank that lists declined approvals shows it before anything is sent; one that lists only
			// pending ones (spec-minimal) is asked again under the first run's key and answers with the first payment
			expect(again.posts.every((post) => post.key === first.posts[0].key)).toBe(true);
			const [item] = byItem(again);
			expect(item.transactionId).toBe(held.transactionId);
			// a bank that shows neither the declined approval nor the payment's state lets the node say only
			// that it took the payment (`accepted`), never that it was sent
			expect(item.status).toBe(
				sandbox.variants.approvalList === 'pendingOnly' ? 'accepted' : 'not_sent',
			);
			expect(heldAtBank([big])).toEqual([1]);
		});
	},
);

describe('Skip Payments Already Made across operations and groupings', () => {
	it('Submit Batch with another Batch Size, then Submit, then the items in another order: each invoice paid once', async () => {
		const rows = invoices();
		await execute('submitBatch', rows, { batchSize: 3 });
		const runs = [
			await execute('submitBatch', rows, { batchSize: 2 }),
			await execute('submitBatch', rows, { batchSize: 1 }),
			await execute('submit', rows),
			await execute('submitBatch', [...rows].reverse(), { batchSize: 2 }),
		];
		for (const run of runs) {
			expect(run.posts).toEqual([]);
			expect(byItem(run).every((item) => item.status === 'already_made')).toBe(true);
		}
		expect(heldAtBank(rows)).toEqual([1, 1, 1]);
	});

	it('one invoice new among invoices already paid: only the new one is sent', async () => {
		const rows = invoices();
		await execute('submitBatch', rows.slice(0, 2));
		const run = await execute('submitBatch', rows);
		expect(byItem(run).map((item) => item.status)).toEqual([
			'already_made',
			'already_made',
			'pending_approval',
		]);
		expect(run.posts).toHaveLength(1);
		expect(heldAtBank(rows)).toEqual([1, 1, 1]);
	});

	it('a bank whose lists do not show the details: the same key gets the first payment back, reported as made before', async () => {
		const [row] = invoices();
		const [paid] = byItem(await execute('submit', [row]));
		// the lists name each payment (xtid) and nothing else: the look-up cannot match on details
		const strip = (record: IDataObject) => ({ xtid: record.xtid });
		const page = (body: unknown): unknown =>
			Array.isArray(body)
				? body.map(strip)
				: Array.isArray((body as IDataObject)?.results)
					? {
							...(body as IDataObject),
							results: ((body as IDataObject).results as IDataObject[]).map(strip),
						}
					: body;
		// the transport asks for the full response (status, headers, body)
		const bare = (_request: unknown, answer: unknown) =>
			typeof answer === 'object' && answer !== null && 'body' in answer
				? { ...answer, body: page((answer as { body: unknown }).body) }
				: page(answer);
		const again = await execute(
			'submit',
			[row],
			{},
			{
				answerAs: (request, answer) => (request.method === 'GET' ? bare(request, answer) : answer),
			},
		);
		expect(again.posts).toHaveLength(1);
		const [item] = byItem(again);
		expect(item).toMatchObject({ status: 'replayed', transactionId: paid.transactionId });
		expect(heldAtBank([row])).toEqual([1]);
	});

	it('the account cannot be read before sending: nothing is sent, and each item says not_sent with why', async () => {
		const rows = invoices().slice(0, 2);
		sandbox.control.setFaults([
			{ method: 'GET', path: '/account/{xaid}/transactions', kind: 'status', status: 403 },
		]);
		const run = await execute('submitBatch', rows, {}, { continueOnFail: true });
		expect(run.posts).toEqual([]);
		const items = jsonOf(run);
		expect(items.map((item) => item.status)).toEqual(['not_sent', 'not_sent']);
		expect(heldAtBank(rows)).toEqual([0, 0]);
		const stopped = await execute('submit', rows);
		expect(stopped.posts).toEqual([]);
		expect(stopped.error?.description).toContain(
			'Nothing was sent: the account could not be checked for payments already made',
		);
	});

	it('the key comes from the payment’s details, so the same payment gets the same key in every execution', async () => {
		const [row] = invoices();
		const validate = (executionId: string) =>
			execute('submit', [row], { options: { validateOnly: true } }, { executionId });
		const [a] = jsonOf(await validate('exec-a'));
		const [b] = jsonOf(await validate('exec-b'));
		expect(a.idempotencyKey).toBe(b.idempotencyKey);
		expect(a.keySource).toBe('details');
	});
});

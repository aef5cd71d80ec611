/**
 * Send Again If Refused: the one way to send a refused payment again with Skip Payments Already Made
 * on. It is per item, and only a payment whose every earlier match was refused goes again: set for
 * every item, it still pays nothing the bank holds. Every assertion is made against the bank's ledger.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { credentialsFor } from '../../helpers/sandboxCredentials';
import { type Sandbox, startSandbox } from '../../sandbox';
import {
	approvalsWithReference,
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

/** A bank that lists declined approvals shows the refusal; one that lists only pending ones cannot. */
const showsRefusals = () => sandbox.variants.approvalList !== 'pendingOnly';

/** Four invoices; the last two are over the seeded approval policy (1000.00). */
function invoices(): IDataObject[] {
	const tag = `${process.pid % 1000}-${++counter}`;
	return [12.5, 40, 1500, 2400].map((amount, index) => ({
		accountId: sandbox.seeded.accounts.gbp,
		payeeId: sandbox.seeded.payees.gbp,
		amount,
		reference: `AGAIN-${tag}-${index}`,
	}));
}

type Operation = 'submit' | 'submitBatch';

function execute(
	operation: Operation,
	rows: IDataObject[],
	sendAgain: boolean[] = [],
	options: Omit<RunOptions, 'parameters'> = {},
): Promise<PaymentRun> {
	return runPayments(sandbox, credentials, {
		executionId: `exec-again-${++counter}`,
		...options,
		parameters: { operation, mappingMode: 'autoMapInputData', skipAlreadyMade: true },
		items: rows.map((json) => ({ json })),
		itemParameters: rows.map((_, index) => ({
			options: sendAgain[index] ? { sendAgainIfRefused: true } : {},
		})),
	});
}

/** How many times the bank holds each invoice: sent transactions plus approval requests. */
const heldAtBank = (rows: IDataObject[]) =>
	rows.map(
		(row) =>
			sentWithReference(sandbox, String(row.reference)).length +
			approvalsWithReference(sandbox, String(row.reference)).length,
	);

function byItem(run: PaymentRun): IDataObject[] {
	if (run.error) throw run.error;
	return (run.output ?? [])
		.flat()
		.sort(
			(a, b) => (a.pairedItem as { item: number }).item - (b.pairedItem as { item: number }).item,
		)
		.map((item) => item.json);
}

describe.each<Operation>(['submit', 'submitBatch'])('%s: Send Again If Refused', (operation) => {
	it('the declined invoice alone is sent again; the others, paid or waiting, are not', async () => {
		const rows = invoices();
		const first = byItem(await execute(operation, rows));
		expect(first.map((item) => item.status)).toEqual([
			'sent',
			'sent',
			'pending_approval',
			'pending_approval',
		]);
		await sandbox.control.decline(String(first[2].approvalId));

		const refusedRun = byItem(await execute(operation, rows));
		if (showsRefusals()) {
			expect(refusedRun[2].status).toBe('not_sent');
			expect(String(refusedRun[2].message)).toContain('set Send Again If Refused (Options)');
		}

		// set for every item, as a user might: only the refused one goes again
		const again = await execute(operation, rows, [true, true, true, true]);
		const items = byItem(again);
		if (!showsRefusals()) {
			// the refusal is not shown: nothing new is paid, and no item says it was sent
			expect(items.map((item) => item.status)).not.toContain('sent');
			// Submit Batch's known limit (README, first screen): a payment the bank does not show while it
			// shows others of its batch goes again in a smaller batch; here only the declined one can be
			const [a, b, declined, d] = heldAtBank(rows);
			expect([a, b, d]).toEqual([1, 1, 1]);
			expect(declined).toBe(operation === 'submit' ? 1 : 2);
			return;
		}
		expect(again.posts).toHaveLength(1);
		expect(items.map((item) => item.status)).toEqual([
			'already_made',
			'already_made',
			'pending_approval',
			'already_made',
		]);
		expect(items[2].approvalId).not.toBe(first[2].approvalId);
		expect(heldAtBank(rows)).toEqual([1, 1, 2, 1]);

		// the flag left on: the new payment waits for approval, so nothing goes again
		const later = await execute(operation, rows, [true, true, true, true]);
		expect(later.posts).toEqual([]);
		expect(byItem(later)[2]).toMatchObject({ status: 'already_made' });
		expect(heldAtBank(rows)).toEqual([1, 1, 2, 1]);
	});

	it('sent again, its answer lost, then Retry On Fail: the same key, one new payment', async () => {
		if (!showsRefusals()) return;
		const [, , big] = invoices();
		const [held] = byItem(await execute(operation, [big]));
		await sandbox.control.decline(String(held.approvalId));
		sandbox.control.setFaults([{ method: 'POST', path: '/payments', kind: 'commitThenDrop' }]);
		// Retry On Fail runs the node again in the same execution, with its context
		const execution = { executionId: `exec-again-lost-${operation}`, contextData: {} };
		const lost = await execute(operation, [big], [true], execution);
		expect(new Set(lost.posts.map((post) => post.key)).size).toBe(1);
		sandbox.control.clearFaults();
		const retried = await execute(operation, [big], [true], execution);
		expect(retried.posts.map((post) => post.key)).toEqual([lost.posts[0].key]);
		expect(heldAtBank([big])).toEqual([2]);
		// a new execution finds the new payment waiting: nothing goes again
		const next = await execute(operation, [big], [true]);
		expect(next.posts).toEqual([]);
		expect(heldAtBank([big])).toEqual([2]);
	});

	it('two executions at once, both seeing the refusal: the bank makes one new payment', async () => {
		if (!showsRefusals()) return;
		const [, , big] = invoices();
		const [held] = byItem(await execute(operation, [big]));
		await sandbox.control.decline(String(held.approvalId));
		await Promise.all([execute(operation, [big], [true]), execute(operation, [big], [true])]);
		expect(heldAtBank([big])).toEqual([2]);
	});
});

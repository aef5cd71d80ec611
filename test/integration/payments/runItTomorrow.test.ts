/**
 * Run it tomorrow: the same scheduled workflow runs again the next day, at a bank that keeps idempotency
 * keys for a day only (Stripe keeps them 24 hours; the API documentation does not say), lists newest
 * first, and lists only the approvals still pending (spec §Approval: "transactions pending approval").
 * Whatever happened to yesterday's payments (approved, declined, expired, failed, still waiting), today's
 * run never pays them again and never asks the approver again (spec §Errors rule 5: a declined or expired
 * approval is not resubmitted automatically); a new invoice in the list is paid once. Every assertion is
 * made against the bank's own ledger. The cases the node does not meet yet are `it.failing`, each with
 * why: they pass (as failing) while the gap is there, and fail the suite once it is closed.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { credentialsFor } from '../../helpers/sandboxCredentials';
import { type Sandbox, startSandbox } from '../../sandbox';
import { type BankVariants, SPEC_MINIMAL } from '../../sandbox/variants';
import { approvalsWithReference, jsonOf, runPayments, sentWithReference } from './paymentNode';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Two banks that forget keys after a day, list newest first and list only pending approvals: one whose
 * approval records show the payment's details (the sandbox's), and one whose approval records show only
 * what the spec states (ref, xtid, parent_xaid, status: no reference, no amount).
 */
const BANKS = {
	'approvals with the payment details': {
		approvalList: 'pendingOnly',
		listOrder: 'newestFirst',
	},
	'approvals without the payment details (spec-minimal)': {
		...SPEC_MINIMAL,
		listOrder: 'newestFirst',
	},
} as const satisfies Record<string, Partial<BankVariants>>;
type Bank = keyof typeof BANKS;

let sandbox: Sandbox;
let credentials: ICredentialDataDecryptedObject;
let counter = 0;

type Operation = 'submit' | 'submitBatch';

/** Invoices as a spreadsheet gives them; 1500.00 is over the seeded approval policy (1000.00). */
function invoices(amounts: number[]): IDataObject[] {
	const tag = `${process.pid % 1000}-${++counter}`;
	return amounts.map((amount, index) => ({
		accountId: sandbox.seeded.accounts.gbp,
		payeeId: sandbox.seeded.payees.gbp,
		amount,
		reference: `TMRW-${tag}-${index}`,
	}));
}

/** One scheduled (production) execution of the workflow: Schedule → invoices → Payment. */
async function scheduledRun(operation: Operation, rows: IDataObject[]): Promise<IDataObject[]> {
	const run = await runPayments(sandbox, credentials, {
		executionId: `exec-tomorrow-${++counter}`,
		mode: 'trigger',
		workflowId: 'workflow-tomorrow',
		parameters: {
			operation,
			mappingMode: 'autoMapInputData',
			skipAlreadyMade: true,
		},
		items: rows.map((json) => ({ json })),
	});
	return jsonOf(run);
}

/** How many payments the bank holds for each invoice: sent or waiting for approval, one per xtid. */
function heldAtBank(rows: IDataObject[]): number[] {
	return rows.map((row) => {
		const reference = String(row.reference);
		const xtids = [
			...sentWithReference(sandbox, reference).map((transaction) => transaction.xtid),
			...approvalsWithReference(sandbox, reference).map((approval) => approval.xtid),
		];
		return new Set(xtids).size;
	});
}

async function tomorrow(): Promise<void> {
	await sandbox.control.advanceClock(DAY_MS + 60 * 60 * 1000);
}

describe.each(Object.keys(BANKS) as Bank[])('a bank with %s', (bank) => {
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, variants: BANKS[bank] });
		credentials = credentialsFor(sandbox);
		// the seeded policy, with approvals that wait a week: still pending the next day
		sandbox.control.setPolicies('workspace-1', [
			{
				id: 'policy-api-1000-week',
				name: 'API payments of 1000.00 or more',
				minAmount: 1000,
				maxAmount: null,
				currency: null,
				approvers: ['Alex Approver'],
				coversApiPayments: true,
				expiresInSeconds: 7 * 24 * 60 * 60,
			},
		]);
	});
	afterAll(async () => await sandbox.close());

	describe.each<Operation>(['submit', 'submitBatch'])('%s, run again the next day', (operation) => {
		it('yesterday still waiting for approval: not sent again, the approver not asked again', async () => {
			const rows = invoices([1500]);
			const [first] = await scheduledRun(operation, rows);
			expect(first.status).toBe('pending_approval');
			await tomorrow();
			const [again] = await scheduledRun(operation, rows);
			expect(again.status).toBe('already_made');
			expect(heldAtBank(rows)).toEqual([1]);
		});

		it('yesterday approved: not paid again', async () => {
			const rows = invoices([1500]);
			const [first] = await scheduledRun(operation, rows);
			await sandbox.control.approve(String(first.approvalId));
			await tomorrow();
			const [again] = await scheduledRun(operation, rows);
			expect(again.status).toBe('already_made');
			expect(heldAtBank(rows)).toEqual([1]);
		});

		it('yesterday paid with no approval, then failed: not sent again automatically', async () => {
			const rows = invoices([12.5]);
			const [first] = await scheduledRun(operation, rows);
			await sandbox.control.fail(String(first.transactionId));
			await tomorrow();
			const [again] = await scheduledRun(operation, rows);
			expect(['already_made', 'not_sent']).toContain(again.status);
			expect(heldAtBank(rows)).toEqual([1]);
		});

		it('a new invoice joined the list: only it is paid, once', async () => {
			const rows = invoices([12.5, 40, 1500]);
			await scheduledRun(operation, rows);
			await tomorrow();
			const joined = [...rows, ...invoices([60])];
			const again = await scheduledRun(operation, joined);
			expect(again.map((item) => item.status)).toEqual([
				'already_made',
				'already_made',
				'already_made',
				'sent',
			]);
			expect(heldAtBank(joined)).toEqual([1, 1, 1, 1]);
		});

		// Known gap (issue 39, "a payment memory that outlives the bank's"): the bank forgot the key and no
		// longer lists the decided approval, and nothing else shows the payment, so today's run sends it
		// again and the approver is asked again. Fails until the node remembers its payments across runs.
		it.failing.each(['decline', 'expire'] as const)(
			'yesterday %sd: not sent again, the approver not asked again',
			async (decision) => {
				const rows = invoices([1500]);
				const [first] = await scheduledRun(operation, rows);
				await sandbox.control[decision](String(first.approvalId));
				await tomorrow();
				await scheduledRun(operation, rows);
				expect(heldAtBank(rows)).toEqual([1]);
			},
		);
	});
});

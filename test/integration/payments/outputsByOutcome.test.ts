/**
 * Outputs by Outcome: each payment leaves on the output of its outcome (Sent, To Approve, Already
 * Made, Not Paid, To Check), with the sentence of what to do next, so a user connects each output to
 * its next step without a Switch node. Off, every item stays on one output and still says its next step.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import {
	nextStepOf,
	STATUS_OUTPUTS,
	type PaymentStatus,
} from '../../../nodes/CustomerBanking/payments/paymentStatuses';
import { credentialsFor } from '../../helpers/sandboxCredentials';
import { type Sandbox, startSandbox } from '../../sandbox';
import { runPayments } from './paymentNode';

let sandbox: Sandbox;
let credentials: ICredentialDataDecryptedObject;
let counter = 0;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	credentials = credentialsFor(sandbox);
});
afterAll(async () => await sandbox.close());

function invoice(amount: number | string): IDataObject {
	return {
		accountId: sandbox.seeded.accounts.gbp,
		payeeId: sandbox.seeded.payees.gbp,
		amount,
		reference: `OUT-${process.pid % 1000}-${++counter}`,
	};
}

function pay(operation: 'submit' | 'submitBatch', rows: IDataObject[], outputsByOutcome: boolean) {
	return runPayments(sandbox, credentials, {
		executionId: `exec-outcome-${++counter}`,
		continueOnFail: true,
		parameters: {
			operation,
			mappingMode: 'autoMapInputData',
			skipAlreadyMade: true,
			outputsByOutcome,
			// hidden while Outputs by Outcome is on, and then without effect
			routeRejected: true,
			options: { maxAmount: '2000' },
		},
		items: rows.map((json) => ({ json })),
	});
}

describe.each(['submit', 'submitBatch'] as const)('%s, Outputs by Outcome', (operation) => {
	it('each payment leaves on the output of its outcome, saying what to do next', async () => {
		const paidBefore = invoice(15);
		await pay(operation, [paidBefore], false);
		const rows = [
			invoice(12.5), // sent
			invoice(1500), // over the approval policy: awaiting approval
			paidBefore, // already made by the run above
			invoice(2500), // over Maximum Amount: not paid
			invoice('1,000.50'), // refused before anything is sent: not paid
		];
		const run = await pay(operation, rows, true);
		expect(run.error).toBeUndefined();
		expect(run.output).toHaveLength(STATUS_OUTPUTS.length);
		const byOutput = Object.fromEntries(
			STATUS_OUTPUTS.map((name, index) => [
				name,
				(run.output?.[index] ?? []).map((item) => [
					(item.pairedItem as { item: number }).item,
					item.json.status,
				]),
			]),
		);
		expect(byOutput).toEqual({
			Sent: [[0, 'sent']],
			'To Approve': [[1, 'pending_approval']],
			'Made Before': [[2, 'already_made']],
			'Not Paid': [
				[3, 'rejected'],
				[4, 'invalid'],
			],
			'To Check': [],
		});
		for (const item of (run.output ?? []).flat())
			expect(item.json.nextStep).toBe(nextStepOf(item.json.status as PaymentStatus));
	});

	it('off: one output (Route Rejected aside), every item with its next step', async () => {
		const run = await pay(operation, [invoice(12.5), invoice(1500)], false);
		expect(run.output).toHaveLength(2);
		const [main] = run.output ?? [];
		expect(main.map((item) => [item.json.status, item.json.nextStep])).toEqual([
			['sent', nextStepOf('sent')],
			['pending_approval', nextStepOf('pending_approval')],
		]);
	});
});

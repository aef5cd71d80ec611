/**
 * Payment → Get Status: where a payment is, by its transaction ID, in the words Submit used for it:
 * sent, waiting for approval, not sent (declined), and the same statement as Submit's for the same
 * evidence. A payment that needed no approval is no error; an ID the bank does not show is. By
 * reference, for a payment whose ID was lost: one match is read like its ID; several or none fail the
 * item, naming what was found or read.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { nextStepOf } from '../../../nodes/CustomerBanking/payments/paymentStatuses';
import { credentialsFor } from '../../helpers/sandboxCredentials';
import { type Sandbox, startSandbox } from '../../sandbox';
import { byId, jsonOf, runPayments } from './paymentNode';

// the transport's waits between attempts are not slept through: outcomes, not timing, are under test
jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

let sandbox: Sandbox;
let credentials: ICredentialDataDecryptedObject;
let gbp: { xaid: string; xpid: string };
let counter = 0;
const newReference = () => `GS-${process.pid % 1000}-${++counter}`.slice(0, 18);

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	credentials = credentialsFor(sandbox);
	gbp = { xaid: sandbox.seeded.accounts.gbp, xpid: sandbox.seeded.payees.gbp };
});
afterAll(async () => await sandbox.close());

/** A bank that lists only pending approvals (spec-minimal) does not show a decided one. */
const listsDecided = () => sandbox.variants.approvalList !== 'pendingOnly';

async function pay(amount: string, reference = newReference()): Promise<IDataObject> {
	const run = await runPayments(sandbox, credentials, {
		executionId: `exec-gs-${++counter}`,
		parameters: {
			operation: 'submit',
			account: byId(gbp.xaid),
			payee: byId(gbp.xpid),
			amount,
			reference,
		},
	});
	return jsonOf(run)[0];
}

async function statusByReference(reference: string, amount = '') {
	return await runPayments(sandbox, credentials, {
		parameters: {
			operation: 'getStatus',
			account: byId(gbp.xaid),
			findBy: 'reference',
			reference,
			amount,
		},
	});
}

async function status(transactionId: string, xaid = gbp.xaid) {
	return await runPayments(sandbox, credentials, {
		parameters: { operation: 'getStatus', account: byId(xaid), transactionId },
	});
}

describe('Payment → Get Status', () => {
	it('a payment that needed no approval: sent, as Submit said', async () => {
		const paid = await pay('12.50');
		expect(paid.status).toBe('sent');
		const [item] = jsonOf(await status(String(paid.transactionId)));
		expect(item).toMatchObject({
			status: 'sent',
			nextStep: nextStepOf('sent'),
			transactionId: paid.transactionId,
			accountId: gbp.xaid,
		});
	});

	it('a payment held for approval: waiting, with the approval Submit named; then declined: not sent', async () => {
		const held = await pay('1500.00');
		expect(held.status).toBe('pending_approval');
		const [waiting] = jsonOf(await status(String(held.transactionId)));
		expect(waiting).toMatchObject({
			status: 'pending_approval',
			nextStep: nextStepOf('pending_approval'),
			approvalId: held.approvalId,
		});

		await sandbox.control.decline(String(held.approvalId));
		const afterDecline = await status(String(held.transactionId));
		if (!listsDecided()) {
			expect(afterDecline.error?.description).toContain('declined or expired');
			expect(afterDecline.error?.description).toContain('Do not pay it again');
		}
		const [declined] = afterDecline.error ? [] : jsonOf(afterDecline);
		if (listsDecided()) {
			expect(declined).toMatchObject({ status: 'not_sent', approvalId: held.approvalId });
			expect(String(declined.message)).toContain('approval was not given');
		} else {
			// neither the decided approval nor a transaction record is shown: never "sent", never "not sent",
			// never a plain "not found"
			expect(declined).toBeUndefined();
		}
	});

	it('approved: sent', async () => {
		const held = await pay('1600.00');
		await sandbox.control.approve(String(held.approvalId));
		const [item] = jsonOf(await status(String(held.transactionId)));
		expect(item.status).toBe('sent');
	});

	it('an ID the bank does not show in the account fails the item, saying what was checked', async () => {
		const run = await status('7b0e3c1d-2f4a-4b6c-8d9e-0a1b2c3d4e5f');
		expect(run.error?.message).toBe(
			`No payment 7b0e3c1d-2f4a-4b6c-8d9e-0a1b2c3d4e5f in account ${gbp.xaid}`,
		);
		expect(run.error?.description).toContain('is not shown yet');
	});

	it('by reference, for a payment whose ID was lost: the same statement as by its ID', async () => {
		const reference = newReference();
		const held = await pay('1700.00', reference);
		const [byReference] = jsonOf(await statusByReference(reference));
		const [byItsId] = jsonOf(await status(String(held.transactionId)));
		expect(byReference).toEqual(byItsId);
		expect(byReference).toMatchObject({
			status: 'pending_approval',
			transactionId: held.transactionId,
			approvalId: held.approvalId,
		});
	});

	it('by reference, several payments with it: the item fails naming each, and picks none; the Amount tells them apart', async () => {
		const reference = newReference();
		const first = await pay('14.00', reference);
		const second = await pay('15.00', reference);
		const both = await statusByReference(reference);
		expect(both.error?.message).toBe(
			`2 payments with reference ${reference} in account ${gbp.xaid}`,
		);
		expect(both.error?.description).toContain(String(first.transactionId));
		expect(both.error?.description).toContain(String(second.transactionId));
		expect(both.error?.description).toContain('give the Amount');

		const [one] = jsonOf(await statusByReference(reference, '15.00'));
		expect(one).toMatchObject({ status: 'sent', transactionId: second.transactionId });
	});

	it('by reference, none: the item fails saying what was read, never "not paid"', async () => {
		const run = await statusByReference('NO-SUCH-REF-1');
		expect(run.error?.message).toBe(
			`No payment with reference NO-SUCH-REF-1 in account ${gbp.xaid}`,
		);
		expect(run.error?.description).toMatch(/^Looked among all the account's approvals/);
		expect(run.error?.description).toContain('Do not pay it again');
	});

	it.each([
		['', '', 'Reference: enter the payment’s reference'],
		['GS-AMOUNT-1', '12,50', 'Amount: '],
		['GS-AMOUNT-2', '-3', 'Amount: '],
	])(
		'by reference, bad input (reference %j, amount %j): an error naming the field, before any request',
		async (reference, amount, message) => {
			sandbox.control.clearRequests();
			const run = await statusByReference(reference, amount);
			expect(run.error?.message.startsWith(message)).toBe(true);
			expect(
				sandbox.control.requests().filter((request) => !request.path.includes('/oauth/token')),
			).toEqual([]);
		},
	);

	it('a bank that cannot be read fails the item instead of guessing a state', async () => {
		const paid = await pay('13.00');
		sandbox.control.setFaults([{ method: 'GET', kind: 'status', status: 503 }]);
		try {
			const run = await status(String(paid.transactionId));
			expect(run.error?.message).toBe(`The payment ${paid.transactionId} could not be read`);
		} finally {
			sandbox.control.clearFaults();
		}
	});
});

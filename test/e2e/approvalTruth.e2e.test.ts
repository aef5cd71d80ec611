/**
 * Issue 20 in a real n8n (both lines): the Approval Trigger with a bank that keeps a transaction record
 * of each held payment (PENDING_APPROVAL, then DECLINED or EXPIRED; approved → the sent transaction).
 * Approve, decline, expire → one execution each with the right decision, never "approved" for the
 * others; approvals requested and decided between two polls → one execution each. Each poll is an
 * activation (n8n polls when it activates), which also reloads the node's state from the database.
 */
import {
	type ApprovalStack,
	emittedEvents as events,
	startApprovalStack,
} from './lib/approvalPolls';
import { selectedVersions } from './lib/config';

describe.each(selectedVersions())(
	'n8n %s: Approval Trigger with a bank that keeps records of held payments',
	(version) => {
		let approvals: ApprovalStack;
		const poll = () => approvals.poll();
		async function payNeedingApproval(reference: string): Promise<{ ref: string; xtid: string }> {
			const held = await approvals.payNeedingApproval(reference);
			// the bank shows the held payment as a transaction record
			expect(approvals.stack.sandbox.control.ledger().transactions).toContainEqual(
				expect.objectContaining({ xtid: held.xtid, status: 'PENDING_APPROVAL' }),
			);
			return held;
		}

		beforeAll(async () => {
			approvals = await startApprovalStack(version, { variants: { heldPaymentRecords: true } });
		});

		afterAll(async () => {
			await approvals?.stack.stop();
		});

		it('the first poll takes a baseline and emits nothing', async () => {
			const old = await payNeedingApproval('E2E-HELD-OLD');
			await approvals.stack.sandbox.control.decline(old.ref);
			expect(events(await poll())).toEqual([]);
		});

		it('approve, decline, expire → one execution each with the right decision; more polls emit nothing', async () => {
			const { sandbox } = approvals.stack;
			const approved = await payNeedingApproval('E2E-HELD-1');
			const declined = await payNeedingApproval('E2E-HELD-2');
			const expired = await payNeedingApproval('E2E-HELD-3');
			expect(events(await poll()).map((event) => [event.event, event.approvalId])).toEqual([
				['approvalRequested', approved.ref],
				['approvalRequested', declined.ref],
				['approvalRequested', expired.ref],
			]);

			await sandbox.control.decline(declined.ref);
			const afterDecline = await poll();
			expect(afterDecline).toHaveLength(1);
			expect(events(afterDecline)).toEqual([
				expect.objectContaining({
					event: 'approvalDecided',
					decision: 'declined',
					approvalId: declined.ref,
					transactionStatus: 'DECLINED',
				}),
			]);
			await sandbox.control.expire(expired.ref);
			expect(events(await poll())).toEqual([
				expect.objectContaining({
					event: 'approvalDecided',
					decision: 'expired',
					approvalId: expired.ref,
					transactionStatus: 'EXPIRED',
				}),
			]);
			await sandbox.control.approve(approved.ref);
			expect(events(await poll())).toEqual([
				expect.objectContaining({
					event: 'approvalDecided',
					decision: 'approved',
					approvalId: approved.ref,
					transactionStatus: 'sent',
					transactionId: approved.xtid,
				}),
			]);
			for (let i = 0; i < 3; i++) expect(await poll()).toEqual([]);
		});

		it('approvals requested and decided between two polls → one execution each, the right decision', async () => {
			const { sandbox } = approvals.stack;
			const declined = await payNeedingApproval('E2E-HELD-4');
			const approved = await payNeedingApproval('E2E-HELD-5');
			await sandbox.control.decline(declined.ref);
			await sandbox.control.approve(approved.ref);
			const decided = await poll();
			expect(decided).toHaveLength(1);
			expect(
				events(decided).map((event) => [event.event, event.approvalId, event.decision]),
			).toEqual([
				['approvalDecided', declined.ref, 'declined'],
				['approvalDecided', approved.ref, 'approved'],
			]);
			for (let i = 0; i < 2; i++) expect(await poll()).toEqual([]);
		});
	},
);

/**
 * In a real n8n (both lines), the Customer Banking Approval Trigger in an active workflow. A
 * payment of 1,500 submitted through the action node starts exactly one "requested" execution; the bank
 * approving, declining or expiring it starts exactly one "decided" execution each; ten further polls
 * emit nothing. n8n polls at every activation, so each poll here is a deactivation and an activation,
 * which also reloads the node's state from the database as a restart would.
 */
import {
	type ApprovalStack,
	emittedEvents as events,
	startApprovalStack,
} from './lib/approvalPolls';
import { selectedVersions } from './lib/config';

describe.each(selectedVersions())('n8n %s: Customer Banking Approval Trigger', (version) => {
	let approvals: ApprovalStack;
	const poll = () => approvals.poll();
	const payNeedingApproval = (reference: string) => approvals.payNeedingApproval(reference);

	beforeAll(async () => {
		approvals = await startApprovalStack(version);
	});

	afterAll(async () => {
		await approvals?.stack.stop();
	});

	it('the first poll takes a baseline and emits nothing', async () => {
		await payNeedingApproval('E2E-APPR-OLD');
		expect(events(await poll())).toEqual([]);
	});

	it('a payment of 1,500 → one "requested" execution; approve, decline, expire → one "decided" execution each; ten more polls emit nothing', async () => {
		const { sandbox } = approvals.stack;
		const approved = await payNeedingApproval('E2E-APPR-1');
		const declined = await payNeedingApproval('E2E-APPR-2');
		const expired = await payNeedingApproval('E2E-APPR-3');
		const requested = await poll();
		expect(requested).toHaveLength(1);
		expect(events(requested).map((event) => [event.event, event.approvalId])).toEqual([
			['approvalRequested', approved.ref],
			['approvalRequested', declined.ref],
			['approvalRequested', expired.ref],
		]);

		await sandbox.control.approve(approved.ref);
		const afterApproval = events(await poll());
		expect(afterApproval).toEqual([
			expect.objectContaining({
				event: 'approvalDecided',
				decision: 'approved',
				approvalId: approved.ref,
				transactionId: approved.xtid,
				transactionStatus: expect.any(String),
			}),
		]);
		// Simplify, on by default: the bank's records are left out
		expect(afterApproval[0]).not.toHaveProperty('transaction');
		expect(afterApproval[0]).not.toHaveProperty('approval');

		await sandbox.control.decline(declined.ref);
		expect(events(await poll())).toEqual([
			expect.objectContaining({
				event: 'approvalDecided',
				decision: 'declined',
				approvalId: declined.ref,
			}),
		]);
		await sandbox.control.expire(expired.ref);
		expect(events(await poll())).toEqual([
			expect.objectContaining({
				event: 'approvalDecided',
				decision: 'expired',
				approvalId: expired.ref,
			}),
		]);

		for (let i = 0; i < 10; i++) expect(await poll()).toEqual([]);
	});
});

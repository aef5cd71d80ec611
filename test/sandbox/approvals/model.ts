import { findAccount, release } from '../accounts/model';
import { ApiError, notFound } from '../errors';
import { toMajor, toMinor } from '../money';
import type { Bank, Workspace } from '../state';
import { closeHeldPayment, recordHeldPayment, recordSentPayment } from '../transactions/model';

/** spec §What the service does: amount range, approvers, scope (incl. API payments), expiry window. */
export interface Policy {
	id: string;
	name: string;
	minAmount: number;
	/** null: no upper bound. */
	maxAmount: number | null;
	/** null: any currency. */
	currency: string | null;
	approvers: string[];
	coversApiPayments: boolean;
	expiresInSeconds: number;
}

// spec §Approval: pending occurs; the other names are decided in DECISIONS.md §Approvals
export type ApprovalStatus = 'pending' | 'approved' | 'declined' | 'expired';

export interface ApprovalRecord {
	ref: string;
	xtid: string;
	parent_xaid: string;
	status: ApprovalStatus;
	xpid: string;
	payeeName: string;
	amountMinor: number;
	currency: string;
	reference: string;
	requestId: string;
	policy: Policy;
	createdMs: number;
	expiresAtMs: number;
	decidedAtMs?: number;
	decidedBy?: string;
}

export function approvalView(record: ApprovalRecord) {
	return {
		ref: record.ref,
		xtid: record.xtid,
		parent_xaid: record.parent_xaid,
		status: record.status,
		transaction: {
			xtid: record.xtid,
			xpid: record.xpid,
			amount: toMajor(record.amountMinor),
			currency: record.currency,
			reference: record.reference,
		},
		meta: {
			policyId: record.policy.id,
			policyName: record.policy.name,
			approvers: [...record.policy.approvers],
			requestId: record.requestId,
			created: new Date(record.createdMs).toISOString(),
			expiresAt: new Date(record.expiresAtMs).toISOString(),
			...(record.decidedAtMs !== undefined && {
				decidedAt: new Date(record.decidedAtMs).toISOString(),
			}),
			...(record.decidedBy !== undefined && { decidedBy: record.decidedBy }),
		},
	};
}

// spec §Errors 404: unknown or someone else's approval
export function findApproval(workspace: Workspace, ref: string): ApprovalRecord {
	const approval = workspace.approvals.get(ref);
	if (!approval) throw notFound(`approval ${ref} not found`);
	return approval;
}

/** The first policy that covers API payments of this currency and amount (range inclusive). */
export function applicablePolicy(
	workspace: Workspace,
	currency: string,
	amountMinor: number,
): Policy | undefined {
	return workspace.policies.find(
		(policy) =>
			policy.coversApiPayments &&
			(policy.currency === null || policy.currency === currency) &&
			amountMinor >= (toMinor(policy.minAmount) ?? 0) &&
			(policy.maxAmount === null || amountMinor <= (toMinor(policy.maxAmount) ?? 0)),
	);
}

export type PendingPayment = Pick<
	ApprovalRecord,
	| 'xtid'
	| 'parent_xaid'
	| 'xpid'
	| 'payeeName'
	| 'amountMinor'
	| 'currency'
	| 'reference'
	| 'requestId'
	| 'policy'
>;

// spec §States and transitions row 1: a covered payment becomes a pending approval carrying its xtid
export function createApproval(
	bank: Bank,
	workspace: Workspace,
	payment: PendingPayment,
): ApprovalRecord {
	const createdMs = bank.clock.now();
	const approval: ApprovalRecord = {
		...payment,
		ref: bank.random.uuid(),
		status: 'pending',
		createdMs,
		expiresAtMs: createdMs + payment.policy.expiresInSeconds * 1000,
	};
	workspace.approvals.set(approval.ref, approval);
	if (bank.variants.heldPaymentRecords)
		recordHeldPayment(bank, workspace, outgoing(workspace, approval));
	return approval;
}

function outgoing(workspace: Workspace, approval: ApprovalRecord) {
	return {
		xtid: approval.xtid,
		account: findAccount(workspace, approval.parent_xaid),
		xpid: approval.xpid,
		payeeName: approval.payeeName,
		amountMinor: approval.amountMinor,
		reference: approval.reference,
		requestId: approval.requestId,
	};
}

function decide(
	bank: Bank,
	approval: ApprovalRecord,
	status: ApprovalStatus,
	decidedBy?: string,
): void {
	if (approval.status !== 'pending') {
		throw new ApiError(409, `approval ${approval.ref} is already ${approval.status}`);
	}
	approval.status = status;
	approval.decidedAtMs = bank.clock.now();
	if (decidedBy !== undefined) approval.decidedBy = decidedBy;
}

// spec §States and transitions row 3: approved → the payment is sent, its xtid among the transactions
export function approve(
	bank: Bank,
	workspace: Workspace,
	approval: ApprovalRecord,
	decidedBy?: string,
): void {
	decide(bank, approval, 'approved', decidedBy ?? approval.policy.approvers[0]);
	recordSentPayment(bank, workspace, outgoing(workspace, approval));
}

// spec §States and transitions row 4: declined or expired → not sent; the reservation is released
export function decline(
	bank: Bank,
	workspace: Workspace,
	approval: ApprovalRecord,
	decidedBy?: string,
): void {
	decide(bank, approval, 'declined', decidedBy ?? approval.policy.approvers[0]);
	release(findAccount(workspace, approval.parent_xaid), approval.amountMinor);
	closeHeldPayment(bank, workspace, approval.xtid, 'DECLINED');
}

export function expire(bank: Bank, workspace: Workspace, approval: ApprovalRecord): void {
	decide(bank, approval, 'expired');
	release(findAccount(workspace, approval.parent_xaid), approval.amountMinor);
	closeHeldPayment(bank, workspace, approval.xtid, 'EXPIRED');
}

/** Expires every pending approval whose window has passed on the sandbox clock. */
export function expireDue(bank: Bank): void {
	const now = bank.clock.now();
	for (const workspace of bank.workspaces.values()) {
		for (const approval of workspace.approvals.values()) {
			if (approval.status === 'pending' && approval.expiresAtMs <= now)
				expire(bank, workspace, approval);
		}
	}
}

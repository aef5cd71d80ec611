/** The approvers' side of approvals: decisions made in the bank's app, and the workspace's policies. */
import { badRequest } from '../errors';
import {
	answersOk,
	asData,
	type ControlContext,
	copy,
	field,
	ok,
	type ResourceControls,
} from '../controlKit';
import { toMinor } from '../money';
import type { Workspace } from '../state';
import {
	approvalView,
	approve,
	decline,
	expire,
	expireDue,
	type ApprovalRecord,
	type Policy,
} from './model';

type Names = 'approve' | 'decline' | 'expire' | 'setPolicies';

export function approvalControls({
	bank,
	locate,
	workspaceById,
}: ControlContext): ResourceControls<Names> {
	function decideApproval(
		ref: string,
		decision: (workspace: Workspace, approval: ApprovalRecord) => void,
	) {
		expireDue(bank);
		const { workspace, item } = locate((w) => w.approvals.get(ref), `approval ${ref}`);
		decision(workspace, item);
		return asData(approvalView(item));
	}

	const operations: ResourceControls<Names>['operations'] = {
		approve: async (ref) => decideApproval(ref, (w, a) => approve(bank, w, a)),
		decline: async (ref) => decideApproval(ref, (w, a) => decline(bank, w, a)),
		expire: async (ref) => decideApproval(ref, (w, a) => expire(bank, w, a)),
		setPolicies: (workspaceId, policies) => {
			const workspace = workspaceById(workspaceId);
			for (const policy of policies) {
				if (
					toMinor(policy.minAmount) === undefined ||
					(policy.maxAmount !== null && toMinor(policy.maxAmount) === undefined)
				) {
					throw badRequest(`policy ${policy.id}: amounts must be numbers with at most 2 decimals`);
				}
				if (!(policy.expiresInSeconds > 0))
					throw badRequest(`policy ${policy.id}: expiresInSeconds must be positive`);
			}
			workspace.policies = copy(policies);
		},
	};

	return {
		operations,
		routes: [
			{
				method: 'POST',
				path: '/approvals/{ref}/approve',
				handle: async ({ params }) => ok(await operations.approve(params.ref)),
			},
			{
				method: 'POST',
				path: '/approvals/{ref}/decline',
				handle: async ({ params }) => ok(await operations.decline(params.ref)),
			},
			{
				method: 'POST',
				path: '/approvals/{ref}/expire',
				handle: async ({ params }) => ok(await operations.expire(params.ref)),
			},
			{
				method: 'PUT',
				path: '/workspaces/{workspaceId}/policies',
				handle: answersOk(({ params, body }) => {
					const policies = field(body, 'policies') ?? body;
					if (!Array.isArray(policies))
						throw badRequest('body must be an array of policies or { policies: [...] }');
					operations.setPolicies(params.workspaceId, policies as Policy[]);
				}),
			},
		],
	};
}

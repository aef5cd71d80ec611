/** What the bank's webhook side holds and did: subscriptions, deliveries, the signing secret. */
import { type ControlContext, ok, type ResourceControls, workspaceIdOf } from '../controlKit';
import { listOf } from '../state';
import { rotateSigningSecret } from './model';

type Names = 'subscriptions' | 'deliveries' | 'waitForDeliveries' | 'rotateSigningSecret';

export function webhookControls({
	bank,
	deps,
	workspaceById,
}: ControlContext): ResourceControls<Names> {
	const operations: ResourceControls<Names>['operations'] = {
		subscriptions: (workspaceId) =>
			[...bank.workspaces.values()]
				.filter((workspace) => workspaceId === undefined || workspace.id === workspaceId)
				.flatMap((workspace) =>
					listOf(workspace.subscriptions).map((s) => ({ ...s, workspaceId: workspace.id })),
				),
		deliveries: () => deps.deliveries.list(),
		waitForDeliveries: () => deps.deliveries.idle(),
		rotateSigningSecret: (workspaceId) => rotateSigningSecret(bank, workspaceById(workspaceId)),
	};

	return {
		operations,
		routes: [
			{
				method: 'GET',
				path: '/subscriptions',
				handle: ({ query }) => ok(operations.subscriptions(workspaceIdOf(query))),
			},
			{ method: 'GET', path: '/deliveries', handle: () => ok(operations.deliveries()) },
			{
				method: 'POST',
				path: '/signing-secret/rotate',
				handle: ({ query }) => ok(operations.rotateSigningSecret(workspaceIdOf(query))),
			},
		],
	};
}

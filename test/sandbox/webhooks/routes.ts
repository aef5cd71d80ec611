import { SCOPES } from '../auth';
import type { ApiRoute } from '../http';
import { subscribe, unsubscribe } from './model';

// spec §Webhook subscriptions; output shapes in DECISIONS.md §Webhooks
export const webhookRoutes: ApiRoute[] = [
	{
		method: 'POST',
		path: '/webhooks/subscribe',
		scopes: [SCOPES.createWebhook],
		handle: ({ bank, caller, body }) => ({
			status: 201,
			body: subscribe(bank, caller.workspace, body()),
		}),
	},
	{
		method: 'DELETE',
		path: '/webhooks/unsubscribe',
		scopes: [SCOPES.deleteWebhook],
		handle: ({ bank, caller, body }) => {
			const { zapId, ref } = unsubscribe(caller.workspace, body());
			if (bank.variants.unsubscribeAnswer === 'empty') return { status: 204, rawJson: '' };
			return { status: 200, body: { zapId, ref, deleted: true } };
		},
	},
];

import { createHmac } from 'node:crypto';

import { z } from 'zod';

import { findAccount } from '../accounts/model';
import { ApiError, badRequest, notFound } from '../errors';
import type { Bank, Workspace } from '../state';

// spec §Events: the two kinds POST /webhooks/subscribe supports
const WEBHOOK_EVENTS = ['TransactionConfirmed', 'TransactionReceived'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface SubscriptionRecord {
	ref: string;
	zapId: string;
	xaid: string;
	event: WebhookEvent;
	url: string;
	created: string;
}

/** Per-workspace signing secrets; `previous` keeps signing until `previousUntilMs` (rotation). */
export interface SigningSecrets {
	current: string;
	previous?: string;
	previousUntilMs?: number;
}

/** How long a rotated-out secret still signs deliveries, on the sandbox clock (DECISIONS.md). */
const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

// DECISIONS.md §Webhooks: https only, except loopback hosts in the sandbox
function isAcceptedUrl(value: string): boolean {
	try {
		const url = new URL(value);
		return (
			url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))
		);
	} catch {
		return false;
	}
}

const requiredString = (field: string) =>
	z
		.string({
			required_error: `${field} is required`,
			invalid_type_error: `${field} must be a string`,
		})
		.min(1, `${field} is required`);

// spec §Webhook subscriptions: body zapId, xaid, url, event
const subscribeBody = z.object({
	zapId: requiredString('zapId').max(200, 'zapId must be at most 200 characters'),
	xaid: requiredString('xaid'),
	url: requiredString('url').refine(
		isAcceptedUrl,
		'url must be an https URL (http allowed for loopback hosts only)',
	),
	event: z.enum(WEBHOOK_EVENTS, {
		errorMap: () => ({ message: `event must be one of ${WEBHOOK_EVENTS.join(', ')}` }),
	}),
});

const unsubscribeBody = z.object({ zapId: requiredString('zapId') });

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
	if (typeof body !== 'object' || body === null || Array.isArray(body))
		throw badRequest('body must be a JSON object');
	const result = schema.safeParse(body);
	if (!result.success)
		throw badRequest([...new Set(result.error.issues.map((i) => i.message))].join('; '));
	return result.data;
}

/**
 * Re-subscribing a known zapId replaces it in place, keeping its ref (DECISIONS.md §Webhooks), or, with
 * the `resubscribe: 'refuse'` variant, is refused with 409.
 */
export function subscribe(bank: Bank, workspace: Workspace, body: unknown): SubscriptionRecord {
	const input = parse(subscribeBody, body);
	findAccount(workspace, input.xaid, bank.variants.unknownAccount); // spec §Errors 401: the watched account must be the caller's
	const existing = workspace.subscriptions.get(input.zapId);
	if (existing && bank.variants.resubscribe === 'refuse') {
		throw new ApiError(409, `subscription ${input.zapId} already exists`);
	}
	const subscription: SubscriptionRecord = {
		ref: existing?.ref ?? bank.random.uuid(),
		...input,
		created: existing?.created ?? bank.clock.iso(),
	};
	workspace.subscriptions.set(subscription.zapId, subscription);
	return subscription;
}

export function unsubscribe(workspace: Workspace, body: unknown): SubscriptionRecord {
	const { zapId } = parse(unsubscribeBody, body);
	const subscription = workspace.subscriptions.get(zapId);
	if (!subscription) throw notFound(`subscription ${zapId} not found`);
	workspace.subscriptions.delete(zapId);
	return subscription;
}

/** The secrets that sign right now: current first, then the previous one during the overlap. */
export function activeSecrets(bank: Bank, workspace: Workspace): string[] {
	const { current, previous, previousUntilMs } = workspace.signing;
	return previous && previousUntilMs !== undefined && bank.clock.now() < previousUntilMs
		? [current, previous]
		: [current];
}

export function newSigningSecret(bank: Bank): string {
	return `whsec_${bank.random.hex(24)}`;
}

export function rotateSigningSecret(
	bank: Bank,
	workspace: Workspace,
): { current: string; previous: string } {
	const previous = workspace.signing.current;
	workspace.signing = {
		current: newSigningSecret(bank),
		previous,
		previousUntilMs: bank.clock.now() + ROTATION_OVERLAP_MS,
	};
	return { current: workspace.signing.current, previous };
}

// DECISIONS.md §Webhooks: v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>, one per active secret
export function signatureHeader(secrets: string[], timestamp: number, rawBody: string): string {
	return secrets
		.map(
			(secret) =>
				`v1=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`,
		)
		.join(',');
}

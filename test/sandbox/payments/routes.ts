import { SCOPES } from '../auth';
import { ApiError, badRequest } from '../errors';
import type { ApiRoute, RouteContext, RouteResult } from '../http';
import { UUID_V4 } from '../random';
import { shapeAnswer } from './answer';
import {
	canonicalJson,
	forgetExpiredKeys,
	type IdempotencyRecord,
	paymentItems,
	submitPayments,
} from './model';
import { echoedForms, echoedText, tokenOf } from '../echo';

const REPLAYED = { 'x-idempotent-replayed': 'true' };

// spec §Payments: x-idempotent-key is a required UUID v4
function idempotencyKey(ctx: RouteContext): string {
	const key = ctx.headers['x-idempotent-key'];
	if (typeof key !== 'string' || key === '')
		throw badRequest('x-idempotent-key header is required');
	if (!UUID_V4.test(key)) throw badRequest('x-idempotent-key must be a UUID v4');
	return key;
}

/**
 * spec §Payments rules 1-2: the key is claimed synchronously before anything can wait, so a
 * concurrent twin finds the claim and waits for the original answer instead of paying again.
 */
async function submit(ctx: RouteContext): Promise<RouteResult> {
	const key = idempotencyKey(ctx);
	const body = ctx.body();
	const fingerprint = canonicalJson(body);
	const workspace = ctx.caller.workspace;
	forgetExpiredKeys(ctx.bank, workspace);
	const existing = workspace.idempotency.get(key);
	if (existing) {
		// spec §Errors rule 7 "not shown": 422 (DECISIONS.md §Payments)
		if (existing.fingerprint !== fingerprint) {
			throw new ApiError(
				422,
				`x-idempotent-key ${key} was already used with a different request body`,
			);
		}
		if (!existing.answered && ctx.bank.variants.keyInUse === 'conflict') {
			throw new ApiError(
				409,
				`x-idempotent-key ${key} is in use by a request still being processed`,
			);
		}
		return { status: 202, rawJson: await existing.response, headers: REPLAYED };
	}
	const items = paymentItems(body);
	let settle!: (json: string) => void;
	let fail!: (error: unknown) => void;
	const record: IdempotencyRecord = {
		answered: false,
		fingerprint,
		createdMs: ctx.bank.clock.now(),
		response: new Promise<string>((resolve, reject) => {
			settle = resolve;
			fail = reject;
		}),
	};
	record.response.catch(() => undefined); // a failure reaches waiters, never the process
	workspace.idempotency.set(key, record);
	try {
		await ctx.pause(); // injected latency keeps the request in flight with its key claimed
		const answer = submitPayments(ctx.bank, workspace, items, key, ctx.caller.clientId);
		// shaped once, before it is stored: a replay answers the same bytes
		const shaped = shapeAnswer(answer, ctx.bank.variants, ctx.bank.random);
		const json = JSON.stringify(
			ctx.bank.variants.echoCredentials ? echoToken(shaped, ctx.headers.authorization) : shaped,
		);
		settle(json);
		record.answered = true;
		return { status: 202, rawJson: json };
	} catch (error) {
		workspace.idempotency.delete(key); // nothing was committed: the key is free again
		fail(error);
		throw error;
	}
}

/**
 * The echoCredentials variant: the caller's Authorization header in every submitted and rejected item,
 * and its token in every encoding (echo.ts).
 */
function echoToken<T>(answer: T, authorization: string | undefined): T {
	const echoed = JSON.parse(JSON.stringify(answer)) as {
		submitted?: Array<Record<string, unknown>>;
		rejected?: Array<Record<string, unknown>>;
	};
	const token = tokenOf(authorization);
	for (const item of echoed.submitted ?? []) {
		item.authorizedWith = authorization;
		item.tokenSeen = echoedForms(token);
	}
	for (const item of echoed.rejected ?? [])
		item.error = `${String(item.error)} (request authorized with ${authorization}; ${echoedText(token)})`;
	return echoed as T;
}

// spec §Endpoints §Payments
export const paymentRoutes: ApiRoute[] = [
	{
		method: 'POST',
		path: '/payments',
		scopes: [SCOPES.createPayment],
		pausesItself: true,
		handle: submit,
	},
];

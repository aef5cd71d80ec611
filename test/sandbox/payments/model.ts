import { z } from 'zod';

import { type AccountRecord, availableMinor, reserve } from '../accounts/model';
import { applicablePolicy, createApproval } from '../approvals/model';
import { badRequest } from '../errors';
import { toMajor, toMinor } from '../money';
import type { PayeeRecord } from '../payees/model';
import { referenceRule } from '../payees/schema';
import type { Bank, Workspace } from '../state';
import { recordSentPayment } from '../transactions/model';

/** Maximum batch size (spec §Limits: not shown; DECISIONS.md §Payments). */
const MAX_BATCH = 100;
/** How long an idempotency key is remembered, on the sandbox clock (DECISIONS.md §Payments). */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface SubmittedItem {
	index: number;
	xtid: string;
	status: 'submitted' | 'pending_approval';
	xaid: string;
	xpid: string;
	amount: number;
	currency: string;
	reference: string;
	approvalRef?: string;
}

export interface RejectedItem {
	index: number;
	error: string;
	reference?: string;
	xaid?: string;
	xpid?: string;
	amount?: number;
}

// spec §Payments: response body
export interface PaymentResponse {
	requestId: string;
	submitted: SubmittedItem[];
	rejected: RejectedItem[];
	rejectedCount: number;
}

export interface PaymentRequestRecord extends PaymentResponse {
	idempotencyKey: string;
	clientId: string;
	created: string;
}

/** A claimed key: `response` settles with the serialised original answer (spec §Payments rule 1). */
export interface IdempotencyRecord {
	/** False while the first request with the key is still being processed. */
	answered: boolean;
	fingerprint: string;
	createdMs: number;
	response: Promise<string>;
}

const requiredString = (field: string) =>
	z
		.string({
			required_error: `${field} is required`,
			invalid_type_error: `${field} must be a string`,
		})
		.min(1, `${field} is required`);

// DECISIONS.md §Payments: the payment object the spec leaves "not shown"
const paymentItem = z.object({
	xaid: requiredString('xaid'),
	xpid: requiredString('xpid'),
	amount: z
		.number({ required_error: 'amount is required', invalid_type_error: 'amount must be a number' })
		.positive('amount must be greater than 0')
		.refine((amount) => toMinor(amount) !== undefined, 'amount must have at most 2 decimals'),
	currency: z.string({ invalid_type_error: 'currency must be a string' }).optional(),
	reference: requiredString('reference'),
	description: z
		.string({ invalid_type_error: 'description must be a string' })
		.max(140, 'description must be at most 140 characters')
		.optional(),
});

/** Structural checks reject the whole request with 400; everything else rejects one item. */
export function paymentItems(body: unknown): unknown[] {
	const items = Array.isArray(body) ? body : [body];
	if (!Array.isArray(body) && (typeof body !== 'object' || body === null)) {
		throw badRequest('body must be a payment object or an array of payment objects');
	}
	if (items.length === 0) throw badRequest('body must contain at least one payment');
	if (items.length > MAX_BATCH)
		throw badRequest(`body: a batch may contain at most ${MAX_BATCH} payments`);
	items.forEach((item, index) => {
		if (typeof item !== 'object' || item === null || Array.isArray(item)) {
			throw badRequest(`body[${index}] must be a payment object`);
		}
	});
	return items;
}

class ItemRejected extends Error {}

function echo(item: Record<string, unknown>): Omit<RejectedItem, 'index' | 'error'> {
	const pick = (field: string) =>
		typeof item[field] === 'string' ? (item[field] as string) : undefined;
	return {
		...(pick('reference') !== undefined && { reference: pick('reference') }),
		...(pick('xaid') !== undefined && { xaid: pick('xaid') }),
		...(pick('xpid') !== undefined && { xpid: pick('xpid') }),
		...(typeof item.amount === 'number' && { amount: item.amount }),
	};
}

function check(condition: boolean, message: string): asserts condition {
	if (!condition) throw new ItemRejected(message);
}

interface AcceptedPayment {
	account: AccountRecord;
	payee: PayeeRecord;
	amountMinor: number;
	reference: string;
}

// DECISIONS.md §Payments: per-item rules, in this order
function acceptItem(workspace: Workspace, raw: unknown): AcceptedPayment {
	const parsed = paymentItem.safeParse(raw);
	if (!parsed.success)
		throw new ItemRejected([...new Set(parsed.error.issues.map((i) => i.message))].join('; '));
	const item = parsed.data;
	const account = workspace.accounts.get(item.xaid);
	check(
		account !== undefined,
		`account ${item.xaid} does not exist or does not belong to the caller`,
	);
	check(
		account.status === 'ACTIVE',
		`account ${item.xaid} is not active (status ${account.status})`,
	);
	const payee = workspace.payees.get(item.xpid);
	check(
		payee !== undefined && payee.xaid === account.xaid,
		`payee ${item.xpid} not found on account ${item.xaid}`,
	);
	check(
		item.currency === undefined || item.currency === account.currency,
		`currency ${item.currency} does not match the account and payee currency ${account.currency}`,
	);
	const rule = referenceRule(account.currency);
	check(item.reference.length >= rule.min && item.reference.length <= rule.max, rule.message);
	const amountMinor = toMinor(item.amount) as number;
	// spec §Balance: only what is available now can be committed
	check(
		amountMinor <= availableMinor(account),
		`insufficient available balance on account ${account.xaid}`,
	);
	return { account, payee, amountMinor, reference: item.reference };
}

/**
 * spec §Payments rules 3-4 and §States and transitions rows 1-2: each item is rejected, sent, or
 * held for approval; funds are reserved synchronously so concurrent requests cannot overspend.
 */
export function submitPayments(
	bank: Bank,
	workspace: Workspace,
	items: unknown[],
	key: string,
	clientId: string,
): PaymentResponse {
	const response: PaymentResponse = {
		requestId: bank.random.uuid(),
		submitted: [],
		rejected: [],
		rejectedCount: 0,
	};
	items.forEach((raw, index) => {
		let accepted: AcceptedPayment;
		try {
			accepted = acceptItem(workspace, raw);
		} catch (error) {
			if (!(error instanceof ItemRejected)) throw error;
			response.rejected.push({
				index,
				error: error.message,
				...echo(raw as Record<string, unknown>),
			});
			return;
		}
		const { account, payee, amountMinor, reference } = accepted;
		const xtid = bank.random.uuid();
		reserve(account, amountMinor);
		const policy = applicablePolicy(workspace, account.currency, amountMinor);
		const base = {
			index,
			xtid,
			xaid: account.xaid,
			xpid: payee.xpid,
			amount: toMajor(amountMinor),
			currency: account.currency,
			reference,
		};
		if (policy) {
			const approval = createApproval(bank, workspace, {
				xtid,
				parent_xaid: account.xaid,
				xpid: payee.xpid,
				payeeName: payee.name,
				amountMinor,
				currency: account.currency,
				reference,
				requestId: response.requestId,
				policy,
			});
			response.submitted.push({ ...base, status: 'pending_approval', approvalRef: approval.ref });
		} else {
			recordSentPayment(bank, workspace, {
				xtid,
				account,
				xpid: payee.xpid,
				payeeName: payee.name,
				amountMinor,
				reference,
				requestId: response.requestId,
			});
			response.submitted.push({ ...base, status: 'submitted' });
		}
	});
	response.rejectedCount = response.rejected.length;
	workspace.paymentRequests.push({
		...response,
		idempotencyKey: key,
		clientId,
		created: bank.clock.iso(),
	});
	return response;
}

/** Key-order-independent JSON, so `{a,b}` and `{b,a}` count as the same body. */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (typeof value === 'object' && value !== null) {
		const entries = Object.keys(value)
			.sort()
			.map(
				(key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
			);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value);
}

export function forgetExpiredKeys(bank: Bank, workspace: Workspace): void {
	const cutoff = bank.clock.now() - IDEMPOTENCY_TTL_MS;
	for (const [key, record] of workspace.idempotency) {
		if (record.createdMs <= cutoff) workspace.idempotency.delete(key);
	}
}

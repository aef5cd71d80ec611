import type { IDataObject } from 'n8n-workflow';

import { toMinorUnits } from '../validation/amount';

/** A safety rail the user sets on Submit and Submit Batch: what one node may pay, whatever its input says. */
export interface SpendingLimits {
	maxAmount?: number;
	maxTotal?: number;
}

/** What this execution may already have paid, per account: amounts by payment (LimitLedger.idOf). */
export type Spent = Record<string, Record<string, number>>;

/** How the limits tell payments apart, and which of them this execution may already have paid. */
export interface LimitLedger<P> {
	/** The same for a payment on every run that could resend it, so a resend is not counted twice. */
	idOf(payment: P): string;
	/** Whether an earlier run of this execution may have paid it: it counts, whatever the limits are now. */
	alreadyPaid(id: string): boolean;
}

/**
 * What this execution may already have paid, per account: `before` with the payments of this run that
 * may have been paid, and the total in cents of those that may have been paid (read once per account).
 */
function paidSoFar<P extends { itemIndex: number; body: IDataObject }>(
	payments: P[],
	ledgerOf: LimitLedger<P>,
	before: Spent,
): { spent: Spent; committedOf: (account: string) => number } {
	const spent: Spent = {};
	for (const [account, amounts] of Object.entries(before)) spent[account] = { ...amounts };
	for (const payment of payments) {
		const id = ledgerOf.idOf(payment);
		if (ledgerOf.alreadyPaid(id))
			(spent[String(payment.body.xaid)] ??= {})[id] = Number(payment.body.amount);
	}
	const mayBePaid = new Map<string, number>();
	const committedOf = (account: string) => {
		if (!mayBePaid.has(account)) {
			const paid = Object.entries(spent[account] ?? {}).filter(([id]) => ledgerOf.alreadyPaid(id));
			mayBePaid.set(
				account,
				paid.reduce((sum, [, amount]) => sum + toMinorUnits(amount), 0),
			);
		}
		return mayBePaid.get(account) as number;
	};
	return { spent, committedOf };
}

function overMaximumAmount(amount: number, limits: SpendingLimits): string | undefined {
	if (limits.maxAmount !== undefined && toMinorUnits(amount) > toMinorUnits(limits.maxAmount)) {
		return `Amount ${amount} is over the Maximum Amount of ${limits.maxAmount}: not sent`;
	}
	return undefined;
}

function overTotal(limits: SpendingLimits, account: string, total: number, amount: number): string {
	return `Paying ${amount} would bring this execution's payments from account ${account} to ${total / toMinorUnits(1)}, over the Maximum Total per Execution of ${limits.maxTotal}: not sent`;
}

/**
 * Decides, in input order, which payments stay within the limits. Everything this execution may
 * already have paid from the account counts first (kept in the node's execution context, like the keys),
 * also when it is not in this run's input: a payment that may have been paid is sent again (under its
 * key) only while that total is within Maximum Total, since a resend pays it if the first attempt did
 * not; a new payment only while the total with it stays within. A payment the limits allowed in an
 * earlier run that made nothing is decided again under today's limits. `spent`: what the node remembers
 * of this execution's payments; `spentAfter`: the same with the payments allowed now, for it to keep.
 */
export function withinLimits<P extends { itemIndex: number; body: IDataObject }>(
	payments: P[],
	limits: SpendingLimits,
	ledgerOf: LimitLedger<P>,
	spent: Spent,
): { allowed: P[]; refused: Array<{ payment: P; reason: string }>; spentAfter: Spent } {
	const allowed: P[] = [];
	const refused: Array<{ payment: P; reason: string }> = [];
	const { spent: spentAfter, committedOf } = paidSoFar(payments, ledgerOf, spent);
	const newTotals = new Map<string, number>();
	const counted = new Set<string>();
	for (const payment of payments) {
		const amount = Number(payment.body.amount);
		const account = String(payment.body.xaid);
		const id = ledgerOf.idOf(payment);
		const overAmount = overMaximumAmount(amount, limits);
		if (overAmount !== undefined) {
			refused.push({ payment, reason: overAmount });
			continue;
		}
		const committed = committedOf(account);
		const added = newTotals.get(account) ?? 0;
		// a repeated key (the same payment twice in the input) counts once
		const extra = counted.has(id) || ledgerOf.alreadyPaid(id) ? 0 : toMinorUnits(amount);
		if (
			limits.maxTotal !== undefined &&
			committed + added + extra > toMinorUnits(limits.maxTotal)
		) {
			refused.push({
				payment,
				reason: overTotal(limits, account, committed + added + (extra || 0), amount),
			});
			continue;
		}
		newTotals.set(account, added + extra);
		counted.add(id);
		(spentAfter[account] ??= {})[id] = amount;
		allowed.push(payment);
	}
	return { allowed, refused, spentAfter };
}

import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** A safety rail the user sets on Submit and Submit Batch: what one node may pay, whatever its input says. */
export interface SpendingLimits {
	maxAmount?: number;
	maxTotal?: number;
}

export const spendingLimitOptions: INodeProperties[] = [
	{
		displayName: 'Maximum Amount',
		name: 'maxAmount',
		type: 'number',
		default: 0,
		typeOptions: { minValue: 0, numberPrecision: 2 },
		description:
			'The largest amount one payment may have; a payment over it is never sent and goes to the Rejected output with the reason. 0 means no limit.',
	},
	{
		displayName: 'Maximum Total per Execution',
		name: 'maxTotal',
		type: 'number',
		default: 0,
		typeOptions: { minValue: 0, numberPrecision: 2 },
		description:
			'The most this node may pay from one account in one execution (every run of it, Retry On Fail and n8n\'s Retry included), in that account\'s currency; payments that would go over it are never sent and go to the Rejected output with the reason. 0 means no limit.',
	},
];

function limitOf(context: IExecuteFunctions, name: string, label: string, itemIndex: number): number | undefined {
	const value: unknown = context.getNodeParameter(`options.${name}`, itemIndex, 0);
	if (value === 0 || value === null || value === '') return undefined;
	if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
		throw new NodeOperationError(context.getNode(), `${label} must be a number of 0 or more (0: no limit)`, {
			itemIndex,
			description: `Got ${JSON.stringify(value)}. Nothing was sent.`,
		});
	}
	return value;
}

export function readSpendingLimits(context: IExecuteFunctions, itemIndex: number): SpendingLimits {
	return {
		maxAmount: limitOf(context, 'maxAmount', 'Maximum Amount', itemIndex),
		maxTotal: limitOf(context, 'maxTotal', 'Maximum Total per Execution', itemIndex),
	};
}

const SPENT = 'spentPerAccount';
const cents = (amount: number) => Math.round(amount * 100);

/**
 * Decides, in input order, which payments stay within the limits. What the node already sent in this
 * execution counts towards the total (kept in its execution context, like the keys): `paymentId`
 * names a payment the same way on every run that could resend it, so a resend is not counted twice.
 */
export function withinLimits<P extends { itemIndex: number; body: IDataObject }>(
	context: IExecuteFunctions,
	payments: P[],
	limits: SpendingLimits,
	paymentId: (payment: P) => string,
): { allowed: P[]; refused: Array<{ payment: P; reason: string }> } {
	const allowed: P[] = [];
	const refused: Array<{ payment: P; reason: string }> = [];
	const memory = context.getContext('node');
	const spent = ((memory[SPENT] ??= {}) as IDataObject) as Record<string, Record<string, number>>;
	for (const payment of payments) {
		const amount = Number(payment.body.amount);
		const account = String(payment.body.xaid);
		const id = paymentId(payment);
		const ledger = (spent[account] ??= {});
		if (limits.maxAmount !== undefined && cents(amount) > cents(limits.maxAmount)) {
			refused.push({ payment, reason: `Amount ${amount} is over the Maximum Amount of ${limits.maxAmount}: not sent` });
			continue;
		}
		if (limits.maxTotal !== undefined && ledger[id] === undefined) {
			const total = Object.values(ledger).reduce((sum, value) => sum + cents(value), 0);
			if (total + cents(amount) > cents(limits.maxTotal)) {
				refused.push({
					payment,
					reason: `Paying ${amount} would bring this execution's payments from account ${account} to ${(total + cents(amount)) / 100}, over the Maximum Total per Execution of ${limits.maxTotal}: not sent`,
				});
				continue;
			}
		}
		ledger[id] = amount;
		allowed.push(payment);
	}
	return { allowed, refused };
}

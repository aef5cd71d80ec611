import type { Bank } from './state';

/**
 * The `newPaymentVisibilityMs` variant: a bank that processes payments asynchronously shows a new
 * payment's transaction or approval only some time after it accepted the payment. Records not made by
 * a payment request (opening balances, incoming money) are visible at once.
 */
export function visibleToReads(
	bank: Bank,
	record: { requestId?: string; createdMs: number },
): boolean {
	const lag = bank.variants.newPaymentVisibilityMs;
	return lag <= 0 || record.requestId === undefined || bank.clock.now() >= record.createdMs + lag;
}

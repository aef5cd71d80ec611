import {
	approvalStatusMeaning,
	transactionStatusMeaning,
} from '../../shared/approvals/approvalStatus';
import { toMinorUnits } from '../validation/amount';
import type { Payment } from './payment';
import type { FoundPayment } from './paymentLookUp';

/**
 * Skip Payments Already Made: what makes two payments the same one. The details the bank's records can
 * be matched on (spec §Errors rule 3: matching on reference; amount, payee and account with it).
 */
function detailsOf({ body }: Payment): string {
	return JSON.stringify([
		String(body.xaid),
		String(body.xpid),
		toMinorUnits(Number(body.amount)),
		String(body.reference),
	]);
}

/** Two payments are the same when their details match and their currencies do not differ (an absent one is the account's). */
function sameCurrency(a: Payment, b: Payment): boolean {
	const { currency: first } = a.body;
	const { currency: second } = b.body;
	return first === undefined || second === undefined || first === second;
}

/**
 * The payments of one input that repeat an earlier item of it: each later one mapped to the first item
 * with the same details. With Skip Payments Already Made each is paid once, so the repeats are refused
 * before anything is sent.
 */
export function repeatsInInput(payments: readonly Payment[]): Map<Payment, Payment> {
	const firstOf = new Map<string, Payment[]>();
	const repeats = new Map<Payment, Payment>();
	for (const payment of [...payments].sort((a, b) => a.itemIndex - b.itemIndex)) {
		const details = detailsOf(payment);
		const earlier = (firstOf.get(details) ?? []).find((other) => sameCurrency(other, payment));
		if (earlier !== undefined) repeats.set(payment, earlier);
		else firstOf.set(details, [...(firstOf.get(details) ?? []), payment]);
	}
	return repeats;
}

/**
 * Whether a matching record may hold money: every record does, unless its own status says it was
 * refused (a declined, expired or cancelled approval with no transaction that says otherwise; a
 * transaction that says it failed or was refused). An unknown word holds money: it is never read as a
 * refusal.
 */
export function holdsMoney(found: FoundPayment): boolean {
	if (found.foundIn === 'transactions')
		return transactionStatusMeaning(found.transactionStatus) !== 'notSent';
	const approval = approvalStatusMeaning(found.approvalStatus);
	return approval !== 'declined' && approval !== 'expired' && approval !== 'notApproved';
}

const statusWords = (status: string | undefined) =>
	status === undefined ? 'with no status' : `status "${status}"`;

/** What a matching record shows of its payment, in plain words. */
export function stateOf(found: FoundPayment): string {
	if (found.foundIn === 'transactions') {
		switch (transactionStatusMeaning(found.transactionStatus)) {
			case 'sent':
				return 'sent';
			case 'held':
				return 'waiting for approval';
			default:
				return `in the account's transactions, ${statusWords(found.transactionStatus)}`;
		}
	}
	switch (approvalStatusMeaning(found.approvalStatus)) {
		case 'pending':
			return 'waiting for approval';
		case 'approved':
			return 'approved';
		default:
			return `in the account's approvals, ${statusWords(found.approvalStatus)}`;
	}
}

import { toMinorUnits } from '../validation/amount';
import {
	type AcceptedEvidence,
	type AcceptedStatus,
	statusOfAccepted,
	evidenceInWords,
} from '../../shared/evidence';
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
 * What the lists showed of an earlier matching payment, as the evidence table reads it: its approval
 * where the approvals list showed one, its transaction where the transactions list did. What the lists
 * do not show is not read as absent: the look-up may read only recent records, and a bank may list only
 * pending approvals.
 */
function evidenceOf(found: FoundPayment): AcceptedEvidence {
	const approvalShown =
		found.foundIn === 'approvals' ||
		found.approvalRef !== undefined ||
		found.approvalStatus !== undefined;
	return {
		xtid: found.xtid,
		approval: approvalShown
			? { read: 'record', ref: found.approvalRef, status: found.approvalStatus }
			: { read: 'notRead' },
		transaction:
			found.foundIn === 'transactions'
				? { read: 'record', status: found.transactionStatus }
				: { read: 'notRead' },
	};
}

/**
 * Whether a matching record may hold money: unless the evidence table says it was not sent (its
 * approval declined or expired, its transaction refused or failed, with nothing saying otherwise), it
 * may. Submit's status for the same records says the same (evidence.ts).
 */
export function holdsMoney(found: FoundPayment): boolean {
	return statusOfAccepted(evidenceOf(found)).status !== 'not_sent';
}

const STATE_WORDS: Record<AcceptedStatus, string> = {
	sent: 'sent',
	pending_approval: 'waiting for approval',
	not_sent: 'not sent',
	accepted: 'not known',
};

/**
 * What a matching record shows of its payment, in plain words, from the evidence table: sent, waiting
 * for approval, or, with what the records say, not sent or not known.
 */
export function stateOf(found: FoundPayment): string {
	const evidence = evidenceOf(found);
	const { status } = statusOfAccepted(evidence);
	if (status === 'sent' || status === 'pending_approval') return STATE_WORDS[status];
	return `${STATE_WORDS[status]} (${evidenceInWords(evidence)})`;
}

import {
	type AcceptedEvidence,
	type AcceptedStatus,
	statusOfAccepted,
	evidenceInWords,
} from '../../shared/evidence';
import type { FoundPayment } from './paymentLookUp';

/** Skip Payments Already Made: what an earlier payment with the same details (paymentIdentity.ts) says. */

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

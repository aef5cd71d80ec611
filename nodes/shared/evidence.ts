import type { IDataObject } from 'n8n-workflow';

import { statusWord } from './approvals/statusVocabulary';

/**
 * The evidence table: what the bank has shown of a payment, in, and what the node may say of it, out. No
 * requests here; acceptedStates.ts, readAnswer.ts and paymentRun.ts gather the evidence. A definite
 * status comes only from evidence that proves it (statusVocabulary.ts reads the words):
 * - `pending_approval` only from a pending approval of this payment;
 * - `sent` only from evidence that no approval holds it: its transaction says it was sent, or
 *   its approval says approved and its transaction does not say otherwise;
 * - `not_sent` only from a refusal of this payment: its approval declined or expired, its transaction
 *   refused or failed;
 * - anything else, and evidence that contradicts itself, leaves it `accepted` (taken by the bank, its
 *   state not known) with a sentence saying what is known.
 * A held payment may have no transaction yet (docs/bank-assumptions.md#held-payment-records).
 */

/** The approval of one accepted payment, as the bank showed it. */
export type ApprovalEvidence =
	/** An approval record that carries this payment's xtid. */
	| { read: 'record'; ref?: string; status?: string }
	/** The account's approvals, read to the end, show none for this xtid. */
	| { read: 'none' }
	/** Not read: other evidence settled the state first. */
	| { read: 'notRead' }
	/** The answer named an approval (`ref`) that the bank does not show. */
	| { read: 'missing'; ref: string }
	/** The approval read by the answer's `ref` carries another xtid (or none): not this payment's. */
	| { read: 'other'; ref: string; xtid?: string }
	| { read: 'failed'; why: string };

/** The transaction of one accepted payment, as GET /transaction/{xtid} showed it. */
export type TransactionEvidence =
	/** A record that carries this payment's xtid. */
	| { read: 'record'; status?: string }
	/** The bank does not show it (404). */
	| { read: 'missing' }
	| { read: 'notRead' }
	/** The bank answered with a record that carries another xtid (or none). */
	| { read: 'other'; xtid?: string }
	| { read: 'failed'; why: string };

export interface AcceptedEvidence {
	xtid: string;
	approval: ApprovalEvidence;
	transaction: TransactionEvidence;
	/**
	 * The payment's details a record of this xtid shows differently (reference, amount, payee): the xtid
	 * may be another payment's.
	 */
	differs?: string;
	/** A record of this xtid shows the payment's own reference and amount. */
	shows?: boolean;
}

export type AcceptedStatus = 'sent' | 'pending_approval' | 'not_sent' | 'accepted';

export interface StatusFromEvidence {
	status: AcceptedStatus;
	/** The bank's words and the approval's ref, as read from this payment's own records. */
	fields: IDataObject;
	/** What is known, when the status is not a definite one (or not_sent: why). */
	check?: string;
	/** Its records show another payment's details: the answer's entry may be another item's. */
	ofAnother?: true;
	/** A record of it shows this payment's reference and amount: the answer's entry is this item's. */
	shown?: true;
}

type Says = 'sent' | 'held' | 'refused' | 'notFinal' | 'unknown' | 'none';

const quoted = (status: string | undefined) => (status === undefined ? 'no status' : `"${status}"`);

function approvalSays(approval: ApprovalEvidence): Says {
	return approval.read === 'record' ? statusWord(approval.status, 'approval').says : 'none';
}

function transactionSays(transaction: TransactionEvidence): Says {
	return transaction.read === 'record'
		? statusWord(transaction.status, 'transaction').says
		: 'none';
}

function fieldsOf({ approval, transaction }: AcceptedEvidence): IDataObject {
	return {
		...(approval.read === 'record' && approval.ref !== undefined && { approvalRef: approval.ref }),
		...(approval.read === 'record' &&
			approval.status !== undefined && { approvalStatus: approval.status }),
		...(transaction.read === 'record' &&
			transaction.status !== undefined && { transactionStatus: transaction.status }),
	};
}

/** What each read showed, in words, for a status that is not definite. */
export function evidenceInWords({ xtid, approval, transaction }: AcceptedEvidence): string {
	const parts: string[] = [];
	switch (approval.read) {
		case 'record':
			parts.push(`its approval says ${quoted(approval.status)}`);
			break;
		case 'none':
			parts.push('no approval of it is shown');
			break;
		case 'missing':
			parts.push(`the bank does not show the approval ${approval.ref} its answer named`);
			break;
		case 'other':
			parts.push(
				`the approval ${approval.ref} its answer named is of another payment (${approval.xtid ?? 'no transaction ID'})`,
			);
			break;
		case 'failed':
			parts.push(`its approval could not be read (${approval.why})`);
			break;
		case 'notRead':
			break;
	}
	switch (transaction.read) {
		case 'record':
			parts.push(`its transaction says ${quoted(transaction.status)}`);
			break;
		case 'missing':
			parts.push('no transaction of it is shown');
			break;
		case 'other':
			parts.push(
				`a read of transaction ${xtid} was answered with another transaction (${transaction.xtid ?? 'no transaction ID'})`,
			);
			break;
		case 'failed':
			parts.push(`its transaction could not be read (${transaction.why})`);
			break;
		case 'notRead':
			break;
	}
	return parts.join('; ');
}

const NOT_KNOWN =
	'Nothing shows whether it was sent. Read it later (Transaction → Get, Approval → Get by Payment) before acting on it.';

function accepted(evidence: AcceptedEvidence, why: string): StatusFromEvidence {
	return {
		status: 'accepted',
		fields: fieldsOf(evidence),
		check: `The bank accepted this payment (transaction ID ${evidence.xtid}), but ${why}. ${NOT_KNOWN}`,
	};
}

function notSent(evidence: AcceptedEvidence, why: string): StatusFromEvidence {
	return {
		status: 'not_sent',
		fields: fieldsOf(evidence),
		check: `${why}: nothing was sent.`,
	};
}

/** What the approval and the transaction of a payment say, in the vocabulary's words. */
interface Said {
	approval: Says;
	transaction: Says;
}

/** One row of the evidence table: the evidence it covers, and the one status that evidence allows. */
export interface EvidenceRow {
	evidence: string;
	applies: (evidence: AcceptedEvidence, said: Said) => boolean;
	allows: (evidence: AcceptedEvidence) => StatusFromEvidence;
}

const contradicting = (evidence: AcceptedEvidence) =>
	accepted(evidence, `${evidenceInWords(evidence)}, which contradict each other`);
const statusOf = (read: ApprovalEvidence | TransactionEvidence) =>
	read.read === 'record' ? read.status : undefined;

/** The evidence table, first matching row first; the last row covers all evidence the others do not. */
export const EVIDENCE_TABLE: readonly EvidenceRow[] = [
	{
		evidence: "its records show another payment's details",
		applies: ({ differs }) => differs !== undefined,
		allows: (evidence) => ({
			...accepted(
				evidence,
				`its records show ${evidence.differs}, so the answer may name another payment`,
			),
			ofAnother: true,
		}),
	},
	{
		evidence: 'its approval holds it, its transaction says sent',
		applies: (_, said) => said.approval === 'held' && said.transaction === 'sent',
		allows: contradicting,
	},
	{
		evidence: 'its approval holds it',
		applies: (_, said) => said.approval === 'held',
		allows: (evidence) => ({ status: 'pending_approval', fields: fieldsOf(evidence) }),
	},
	{
		evidence: 'approved, its transaction says refused or failed',
		applies: (_, said) => said.approval === 'sent' && said.transaction === 'refused',
		allows: (evidence) =>
			notSent(
				evidence,
				`It was approved, but its transaction says ${quoted(statusOf(evidence.transaction))}`,
			),
	},
	{
		evidence: 'approved, its transaction says held or decided in part',
		applies: (_, said) =>
			said.approval === 'sent' && (said.transaction === 'held' || said.transaction === 'notFinal'),
		allows: contradicting,
	},
	{
		evidence: 'approved',
		applies: (_, said) => said.approval === 'sent',
		allows: (evidence) => ({ status: 'sent', fields: fieldsOf(evidence) }),
	},
	{
		evidence: 'its approval refused, its transaction says sent',
		applies: (_, said) => said.approval === 'refused' && said.transaction === 'sent',
		allows: contradicting,
	},
	{
		evidence: 'its approval refused (declined or expired)',
		applies: (_, said) => said.approval === 'refused',
		allows: (evidence) =>
			notSent(
				evidence,
				`Its approval was not given (the bank says ${quoted(statusOf(evidence.approval))})`,
			),
	},
	{
		evidence: 'its approval decided in part',
		applies: (_, said) => said.approval === 'notFinal',
		allows: (evidence) =>
			accepted(
				evidence,
				`its approval says ${quoted(statusOf(evidence.approval))}: decided in part, not final${evidence.transaction.read === 'notRead' ? '' : `; ${evidenceInWords({ ...evidence, approval: { read: 'notRead' } })}`}`,
			),
	},
	{
		evidence: 'no approval says anything known, its transaction says sent',
		applies: (_, said) => said.transaction === 'sent',
		allows: (evidence) => ({ status: 'sent', fields: fieldsOf(evidence) }),
	},
	{
		evidence: 'no approval says anything known, its transaction says refused or failed',
		applies: (_, said) => said.transaction === 'refused',
		allows: (evidence) =>
			notSent(evidence, `Its transaction says ${quoted(statusOf(evidence.transaction))}`),
	},
	{
		evidence: 'no approval says anything known, its transaction says held',
		applies: (_, said) => said.transaction === 'held',
		allows: (evidence) =>
			accepted(
				evidence,
				`${evidenceInWords(evidence)}: its transaction says it is held, but no pending approval of it is shown`,
			),
	},
	{
		evidence: 'no approval says anything known, no transaction of it shown',
		applies: ({ approval, transaction }) =>
			transaction.read === 'missing' && approval.read !== 'failed',
		allows: (evidence) =>
			accepted(
				evidence,
				`${evidenceInWords(evidence)}: it may not be shown yet, or its approval may have been declined or may have expired`,
			),
	},
	{
		evidence: 'anything else: words nobody knows, records of others, reads that failed',
		applies: () => true,
		allows: (evidence) =>
			accepted(evidence, evidenceInWords(evidence) || 'nothing of it could be read'),
	},
];

/** The row of the evidence table this evidence falls under. */
export function evidenceRowOf(evidence: AcceptedEvidence): EvidenceRow {
	const said = {
		approval: approvalSays(evidence.approval),
		transaction: transactionSays(evidence.transaction),
	};
	return EVIDENCE_TABLE.find((row) => row.applies(evidence, said)) as EvidenceRow;
}

/** The status of one accepted payment, from what its approval and its transaction show. */
export function statusOfAccepted(evidence: AcceptedEvidence): StatusFromEvidence {
	const known = evidenceRowOf(evidence).allows(evidence);
	return evidence.shows === true && known.ofAnother === undefined
		? { ...known, shown: true }
		: known;
}

/** Whether this evidence settles the state without reading the account's approvals. */
export function settledWithoutApprovals(evidence: AcceptedEvidence): boolean {
	if (evidence.differs !== undefined) return true;
	if (approvalSays(evidence.approval) !== 'none') return true;
	const says = transactionSays(evidence.transaction);
	return says === 'sent' || says === 'refused';
}

/**
 * What a failed POST /payments proves (spec §Errors). `rejected` ("nothing was paid") only when the bank
 * refused this request and no other request of its key may have been processed or be in flight: not
 * after an earlier attempt that may have been made, and never on 409, which says the key is in use by
 * another request (spec §Payments rule 1: that one is answered, and may pay;
 * docs/bank-assumptions.md#key-in-use). `unknown` when it may have
 * been processed; `not_sent` when nothing reached the bank that it could act on.
 */
export function failedRequestStatus(evidence: {
	refused: boolean;
	keyInUse: boolean;
	outcomeUnknown: boolean;
	earlierAttemptMayHaveBeenMade: boolean;
}): 'rejected' | 'unknown' | 'not_sent' {
	if (evidence.outcomeUnknown || evidence.keyInUse || evidence.earlierAttemptMayHaveBeenMade)
		return 'unknown';
	return evidence.refused ? 'rejected' : 'not_sent';
}

/**
 * Whether a record found by a look-up may be reported as this payment (`found_after_error`): only when it
 * is the one record that matches, and an answer to this payment's key named it (so it cannot be an
 * earlier payment). Creation times prove nothing: the spec writes them without a zone (so a bank's
 * offset, up to ±14 h, is unknown) and a `Date` header may show a gateway's clock, not the bank's.
 */
export function mayClaim(
	candidates: readonly string[],
	namedForThisKey: ReadonlySet<string>,
): boolean {
	return candidates.length === 1 && namedForThisKey.has(candidates[0]);
}

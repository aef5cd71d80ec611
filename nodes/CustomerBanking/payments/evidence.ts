import type { IDataObject } from 'n8n-workflow';

import { statusWord } from '../approvals/statusVocabulary';

/**
 * The evidence table: what the bank has shown of a payment, in, and what the node may say of it, out. No
 * requests here; acceptedStates.ts, readAnswer.ts and paymentRun.ts gather the evidence. A definite
 * status comes only from evidence that proves it (statusVocabulary.ts reads the words):
 * - `pending_approval` only from a pending approval of this payment;
 * - `submitted` (sent) only from evidence that no approval holds it: its transaction says it was sent, or
 *   its approval says approved and its transaction does not say otherwise;
 * - `not_sent` only from a refusal of this payment: its approval declined or expired, its transaction
 *   refused or failed;
 * - anything else, and evidence that contradicts itself, leaves it `accepted` (taken by the bank, its
 *   state not known) with a sentence saying what is known.
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

export type AcceptedStatus = 'submitted' | 'pending_approval' | 'not_sent' | 'accepted';

export interface Statement {
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

/** What each read showed, in words, for a statement that is not definite. */
function shown({ xtid, approval, transaction }: AcceptedEvidence): string {
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

function accepted(evidence: AcceptedEvidence, why: string): Statement {
	return {
		status: 'accepted',
		fields: fieldsOf(evidence),
		check: `The bank accepted this payment (transaction ID ${evidence.xtid}), but ${why}. ${NOT_KNOWN}`,
	};
}

function notSent(evidence: AcceptedEvidence, why: string): Statement {
	return {
		status: 'not_sent',
		fields: fieldsOf(evidence),
		check: `${why}: nothing was sent.`,
	};
}

/**
 * The statement for one accepted payment, from what its approval and its transaction show (the evidence
 * table, one row per case in test/unit/paymentStatements.test.ts).
 */
export function acceptedStatement(evidence: AcceptedEvidence): Statement {
	const statement = statementOf(evidence);
	return evidence.shows === true && statement.ofAnother === undefined
		? { ...statement, shown: true }
		: statement;
}

function statementOf(evidence: AcceptedEvidence): Statement {
	const { approval, transaction, differs } = evidence;
	if (differs !== undefined) {
		const why = `its records show ${differs}, so the answer may name another payment`;
		return { ...accepted(evidence, why), ofAnother: true };
	}
	const fromApproval = approvalSays(approval);
	const fromTransaction = transactionSays(transaction);
	const fields = fieldsOf(evidence);
	const approvalStatus = approval.read === 'record' ? approval.status : undefined;
	const transactionStatus = transaction.read === 'record' ? transaction.status : undefined;
	switch (fromApproval) {
		case 'held':
			return fromTransaction === 'sent'
				? accepted(evidence, `${shown(evidence)}, which contradict each other`)
				: { status: 'pending_approval', fields };
		case 'sent':
			if (fromTransaction === 'refused')
				return notSent(
					evidence,
					`It was approved, but its transaction says ${quoted(transactionStatus)}`,
				);
			if (fromTransaction === 'held' || fromTransaction === 'notFinal')
				return accepted(evidence, `${shown(evidence)}, which contradict each other`);
			return { status: 'submitted', fields };
		case 'refused':
			return fromTransaction === 'sent'
				? accepted(evidence, `${shown(evidence)}, which contradict each other`)
				: notSent(evidence, `Its approval was not given (the bank says ${quoted(approvalStatus)})`);
		case 'notFinal':
			return accepted(
				evidence,
				`its approval says ${quoted(approvalStatus)}: decided in part, not final${transaction.read === 'notRead' ? '' : `; ${shown({ ...evidence, approval: { read: 'notRead' } })}`}`,
			);
		case 'unknown':
		case 'none':
			break;
	}
	switch (fromTransaction) {
		case 'sent':
			return { status: 'submitted', fields };
		case 'refused':
			return notSent(evidence, `Its transaction says ${quoted(transactionStatus)}`);
		case 'held':
			return accepted(
				evidence,
				`${shown(evidence)}: its transaction says it is held, but no pending approval of it is shown`,
			);
		default:
			if (transaction.read === 'missing' && approval.read !== 'failed')
				return accepted(
					evidence,
					`${shown(evidence)}: it may not be shown yet, or its approval may have been declined or may have expired`,
				);
			return accepted(evidence, shown(evidence) || 'nothing of it could be read');
	}
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
 * another request (spec §Payments rule 1: that one is answered, and may pay). `unknown` when it may have
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

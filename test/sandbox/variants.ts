/**
 * Where the spec says "not shown", the choice this bank makes. The defaults are the sandbox's own
 * (DECISIONS.md); `SPEC_MINIMAL` is a plausible other bank that answers only what the spec promises.
 * Node code must work with every combination: each switch is tested alone or through spec-minimal mode.
 */
export interface BankVariants {
	/** Re-subscribing an existing zapId (spec §Webhook subscriptions: not shown): replaced, or refused with 409. */
	resubscribe: 'replace' | 'refuse';
	/** DELETE /webhooks/unsubscribe (spec: "response body not shown"): 200 with the record, or 204 with no body. */
	unsubscribeAnswer: 'record' | 'empty';
	/**
	 * A careless bank that echoes credentials, in every encoding (echo.ts): the caller's bearer token in
	 * payment answers (fields of each submitted item, and every rejection reason) and in API errors (a
	 * text page longer than 500 characters, the token across its 500th), the client secret in token
	 * errors. For canary tests: nothing the bank echoes may reach n8n's output, errors or logs.
	 */
	echoCredentials: boolean;
	/** POST /payments answer (spec: "fields of submitted items beyond xtid, and of rejected items beyond error, are not shown"). */
	paymentAnswer: 'detailed' | 'xtidOnly';
	/** GET approvals lists (spec: "transactions pending approval"): every status, or pending ones only. */
	approvalList: 'allStatuses' | 'pendingOnly';
	/** Names of decided approvals (spec: "names of the other values are not shown"). */
	approvalStatusNames: 'sandbox' | 'other' | 'negations';
	/**
	 * A bank that keeps a transaction record for a payment held for approval (spec §Transaction: states
	 * "not shown"): status PENDING_APPROVAL while pending, DECLINED or EXPIRED when decided so; approved →
	 * the normal sent transaction.
	 */
	heldPaymentRecords: boolean;
	/** Paginated payee lists (spec: "the envelope … is not shown"): { total, results }, or a bare array. */
	payeeListEnvelope: 'object' | 'bareArray';
	/** An account that does not exist or is not the caller's: 401 (spec §Errors), or 404 as some banks answer. */
	unknownAccount: 401 | 404;
	/** Webhook delivery payload (spec §Events rule 3: "not shown"): the sandbox's field names, or others for the same facts. */
	webhookPayload: 'sandbox' | 'other';
	/** Whether transactions and approvals carry their creation time (spec: transaction fields "not shown"). */
	createdTimes: boolean;
	/**
	 * The order of the transactions and approvals lists (spec §Pagination: not shown): oldest first (the
	 * sandbox's, so pages stay put while records are added), or newest first, as many banks list
	 * transactions, so records added while a list is read push others across page boundaries.
	 */
	listOrder: 'oldestFirst' | 'newestFirst';
	/**
	 * A repeat of a key whose first request is still being processed (spec §Payments rule 1: "normally the
	 * original result is returned"): answered once the first one is (`'wait'`), or refused at once with 409
	 * "key in use" (`'conflict'`), as banks that lock keys do.
	 */
	keyInUse: 'wait' | 'conflict';
	/**
	 * Approval records (spec §Approval: "types and contents … not shown"): with the payment's details
	 * (`transaction: { xtid, xpid, amount, currency, reference }`, meta with policy and approvers), or only
	 * what the spec states (`transaction` is the xtid, meta holds at most `created`).
	 */
	approvalRecord: 'detailed' | 'bare';
	/**
	 * How long a new payment's transaction or approval stays invisible to reads (lists and GET by id) after
	 * the bank accepted it (spec: not shown): 0, or the lag of a bank that processes asynchronously.
	 */
	newPaymentVisibilityMs: number;
	/**
	 * Where an entry of a detailed payment answer says which item of the request it is (spec §Payments:
	 * fields beyond xtid and error "not shown"): `index` from 0 (the sandbox's), from 1, or no position.
	 */
	answerPositions: 'zeroBased' | 'oneBased' | 'absent';
	/** Whether detailed answer entries echo the item's details (xaid, xpid, amount, currency, reference). */
	answerEchoes: boolean;
	/**
	 * What a detailed answer's accepted entries say of their state: the sandbox's words (`submitted` when
	 * no policy applies, `pending_approval` with `approvalRef` when one does), or the spec's own word,
	 * `submitted`, for every accepted payment (`'specWord'`, no approvalRef), or nothing (`'none'`).
	 */
	answerStatus: 'sandbox' | 'specWord' | 'none';
	/** The order of the entries in each list of a payment answer: as the items were sent, or shuffled. */
	answerOrder: 'asSent' | 'shuffled';
	/**
	 * An answer that does not add up, as a careless bank or gateway writes it: each accepted item also
	 * listed as rejected with a temporary reason (`'alsoRejected'`), or listed a second time with another
	 * xtid (`'extraAccepted'`); the first two accepted entries naming the same xtid (`'repeatedXtid'`); a
	 * `rejectedCount` one higher than the rejections listed (`'wrongRejectedCount'`). The ledger is as usual.
	 */
	answerOddity: 'none' | 'alsoRejected' | 'extraAccepted' | 'repeatedXtid' | 'wrongRejectedCount';
	/** Other words for transaction statuses (spec: transaction states "not shown"), by the sandbox's word. */
	transactionStatusWords: Partial<Record<TransactionStatusName, string>>;
	/** Other words for approval statuses, by the sandbox's word, over `approvalStatusNames` (pending too). */
	approvalStatusWords: Partial<Record<ApprovalStatusName, string>>;
	/**
	 * Creation times of transactions and approvals (spec: times written `YYYY-MM-DD HH:MM:SS`, no zone):
	 * ISO 8601 in UTC, or zoneless in the bank's own zone, `bankUtcOffsetMinutes` from UTC.
	 */
	recordTimes: 'iso' | 'zoneless';
	bankUtcOffsetMinutes: number;
	/**
	 * The `Date` header of API answers: the bank's clock (0), a gateway's clock this far off it, or none
	 * (`null`).
	 */
	dateHeaderSkewMs: number | null;
	/**
	 * GET /transaction/{xtid} for an xtid the bank does not show (yet): 404, or (`'anyRecord'`, a broken
	 * cache in front of the bank) the workspace's newest outgoing transaction, another payment's record.
	 */
	transactionById: 'itself' | 'anyRecord';
}

/** The sandbox's own transaction statuses (DECISIONS.md §Transactions). */
export type TransactionStatusName =
	| 'sent'
	| 'settled'
	| 'failed'
	| 'PENDING_APPROVAL'
	| 'DECLINED'
	| 'EXPIRED';
/** The sandbox's own approval statuses (DECISIONS.md §Approvals). */
export type ApprovalStatusName = 'pending' | 'approved' | 'declined' | 'expired';

export const DEFAULT_VARIANTS: Readonly<BankVariants> = {
	resubscribe: 'replace',
	unsubscribeAnswer: 'record',
	echoCredentials: false,
	paymentAnswer: 'detailed',
	approvalList: 'allStatuses',
	approvalStatusNames: 'sandbox',
	heldPaymentRecords: false,
	payeeListEnvelope: 'object',
	unknownAccount: 401,
	webhookPayload: 'sandbox',
	createdTimes: true,
	listOrder: 'oldestFirst',
	keyInUse: 'wait',
	approvalRecord: 'detailed',
	newPaymentVisibilityMs: 0,
	answerPositions: 'zeroBased',
	answerEchoes: true,
	answerStatus: 'sandbox',
	answerOrder: 'asSent',
	answerOddity: 'none',
	transactionStatusWords: {},
	approvalStatusWords: {},
	recordTimes: 'iso',
	bankUtcOffsetMinutes: 0,
	dateHeaderSkewMs: 0,
	transactionById: 'itself',
};

export const SPEC_MINIMAL: Readonly<BankVariants> = {
	resubscribe: 'refuse',
	unsubscribeAnswer: 'empty',
	echoCredentials: false,
	paymentAnswer: 'xtidOnly',
	approvalList: 'pendingOnly',
	approvalStatusNames: 'other',
	heldPaymentRecords: false,
	payeeListEnvelope: 'bareArray',
	unknownAccount: 404,
	webhookPayload: 'other',
	createdTimes: false,
	listOrder: 'oldestFirst',
	keyInUse: 'wait',
	approvalRecord: 'detailed',
	newPaymentVisibilityMs: 0,
	answerPositions: 'zeroBased',
	answerEchoes: true,
	answerStatus: 'sandbox',
	answerOrder: 'asSent',
	answerOddity: 'none',
	transactionStatusWords: {},
	approvalStatusWords: {},
	recordTimes: 'iso',
	bankUtcOffsetMinutes: 0,
	dateHeaderSkewMs: 0,
	transactionById: 'itself',
};

export type VariantsOption = Partial<BankVariants> | 'specMinimal';

export function resolveVariants(option: VariantsOption | undefined): BankVariants {
	if (option === 'specMinimal') return { ...SPEC_MINIMAL };
	return { ...DEFAULT_VARIANTS, ...option };
}

/** `CUSTOMER_BANKING_SANDBOX_MODE=spec-minimal` switches every suite's sandbox to spec-minimal mode. */
export function variantsFromEnvironment(): VariantsOption | undefined {
	return process.env.CUSTOMER_BANKING_SANDBOX_MODE === 'spec-minimal' ? 'specMinimal' : undefined;
}

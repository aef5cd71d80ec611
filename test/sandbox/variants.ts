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
}

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
	keyInUse: 'wait',
	approvalRecord: 'detailed',
	newPaymentVisibilityMs: 0,
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
	keyInUse: 'wait',
	approvalRecord: 'detailed',
	newPaymentVisibilityMs: 0,
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

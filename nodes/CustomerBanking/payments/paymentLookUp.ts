import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { approvalPayment, listApprovals } from '../approvals/approvalRecords';
import { type BankClock, ENDPOINTS, requestAllItems } from '../transport';
import { toMinorUnits } from '../validation/amount';
import type { Payment } from './payment';
import type { XtidClaims } from './paymentMemory';

/** What a record must match to be the payment. */
interface Sought {
	xaid: string;
	xpid: string;
	amount: number;
	reference: string;
	currency?: string;
}

function soughtFor({ body }: Payment): Sought {
	return {
		xaid: String(body.xaid),
		xpid: String(body.xpid),
		amount: Number(body.amount),
		reference: String(body.reference),
		currency: typeof body.currency === 'string' ? body.currency : undefined,
	};
}

export interface FoundPayment {
	xtid: string;
	/** Where it was found: an approval record (spec §States and transitions row 1) or a transaction. */
	foundIn: 'approvals' | 'transactions';
	approvalRef?: string;
	approvalStatus?: string;
	transactionStatus?: string;
}

export type LookupResult =
	| { found: true; payment: FoundPayment }
	/** Nothing matched, or several records did and none can be told apart (`candidates`). */
	| { found: false; candidates: string[] };

/**
 * When the request's first attempt left, on the bank's clock (transport/bankClock.ts): a record created
 * before `notBefore` predates the request; one created at or after `provablyAfter` was made after it
 * was sent. In between (the bank's `Date` has whole seconds), a record may be either, so it is never
 * claimed. Unknown bounds prove nothing.
 */
export interface FirstAttemptOnBankClock {
	notBefore?: number;
	provablyAfter?: number;
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? value : undefined;
}

function sameAmount(value: unknown, amount: number): boolean {
	const number = typeof value === 'string' ? Number(value) : value;
	return typeof number === 'number' && toMinorUnits(number) === toMinorUnits(amount);
}

/**
 * Matching on reference + amount + payee (+ currency when both sides have one). Fields the record
 * does not carry are not held against it: the spec leaves approval and transaction fields "not shown".
 */
function matches(payment: Sought, record: IDataObject): boolean {
	if (record.reference !== payment.reference || !sameAmount(record.amount, payment.amount))
		return false;
	const xpid = text(record.xpid);
	if (xpid !== undefined && xpid !== payment.xpid) return false;
	const currency = text(record.currency);
	return currency === undefined || payment.currency === undefined || currency === payment.currency;
}

/** `created` (transactions) or `meta.created` (approvals), when the record has a readable one. */
function createdAt(record: IDataObject): number | undefined {
	const meta = record.meta;
	const value =
		record.created ??
		(typeof meta === 'object' && meta !== null ? (meta as IDataObject).created : undefined);
	const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
	return Number.isNaN(time) ? undefined : time;
}

interface AccountRecords {
	approvals: IDataObject[];
	transactions: IDataObject[];
}

/** The approvals and transactions of the payments' accounts, each account read once. */
async function readAccounts(
	this: IExecuteFunctions,
	payments: Payment[],
	bankClock?: BankClock,
): Promise<Map<string, AccountRecords>> {
	const byAccount = new Map<string, AccountRecords>();
	const accountOf = (payment: Payment) => String(payment.body.xaid);
	for (const xaid of new Set(payments.map(accountOf))) {
		const itemIndex = payments.find((payment) => accountOf(payment) === xaid)?.itemIndex;
		const list = { returnAll: true, itemIndex, bankClock };
		byAccount.set(xaid, {
			approvals: await listApprovals.call(this, { xaid }, list),
			transactions: await requestAllItems.call(this, ENDPOINTS.transactions.at({ xaid }), list),
		});
	}
	return byAccount;
}

interface Matches {
	found: Map<string, FoundPayment>;
	/** xtids whose creation time shows they were made after the request was first sent */
	provable: Set<string>;
}

/** Which records may be taken for a payment. */
interface Scope {
	claimed: XtidClaims;
	firstAttempt: FirstAttemptOnBankClock;
	/** When set, only these xtids may match, and each of them is known to be this request's. */
	onlyXtids?: ReadonlySet<string>;
}

/** A record made before the request was first sent cannot be its payment. */
function predates(record: IDataObject, { firstAttempt }: Scope): boolean {
	const created = createdAt(record);
	return (
		created !== undefined &&
		firstAttempt.notBefore !== undefined &&
		created < firstAttempt.notBefore
	);
}

function excluded(xtid: string, { claimed, onlyXtids }: Scope): boolean {
	return claimed.has(xtid) || (onlyXtids !== undefined && !onlyXtids.has(xtid));
}

/**
 * A record is provably this request's when the answer named it, or when its creation time shows it
 * was made after the request first left.
 */
function known(record: IDataObject, { firstAttempt, onlyXtids }: Scope): boolean {
	if (onlyXtids !== undefined) return true;
	const created = createdAt(record);
	return (
		created !== undefined &&
		firstAttempt.provablyAfter !== undefined &&
		created >= firstAttempt.provablyAfter
	);
}

function matchApprovals(payment: Sought, approvals: IDataObject[], scope: Scope, into: Matches) {
	for (const approval of approvals) {
		const details = approvalPayment(approval);
		const xtid = text(details.xtid);
		if (
			xtid === undefined ||
			excluded(xtid, scope) ||
			!matches(payment, details) ||
			predates(approval, scope)
		)
			continue;
		into.found.set(xtid, {
			xtid,
			foundIn: 'approvals',
			approvalRef: text(approval.ref),
			approvalStatus: text(approval.status),
		});
		if (known(approval, scope)) into.provable.add(xtid);
	}
}

function matchTransactions(
	payment: Sought,
	transactions: IDataObject[],
	scope: Scope,
	into: Matches,
) {
	for (const transaction of transactions) {
		const xtid = text(transaction.xtid);
		const outgoing = transaction.direction !== 'incoming';
		if (
			xtid === undefined ||
			excluded(xtid, scope) ||
			!outgoing ||
			!matches(payment, transaction) ||
			predates(transaction, scope)
		)
			continue;
		// an approved payment has both records, with the same xtid (spec §Approval)
		into.found.set(xtid, {
			...into.found.get(xtid),
			xtid,
			foundIn: 'transactions',
			transactionStatus: text(transaction.status),
		});
		if (known(transaction, scope)) into.provable.add(xtid);
	}
}

/** The unclaimed records of the payment's account that match it and do not predate `earliest`. */
function matchesOf(payment: Sought, records: AccountRecords, scope: Scope): Matches {
	const found: Matches = { found: new Map<string, FoundPayment>(), provable: new Set<string>() };
	matchApprovals(payment, records.approvals, scope, found);
	matchTransactions(payment, records.transactions, scope, found);
	return found;
}

/**
 * spec §Errors rule 3: after a failed retry, look the payment up before any resubmission:
 * the account's approvals for payments awaiting approval, its transactions for those submitted,
 * matching on reference (+ amount + payee). Each account is read once for all the payments of
 * one request. A match is claimed only when it is provably this payment: the only match that does
 * not predate the request's first attempt, with a creation time that shows it was made after that
 * attempt left, on the bank's own clock (`firstAttempt`; the spec promises no creation time: without
 * one nothing is claimed), and not already attributed to another payment (`claimed`, grown here as
 * payments are found). Otherwise the state stays unknown and the matches are listed as candidates.
 */
export async function lookUpPayments(
	this: IExecuteFunctions,
	payments: Payment[],
	firstAttempt: () => FirstAttemptOnBankClock,
	claimed: XtidClaims,
	bankClock: BankClock,
	/** The request's answer named these xtids without saying whose: only they may match, and they are this request's. */
	onlyXtids?: ReadonlySet<string>,
): Promise<Map<number, LookupResult>> {
	const byAccount = await readAccounts.call(this, payments, bankClock);
	const results = new Map<number, LookupResult>();
	// read after the records: their answers tell the bank's clock too
	const scope: Scope = { claimed, firstAttempt: firstAttempt(), onlyXtids };
	for (const payment of payments) {
		const sought = soughtFor(payment);
		const records = byAccount.get(sought.xaid) as AccountRecords;
		const { found, provable } = matchesOf(sought, records, scope);
		const candidates = [...found.values()];
		const [only] = candidates;
		if (candidates.length === 1 && provable.has(only.xtid)) {
			claimed.add(only.xtid);
			results.set(payment.itemIndex, { found: true, payment: only });
		} else {
			results.set(payment.itemIndex, {
				found: false,
				candidates: candidates.map((candidate) => candidate.xtid),
			});
		}
	}
	return results;
}

/**
 * Every unclaimed payment of the account, made at any time, that matches reference, amount and payee:
 * what may already be this payment when there is no telling when it was first sent.
 */
export async function findCandidates(
	this: IExecuteFunctions,
	payments: Payment[],
	claimed: XtidClaims,
): Promise<Map<number, string[]>> {
	const byAccount = await readAccounts.call(this, payments);
	const results = new Map<number, string[]>();
	for (const payment of payments) {
		const sought = soughtFor(payment);
		const { found } = matchesOf(sought, byAccount.get(sought.xaid) as AccountRecords, {
			claimed,
			firstAttempt: {},
		});
		results.set(payment.itemIndex, [...found.keys()]);
	}
	return results;
}

/**
 * Skip Payments Already Made: the account's payments that match each payment's details (reference,
 * amount, payee, currency), made at any time, with what their records say (approval and transaction
 * status); and every xtid the lists show (`listed`), so that an answer naming one of them later is known
 * to be a payment made before. One read of the approvals and the transactions per account.
 */
export async function paymentsAlreadyAtBank(
	this: IExecuteFunctions,
	payments: Payment[],
	bankClock: BankClock,
): Promise<{ matches: Map<number, FoundPayment[]>; listed: Set<string> }> {
	const byAccount = await readAccounts.call(this, payments, bankClock);
	const listed = new Set<string>();
	for (const { approvals, transactions } of byAccount.values()) {
		for (const approval of approvals) {
			const xtid = text(approvalPayment(approval).xtid);
			if (xtid !== undefined) listed.add(xtid);
		}
		for (const transaction of transactions) {
			const xtid = text(transaction.xtid);
			if (xtid !== undefined) listed.add(xtid);
		}
	}
	const nothingClaimed: XtidClaims = { has: () => false, add: () => undefined };
	const matches = new Map<number, FoundPayment[]>();
	for (const payment of payments) {
		const sought = soughtFor(payment);
		const { found } = matchesOf(sought, byAccount.get(sought.xaid) as AccountRecords, {
			claimed: nothingClaimed,
			firstAttempt: {},
		});
		matches.set(payment.itemIndex, [...found.values()]);
	}
	return { matches, listed };
}

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { approvalPayment, listApprovals } from '../../shared/approvals/approvalRecords';
import { type Coverage, ENDPOINTS, requestAll } from '../../shared/transport';
import { mayClaim } from '../../shared/evidence';
import type { Payment } from './payment';
import { matchesRecord, type Sought, soughtFor } from './paymentIdentity';
import type { XtidClaims } from './paymentMemory';
import { nonEmptyText } from '../../shared/records';

export interface FoundPayment {
	xtid: string;
	/** Where it was found: an approval record (spec §States and transitions row 1) or a transaction. */
	foundIn: 'approvals' | 'transactions';
	approvalRef?: string;
	approvalStatus?: string;
	transactionStatus?: string;
}

export type LookUpFinding =
	| { found: true; payment: FoundPayment }
	/** Nothing matched, or several records did and none can be told apart (`candidates`). */
	| { found: false; candidates: string[] };

interface AccountRecords {
	approvals: IDataObject[];
	transactions: IDataObject[];
	/** How much of each list was read. */
	coverage: { approvals: Coverage; transactions: Coverage };
}

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Read one day further back: the spec writes times without a zone (a bank in another zone is up to 14
 * hours off when read as UTC), and the bank's clock is not this machine's.
 */
const TIME_MARGIN_MS = DAY_MS;

/** The earliest creation time a look-up back `days` days reads back to, from `now` (milliseconds). */
export function lookBackSince(now: number, days: number): number {
	return now - days * DAY_MS - TIME_MARGIN_MS;
}

/**
 * How far the lists are read: every record, unless the user chose Look Back (Skip Payments Already
 * Made, before a run): then back that many days, where the lists show their records' times in order
 * (recentPages.ts). The look-ups after a failure always read every record: an older identical payment
 * must still be named among the candidates.
 */
type Reach = { lookBackDays: number } | 'whole';

/**
 * The approvals and transactions of the payments' accounts, each account read once, as far as `reach`
 * says. A list that lost records while it was read, twice, fails the look-up (a record it skipped may be
 * this payment).
 */
async function readAccounts(
	this: IExecuteFunctions,
	payments: ReadonlyArray<Pick<Payment, 'itemIndex' | 'body'>>,
	reach: Reach,
): Promise<Map<string, AccountRecords>> {
	const byAccount = new Map<string, AccountRecords>();
	const accountOf = (payment: Pick<Payment, 'body'>) => String(payment.body.xaid);
	const since = reach === 'whole' ? undefined : lookBackSince(Date.now(), reach.lookBackDays);
	for (const xaid of new Set(payments.map(accountOf))) {
		const itemIndex = payments.find((payment) => accountOf(payment) === xaid)?.itemIndex;
		const coverage: AccountRecords['coverage'] = {
			approvals: { read: 'whole' },
			transactions: { read: 'whole' },
		};
		const list = (read: keyof AccountRecords['coverage']) => ({
			returnAll: true,
			itemIndex,
			since,
			onCoverage: (covered: Coverage) => {
				coverage[read] = covered;
			},
			ifShrinking: 'fail' as const,
		});
		byAccount.set(xaid, {
			approvals: await listApprovals.call(this, { xaid }, list('approvals')),
			transactions: await requestAll.call(
				this,
				ENDPOINTS.transactions.at({ xaid }),
				list('transactions'),
			),
			coverage,
		});
	}
	return byAccount;
}

/** Why a list was read whole, in words. */
const WHOLE_BECAUSE: Record<NonNullable<Extract<Coverage, { read: 'whole' }>['why']>, string> = {
	noTimes: "the bank's records do not show when they were made",
	noOrder: "the bank's list is not in order of the time its records were made",
	noTotal: 'the bank lists the oldest first without saying how many records the list holds',
};

/**
 * What the look-up read of one account, as a sentence for the item: how far back, or all of it and,
 * where that was not the plan, why.
 */
export function coverageNote(coverage: AccountRecords['coverage'], lookBackDays: number): string {
	return `Looked for an earlier payment with these details among ${listsRead(coverage, lookBackDays)}.`;
}

/** Which records of the account were read, in words. */
function listsRead(
	{ approvals, transactions }: AccountRecords['coverage'],
	lookBackDays: number,
): string {
	const part = (name: string, coverage: Coverage) => {
		if (coverage.read === 'recent') return `the account's ${name} of the last ${lookBackDays} days`;
		if (coverage.why === undefined) return `all the account's ${name}`;
		return `all the account's ${name} (every page: ${WHOLE_BECAUSE[coverage.why]})`;
	};
	return `${part('approvals', approvals)} and ${part('transactions', transactions)}`;
}

/** Which records may be taken for a payment: none already reported for another payment. */
interface Scope {
	claimed: XtidClaims;
}

function matchApprovals(
	payment: Sought,
	approvals: IDataObject[],
	{ claimed }: Scope,
	into: Map<string, FoundPayment>,
) {
	for (const approval of approvals) {
		const details = approvalPayment(approval);
		const xtid = nonEmptyText(details.xtid);
		if (xtid === undefined || claimed.has(xtid) || !matchesRecord(payment, details)) continue;
		into.set(xtid, {
			xtid,
			foundIn: 'approvals',
			approvalRef: nonEmptyText(approval.ref),
			approvalStatus: nonEmptyText(approval.status),
		});
	}
}

function matchTransactions(
	payment: Sought,
	transactions: IDataObject[],
	{ claimed }: Scope,
	into: Map<string, FoundPayment>,
) {
	for (const transaction of transactions) {
		const xtid = nonEmptyText(transaction.xtid);
		const outgoing = transaction.direction !== 'incoming';
		if (
			xtid === undefined ||
			claimed.has(xtid) ||
			!outgoing ||
			!matchesRecord(payment, transaction)
		)
			continue;
		// an approved payment has both records, with the same xtid (spec §Approval)
		into.set(xtid, {
			...into.get(xtid),
			xtid,
			foundIn: 'transactions',
			transactionStatus: nonEmptyText(transaction.status),
		});
	}
}

/** The unclaimed records of the payment's account that match it, among those read (readAccounts). */
function matchesOf(
	payment: Sought,
	records: AccountRecords,
	scope: Scope,
): Map<string, FoundPayment> {
	const found = new Map<string, FoundPayment>();
	matchApprovals(payment, records.approvals, scope, found);
	matchTransactions(payment, records.transactions, scope, found);
	return found;
}

/**
 * spec §Errors rule 3: after a failed retry, look the payment up before any resubmission: the account's
 * approvals for payments awaiting approval, its transactions for those submitted, matching on reference
 * (+ amount + payee). Each account is read once for all the payments of one request. A match is claimed
 * only when it cannot be an earlier payment (evidence.ts mayClaim): the request's answer named it
 * (`namedForThisKey`), it is the only match, and it is not already reported for another payment
 * (`claimed`, grown here as payments are found). Otherwise the state stays unknown and the matches are
 * listed as candidates.
 */
export async function lookUpPayments(
	this: IExecuteFunctions,
	payments: Payment[],
	claimed: XtidClaims,
	namedForThisKey: ReadonlySet<string> = new Set(),
): Promise<Map<number, LookUpFinding>> {
	const byAccount = await readAccounts.call(this, payments, 'whole');
	const findings = new Map<number, LookUpFinding>();
	const takenNow = new Set<string>();
	// an xtid the bank answered this key with is reported for this key's payments only
	const taken: XtidClaims = {
		has: (xtid) => takenNow.has(xtid) || (claimed.has(xtid) && !namedForThisKey.has(xtid)),
		add: (xtid) => takenNow.add(xtid),
	};
	for (const payment of payments) {
		const sought = soughtFor(payment);
		const found = matchesOf(sought, byAccount.get(sought.xaid) as AccountRecords, {
			claimed: taken,
		});
		const candidates = [...found.keys()];
		if (mayClaim(candidates, namedForThisKey)) {
			claimed.add(candidates[0]);
			taken.add(candidates[0]);
			findings.set(payment.itemIndex, {
				found: true,
				payment: found.get(candidates[0]) as FoundPayment,
			});
		} else {
			findings.set(payment.itemIndex, { found: false, candidates });
		}
	}
	return findings;
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
	const byAccount = await readAccounts.call(this, payments, 'whole');
	const byItem = new Map<number, string[]>();
	for (const payment of payments) {
		const sought = soughtFor(payment);
		const found = matchesOf(sought, byAccount.get(sought.xaid) as AccountRecords, { claimed });
		byItem.set(payment.itemIndex, [...found.keys()]);
	}
	return byItem;
}

/**
 * Skip Payments Already Made: the account's payments that match each payment's details (reference,
 * amount, payee, currency), made at any time, or with Look Back (`lookBackDays` above 0) in those last
 * days where the lists allow reading only those, with what their records say (approval and transaction status); every xtid the
 * lists show (`listed`), so that an answer naming one of them later is known to be a payment made
 * before; and per payment what was read (`lookedAt`, coverageNote). One read of the approvals and the
 * transactions per account.
 */
export async function paymentsAlreadyAtBank(
	this: IExecuteFunctions,
	payments: Payment[],
	lookBackDays: number,
): Promise<{
	matches: Map<number, FoundPayment[]>;
	listed: Set<string>;
	lookedAt: Map<number, string>;
}> {
	const reach: Reach = lookBackDays > 0 ? { lookBackDays } : 'whole';
	const byAccount = await readAccounts.call(this, payments, reach);
	const listed = new Set<string>();
	for (const { approvals, transactions } of byAccount.values()) {
		for (const approval of approvals) {
			const xtid = nonEmptyText(approvalPayment(approval).xtid);
			if (xtid !== undefined) listed.add(xtid);
		}
		for (const transaction of transactions) {
			const xtid = nonEmptyText(transaction.xtid);
			if (xtid !== undefined) listed.add(xtid);
		}
	}
	const nothingClaimed: XtidClaims = { has: () => false, add: () => undefined };
	const matches = new Map<number, FoundPayment[]>();
	const lookedAt = new Map<number, string>();
	for (const payment of payments) {
		const sought = soughtFor(payment);
		const records = byAccount.get(sought.xaid) as AccountRecords;
		const found = matchesOf(sought, records, { claimed: nothingClaimed });
		matches.set(payment.itemIndex, [...found.values()]);
		lookedAt.set(payment.itemIndex, coverageNote(records.coverage, lookBackDays));
	}
	return { matches, listed, lookedAt };
}

/**
 * Payment → Get Status by reference, for a payment whose transaction ID was lost: every outgoing
 * payment the account's approvals and transactions show with this reference (and this amount, when
 * given), read whole, and what was read as a sentence.
 */
export async function paymentsWithReference(
	this: IExecuteFunctions,
	sought: { xaid: string; reference: string; amount?: number },
	itemIndex: number,
): Promise<{ found: FoundPayment[]; lookedAt: string }> {
	const records = (
		await readAccounts.call(this, [{ itemIndex, body: { xaid: sought.xaid } }], 'whole')
	).get(sought.xaid) as AccountRecords;
	const nothingClaimed: XtidClaims = { has: () => false, add: () => undefined };
	const found = matchesOf(sought, records, { claimed: nothingClaimed });
	return {
		found: [...found.values()],
		lookedAt: `Looked among ${listsRead(records.coverage, 0)}.`,
	};
}

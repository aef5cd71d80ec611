import { type AccountRecord, credit, debitReserved, findAccount, release } from '../accounts/model';
import { ApiError, notFound } from '../errors';
import { toMajor } from '../money';
import type { Bank, Workspace } from '../state';

// spec §Transaction: fields "not shown"; shape and states decided in DECISIONS.md §Transactions
export interface TransactionRecord {
	xtid: string;
	xaid: string;
	direction: 'outgoing' | 'incoming';
	/**
	 * sent → settled, or sent → failed (the bank could not pay it: control `fail`); a held payment (variant
	 * `heldPaymentRecords`): PENDING_APPROVAL → DECLINED or EXPIRED, or replaced by the sent one.
	 */
	status: 'sent' | 'settled' | 'failed' | HeldPaymentStatus;
	amountMinor: number;
	currency: string;
	reference: string;
	xpid?: string;
	counterpartyName: string;
	requestId?: string;
	created: string;
	updated: string;
}

export function transactionView(record: TransactionRecord) {
	const { amountMinor, xpid, requestId, created, updated, ...rest } = record;
	return {
		...rest,
		amount: toMajor(amountMinor),
		...(xpid !== undefined && { xpid }),
		...(requestId !== undefined && { requestId }),
		created,
		updated,
	};
}

// spec §Errors 404: unknown or someone else's transaction
export function findTransaction(workspace: Workspace, xtid: string): TransactionRecord {
	const transaction = workspace.transactions.get(xtid);
	if (!transaction) throw notFound(`transaction ${xtid} not found`);
	return transaction;
}

export interface OutgoingPayment {
	xtid: string;
	account: AccountRecord;
	xpid: string;
	payeeName: string;
	amountMinor: number;
	reference: string;
	requestId: string;
}

/**
 * spec §States and transitions: a sent payment's xtid appears among the account's transactions.
 * Its funds are already reserved (pending), so only the record is added here.
 */
export function recordSentPayment(
	bank: Bank,
	workspace: Workspace,
	payment: OutgoingPayment,
): TransactionRecord {
	const now = bank.clock.iso();
	const transaction: TransactionRecord = {
		xtid: payment.xtid,
		xaid: payment.account.xaid,
		direction: 'outgoing',
		status: 'sent',
		amountMinor: payment.amountMinor,
		currency: payment.account.currency,
		reference: payment.reference,
		xpid: payment.xpid,
		counterpartyName: payment.payeeName,
		requestId: payment.requestId,
		created: now,
		updated: now,
	};
	workspace.transactions.set(transaction.xtid, transaction);
	return transaction;
}

/** Statuses of a held payment's record (DECISIONS.md §Transactions, variant `heldPaymentRecords`). */
export type HeldPaymentStatus = 'PENDING_APPROVAL' | 'DECLINED' | 'EXPIRED';

/** A bank that keeps a record of a payment held for approval: same xtid, status PENDING_APPROVAL, nothing moved yet. */
export function recordHeldPayment(
	bank: Bank,
	workspace: Workspace,
	payment: OutgoingPayment,
): TransactionRecord {
	const transaction = recordSentPayment(bank, workspace, payment);
	transaction.status = 'PENDING_APPROVAL';
	return transaction;
}

/** The held payment's record after a decline or an expiry; an approval replaces it with the sent one instead. */
export function closeHeldPayment(
	bank: Bank,
	workspace: Workspace,
	xtid: string,
	status: Exclude<HeldPaymentStatus, 'PENDING_APPROVAL'>,
): void {
	const transaction = workspace.transactions.get(xtid);
	if (transaction?.status !== 'PENDING_APPROVAL') return;
	transaction.status = status;
	transaction.updated = bank.clock.iso();
}

// spec §States and transitions, last row: sent → settled, TransactionConfirmed to subscribers
export function settle(
	bank: Bank,
	workspace: Workspace,
	transaction: TransactionRecord,
): TransactionRecord {
	if (transaction.direction !== 'outgoing' || transaction.status !== 'sent') {
		throw new ApiError(
			409,
			`transaction ${transaction.xtid} is not an outgoing transaction in flight`,
		);
	}
	debitReserved(findAccount(workspace, transaction.xaid), transaction.amountMinor);
	transaction.status = 'settled';
	transaction.updated = bank.clock.iso();
	bank.emit({
		event: 'TransactionConfirmed',
		workspaceId: workspace.id,
		xaid: transaction.xaid,
		xtid: transaction.xtid,
		occurredAt: transaction.updated,
	});
	return transaction;
}

/** A sent payment the bank could not pay after all: nothing leaves, its reservation is released. */
export function fail(
	bank: Bank,
	workspace: Workspace,
	transaction: TransactionRecord,
): TransactionRecord {
	if (transaction.direction !== 'outgoing' || transaction.status !== 'sent') {
		throw new ApiError(
			409,
			`transaction ${transaction.xtid} is not an outgoing transaction in flight`,
		);
	}
	release(findAccount(workspace, transaction.xaid), transaction.amountMinor);
	transaction.status = 'failed';
	transaction.updated = bank.clock.iso();
	return transaction;
}

export interface IncomingMoney {
	amountMinor: number;
	reference: string;
	counterpartyName: string;
	/** Seeding history sends no webhooks. */
	silent?: boolean;
}

// spec §Events: TransactionReceived — money arrived; ledger and available rise at once
export function receive(
	bank: Bank,
	workspace: Workspace,
	account: AccountRecord,
	money: IncomingMoney,
): TransactionRecord {
	if (!Number.isSafeInteger(money.amountMinor) || money.amountMinor <= 0) {
		throw new ApiError(400, 'amount must be a positive amount with at most 2 decimals');
	}
	const now = bank.clock.iso();
	const transaction: TransactionRecord = {
		xtid: bank.random.uuid(),
		xaid: account.xaid,
		direction: 'incoming',
		status: 'settled',
		amountMinor: money.amountMinor,
		currency: account.currency,
		reference: money.reference,
		counterpartyName: money.counterpartyName,
		created: now,
		updated: now,
	};
	credit(account, money.amountMinor);
	workspace.transactions.set(transaction.xtid, transaction);
	if (!money.silent) {
		bank.emit({
			event: 'TransactionReceived',
			workspaceId: workspace.id,
			xaid: account.xaid,
			xtid: transaction.xtid,
			occurredAt: now,
		});
	}
	return transaction;
}

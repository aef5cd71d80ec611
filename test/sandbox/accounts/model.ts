import { notFound, unauthorized } from '../errors';
import { toMajor } from '../money';
import type { Workspace } from '../state';

// spec §Account: ACTIVE occurs; SUSPENDED is the sandbox's inactive value (DECISIONS.md)
export type AccountStatus = 'ACTIVE' | 'SUSPENDED';

export interface Account {
	xaid: string;
	status: AccountStatus;
	type: 'IBAN' | 'SCAN';
	currency: string;
	name: string;
	accountNumber: string;
	sortCode: string;
	iban: string;
	bic: string;
	fullName: string;
	companyName: string;
	companyReg: string;
	legalEntity: string;
	isBusiness: boolean;
	customerType: string;
	displayName: string;
	defaultAccount: boolean;
	externalReference: string;
	createdDate: string;
}

/** Ledger and reservations in minor units; available is derived so it can never drift. */
export interface AccountRecord extends Account {
	ledgerMinor: number;
	pendingMinor: number;
}

/** The fields of spec §Account, in its order. */
export function accountView(record: AccountRecord): Account {
	return {
		xaid: record.xaid,
		status: record.status,
		type: record.type,
		currency: record.currency,
		name: record.name,
		accountNumber: record.accountNumber,
		sortCode: record.sortCode,
		iban: record.iban,
		bic: record.bic,
		fullName: record.fullName,
		companyName: record.companyName,
		companyReg: record.companyReg,
		legalEntity: record.legalEntity,
		isBusiness: record.isBusiness,
		customerType: record.customerType,
		displayName: record.displayName,
		defaultAccount: record.defaultAccount,
		externalReference: record.externalReference,
		createdDate: record.createdDate,
	};
}

export function availableMinor(record: AccountRecord): number {
	return record.ledgerMinor - record.pendingMinor;
}

// spec §Balance: balance = ledger; pending = awaiting approval or in flight; available = spendable now
export function balanceView(record: AccountRecord) {
	return {
		currency: record.currency,
		balance: toMajor(record.ledgerMinor),
		availableBalance: toMajor(availableMinor(record)),
		pendingBalance: toMajor(record.pendingMinor),
	};
}

/**
 * spec §Errors 401: an account that does not exist or is not the caller's is answered like a bad token.
 * Callers answering a request pass `bank.variants.unknownAccount`, as some banks answer 404 instead.
 */
export function findAccount(
	workspace: Workspace,
	xaid: string,
	unknownStatus: 401 | 404 = 401,
): AccountRecord {
	const account = workspace.accounts.get(xaid);
	if (!account) {
		const message = `account ${xaid} does not exist or does not belong to the caller`;
		throw unknownStatus === 404 ? notFound(message) : unauthorized(message);
	}
	return account;
}

/** Funds committed to an outgoing payment (awaiting approval or in flight). */
export function reserve(account: AccountRecord, minor: number): void {
	account.pendingMinor += minor;
}

export function release(account: AccountRecord, minor: number): void {
	account.pendingMinor -= minor;
}

/** Settlement of an outgoing payment: the reservation becomes a ledger debit. */
export function debitReserved(account: AccountRecord, minor: number): void {
	account.pendingMinor -= minor;
	account.ledgerMinor -= minor;
}

export function credit(account: AccountRecord, minor: number): void {
	account.ledgerMinor += minor;
}

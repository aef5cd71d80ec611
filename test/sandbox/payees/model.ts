import type { AccountRecord } from '../accounts/model';
import { ApiError, badRequest, notFound } from '../errors';
import type { Bank, Workspace } from '../state';
import {
	missingBankDetails,
	PAYEE_TEXT_FIELDS,
	parsePayeeInput,
	type PayeeInput,
	type PayeeTextField,
	REQUIRED_ON_CREATE,
} from './schema';

/** spec §Payee: every field, strings unless stated; unset optional fields are "" (DECISIONS.md). */
export type PayeeRecord = Record<PayeeTextField, string> & {
	xpid: string;
	xid: string;
	xaid: string;
	currency: string;
	isBusiness: boolean;
	created: string;
	updated: string;
};

export function payeeView(record: PayeeRecord): PayeeRecord {
	return { ...record };
}

// spec §Errors 404: unknown payee, or not the caller's, or not of the specified account
export function findPayee(workspace: Workspace, xpid: string, xaid?: string): PayeeRecord {
	const payee = workspace.payees.get(xpid);
	if (!payee || (xaid !== undefined && payee.xaid !== xaid)) {
		throw notFound(
			xaid === undefined ? `payee ${xpid} not found` : `payee ${xpid} not found on account ${xaid}`,
		);
	}
	return payee;
}

// spec §Errors 429: on payee endpoints, the specified account is not active
export function requireActive(account: AccountRecord): void {
	if (account.status !== 'ACTIVE') {
		throw new ApiError(429, `account ${account.xaid} is not active (status ${account.status})`);
	}
}

function asObject(body: unknown): Record<string, unknown> {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		throw badRequest('body must be a JSON object of payee fields');
	}
	return body as Record<string, unknown>;
}

function fail(errors: string[]): void {
	if (errors.length > 0) throw badRequest(errors.join('; '));
}

// spec §Create: required fields, conditional bank details, every value by §Payee validation rules
export function createPayee(
	bank: Bank,
	workspace: Workspace,
	account: AccountRecord,
	body: unknown,
): PayeeRecord {
	const { values, invalid, errors } = parsePayeeInput(asObject(body), account.currency);
	const missing = REQUIRED_ON_CREATE.filter(
		(field) => values[field] === undefined && !invalid.includes(field),
	).map((field) => `${field} is required`);
	fail([...errors, ...missing, ...missingBankDetails(account.currency, values, invalid)]);
	const now = bank.clock.iso();
	const payee = {
		xpid: bank.random.uuid(),
		xid: workspace.ownerXid,
		xaid: account.xaid,
		currency: account.currency,
		...blankFields(),
		...values,
		isBusiness: values.isBusiness ?? false,
		created: now,
		updated: now,
	};
	workspace.payees.set(payee.xpid, payee);
	return payee;
}

// spec §Update: every field optional; changed bank details are re-validated on the merged payee
export function updatePayee(
	bank: Bank,
	account: AccountRecord,
	payee: PayeeRecord,
	body: unknown,
): PayeeRecord {
	const { values, cleared, invalid, errors } = parsePayeeInput(asObject(body), account.currency);
	const clearedRequired = cleared
		.filter((field) => REQUIRED_ON_CREATE.includes(field))
		.map((field) => `${field} cannot be empty`);
	const merged: PayeeInput = { ...payee, ...values };
	for (const field of cleared) merged[field] = '';
	fail([...errors, ...clearedRequired, ...missingBankDetails(account.currency, merged, invalid)]);
	Object.assign(payee, merged, { updated: bank.clock.iso() });
	return payee;
}

// spec §Upsert rules 1-2: no xpid → create; xpid → update that payee of the account (404 if unknown)
export function upsertPayee(
	bank: Bank,
	workspace: Workspace,
	account: AccountRecord,
	body: unknown,
): { payee: PayeeRecord; created: boolean } {
	const fields = asObject(body);
	const xpid = fields.xpid;
	if (xpid === undefined || xpid === null || xpid === '') {
		return { payee: createPayee(bank, workspace, account, fields), created: true };
	}
	if (typeof xpid !== 'string') throw badRequest('xpid must be a string');
	return {
		payee: updatePayee(bank, account, findPayee(workspace, xpid, account.xaid), fields),
		created: false,
	};
}

function blankFields(): Record<PayeeTextField, string> {
	return Object.fromEntries(PAYEE_TEXT_FIELDS.map((field) => [field, ''])) as Record<
		PayeeTextField,
		string
	>;
}

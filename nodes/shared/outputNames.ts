import type { IDataObject } from 'n8n-workflow';

/**
 * The names outputs give the bank's identifiers (spec §Identifiers: xaid, xpid, xtid, ref; spec §Approval:
 * parent_xaid), the same in the action node, the Customer Banking Trigger and the Customer Banking
 * Approval Trigger, so that one node's output maps straight into another's fields. The bank's records
 * passed on as it sent them (Simplify off) keep the bank's names. `approvalRef` and `requestId` are the
 * payment code's own names for the approval's ref and the payment answer's requestId.
 */
export const PLAIN_NAMES = {
	xaid: 'accountId',
	parent_xaid: 'accountId',
	xpid: 'payeeId',
	xtid: 'transactionId',
	xtids: 'transactionIds',
	ref: 'approvalId',
	approvalRef: 'approvalId',
	requestId: 'bankRequestId',
} as const satisfies Readonly<Record<string, string>>;

type BankName = keyof typeof PLAIN_NAMES;

const isBankName = (key: string): key is BankName => Object.hasOwn(PLAIN_NAMES, key);

/** A copy of the record's top level with the bank's identifier names replaced by the plain ones. */
export function withPlainNames(record: IDataObject): IDataObject {
	const renamed: IDataObject = {};
	for (const [key, value] of Object.entries(record))
		renamed[isBankName(key) ? PLAIN_NAMES[key] : key] = value;
	return renamed;
}

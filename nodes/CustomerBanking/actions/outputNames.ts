import type { IDataObject } from 'n8n-workflow';

/**
 * The names outputs give the bank's identifiers (spec §Identifiers: xaid, xpid, xtid, ref), the same in
 * the action node, the Customer Banking Trigger and the Customer Banking Approval Trigger, so that one
 * node's output maps straight into another's fields. Records passed on as the bank sent them (Simplify
 * off) keep the bank's names.
 */
export const PLAIN_NAMES: Readonly<Record<string, string>> = {
	xaid: 'accountId',
	xpid: 'payeeId',
	xtid: 'transactionId',
	xtids: 'transactionIds',
	approvalRef: 'approvalId',
	requestId: 'bankRequestId',
};

/** A copy of the record's top level with the bank's identifier names replaced by the plain ones. */
export function withPlainNames(record: IDataObject): IDataObject {
	const renamed: IDataObject = {};
	for (const [key, value] of Object.entries(record))
		renamed[Object.hasOwn(PLAIN_NAMES, key) ? PLAIN_NAMES[key] : key] = value;
	return renamed;
}

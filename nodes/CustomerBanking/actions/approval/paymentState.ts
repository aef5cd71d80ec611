import type { IDataObject } from 'n8n-workflow';

import { approvalXtid } from '../../../shared/approvals/approvalRecords';
import { nonEmptyText } from '../../../shared/records';
import { stateOf } from '../../payments/earlierPayments';

/** What Simplify's description says of the field withPaymentState adds. */
export const PAYMENT_STATE_IN_WORDS =
	"; beside them, the payment's state: waiting for approval, sent, not sent or not known, as Payment → Get Status says it";

/**
 * A simplified approval and, beside it, what it says of its payment in the package's words (waiting for
 * approval, sent, not sent, or not known with what the record says): the evidence table's status for
 * this record, as Submit, Get Status and Skip Payments Already Made read the same one. The approval
 * alone is read; Payment → Get Status also reads the payment's transaction.
 */
export function withPaymentState(simplified: IDataObject, approval: IDataObject): IDataObject {
	return {
		...simplified,
		paymentState: stateOf({
			xtid: approvalXtid(approval) ?? 'not shown',
			foundIn: 'approvals',
			approvalRef: nonEmptyText(approval.ref),
			approvalStatus: nonEmptyText(approval.status),
		}),
	};
}

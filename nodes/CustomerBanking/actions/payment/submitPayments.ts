import type { IExecuteFunctions } from 'n8n-workflow';

import type { Grouping } from '../../payments/paymentPlan';
import { PaymentRun } from '../../payments/paymentRun';
import type { ItemOutput } from '../types';
import { invalidItems, runItems, validatedItems } from './paymentItems';
import { lookBackDaysOf, readPayments, skipsAlreadyMade } from './readPayment';
import { readSpendingLimits } from './spendingLimitOptions';

/**
 * Submit and Submit Batch: every item is checked before the first payment is sent (a bad item 57 must
 * not leave 56 payments sent and the workflow failed, because running it again would be a new execution
 * with new keys); then the run sends the valid ones (PaymentRun), or Validate Only shows the requests
 * they would go in. Invalid items, with Continue On Fail, are left out of the requests.
 */
export async function submitPayments(
	this: IExecuteFunctions,
	itemIndexes: number[],
	grouping: Grouping,
	resubmitWhen?: RegExp,
): Promise<ItemOutput[]> {
	const first = itemIndexes[0];
	const skipAlreadyMade = skipsAlreadyMade.call(this, first);
	const lookBackDays = lookBackDaysOf.call(this, first);
	const run = new PaymentRun(this);
	const limits = readSpendingLimits.call(this, first);
	const read = readPayments.call(this, itemIndexes, skipAlreadyMade);
	const payments = read.flatMap((entry) => (entry.valid ? [entry.payment] : []));
	if (this.getNodeParameter('options.validateOnly', first, false) === true) {
		const requests = run.requestsOf(payments, { skipAlreadyMade, grouping });
		return validatedItems(read, requests, grouping);
	}
	const invalid = invalidItems(this.continueOnFail(), read);
	if (invalid.stop) return invalid.items;
	const options = { skipAlreadyMade, lookBackDays, limits, grouping, resubmitWhen };
	return [...invalid.items, ...runItems(await run.execute(payments, options), grouping)];
}

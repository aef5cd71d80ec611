import type { IDataObject } from 'n8n-workflow';

import type { ApiRequestOptions, BankClock } from '../transport';

/** One validated payment (validation/payment.schema.ts): its request body and the input item it came from. */
export interface Payment {
	itemIndex: number;
	body: IDataObject;
	/** The Custom Idempotency Key as the user gave it. */
	customKey?: string;
}

/** spec §Errors rule 3, as the error of a payment request that may have been processed says it. */
const LOOK_PAYMENT_UP =
	'The payment may have been processed: look it up (approvals for payments awaiting approval, transactions otherwise, matching on reference) before sending it again.';

/**
 * The request that sends one payment object, or a batch as an array, under one key: safe to resend
 * with the same key and body (spec §Payments rule 2, §Errors rule 2).
 */
export function paymentRequest(
	key: string,
	body: IDataObject | IDataObject[],
	itemIndex?: number,
	bankClock?: BankClock,
): ApiRequestOptions {
	return {
		bankClock,
		method: 'POST',
		path: '/payments',
		body,
		idempotencyKey: key,
		retry: 'safe',
		whenOutcomeUnknown: LOOK_PAYMENT_UP,
		itemIndex,
	};
}

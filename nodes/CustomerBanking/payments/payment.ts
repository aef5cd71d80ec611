import type { IDataObject } from 'n8n-workflow';

import { type ApiRequestOptions, ENDPOINTS, requestOptionsOf } from '../transport';

/** One validated payment (validation/payment.schema.ts): its request body and the input item it came from. */
export interface Payment {
	itemIndex: number;
	body: IDataObject;
	/** The Custom Idempotency Key as the user gave it. */
	customKey?: string;
}

/**
 * The request that sends one payment object, or a batch as an array, under one key: safe to resend
 * with the same key and body (spec §Payments rule 2, §Errors rule 2).
 */
export function paymentRequest(
	key: string,
	body: IDataObject | IDataObject[],
	itemIndex?: number,
): ApiRequestOptions {
	return requestOptionsOf(ENDPOINTS.payments.at({}), { body, idempotencyKey: key, itemIndex });
}

import type { IDataObject } from 'n8n-workflow';

/** One validated payment (validation/payment.schema.ts): its request body and the input item it came from. */
export interface Payment {
	itemIndex: number;
	body: IDataObject;
	/** The Custom Idempotency Key as the user gave it. */
	customKey?: string;
	/**
	 * Send Again If Refused, set for this item: sent again when every payment the bank shows with the
	 * same details was refused (paymentPlan.ts).
	 */
	sendAgainIfRefused?: true;
}

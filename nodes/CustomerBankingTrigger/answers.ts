import type { IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

/**
 * What the bank is told when a delivery goes no further than the webhook call (and then nothing is
 * emitted): `response` is what `webhook()` returns to n8n for it.
 */
export class Answer {
	constructor(readonly response: IWebhookResponseData) {}
}

/** Refuses a delivery without starting an execution. */
export function refuse(this: IWebhookFunctions, status: 400 | 401): Answer {
	this.getResponseObject().status(status).end();
	return new Answer({ noWebhookResponse: true });
}

/** Asks the bank to deliver again later (a retryable answer), without starting an execution. */
export function deferDelivery(
	this: IWebhookFunctions,
	retryAfterSeconds: number,
	reason: string,
): Answer {
	const response = this.getResponseObject();
	response.status(503);
	response.setHeader('Retry-After', String(retryAfterSeconds));
	response.json({ received: false, reason });
	return new Answer({ noWebhookResponse: true });
}

/** Acknowledges a delivery with 200 without starting an execution. */
export function acknowledge(reason: string): Answer {
	return new Answer({ webhookResponse: { received: true, emitted: false, reason } });
}

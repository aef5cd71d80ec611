import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * spec §Events: the two kinds POST /webhooks/subscribe accepts, with what the node's Events list shows
 * for each (sorted by name, as n8n's lint wants it). Every other list of events derives from this one.
 */
export const BANKING_EVENT_OPTIONS = [
	{
		name: 'Transaction Confirmed',
		value: 'TransactionConfirmed',
		description: 'An outgoing transaction on the account has settled',
	},
	{
		name: 'Transaction Received',
		value: 'TransactionReceived',
		description: 'Money arrived on the account',
	},
] as const satisfies readonly INodePropertyOptions[];

export type BankingEvent = (typeof BANKING_EVENT_OPTIONS)[number]['value'];

export const BANKING_EVENTS: readonly BankingEvent[] = BANKING_EVENT_OPTIONS.map(
	(option) => option.value,
);

export function isBankingEvent(value: unknown): value is BankingEvent {
	return typeof value === 'string' && (BANKING_EVENTS as readonly string[]).includes(value);
}

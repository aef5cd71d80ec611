import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * The one table of the webhook trigger's events: what the node's Events list shows for each (sorted by
 * name, as n8n's lint wants it), its value in the package's casing (the Events field, the output's
 * `event`), and the bank's word for it (spec §Events, §Webhook subscriptions: the kinds
 * POST /webhooks/subscribe accepts), used only on the wire. Every other list of events derives from it.
 */
const EVENT_TABLE = [
	{
		name: 'Transaction Confirmed',
		value: 'transactionConfirmed',
		bankWord: 'TransactionConfirmed',
		description: 'An outgoing transaction on the account has settled',
	},
	{
		name: 'Transaction Received',
		value: 'transactionReceived',
		bankWord: 'TransactionReceived',
		description: 'Money arrived on the account',
	},
] as const;

type EventRow = (typeof EVENT_TABLE)[number];

export type BankingEvent = EventRow['value'];

/** The bank's word for an event, as subscribed and as its deliveries say it. */
export type BankEventWord = EventRow['bankWord'];

export const BANKING_EVENT_OPTIONS: readonly INodePropertyOptions[] = EVENT_TABLE.map(
	({ name, value, description }) => ({ name, value, description }),
);

export const BANKING_EVENTS: readonly BankingEvent[] = EVENT_TABLE.map((row) => row.value);

export function isBankingEvent(value: unknown): value is BankingEvent {
	return EVENT_TABLE.some((row) => row.value === value);
}

const ROW_OF = Object.fromEntries(EVENT_TABLE.map((row) => [row.value, row])) as Record<
	BankingEvent,
	EventRow
>;

export function bankWordOf(event: BankingEvent): BankEventWord {
	return ROW_OF[event].bankWord;
}

/** The name the Events field shows for an event. */
export function eventName(event: BankingEvent): string {
	return ROW_OF[event].name;
}

/** The event a delivery's word names: only a word of the table, exactly as written; else undefined. */
export function eventOfBankWord(word: unknown): BankingEvent | undefined {
	return EVENT_TABLE.find((row) => row.bankWord === word)?.value;
}

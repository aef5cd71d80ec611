import fc from 'fast-check';

import {
	BANKING_EVENT_OPTIONS,
	BANKING_EVENTS,
	bankWordOf,
	eventOfBankWord,
	isBankingEvent,
} from '../../../nodes/CustomerBankingTrigger/events';

const BANK_WORDS = ['TransactionConfirmed', 'TransactionReceived'];

describe('the events the trigger subscribes to (spec §Events)', () => {
	it("the two kinds the bank accepts, in the package's casing, listed by name as the Events field shows them", () => {
		expect(BANKING_EVENTS).toEqual(['transactionConfirmed', 'transactionReceived']);
		expect(BANKING_EVENT_OPTIONS).toEqual([
			{
				name: 'Transaction Confirmed',
				value: 'transactionConfirmed',
				description: 'An outgoing transaction on the account has settled',
			},
			{
				name: 'Transaction Received',
				value: 'transactionReceived',
				description: 'Money arrived on the account',
			},
		]);
		const names = BANKING_EVENT_OPTIONS.map((option) => option.name);
		expect(names).toEqual([...names].sort());
	});

	it.each([
		['transactionConfirmed', true],
		['transactionReceived', true],
		['TransactionConfirmed', false],
		['TransactionReceived', false],
		['transactionreceived', false],
		['PaymentCreated', false],
		['', false],
		[undefined, false],
		[['transactionReceived'], false],
	])('%j is an event of the Events field: %s', (value, isEvent) => {
		expect(isBankingEvent(value)).toBe(isEvent);
	});
});

describe("the bank's word for each event (spec §Events, §Webhook subscriptions: on the wire only)", () => {
	it.each([
		['transactionConfirmed', 'TransactionConfirmed'],
		['transactionReceived', 'TransactionReceived'],
	] as const)('%s is %s on the wire', (event, word) => {
		expect(bankWordOf(event)).toBe(word);
		expect(eventOfBankWord(word)).toBe(event);
	});

	it.each([
		'transactionConfirmed',
		'TRANSACTIONCONFIRMED',
		'Transactionconfirmed',
		' TransactionConfirmed',
		'TransactionConfirmed ',
		'TransactionConfirmed\n',
		'Transaction Confirmed',
		'transaction_confirmed',
		'PaymentCreated',
		'',
		'constructor',
		'__proto__',
		'toString',
		'hasOwnProperty',
	])('%j is not a word the bank sends: unknown', (word) => {
		expect(eventOfBankWord(word)).toBeUndefined();
	});

	it.each([undefined, null, 1, true, ['TransactionConfirmed'], { TransactionConfirmed: true }])(
		'%j is not a word: unknown',
		(value) => {
			expect(eventOfBankWord(value)).toBeUndefined();
		},
	);

	it('only the exact words of the table are known, and each maps back to itself', () => {
		fc.assert(
			fc.property(fc.oneof(fc.string(), fc.constantFrom(...BANK_WORDS)), (word) => {
				const event = eventOfBankWord(word);
				if (BANK_WORDS.includes(word)) {
					expect(event).toBeDefined();
					expect(bankWordOf(event!)).toBe(word);
				} else {
					expect(event).toBeUndefined();
				}
			}),
		);
	});

	it('every event has its own word', () => {
		expect(new Set(BANKING_EVENTS.map(bankWordOf)).size).toBe(BANKING_EVENTS.length);
	});
});

import {
	BANKING_EVENT_OPTIONS,
	BANKING_EVENTS,
	isBankingEvent,
} from '../../../nodes/CustomerBankingTrigger/events';

describe('the events the trigger subscribes to (spec §Events)', () => {
	it('the two kinds the bank accepts, listed by name as the Events field shows them', () => {
		expect(BANKING_EVENTS).toEqual(['TransactionConfirmed', 'TransactionReceived']);
		const names = BANKING_EVENT_OPTIONS.map((option) => option.name);
		expect(names).toEqual([...names].sort());
	});

	it.each([
		['TransactionConfirmed', true],
		['TransactionReceived', true],
		['transactionreceived', false],
		['PaymentCreated', false],
		['', false],
		[undefined, false],
		[['TransactionReceived'], false],
	])('%j is a banking event: %s', (value, isEvent) => {
		expect(isBankingEvent(value)).toBe(isEvent);
	});
});

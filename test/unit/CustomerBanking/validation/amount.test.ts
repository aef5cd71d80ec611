/**
 * The amount rule: a number or plain decimal text, at most two decimal places (never rounded), greater
 * than 0; and the one conversion to minor units (cents) every comparison and sum uses.
 */
import {
	AMOUNT_RULES,
	readAmount,
	toMinorUnits,
} from '../../../../nodes/CustomerBanking/validation/amount';

describe('readAmount', () => {
	it.each<[unknown, number]>([
		[125, 125],
		[125.5, 125.5],
		[0.01, 0.01],
		['125', 125],
		['125.50', 125.5],
		[' 7.25 ', 7.25],
		// trailing zeros are exact
		['10.120', 10.12],
		// float noise from an expression is the cent it means
		[0.1 + 0.2, 0.3],
	])('%j → %s', (value, amount) => {
		expect(readAmount(value)).toEqual({ amount });
	});

	it.each<[unknown, string]>([
		[undefined, AMOUNT_RULES.required],
		[null, AMOUNT_RULES.required],
		[0, AMOUNT_RULES.positive],
		[-5, AMOUNT_RULES.positive],
		['0.00', AMOUNT_RULES.positive],
		[1.234, AMOUNT_RULES.decimals],
		['1.234', AMOUNT_RULES.decimals],
		// never rounded to the cent, however close
		[1.005, AMOUNT_RULES.decimals],
		['1,000.50', AMOUNT_RULES.separators],
		['1 000', AMOUNT_RULES.separators],
		['12,5', AMOUNT_RULES.separators],
		['1e3', AMOUNT_RULES.notANumber],
		['abc', AMOUNT_RULES.notANumber],
		['', AMOUNT_RULES.required],
		[Number.NaN, AMOUNT_RULES.notANumber],
		[Number.POSITIVE_INFINITY, AMOUNT_RULES.notANumber],
		[1e300, AMOUNT_RULES.notANumber],
		[true, AMOUNT_RULES.notANumber],
		[{ amount: 1 }, AMOUNT_RULES.notANumber],
	])('%j is refused: %s', (value, problem) => {
		expect(readAmount(value)).toEqual({ problem });
	});
});

describe('toMinorUnits', () => {
	it.each([
		[12.5, 1250],
		[0.1 + 0.2, 30],
		[19.99, 1999],
		[0, 0],
	])('%s → %s cents', (amount, cents) => {
		expect(toMinorUnits(amount)).toBe(cents);
	});
});

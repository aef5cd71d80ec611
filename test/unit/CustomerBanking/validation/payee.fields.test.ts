/**
 * The payee field table's rules that other modules read: the bank details each currency requires
 * (spec §Bank details required by currency; any other currency is international), the reference
 * length per currency, which fields identify an account, and the form's hints from the same rules.
 */
import {
	ACCOUNT_IDENTIFYING_FIELDS,
	BANK_DETAIL_FIELDS,
	bankDetailsRequiredFor,
	lengthRule,
	PAYEE_FIELD_NAMES,
	PAYEE_NAME,
	payeeField,
	payeeFieldHint,
	REQUIRED_ON_CREATE,
	referenceLength,
} from '../../../../nodes/CustomerBanking/validation/payee.fields';

describe('bankDetailsRequiredFor', () => {
	it.each<[string, string[]]>([
		['GBP', ['sortCode', 'accountNumber']],
		['USD', ['accountNumber', 'aba']],
		['CAD', ['institutionNumber', 'transitNumber', 'accountNumber']],
		['EUR', ['iban', 'bic']],
		['JPY', ['iban', 'bic']],
		['gbp', ['iban', 'bic']],
		['', ['iban', 'bic']],
	])('%s → %j', (currency, required) => {
		expect(bankDetailsRequiredFor(currency)).toEqual(required);
	});
});

describe('referenceLength and lengthRule', () => {
	it('6-18 characters on GBP accounts, 6-140 on others', () => {
		expect(referenceLength('GBP')).toEqual({ min: 6, max: 18 });
		expect(referenceLength('EUR')).toEqual({ min: 6, max: 140 });
		expect(referenceLength(undefined)).toEqual({ min: 6, max: 140 });
	});

	it('words a length', () => {
		expect(lengthRule({ max: 50 })).toBe('at most 50 characters');
		expect(lengthRule({ min: 1, max: 50 })).toBe('1-50 characters');
	});
});

describe('the field groups', () => {
	it('every field the bank details format requires is a bank detail; identifying ones are among them', () => {
		for (const currency of ['GBP', 'USD', 'CAD', 'EUR'])
			for (const field of bankDetailsRequiredFor(currency))
				expect(BANK_DETAIL_FIELDS).toContain(field);
		expect(ACCOUNT_IDENTIFYING_FIELDS.length).toBeGreaterThan(0);
		for (const field of ACCOUNT_IDENTIFYING_FIELDS) {
			expect(BANK_DETAIL_FIELDS).toContain(field);
			expect(payeeField(field).describesBank).not.toBe(true);
		}
		expect(ACCOUNT_IDENTIFYING_FIELDS).toEqual(
			expect.arrayContaining(['sortCode', 'accountNumber', 'iban']),
		);
		expect(REQUIRED_ON_CREATE).toContain('name');
	});

	it('a hint for every field, the same rule the schema enforces', () => {
		for (const field of PAYEE_FIELD_NAMES) expect(typeof payeeFieldHint(field)).toBe('string');
		expect(payeeFieldHint('reference')).toBe('6-18 characters on GBP accounts, 6-140 on others');
		expect(payeeFieldHint('name')).toMatch(
			/characters: letters, digits, spaces and the punctuation/,
		);
	});

	it.each([
		['Acme & Sons (UK) Ltd.', true],
		['Café', false],
		['Acme/Sons', false],
	])('a payee name %j is allowed: %s', (name, allowed) => {
		expect(PAYEE_NAME.test(name)).toBe(allowed);
	});
});

import { AMOUNT_RULES } from '../../../../nodes/CustomerBanking/validation/amount';
import {
	formatIssues,
	validatePayment,
	type PaymentInput,
} from '../../../../nodes/CustomerBanking/validation/payment.schema';

const valid: PaymentInput = {
	xaid: '3f1c2a9e-6d1b-4c8e-9a57-0c1d2e3f4a5b',
	xpid: 'pye_8f2k1q',
	amount: 125.5,
	reference: 'INV-000123',
};

function issuesOf(input: PaymentInput) {
	const result = validatePayment(input);
	if (result.valid) throw new Error(`expected issues, got body ${JSON.stringify(result.body)}`);
	return result.issues;
}

function bodyOf(input: PaymentInput) {
	const result = validatePayment(input);
	if (!result.valid) throw new Error(`expected a body, got ${formatIssues(result.issues)}`);
	return result.body;
}

describe('payment schema: body', () => {
	it('builds the DECISIONS.md payment object from the fields', () => {
		expect(bodyOf(valid)).toEqual({
			xaid: '3f1c2a9e-6d1b-4c8e-9a57-0c1d2e3f4a5b',
			xpid: 'pye_8f2k1q',
			amount: 125.5,
			reference: 'INV-000123',
		});
	});

	it('adds currency (upper-cased), description and passes Additional Body Fields through', () => {
		expect(
			bodyOf({
				...valid,
				currency: 'gbp',
				description: 'April rent',
				additionalBodyFields: { purposeCode: 'RENT' },
			}),
		).toEqual({ ...valid, currency: 'GBP', description: 'April rent', purposeCode: 'RENT' });
	});

	it('leaves empty optional fields out', () => {
		expect(bodyOf({ ...valid, currency: '', description: '  ' })).toEqual(valid);
	});

	it('accepts a numeric string amount (what the form and expressions give) and sends a number', () => {
		expect(bodyOf({ ...valid, amount: '12.50' }).amount).toBe(12.5);
		expect(bodyOf({ ...valid, amount: ' 1000 ' }).amount).toBe(1000);
		expect(bodyOf({ ...valid, amount: '10.120' }).amount).toBe(10.12);
	});

	it('rounds float noise to the cent it means, and never rounds a third decimal', () => {
		expect(bodyOf({ ...valid, amount: 0.1 + 0.2 }).amount).toBe(0.3);
		expect(issuesOf({ ...valid, amount: 10.005 })).toEqual([
			{ field: 'Amount', rule: AMOUNT_RULES.decimals },
		]);
	});
});

describe('payment schema: rules', () => {
	it.each([
		[0, AMOUNT_RULES.positive],
		['0', AMOUNT_RULES.positive],
		['0.00', AMOUNT_RULES.positive],
		[-5, AMOUNT_RULES.positive],
		['-5', AMOUNT_RULES.positive],
		['-50', AMOUNT_RULES.positive],
		[0.001, AMOUNT_RULES.decimals],
		['10.123', AMOUNT_RULES.decimals],
		['12,50', AMOUNT_RULES.separators],
		['1,000.50', AMOUNT_RULES.separators],
		['1.000,50', AMOUNT_RULES.separators],
		['1 000.50', AMOUNT_RULES.separators],
		['abc', AMOUNT_RULES.notANumber],
		['12.5 EUR', AMOUNT_RULES.notANumber],
		['1e3', AMOUNT_RULES.notANumber],
		[Number.NaN, AMOUNT_RULES.notANumber],
		[Number.POSITIVE_INFINITY, AMOUNT_RULES.notANumber],
		[true, AMOUNT_RULES.notANumber],
		[undefined, AMOUNT_RULES.required],
		['', AMOUNT_RULES.required],
		['   ', AMOUNT_RULES.required],
	])('amount %p: %s', (amount, rule) => {
		expect(issuesOf({ ...valid, amount })).toEqual([{ field: 'Amount', rule }]);
	});

	it('reference: 6-18 characters for GBP (spec §Payee validation rules)', () => {
		expect(bodyOf({ ...valid, currency: 'GBP', reference: 'x'.repeat(18) }).reference).toHaveLength(
			18,
		);
		expect(issuesOf({ ...valid, currency: 'GBP', reference: 'x'.repeat(19) })).toEqual([
			{ field: 'Reference', rule: 'must be 6-18 characters for GBP (has 19)' },
		]);
		expect(issuesOf({ ...valid, currency: 'gbp', reference: 'INV-1' })).toEqual([
			{ field: 'Reference', rule: 'must be 6-18 characters for GBP (has 5)' },
		]);
	});

	it('reference: 6-140 characters for other or unknown currencies', () => {
		expect(
			bodyOf({ ...valid, currency: 'EUR', reference: 'x'.repeat(140) }).reference,
		).toHaveLength(140);
		expect(bodyOf({ ...valid, reference: 'x'.repeat(19) }).reference).toHaveLength(19);
		expect(issuesOf({ ...valid, currency: 'EUR', reference: 'x'.repeat(141) })).toEqual([
			{ field: 'Reference', rule: 'must be 6-140 characters (has 141)' },
		]);
		expect(issuesOf({ ...valid, reference: '' })).toEqual([
			{ field: 'Reference', rule: 'is required' },
		]);
	});

	it('account must be a UUID (where to find one is said), payee is required', () => {
		expect(issuesOf({ ...valid, xaid: 'acc-1', xpid: ' ' })).toEqual([
			{
				field: 'Source Account',
				rule: "must be an account ID (a UUID), not a name: Account → Get Many lists each account's ID, and the form's account list picks one by name",
			},
			{ field: 'Payee', rule: 'is required' },
		]);
	});

	it('currency must be a 3-letter code', () => {
		expect(issuesOf({ ...valid, currency: 'POUNDS' })).toEqual([
			{ field: 'Currency', rule: 'must be a 3-letter currency code such as GBP' },
		]);
	});

	it('Additional Body Fields must be an object and may not override a field the node sets', () => {
		expect(issuesOf({ ...valid, additionalBodyFields: ['x'] })).toEqual([
			{ field: 'Additional Body Fields', rule: 'must be a JSON object' },
		]);
		expect(issuesOf({ ...valid, additionalBodyFields: { amount: 1, xpid: 'other' } })).toEqual([
			{ field: 'Additional Body Fields', rule: 'must not set "amount"; use the Amount field' },
			{ field: 'Additional Body Fields', rule: 'must not set "xpid"; use the Payee field' },
		]);
	});

	it('reports every broken rule at once, named by field', () => {
		const issues = issuesOf({
			xaid: 5,
			xpid: undefined,
			amount: 'abc',
			reference: 'INV',
			currency: 'GBP',
		});
		expect(issues.map((issue) => issue.field)).toEqual([
			'Source Account',
			'Payee',
			'Amount',
			'Reference',
		]);
		expect(formatIssues(issues)).toBe(
			`Source Account must be text; Payee is required; Amount ${AMOUNT_RULES.notANumber}; Reference must be 6-18 characters for GBP (has 3)`,
		);
	});
});

describe('payment schema: text rules and prototype keys', () => {
	const payment = {
		xaid: '3f1c2a9e-6d1b-4c8e-9a57-0c1d2e3f4a5b',
		xpid: 'pye_1',
		amount: 1,
		reference: 'INV-000001',
	};

	it('payment: blank reference, text problems, prototype keys and blank JSON', () => {
		const issues = (input: object) => {
			const result = validatePayment({ ...payment, ...input });
			return result.valid ? [] : result.issues;
		};
		expect(issues({ reference: '      ' })).toEqual([
			{ field: 'Reference', rule: 'must not be blank' },
		]);
		expect(issues({ reference: 'INV-00\u0000' })).toEqual([
			{
				field: 'Reference',
				rule: 'must not contain control characters (such as line breaks or tabs)',
			},
		]);
		expect(issues({ additionalBodyFields: { note: 'x\uD800' } })).toEqual([
			{ field: 'Additional Body Fields', rule: 'contains characters that are not valid text' },
		]);
		expect(issues({ additionalBodyFields: '  ', description: 'two\nlines' })).toEqual([]);
	});
});

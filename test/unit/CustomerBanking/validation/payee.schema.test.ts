import { referenceLength } from '../../../../nodes/CustomerBanking/validation/payee.fields';
import {
	describeIssues,
	payeeAccountRules,
	payeeCreateSchema,
	payeeUpdateSchema,
	payeeUpsertSchema,
} from '../../../../nodes/CustomerBanking/validation/payee.schema';
import { describeValue, PAYEE_RULE_EXAMPLES } from '../../../fixtures/payeeRuleExamples';

type Schema = ReturnType<typeof payeeUpdateSchema> | ReturnType<typeof payeeAccountRules>;

/** "field rule" lines, e.g. "sortCode must be exactly 6 digits". */
function issuesOf(
	schema: Schema | ReturnType<typeof payeeUpsertSchema>,
	body: Record<string, unknown>,
): string[] {
	const result = schema.safeParse(body);
	if (result.success) return [];
	return describeIssues(result.error).map((issue) => `${issue.field} ${issue.rule}`);
}

const GBP_PAYEE = {
	name: 'Acme Supplies Ltd',
	reference: 'INV-000001',
	purpose: 'Supplier payment',
	purposeCategory: 'SUPPLIER',
	addressLine1: '1 Market Street',
	townCity: 'London',
	postCode: 'EC1A 1BB',
	countryCode: 'GB',
	sortCode: '040004',
	accountNumber: '12345678',
};

const chars = (count: number, char = 'a') => char.repeat(count);

describe('payee schema: one rule per field (spec §Payee validation rules)', () => {
	// the examples the sandbox's own rules are judged by too
	for (const { field, valid, invalid, rule, currency, quotesValue } of PAYEE_RULE_EXAMPLES) {
		for (const value of valid) {
			it(`${field} accepts ${describeValue(value)} (${currency})`, () => {
				expect(issuesOf(payeeUpdateSchema({ currency }), { [field]: value })).toEqual([]);
			});
		}
		for (const value of invalid) {
			it(`${field} refuses ${describeValue(value)} (${currency}): ${rule}`, () => {
				const shown = quotesValue ? `${JSON.stringify(value)}: ` : '';
				expect(issuesOf(payeeUpdateSchema({ currency }), { [field]: value })).toContain(
					`${field} ${shown}${rule}`,
				);
			});
		}
	}

	it('applies the same field rules on create and upsert (one definition)', () => {
		const body = { ...GBP_PAYEE, sortCode: '04-00-4' };
		const expected =
			'sortCode "04-00-4": a sort code has 6 digits, this one has 5 without dashes and spaces';
		expect(issuesOf(payeeCreateSchema({ currency: 'GBP' }), body)).toEqual([expected]);
		expect(issuesOf(payeeUpsertSchema({ currency: 'GBP' }), body)).toEqual([expected]);
		expect(issuesOf(payeeUpsertSchema({ currency: 'GBP' }), { ...body, xpid: 'p-1' })).toEqual([
			expected,
		]);
	});

	it('refuses values that are not text, and fields that are not payee fields', () => {
		expect(issuesOf(payeeUpdateSchema(), { accountNumber: 12345678 })).toEqual([
			'accountNumber must be text',
		]);
		expect(issuesOf(payeeUpdateSchema(), { isBusiness: 'yes' })).toEqual([
			'isBusiness must be true or false',
		]);
		expect(issuesOf(payeeUpdateSchema(), { currency: 'EUR' })).toEqual([
			'currency is not a payee field',
		]);
	});

	it('trims surrounding spaces before judging and sending a value', () => {
		const result = payeeUpdateSchema({ currency: 'GBP' }).safeParse({
			sortCode: ' 040004 ',
			name: '  Acme Ltd ',
		});
		expect(result.success && result.data).toEqual({ sortCode: '040004', name: 'Acme Ltd' });
	});

	it('bank details typed as printed are sent as banks write them: no spaces or dashes, upper case', () => {
		const typed = {
			iban: ' de89 3704\u00A00044\t0532 0130 00 ',
			bic: 'coba de ff xxx',
			intermediaryBic: 'chas us 33',
		};
		const sent = {
			iban: 'DE89370400440532013000',
			bic: 'COBADEFFXXX',
			intermediaryBic: 'CHASUS33',
		};
		const updated = payeeUpdateSchema({ currency: 'EUR' }).safeParse(typed);
		expect(updated.success && updated.data).toEqual(sent);
		const upserted = payeeUpsertSchema({ currency: 'EUR' }).safeParse({ ...typed, xpid: 'p-1' });
		expect(upserted.success && upserted.data).toEqual({ ...sent, xpid: 'p-1' });
		const created = payeeCreateSchema({ currency: 'GBP' }).safeParse({
			...GBP_PAYEE,
			sortCode: '04-00-04',
		});
		expect(created.success && created.data.sortCode).toBe('040004');
		const spaced = payeeUpdateSchema({ currency: 'GBP' }).safeParse({ sortCode: '04 00 04' });
		expect(spaced.success && spaced.data).toEqual({ sortCode: '040004' });
	});

	it('bank details: wrong check digits, a wrong length for the country, blank, not text', () => {
		expect(issuesOf(payeeUpdateSchema(), { iban: 'DE00 3704 0044 0532 0130 00' })).toEqual([
			'iban "DE00 3704 0044 0532 0130 00": the check digits are wrong (ISO 13616 mod-97); check for a typing mistake',
		]);
		expect(issuesOf(payeeUpdateSchema(), { iban: 'DE8937040044053201300' })).toEqual([
			'iban "DE8937040044053201300": an IBAN from Germany (DE) has 22 characters, this one has 21',
		]);
		expect(issuesOf(payeeUpdateSchema(), { bic: 'C0BADEFF' })).toEqual([
			'bic "C0BADEFF": a BIC starts with a 4-letter bank code',
		]);
		expect(issuesOf(payeeUpdateSchema(), { iban: ' \t\u00A0 ', sortCode: '   ' })).toEqual([
			'sortCode must not be blank',
			'iban must not be blank',
		]);
		expect(issuesOf(payeeUpdateSchema(), { iban: 12, bic: 'COBA\uD800DEFF' })).toEqual([
			'iban must be text',
			'bic contains characters that are not valid text',
		]);
	});

	it('reference length: 6-18 for GBP, 6-140 otherwise (also exported for payments)', () => {
		expect(referenceLength('GBP')).toEqual({ min: 6, max: 18 });
		expect(referenceLength('EUR')).toEqual({ min: 6, max: 140 });
		expect(referenceLength(undefined)).toEqual({ min: 6, max: 140 });
		// before the currency is known only the widest bound applies
		expect(issuesOf(payeeUpdateSchema(), { reference: chars(19) })).toEqual([]);
		expect(issuesOf(payeeUpdateSchema(), { reference: chars(141) })).toEqual([
			'reference must be 6-140 characters',
		]);
	});
});

describe('payee schema: create (spec §Create, §Bank details required by currency)', () => {
	it('accepts a complete GBP payee', () => {
		expect(issuesOf(payeeCreateSchema({ currency: 'GBP' }), GBP_PAYEE)).toEqual([]);
	});

	it.each([
		'name',
		'reference',
		'purpose',
		'purposeCategory',
		'addressLine1',
		'townCity',
		'postCode',
		'countryCode',
	])('requires %s', (field) => {
		const body: Record<string, unknown> = { ...GBP_PAYEE };
		delete body[field];
		expect(issuesOf(payeeCreateSchema({ currency: 'GBP' }), body)).toEqual([
			`${field} is required`,
		]);
		// also before the currency is known (no request needed to tell)
		expect(issuesOf(payeeCreateSchema(), body)).toContain(`${field} is required`);
	});

	const base = { ...GBP_PAYEE, sortCode: undefined, accountNumber: undefined };
	it.each([
		[
			'GBP',
			{},
			['sortCode is required for GBP accounts', 'accountNumber is required for GBP accounts'],
		],
		['GBP', { sortCode: '040004' }, ['accountNumber is required for GBP accounts']],
		['GBP', { sortCode: '040004', accountNumber: '12345678' }, []],
		['EUR', {}, ['iban is required for EUR accounts', 'bic is required for EUR accounts']],
		['EUR', { iban: 'DE89370400440532013000' }, ['bic is required for EUR accounts']],
		['EUR', { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' }, []],
		['CHF', { iban: 'CH9300762011623852957', bic: 'UBSWCHZH80A' }, []],
		[
			'CHF',
			{ accountNumber: '12345678' },
			['iban is required for CHF accounts', 'bic is required for CHF accounts'],
		],
		['USD', {}, ['accountNumber is required for USD accounts', 'aba is required for USD accounts']],
		['USD', { accountNumber: '12345678' }, ['aba is required for USD accounts']],
		['USD', { accountNumber: '12345678', aba: '021000021' }, []],
		[
			'CAD',
			{},
			[
				'institutionNumber is required for CAD accounts',
				'transitNumber is required for CAD accounts',
				'accountNumber is required for CAD accounts',
			],
		],
		[
			'CAD',
			{ institutionNumber: '003', transitNumber: '12345' },
			['accountNumber is required for CAD accounts'],
		],
		['CAD', { institutionNumber: '003', transitNumber: '12345', accountNumber: '1234567' }, []],
	])('%s account with %j: %j', (currency, bank, expected) => {
		expect(issuesOf(payeeCreateSchema({ currency }), { ...base, ...bank }).sort()).toEqual(
			[...expected].sort(),
		);
	});

	it('requires a bic whenever an iban is given, and an accountNumber when no iban is (any currency)', () => {
		expect(issuesOf(payeeCreateSchema(), { ...base, iban: 'GB29NWBK60161331926819' })).toEqual([
			'bic is required when an IBAN is given',
		]);
		expect(issuesOf(payeeCreateSchema(), { ...base })).toEqual([
			'accountNumber is required when no IBAN is given',
		]);
		expect(
			issuesOf(payeeCreateSchema({ currency: 'GBP' }), {
				...GBP_PAYEE,
				iban: 'GB29NWBK60161331926819',
			}),
		).toEqual(['bic is required when an IBAN is given']);
		expect(
			issuesOf(payeeCreateSchema({ currency: 'USD' }), {
				...base,
				iban: 'GB29NWBK60161331926819',
				bic: 'NWBKGB2L',
				aba: '021000021',
			}),
		).toEqual(['accountNumber is required for USD accounts']);
	});

	it.each([
		['sortCode', '040004', 'GBP'],
		['aba', '021000021', 'USD'],
		['institutionNumber', '003', 'CAD'],
		['transitNumber', '12345', 'CAD'],
	])('%s is only allowed for %s… accounts', (field, value, only) => {
		const other = only === 'GBP' ? 'EUR' : 'GBP';
		expect(issuesOf(payeeUpdateSchema({ currency: other }), { [field]: value })).toEqual([
			`${field} is only allowed for ${only} accounts (this account is ${other})`,
		]);
		expect(issuesOf(payeeUpdateSchema({ currency: only }), { [field]: value })).toEqual([]);
	});
});

describe('payee schema: update and upsert (spec §Update, §Upsert)', () => {
	it('update: every field optional', () => {
		expect(issuesOf(payeeUpdateSchema({ currency: 'GBP' }), {})).toEqual([]);
		expect(issuesOf(payeeUpdateSchema({ currency: 'GBP' }), { email: 'ap@acme.example' })).toEqual(
			[],
		);
	});

	it('update: changed bank details are checked merged with the stored payee', () => {
		const stored = { ...GBP_PAYEE, xpid: 'p-1', iban: '', bic: '' };
		expect(
			issuesOf(payeeUpdateSchema({ currency: 'GBP', existing: stored }), {
				accountNumber: '87654321',
			}),
		).toEqual([]);
		const eurStored = {
			xpid: 'p-2',
			iban: 'DE89370400440532013000',
			bic: 'COBADEFFXXX',
			accountNumber: '',
		};
		expect(
			issuesOf(payeeUpdateSchema({ currency: 'EUR', existing: eurStored }), {
				iban: 'FR1420041010050500013M02606',
			}),
		).toEqual([]);
		const eurWithoutBic = { ...eurStored, bic: '' };
		expect(
			issuesOf(payeeUpdateSchema({ currency: 'EUR', existing: eurWithoutBic }), {
				iban: 'FR1420041010050500013M02606',
			}),
		).toEqual(['bic is required for EUR accounts']);
	});

	it('upsert without xpid follows create (required fields), with xpid follows update', () => {
		expect(issuesOf(payeeUpsertSchema({ currency: 'GBP' }), { email: 'ap@acme.example' })).toEqual(
			expect.arrayContaining([
				'name is required',
				'reference is required',
				'sortCode is required for GBP accounts',
			]),
		);
		expect(
			issuesOf(payeeUpsertSchema({ currency: 'GBP' }), { email: 'ap@acme.example', xpid: 'p-1' }),
		).toEqual([]);
		expect(issuesOf(payeeUpsertSchema({ currency: 'GBP' }), GBP_PAYEE)).toEqual([]);
	});

	it('names each issue with the label the node shows', () => {
		const result = payeeCreateSchema({ currency: 'GBP' }).safeParse({
			...GBP_PAYEE,
			sortCode: '1',
		});
		expect(result.success).toBe(false);
		if (!result.success) {
			expect(describeIssues(result.error)).toEqual([
				{
					field: 'sortCode',
					label: 'Sort Code',
					rule: '"1": a sort code has 6 digits, this one has 1',
				},
			]);
		}
	});
});

describe('payee schema: the rules that need the account, applied after the values were judged', () => {
	it('the reference bound and the bank details of the currency; the values themselves are not judged again', () => {
		expect(issuesOf(payeeAccountRules('create', { currency: 'GBP' }), GBP_PAYEE)).toEqual([]);
		expect(
			issuesOf(payeeAccountRules('create', { currency: 'GBP' }), {
				...GBP_PAYEE,
				reference: chars(19),
			}),
		).toEqual(['reference must be 6-18 characters for GBP accounts']);
		expect(issuesOf(payeeAccountRules('create', { currency: 'EUR' }), GBP_PAYEE)).toEqual([
			'sortCode is only allowed for GBP accounts (this account is EUR)',
			'iban is required for EUR accounts',
			'bic is required for EUR accounts',
		]);
	});

	it('with an xpid (upsert) the update rules apply: changed bank details are checked with the stored ones', () => {
		const stored = { ...GBP_PAYEE, xpid: 'p-1' };
		const rules = payeeAccountRules('create', { currency: 'GBP', existing: stored });
		expect(issuesOf(rules, { accountNumber: '87654321', xpid: 'p-1' })).toEqual([]);
		expect(issuesOf(rules, { accountNumber: '87654321' })).toEqual(
			expect.arrayContaining(['name is required']),
		);
		const result = rules.safeParse({ email: 'ap@acme.example', xpid: ' p-1 ' });
		expect(result.success && result.data).toEqual({ email: 'ap@acme.example', xpid: 'p-1' });
	});
});

describe('payee schema: keys of Object.prototype', () => {
	it('payee: a key such as "constructor" is not a field, and is named as given', () => {
		const result = payeeUpdateSchema().safeParse({ constructor: 'x' });
		expect(result.success).toBe(false);
		// the label lookup must not find Object.prototype.constructor
		expect(!result.success && describeIssues(result.error)).toEqual([
			{ field: 'constructor', label: 'constructor', rule: 'is not a payee field' },
		]);
	});
});

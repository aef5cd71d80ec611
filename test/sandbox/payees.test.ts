import { type Sandbox, startSandbox } from './index';
import type { PayeeRecord } from './payees/model';
import { type Api, apiAs, type ErrorBody, type List } from './testing';
import { describeValue, PAYEE_RULE_EXAMPLES } from '../fixtures/payeeRuleExamples';

type Currency = 'gbp' | 'eur' | 'usd' | 'cad';

const ADDRESS = {
	purpose: 'Invoice settlement',
	purposeCategory: 'SUPPLIER',
	addressLine1: '1 High Street',
	townCity: 'Leeds',
	postCode: 'LS1 4AP',
	countryCode: 'GB',
};

const VALID: Record<Currency, Record<string, unknown>> = {
	gbp: {
		...ADDRESS,
		name: 'Leeds Timber Ltd',
		reference: 'REF-000001',
		sortCode: '123456',
		accountNumber: '12345678',
	},
	eur: {
		...ADDRESS,
		name: 'Munich Tools GmbH',
		reference: 'REF-000001',
		iban: 'DE75512108001245126199',
		bic: 'SOGEDEFFXXX',
	},
	usd: {
		...ADDRESS,
		name: 'Boston Labs Inc',
		reference: 'REF-000001',
		accountNumber: '987654321',
		aba: '026009593',
	},
	cad: {
		...ADDRESS,
		name: 'Ottawa Paper Ltd',
		reference: 'REF-000001',
		institutionNumber: '003',
		transitNumber: '12345',
		accountNumber: '7654321',
	},
};

describe('sandbox payees (spec §Payee, §Payee validation rules, §Bank details required by currency)', () => {
	let sandbox: Sandbox;
	let api: Api;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0 });
		api = await apiAs(sandbox);
	});
	afterAll(() => sandbox.close());

	const create = (
		currency: Currency,
		overrides: Record<string, unknown> = {},
		account = sandbox.seeded.accounts[currency],
	) =>
		api.post<PayeeRecord & ErrorBody>(`/account/${account}/payees`, {
			...VALID[currency],
			...overrides,
		});

	it('creates a payee with 201; xid, xaid, currency set by the service; created = updated', async () => {
		const reply = await create('gbp', {
			xid: 'spoofed',
			xaid: 'spoofed',
			currency: 'USD',
			notAField: 1,
		});
		expect(reply.status).toBe(201);
		const payee = reply.body;
		expect(payee).toMatchObject({
			...VALID.gbp,
			xaid: sandbox.seeded.accounts.gbp,
			currency: 'GBP',
			isBusiness: false,
			iban: '',
		});
		expect(payee.xid).not.toBe('spoofed');
		expect(payee.xpid).toMatch(/^[0-9a-f-]{36}$/);
		expect(payee.created).toBe(payee.updated);
		expect(payee).not.toHaveProperty('notAField');
		expect((await api.get(`/payee/${payee.xpid}`)).body).toEqual(payee);
	});

	// the examples the node's own rules are judged by too
	describe.each(PAYEE_RULE_EXAMPLES)(
		'rule for $field ($currency account): $rule',
		({ field, currency, valid, invalid }) => {
			const account = currency.toLowerCase() as Currency;
			// an example may list only values that break its rule (jest refuses an empty table)
			if (valid.length > 0)
				it.each(valid.map((value) => [describeValue(value), value]))(
					'accepts %s',
					async (_name, value) => {
						const reply = await create(account, { [field]: value });
						expect(reply.body.message).toBeUndefined();
						expect(reply.status).toBe(201);
						expect(reply.body[field as keyof PayeeRecord]).toBe(value);
					},
				);
			it.each(invalid.map((value) => [describeValue(value), value]))(
				'rejects %s with 400 naming the field',
				async (_name, value) => {
					const reply = await create(account, { [field]: value });
					expect(reply.status).toBe(400);
					expect(reply.body.statusCode).toBe(400);
					expect(reply.body.message).toMatch(new RegExp(`^${field} `));
				},
			);
		},
	);

	it('judges a value as it arrives: surrounding spaces are not trimmed (the node trims before sending)', async () => {
		const reply = await create('gbp', { postCode: ' AB12' });
		expect(reply.status).toBe(400);
		expect(reply.body.message).toMatch(/^postCode /);
	});

	it.each([
		['eur', 'iban', 'DE89 3704 0044 0532 0130 00'],
		['eur', 'bic', 'COBA DE FF XXX'],
		['gbp', 'sortCode', '04-00-04'],
	] as Array<[Currency, string, string]>)(
		'judges bank details as they arrive: %s %s %j as printed is refused (the node sends them without spaces and dashes)',
		async (currency, field, value) => {
			const reply = await create(currency, { [field]: value });
			expect(reply.status).toBe(400);
			expect(reply.body.message).toMatch(new RegExp(`^${field} `));
		},
	);

	it.each([
		'name',
		'reference',
		'purpose',
		'purposeCategory',
		'addressLine1',
		'townCity',
		'postCode',
		'countryCode',
	])('requires %s on create (spec §Create)', async (field) => {
		const reply = await create('gbp', { [field]: undefined });
		expect(reply.status).toBe(400);
		expect(reply.body.message).toBe(`${field} is required`);
		expect((await create('gbp', { [field]: '' })).body.message).toBe(`${field} is required`);
	});

	it.each([
		['gbp', { sortCode: undefined }, 'sortCode is required for GBP payees'],
		['gbp', { accountNumber: undefined }, 'accountNumber is required for GBP payees'],
		['gbp', { iban: 'GB29NWBK60161331926819' }, 'bic is required when iban is given'],
		[
			'eur',
			{ iban: undefined },
			'iban is required for EUR payees; accountNumber is required when no iban is given',
		],
		['eur', { bic: undefined }, 'bic is required for EUR payees'],
		['usd', { aba: undefined }, 'aba is required for USD payees'],
		[
			'usd',
			{ accountNumber: undefined, iban: 'GB29NWBK60161331926819', bic: 'NWBKGB2L' },
			'accountNumber is required for USD payees',
		],
		['cad', { institutionNumber: undefined }, 'institutionNumber is required for CAD payees'],
		['cad', { transitNumber: undefined }, 'transitNumber is required for CAD payees'],
		['cad', { accountNumber: undefined }, 'accountNumber is required for CAD payees'],
		[
			'eur',
			{ sortCode: '123456' },
			'sortCode is only allowed for GBP payees (the account currency is EUR)',
		],
		[
			'gbp',
			{ aba: '123456789' },
			'aba is only allowed for USD payees (the account currency is GBP)',
		],
		[
			'usd',
			{ transitNumber: '12345' },
			'transitNumber is only allowed for CAD payees (the account currency is USD)',
		],
	] as Array<[Currency, Record<string, unknown>, string]>)(
		'bank details for %s: %p → %s',
		async (currency, overrides, message) => {
			const reply = await create(currency, overrides);
			expect(reply.status).toBe(400);
			expect(reply.body.message).toBe(message);
		},
	);

	it('accepts an EUR payee with accountNumber and iban + bic, and names every failing field at once', async () => {
		expect((await create('eur', { accountNumber: '12345678' })).status).toBe(201);
		const reply = await create('gbp', {
			name: 'Abc',
			postCode: undefined,
			accountNumber: 12345678,
		});
		expect(reply.body.message).toBe(
			'name must be 4-140 characters; accountNumber must be a string; postCode is required',
		);
	});

	it('updates with PUT: partial fields, merged re-validation, updated moves and created stays', async () => {
		const { gbp } = sandbox.seeded.accounts;
		const created = (await create('gbp')).body;
		await sandbox.control.advanceClock(1000);
		const updated = await api.put<PayeeRecord & ErrorBody>(
			`/account/${gbp}/payees/${created.xpid}`,
			{
				name: 'Leeds Timber Group',
				addressLine2: 'Unit 4',
			},
		);
		expect(updated.status).toBe(200);
		expect(updated.body).toMatchObject({
			...VALID.gbp,
			name: 'Leeds Timber Group',
			addressLine2: 'Unit 4',
			created: created.created,
		});
		expect(updated.body.updated > created.updated).toBe(true);
		const cleared = await api.put(`/account/${gbp}/payees/${created.xpid}`, { addressLine2: '' });
		expect((cleared.body as unknown as PayeeRecord).addressLine2).toBe('');
		const required = await api.put(`/account/${gbp}/payees/${created.xpid}`, { name: '' });
		expect(required).toMatchObject({ status: 400, body: { message: 'name cannot be empty' } });
		const bank = await api.put(`/account/${gbp}/payees/${created.xpid}`, { sortCode: null });
		expect(bank).toMatchObject({
			status: 400,
			body: { message: 'sortCode is required for GBP payees' },
		});
		const badValue = await api.put(`/account/${gbp}/payees/${created.xpid}`, {
			sortCode: '12-34-56',
		});
		expect(badValue).toMatchObject({
			status: 400,
			body: { message: 'sortCode must be exactly 6 digits' },
		});
		expect((await api.get<PayeeRecord>(`/payee/${created.xpid}`)).body.sortCode).toBe('123456');
	});

	it('answers 404 for an unknown payee, one of another account and one of another workspace', async () => {
		const { gbp, eur } = sandbox.seeded.accounts;
		expect((await api.put(`/account/${gbp}/payees/nope`, { name: 'Some Name' })).status).toBe(404);
		expect(
			(await api.put(`/account/${eur}/payees/${sandbox.seeded.payees.gbp}`, { name: 'Some Name' }))
				.status,
		).toBe(404);
		expect((await api.get(`/payee/${sandbox.seeded.payees.otherWorkspace}`)).status).toBe(404);
		expect((await api.get('/payee/nope')).status).toBe(404);
	});

	it('answers 401 for a foreign or unknown account and 429 for a SUSPENDED one (spec §Errors)', async () => {
		const { otherWorkspace, suspended } = sandbox.seeded.accounts;
		for (const xaid of [otherWorkspace, 'no-such-account']) {
			expect((await api.get(`/account/${xaid}/payees`)).status).toBe(401);
			expect((await api.post(`/account/${xaid}/payees`, VALID.eur)).status).toBe(401);
		}
		const checks = [
			api.get(`/account/${suspended}/payees`),
			api.post(`/account/${suspended}/payees`, VALID.gbp),
			api.put(`/account/${suspended}/payees/${sandbox.seeded.payees.gbp}`, {}),
			api.post(`/account/${suspended}/payee`, VALID.gbp),
		];
		for (const reply of await Promise.all(checks)) {
			expect(reply.status).toBe(429);
			expect(reply.body.message).toMatch(/not active/);
		}
	});

	it('upserts: creates without xpid (create rules apply), updates with xpid, 404 for an unknown xpid', async () => {
		const { usd } = sandbox.seeded.accounts;
		const missing = await api.post(`/account/${usd}/payee`, { name: 'Only A Name' });
		expect(missing.status).toBe(400);
		expect(missing.body.message).toContain('reference is required');
		const created = await api.post<PayeeRecord>(`/account/${usd}/payee`, VALID.usd);
		expect(created.status).toBe(201);
		const updated = await api.post<PayeeRecord>(`/account/${usd}/payee`, {
			xpid: created.body.xpid,
			reference: 'NEW-REFERENCE',
		});
		expect(updated.status).toBe(200);
		expect(updated.body).toMatchObject({
			xpid: created.body.xpid,
			name: VALID.usd.name,
			reference: 'NEW-REFERENCE',
		});
		expect(
			(await api.post(`/account/${usd}/payee`, { xpid: 'unknown', reference: 'NEW-REFERENCE' }))
				.status,
		).toBe(404);
		expect((await api.post(`/account/${usd}/payee`, { xpid: 42 })).status).toBe(400);
	});

	it('pages payees: default 10, max 100, 400 above', async () => {
		const fresh = await startSandbox({ port: 0 });
		try {
			const freshApi = await apiAs(fresh);
			const { cad } = fresh.seeded.accounts;
			for (let i = 0; i < 11; i++) {
				const reply = await freshApi.post(`/account/${cad}/payees`, {
					...VALID.cad,
					name: `Payee number ${i}`,
				});
				expect(reply.status).toBe(201);
			}
			const page0 = await freshApi.get<List<PayeeRecord>>(`/account/${cad}/payees`);
			expect(page0.body.total).toBe(12);
			expect(page0.body.results).toHaveLength(10);
			const page1 = await freshApi.get<List<PayeeRecord>>(`/account/${cad}/payees?page=1`);
			expect(page1.body.results.map((p) => p.name)).toEqual(['Payee number 9', 'Payee number 10']);
			expect((await freshApi.get<List<PayeeRecord>>('/payees?limit=100')).body.total).toBe(15);
			const over = await freshApi.get('/payees?limit=101');
			expect(over).toMatchObject({ status: 400, body: { message: 'limit must be at most 100' } });
		} finally {
			await fresh.close();
		}
	});
});

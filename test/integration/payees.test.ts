import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { simplifyRecord } from '../../nodes/CustomerBanking/actions/simplify';
import { credentialsFor } from '../helpers/sandboxCredentials';
import { type Sandbox, startSandbox } from '../sandbox';
import { byId, mainJson, type NodeRun, runNode } from './actionNode';

let sandbox: Sandbox;
const clients: Record<string, ICredentialDataDecryptedObject> = {};

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	for (const client of ['full', 'readOnly', 'noUpdatePayee'] as const)
		clients[client] = credentialsFor(sandbox, client);
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.control.clearRequests());

type RunOptions = Omit<Parameters<typeof runNode>[2], 'parameters'> & { client?: string };
const runWithDefaults = (
	parameters: Record<string, unknown>,
	{ client = 'full', ...options }: RunOptions = {},
) =>
	runNode(sandbox, clients[client], {
		parameters: { resource: 'payee', ...parameters },
		...options,
	});
/**
 * These suites check what the bank holds after a write, so they read the bank's record: Simplify off
 * on one payee's operations unless a test sets it (the default is tested in 'Payee: what each operation
 * shows by default').
 */
const run = (parameters: Record<string, unknown>, options: RunOptions = {}) =>
	runWithDefaults(
		{ ...(parameters.operation !== 'getMany' && { simplify: false }), ...parameters },
		options,
	);

/** A valid "Create" form for a GBP account (top-level fields as the node shows them). */
function gbpForm(overrides: Record<string, unknown> = {}) {
	return {
		operation: 'create',
		account: byId(sandbox.seeded.accounts.gbp),
		name: 'Oak Timber Ltd',
		reference: 'OAK-000001',
		purpose: 'Supplier payment',
		purposeCategory: 'SUPPLIER',
		addressLine1: '2 Mill Lane',
		townCity: 'Leeds',
		postCode: 'LS1 4AP',
		countryCode: 'GB',
		bankDetailsFormat: 'gbp',
		sortCode: '040004',
		accountNumber: '11223344',
		...overrides,
	};
}

const payeesInSandbox = () =>
	sandbox.control.requests().filter((entry) => entry.method !== 'GET' && entry.area === 'api');

function expectApiError(result: NodeRun, httpCode: string) {
	expect(result.error).toBeInstanceOf(NodeApiError);
	expect(result.error?.httpCode).toBe(httpCode);
	expect(result.error?.context?.itemIndex).toBe(0);
}

describe('Payee: Get and Get Many', () => {
	it('Get: a payee by xpid; 404 for an unknown one', async () => {
		const xpid = sandbox.seeded.payees.eur;
		const found = await run({ operation: 'get', payee: byId(xpid) });
		expect(mainJson(found)).toEqual([
			expect.objectContaining({ xpid, name: 'Berlin Parts GmbH', currency: 'EUR' }),
		]);
		expect(found.calls).toEqual([`GET /payee/${xpid}`]);

		const [simplified] = mainJson(await runWithDefaults({ operation: 'get', payee: byId(xpid) }));
		const [raw] = mainJson(found);
		expect(simplified).toEqual(simplifyRecord('payee', raw));
		expect(simplified).toEqual(
			expect.objectContaining({ payeeId: xpid, name: 'Berlin Parts GmbH', currency: 'EUR' }),
		);
		expect(raw).toHaveProperty('iban');
		expect(simplified).not.toHaveProperty('iban');

		const missing = await run({ operation: 'get', payee: byId('no-such-payee') });
		expectApiError(missing, '404');
		expect(missing.calls).toHaveLength(1);
	});

	it('Get Many (Return All): pages of 100, the largest payee lists allow', async () => {
		const result = await run({ operation: 'getMany', scope: 'all', returnAll: true });
		const payees = mainJson(result);
		expect(payees.map((payee) => payee.payeeId)).toEqual(
			expect.arrayContaining(
				Object.values(sandbox.seeded.payees).filter(
					(xpid) => xpid !== sandbox.seeded.payees.otherWorkspace,
				),
			),
		);
		expect(payees.map((payee) => payee.payeeId)).not.toContain(
			sandbox.seeded.payees.otherWorkspace,
		);
		expect(result.calls).toEqual(['GET /payees?page=0&limit=100']);
	});

	it('Get Many (one account, Limit)', async () => {
		const xaid = sandbox.seeded.accounts.usd;
		const result = await run({
			operation: 'getMany',
			scope: 'account',
			account: byId(xaid),
			returnAll: false,
			limit: 1,
		});
		expect(mainJson(result)).toEqual([
			expect.objectContaining({ payeeId: sandbox.seeded.payees.usd, accountId: xaid }),
		]);
		expect(result.calls).toEqual([`GET /account/${xaid}/payees?page=0&limit=1`]);
	});

	it('429: the payees of a suspended account are refused, and not retried', async () => {
		const result = await run({
			operation: 'getMany',
			scope: 'account',
			account: byId(sandbox.seeded.accounts.suspended),
			returnAll: true,
		});
		expectApiError(result, '429');
		expect(result.calls).toHaveLength(1);
	});
});

describe('Payee: Create', () => {
	it('creates the payee: reads the account currency once, then one POST with the fields as given', async () => {
		const xaid = sandbox.seeded.accounts.gbp;
		const result = await run(
			gbpForm({
				identity: { displayName: 'Oak Timber', isBusiness: true },
				contact: { email: 'ap@oak.example', website: 'https://oak.example' },
				address: { addressLine2: 'Unit 4 Yard' },
				intermediaryBank: { intermediaryName: 'Clearing Bank plc' },
			}),
		);
		const [payee] = mainJson(result);
		expect(payee).toEqual(
			expect.objectContaining({
				xaid,
				currency: 'GBP',
				name: 'Oak Timber Ltd',
				displayName: 'Oak Timber',
				sortCode: '040004',
				isBusiness: true,
			}),
		);
		expect(result.calls).toEqual([`GET /account/${xaid}`, `POST /account/${xaid}/payees`]);
		const post = result.requests.find(
			(request) => request.method === 'POST' && request.url.endsWith('/payees'),
		);
		expect(post?.body).toEqual({
			name: 'Oak Timber Ltd',
			reference: 'OAK-000001',
			purpose: 'Supplier payment',
			purposeCategory: 'SUPPLIER',
			addressLine1: '2 Mill Lane',
			townCity: 'Leeds',
			postCode: 'LS1 4AP',
			countryCode: 'GB',
			sortCode: '040004',
			accountNumber: '11223344',
			displayName: 'Oak Timber',
			isBusiness: true,
			email: 'ap@oak.example',
			website: 'https://oak.example',
			addressLine2: 'Unit 4 Yard',
			intermediaryName: 'Clearing Bank plc',
		});
	});

	it('fetches each account once per execution, however many items use it', async () => {
		const { gbp, eur } = sandbox.seeded.accounts;
		// Bank Details Format takes no expressions, so the EUR item gives its IBAN and BIC under More Bank Details
		const eurFields = {
			account: byId(eur),
			sortCode: '',
			accountNumber: '',
			bankDetails: { iban: 'DE02120300000000202051', bic: 'BYLADEM1001' },
		};
		const result = await run(gbpForm(), {
			itemParameters: [
				{ name: 'Pine One Ltd' },
				{ name: 'Pine Two Ltd' },
				{ name: 'Pine Three Ltd', ...eurFields },
				{ name: 'Pine Four Ltd' },
			],
		});
		expect(mainJson(result).map((payee) => [payee.name, payee.currency])).toEqual([
			['Pine One Ltd', 'GBP'],
			['Pine Two Ltd', 'GBP'],
			['Pine Three Ltd', 'EUR'],
			['Pine Four Ltd', 'GBP'],
		]);
		expect(result.calls.filter((call) => call.startsWith('GET'))).toEqual([
			`GET /account/${gbp}`,
			`GET /account/${eur}`,
		]);
		expect(result.calls.filter((call) => call.startsWith('POST'))).toHaveLength(4);
	});

	it('an invalid item sends no request at all (not even a token request)', async () => {
		const result = await run(gbpForm({ sortCode: '04-00-4' }));
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(result.error?.message).toBe(
			'Invalid payee in item 0: Sort Code (sortCode) "04-00-4": a sort code has 6 digits, this one has 5 without dashes and spaces',
		);
		expect(result.requests).toEqual([]);
		expect(sandbox.control.requests()).toEqual([]);
	});

	it('a rule that needs the currency is checked after reading the account, before any write', async () => {
		// a GBP-format payee on the EUR account: the EUR account needs iban + bic, and sortCode is GBP-only
		const xaid = sandbox.seeded.accounts.eur;
		const result = await run(gbpForm({ account: byId(xaid) }));
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(result.error?.message).toBe(
			'Invalid payee in item 0: Sort Code (sortCode) is only allowed for GBP accounts (this account is EUR) (and 2 more)',
		);
		expect(result.error?.description).toBe(
			[
				'Sort Code (sortCode) is only allowed for GBP accounts (this account is EUR)',
				'IBAN (iban) is required for EUR accounts',
				'BIC (bic) is required for EUR accounts',
			].join('\n'),
		);
		expect(result.calls).toEqual([`GET /account/${xaid}`]);
	});

	it('reference length follows the account currency: 18 is the GBP maximum, 19 passes on EUR', async () => {
		const tooLong = await run(gbpForm({ reference: 'R'.repeat(19) }));
		expect(tooLong.error?.message).toBe(
			'Invalid payee in item 0: Reference (reference) must be 6-18 characters for GBP accounts',
		);
		expect(tooLong.calls).toEqual([`GET /account/${sandbox.seeded.accounts.gbp}`]);

		const eur = await run(
			gbpForm({
				account: byId(sandbox.seeded.accounts.eur),
				reference: 'R'.repeat(19),
				bankDetailsFormat: 'iban',
				iban: 'DE02120300000000202051',
				bic: 'BYLADEM1001',
			}),
		);
		expect(mainJson(eur)).toEqual([
			expect.objectContaining({ reference: 'R'.repeat(19), currency: 'EUR' }),
		]);
	});

	it('a rule the bank applies where the spec is silent (a 2-letter intermediary country code) is checked before sending', async () => {
		const result = await run(gbpForm({ intermediaryBank: { intermediaryCountryCode: 'GBR' } }));
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(result.error?.message).toContain('intermediaryCountryCode');
		expect(result.calls.filter((call) => call.startsWith('POST'))).toHaveLength(0);
	});

	it('401: an account of another workspace', async () => {
		const result = await run(gbpForm({ account: byId(sandbox.seeded.accounts.otherWorkspace) }));
		// spec §Errors lists the case under 401 and 404; some banks answer 404
		expectApiError(result, sandbox.variants.unknownAccount === 404 ? '404' : '401');
		expect(payeesInSandbox()).toEqual([]);
	});

	it('a failed account look-up is not remembered: each item asks again and gets its own error', async () => {
		const foreign = sandbox.seeded.accounts.otherWorkspace;
		const result = await run(gbpForm({ account: byId(foreign) }), {
			itemParameters: [{ name: 'Ash One Ltd' }, { name: 'Ash Two Ltd' }],
			continueOnFail: true,
		});
		expect(result.output?.[0].map((item) => [Object.keys(item.json), item.pairedItem])).toEqual([
			[['error'], { item: 0 }],
			[['error'], { item: 1 }],
		]);
		// per item: the 401, then n8n's one retry with a fresh token; a 404 is final (one call per item)
		const callsPerItem = sandbox.variants.unknownAccount === 404 ? 1 : 2;
		expect(result.calls).toEqual(Array(2 * callsPerItem).fill(`GET /account/${foreign}`));
		expect(payeesInSandbox()).toEqual([]);
	});

	it('403: a read-only client cannot create payees (not retried)', async () => {
		const result = await run(gbpForm(), { client: 'readOnly' });
		expectApiError(result, '403');
		expect(result.calls.filter((call) => call.startsWith('POST'))).toHaveLength(1);
	});

	it('429: a suspended account refuses new payees (not retried)', async () => {
		const result = await run(gbpForm({ account: byId(sandbox.seeded.accounts.suspended) }));
		expectApiError(result, '429');
		expect(result.calls.filter((call) => call.startsWith('POST'))).toHaveLength(1);
	});

	it('continueOnFail: invalid and refused items become error items paired with their input', async () => {
		const result = await run(gbpForm(), {
			itemParameters: [
				{ name: 'Elm One Ltd' },
				{ name: 'Elm, Two' },
				{ name: 'Elm Three Ltd', account: byId(sandbox.seeded.accounts.suspended) },
				{ name: 'Elm Four Ltd' },
			],
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		const items = result.output?.[0] ?? [];
		expect(items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(items[0].json.name).toBe('Elm One Ltd');
		expect(items[1].json).toEqual({
			error:
				'Invalid payee in item 1: Name (name) may contain only letters, digits, spaces and the punctuation & ) ( . -',
		});
		expect(Object.keys(items[2].json)).toEqual(['error']);
		expect(items[3].json.name).toBe('Elm Four Ltd');
		// the invalid item never reached the bank
		expect(payeesInSandbox().map((entry) => (entry.body as IDataObject).name)).toEqual([
			'Elm One Ltd',
			'Elm Three Ltd',
			'Elm Four Ltd',
		]);
	});
});

describe('Payee: bank details checked as banks check them, and sent as banks write them', () => {
	/** A Create form for the EUR account with the IBAN and BIC as typed. */
	const eurForm = (name: string, iban: string, bic = 'COBADEFFXXX', more = {}) =>
		gbpForm({
			account: byId(sandbox.seeded.accounts.eur),
			name,
			bankDetailsFormat: 'iban',
			iban,
			bic,
			...more,
		});

	/** The bank's payees of that name, read from the bank itself (not through the node). */
	const storedNamed = async (name: string) => {
		const listed = await run({
			operation: 'getMany',
			scope: 'all',
			returnAll: true,
			simplify: false,
		});
		return mainJson(listed).filter((payee) => payee.name === name);
	};

	/** What the bank received: the bodies of its payee writes. */
	const writesReceived = () =>
		sandbox.control
			.requests()
			.filter((entry) => entry.area === 'api' && entry.method !== 'GET')
			.map((entry) => entry.body as IDataObject);

	it('an IBAN with wrong check digits is refused before any request; the bank gets no payee', async () => {
		const result = await run(eurForm('Wrong Digits GmbH', 'DE00 3704 0044 0532 0130 00'));
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(result.error?.message).toBe(
			'Invalid payee in item 0: IBAN (iban) "DE00 3704 0044 0532 0130 00": the check digits are wrong (ISO 13616 mod-97); check for a typing mistake',
		);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(result.requests).toEqual([]);
		expect(sandbox.control.requests()).toEqual([]);
		expect(await storedNamed('Wrong Digits GmbH')).toEqual([]);
	});

	it.each([
		[
			'a wrong length for its country',
			{ iban: 'DE89 3704 0044 0532 0130 0' },
			'IBAN (iban) "DE89 3704 0044 0532 0130 0": an IBAN from Germany (DE) has 22 characters, this one has 21 without spaces',
		],
		[
			'characters no IBAN has',
			{ iban: 'DE89-3704-0044-0532-0130-00' },
			'IBAN (iban) "DE89-3704-0044-0532-0130-00": an IBAN has only letters and digits (spaces are fine and are removed)',
		],
		[
			'a BIC of 9 characters',
			{ bic: 'COBA DEFF X' },
			'BIC (bic) "COBA DEFF X": a BIC has 8 or 11 characters, this one has 9 without spaces',
		],
		[
			'a BIC with a digit in its bank code',
			{ bic: 'C0BADEFF' },
			'BIC (bic) "C0BADEFF": a BIC starts with a 4-letter bank code',
		],
		[
			'an intermediary BIC without a country code',
			{ intermediaryBank: { intermediaryBic: 'CHAS1233' } },
			'Intermediary BIC (intermediaryBic) "CHAS1233": characters 5 and 6 of a BIC are its 2-letter country code',
		],
	])('%s is refused before any request', async (_case, change, message) => {
		const {
			iban = 'DE89370400440532013000',
			bic = 'COBADEFFXXX',
			...more
		} = change as Record<string, string>;
		const result = await run(eurForm('Refused Bank Details GmbH', iban, bic, more));
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(result.error?.message).toBe(`Invalid payee in item 0: ${message}`);
		expect(result.requests).toEqual([]);
		expect(sandbox.control.requests()).toEqual([]);
	});

	it('an IBAN and BICs typed as printed (spaces, lower case) are accepted and sent without spaces, in upper case', async () => {
		const result = await run(
			eurForm('Printed Iban GmbH', 'de89 3704 0044 0532 0130 00', 'coba de ff xxx', {
				intermediaryBank: { intermediaryBic: 'chas us 33' },
			}),
		);
		const [payee] = mainJson(result);
		expect(writesReceived()).toEqual([
			expect.objectContaining({
				iban: 'DE89370400440532013000',
				bic: 'COBADEFFXXX',
				intermediaryBic: 'CHASUS33',
			}),
		]);
		// the bank stored them so
		expect(payee).toEqual(
			expect.objectContaining({
				iban: 'DE89370400440532013000',
				bic: 'COBADEFFXXX',
				intermediaryBic: 'CHASUS33',
			}),
		);
		const [stored] = await storedNamed('Printed Iban GmbH');
		expect(stored).toEqual(expect.objectContaining({ iban: 'DE89370400440532013000' }));
	});

	it('a sort code typed 04-00-04 or 04 00 04 is sent as 040004', async () => {
		const result = await run(gbpForm({ name: 'Dashed Sort Code Ltd', sortCode: '04-00-04' }), {
			itemParameters: [{}, { name: 'Spaced Sort Code Ltd', sortCode: '04 00 04' }],
		});
		expect(mainJson(result).map((payee) => [payee.name, payee.sortCode])).toEqual([
			['Dashed Sort Code Ltd', '040004'],
			['Spaced Sort Code Ltd', '040004'],
		]);
		expect(writesReceived().map((body) => body.sortCode)).toEqual(['040004', '040004']);
	});

	it('Update and Create or Update send them normalised too; the look-up finds the payee by its IBAN as printed', async () => {
		const { eur: xaid } = sandbox.seeded.accounts;
		const [created] = mainJson(
			await run(eurForm('Lookup Iban GmbH', 'FR1420041010050500013M02606', 'PSSTFRPPPAR')),
		);
		sandbox.control.clearRequests();

		const updated = await run({
			operation: 'update',
			account: byId(xaid),
			payee: byId(created.xpid as string),
			bankDetails: { iban: 'nl91 abna 0417 1643 00', bic: 'abna nl 2a' },
		});
		expect(mainJson(updated)).toEqual([
			expect.objectContaining({ iban: 'NL91ABNA0417164300', bic: 'ABNANL2A' }),
		]);
		expect(writesReceived()).toEqual([{ iban: 'NL91ABNA0417164300', bic: 'ABNANL2A' }]);
		sandbox.control.clearRequests();

		const upserted = await run(
			eurForm('Lookup Iban GmbH', 'NL91 ABNA 0417 1643 00', 'ABNANL2A', {
				operation: 'upsert',
				reference: 'LOOKUP-0002',
			}),
		);
		expect(mainJson(upserted)).toEqual([
			expect.objectContaining({ xpid: created.xpid, reference: 'LOOKUP-0002' }),
		]);
		expect(writesReceived()).toEqual([
			expect.objectContaining({ xpid: created.xpid, iban: 'NL91ABNA0417164300' }),
		]);
	});
});

describe('Payee: what each operation shows by default', () => {
	it.each(['create', 'update', 'upsert'] as const)(
		"%s: the payee under the plain names (Simplify on), the bank's record with Simplify off",
		async (operation) => {
			const reference = `DEF-${operation.toUpperCase()}-01`.slice(0, 18);
			const form = gbpForm({ name: `Default ${operation} Ltd`, reference });
			const created = mainJson(await run(form))[0];
			const parameters =
				operation === 'create'
					? gbpForm({ name: `Default ${operation} Two Ltd`, reference })
					: operation === 'update'
						? {
								operation,
								account: byId(sandbox.seeded.accounts.gbp),
								payee: byId(created.xpid as string),
								identity: { reference: 'DEF-UPDATED-01' },
							}
						: { ...form, operation, payeeId: created.xpid, reference: 'DEF-UPSERTED-1' };
			const [shown] = mainJson(await runWithDefaults(parameters));
			expect(Object.keys(shown).filter((key) => /^x[apt]?id$/.test(key))).toEqual([]);
			expect(shown).toEqual(
				expect.objectContaining({
					payeeId: operation === 'create' ? expect.any(String) : created.xpid,
					accountId: sandbox.seeded.accounts.gbp,
					currency: 'GBP',
				}),
			);
			expect(shown).toEqual(
				simplifyRecord(
					'payee',
					mainJson(await run({ operation: 'get', payee: byId(String(shown.payeeId)) }))[0],
				),
			);
		},
	);
});

describe('Payee: Return All over several pages', () => {
	it('150 payees created in one execution (one account look-up), then listed in pages of 100', async () => {
		const xaid = sandbox.seeded.accounts.cad;
		const names = Array.from(
			{ length: 150 },
			(_, index) => `Spruce ${String(index).padStart(3, '0')} Ltd`,
		);
		const created = await run(
			{
				operation: 'create',
				account: byId(xaid),
				reference: 'SPRUCE-0001',
				purpose: 'Supplier payment',
				purposeCategory: 'SUPPLIER',
				addressLine1: '5 Bay Street',
				townCity: 'Toronto',
				postCode: 'M5J 2N8',
				countryCode: 'CA',
				bankDetailsFormat: 'cad',
				institutionNumber: '004',
				transitNumber: '54321',
				accountNumber: '7654321',
			},
			{ itemParameters: names.map((name) => ({ name })) },
		);
		expect(mainJson(created)).toHaveLength(150);
		expect(created.calls.filter((call) => call.startsWith('GET'))).toEqual([
			`GET /account/${xaid}`,
		]);

		sandbox.control.clearRequests();
		const listed = await run({
			operation: 'getMany',
			scope: 'account',
			account: byId(xaid),
			returnAll: true,
		});
		expect(mainJson(listed).map((payee) => payee.name)).toEqual(['Maple Logistics Ltd', ...names]);
		expect(listed.calls).toEqual([
			`GET /account/${xaid}/payees?page=0&limit=100`,
			`GET /account/${xaid}/payees?page=1&limit=100`,
		]);
		expect(
			sandbox.control
				.requests()
				.filter((entry) => entry.area === 'api')
				.map((entry) => entry.query),
		).toEqual([
			{ page: '0', limit: '100' },
			{ page: '1', limit: '100' },
		]);

		const limited = await run({
			operation: 'getMany',
			scope: 'account',
			account: byId(xaid),
			returnAll: false,
			limit: 120,
		});
		expect(mainJson(limited)).toHaveLength(120);
		expect(limited.calls).toEqual([
			`GET /account/${xaid}/payees?page=0&limit=60`,
			`GET /account/${xaid}/payees?page=1&limit=60`,
		]);
	});

	it('Name Contains with a Limit: matches counted over both pages of 100, upper and lower case alike', async () => {
		const xaid = sandbox.seeded.accounts.cad;
		const raw = mainJson(
			await run({
				operation: 'getMany',
				scope: 'account',
				account: byId(xaid),
				returnAll: true,
				simplify: false,
			}),
		);
		const matching = raw.filter((payee) => String(payee.name).toLowerCase().includes('spruce 0'));
		// 99 matches on the first page, the 100th on the second
		expect(raw.slice(0, 100).filter((payee) => matching.includes(payee))).toHaveLength(99);

		sandbox.control.clearRequests();
		const result = await run({
			operation: 'getMany',
			scope: 'account',
			account: byId(xaid),
			returnAll: false,
			limit: 100,
			filters: { nameContains: 'SPRUCE 0' },
		});
		const payees = mainJson(result);
		expect(payees).toEqual(matching.map((payee) => simplifyRecord('payee', payee)));
		expect(result.calls).toEqual([
			`GET /account/${xaid}/payees?page=0&limit=100`,
			`GET /account/${xaid}/payees?page=1&limit=100`,
		]);
		// simplified by default: no bank details
		expect(payees[0]).not.toHaveProperty('institutionNumber');
		expect(Object.keys(payees[0]).length).toBeLessThanOrEqual(10);

		const none = await run({
			operation: 'getMany',
			scope: 'account',
			account: byId(xaid),
			returnAll: true,
			filters: { nameContains: 'no such payee' },
		});
		expect(mainJson(none)).toEqual([]);
	});

	it('an empty Name Contains fails before any request, naming the field', async () => {
		const result = await run({
			operation: 'getMany',
			scope: 'all',
			returnAll: true,
			filters: { nameContains: '  ' },
		});
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(result.error?.message).toBe(
			'Filters › Name Contains: enter some text or remove the filter (item 0)',
		);
		expect(result.requests).toEqual([]);
	});
});

describe('Payee: Update', () => {
	it('changes only the fields given', async () => {
		const { gbp: xaid } = sandbox.seeded.accounts;
		const xpid = sandbox.seeded.payees.gbp;
		const result = await run({
			operation: 'update',
			account: byId(xaid),
			payee: byId(xpid),
			contact: { email: 'billing@acme.example' },
		});
		expect(mainJson(result)).toEqual([
			expect.objectContaining({ xpid, email: 'billing@acme.example', name: 'Acme Supplies Ltd' }),
		]);
		expect(result.calls).toEqual([`GET /account/${xaid}`, `PUT /account/${xaid}/payees/${xpid}`]);
		expect(result.requests.at(-1)?.body).toEqual({ email: 'billing@acme.example' });
	});

	it('changed bank details are checked together with the stored ones', async () => {
		const { eur: xaid } = sandbox.seeded.accounts;
		const xpid = sandbox.seeded.payees.eur;
		const result = await run({
			operation: 'update',
			account: byId(xaid),
			payee: byId(xpid),
			bankDetails: { iban: 'DE02120300000000202051' },
		});
		expect(mainJson(result)).toEqual([
			expect.objectContaining({ xpid, iban: 'DE02120300000000202051', bic: 'SOGEDEFFXXX' }),
		]);
		expect(result.calls).toEqual([
			`GET /account/${xaid}`,
			`GET /payee/${xpid}`,
			`PUT /account/${xaid}/payees/${xpid}`,
		]);

		const gbpOnly = await run({
			operation: 'update',
			account: byId(xaid),
			payee: byId(xpid),
			bankDetails: { sortCode: '040004' },
		});
		expect(gbpOnly.error?.message).toBe(
			'Invalid payee in item 0: Sort Code (sortCode) is only allowed for GBP accounts (this account is EUR)',
		);
		expect(gbpOnly.calls.filter((call) => call.startsWith('PUT'))).toEqual([]);
	});

	it('an update without fields is refused before any request', async () => {
		const result = await run({
			operation: 'update',
			account: byId(sandbox.seeded.accounts.gbp),
			payee: byId(sandbox.seeded.payees.gbp),
		});
		expect(result.error?.message).toBe('Nothing to update in item 0');
		expect(result.requests).toEqual([]);
	});

	it('403: a client without update:payee; 404: a payee of another account', async () => {
		const denied = await run(
			{
				operation: 'update',
				account: byId(sandbox.seeded.accounts.gbp),
				payee: byId(sandbox.seeded.payees.gbp),
				contact: { website: 'https://acme.example' },
			},
			{ client: 'noUpdatePayee' },
		);
		expectApiError(denied, '403');

		const elsewhere = await run({
			operation: 'update',
			account: byId(sandbox.seeded.accounts.gbp),
			payee: byId(sandbox.seeded.payees.usd),
			contact: { website: 'https://hudson.example' },
		});
		expectApiError(elsewhere, '404');
	});
});

describe('Payee: Create or Update (spec §Upsert, §Errors rule 6)', () => {
	const upsertForm = (overrides: Record<string, unknown> = {}) =>
		gbpForm({ operation: 'upsert', ...overrides });

	it('looks the payee up by name and bank details and updates it (its xpid passed)', async () => {
		const xaid = sandbox.seeded.accounts.gbp;
		const result = await run(
			upsertForm({
				name: 'Acme Supplies Ltd',
				sortCode: '200000',
				accountNumber: '55779911',
				reference: 'ACME-GBP-0002',
			}),
		);
		expect(mainJson(result)).toEqual([
			expect.objectContaining({ xpid: sandbox.seeded.payees.gbp, reference: 'ACME-GBP-0002' }),
		]);
		expect(result.calls).toEqual([
			`GET /account/${xaid}`,
			`GET /account/${xaid}/payees?page=0&limit=100`,
			`POST /account/${xaid}/payee`,
		]);
		expect(result.requests.at(-1)?.body).toEqual(
			expect.objectContaining({ xpid: sandbox.seeded.payees.gbp }),
		);
	});

	it('creates the payee when none matches (no xpid sent), and finds it the next time', async () => {
		const form = upsertForm({
			name: 'Birch Works Ltd',
			sortCode: '090128',
			accountNumber: '99887766',
		});
		const created = await run(form);
		const [payee] = mainJson(created);
		expect(created.requests.at(-1)?.body).not.toHaveProperty('xpid');

		const again = await run({ ...form, contact: { email: 'ap@birch.example' } });
		expect(mainJson(again)).toEqual([
			expect.objectContaining({ xpid: payee.xpid, email: 'ap@birch.example' }),
		]);
		const payeesOfAccount = sandbox.control
			.requests()
			.filter((entry) => entry.method === 'POST')
			.map((entry) => (entry.body as IDataObject).xpid);
		expect(payeesOfAccount).toEqual([undefined, payee.xpid]);
	});

	it('an explicit Payee ID updates that payee without looking up, and only needs the fields that change', async () => {
		const xaid = sandbox.seeded.accounts.usd;
		const xpid = sandbox.seeded.payees.usd;
		const result = await run({
			operation: 'upsert',
			account: byId(xaid),
			payeeId: xpid,
			lookUpExisting: true,
			bankDetailsFormat: 'usd',
			contact: { mobilePhone: '+1 212 555 0100' },
		});
		expect(mainJson(result)).toEqual([
			expect.objectContaining({ xpid, mobilePhone: '+1 212 555 0100', name: 'Hudson Freight Inc' }),
		]);
		expect(result.calls).toEqual([`GET /account/${xaid}`, `POST /account/${xaid}/payee`]);
		expect(result.requests.at(-1)?.body).toEqual({ mobilePhone: '+1 212 555 0100', xpid });
	});

	it('without look-up and without Payee ID it creates, and needs every field required for create', async () => {
		const result = await run(upsertForm({ lookUpExisting: false, purpose: '' }));
		expect(result.error?.message).toBe('Invalid payee in item 0: Purpose (purpose) is required');
		expect(result.requests).toEqual([]);
	});

	it('several payees matching is an error that names them, and nothing is written', async () => {
		const form = upsertForm({
			name: 'Cedar Twins Ltd',
			sortCode: '090128',
			accountNumber: '12121212',
			lookUpExisting: false,
		});
		const first = mainJson(await run(form))[0];
		const second = mainJson(await run(form))[0];
		sandbox.control.clearRequests();
		const result = await run({ ...form, lookUpExisting: true });
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(result.error?.message).toBe(
			'2 payees of the account match the name and bank details of item 0',
		);
		expect(result.error?.description).toContain(`${first.xpid}, ${second.xpid}`);
		expect(payeesInSandbox()).toEqual([]);
	});

	it('403: upsert needs both create:payee and update:payee', async () => {
		const result = await run(upsertForm({ name: 'Willow Ltd', lookUpExisting: false }), {
			client: 'noUpdatePayee',
		});
		expectApiError(result, '403');
	});
});

/**
 * Bad input never reaches the bank or crashes: the real node, run through the n8n context helpers
 * against the sandbox, refuses each case with a NodeOperationError that names the field and the rule,
 * and sends no request at all (token requests included). What n8n itself removes before the node runs
 * is checked to stay removed: nothing of it is sent.
 */
import type { ICredentialDataDecryptedObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import * as payeeCreate from '../../../nodes/CustomerBanking/actions/payee/create.operation';
import * as payeeUpdate from '../../../nodes/CustomerBanking/actions/payee/update.operation';
import * as paymentSubmit from '../../../nodes/CustomerBanking/actions/payment/submit.operation';
import {
	PAYEE_FIELD_LABELS,
	PAYEE_FIELDS,
	payeeFieldHint,
	type PayeeField,
	REQUIRED_ON_CREATE,
} from '../../../nodes/CustomerBanking/validation/payee.fields';
import { PAYMENT_DESCRIPTION_MAX } from '../../../nodes/CustomerBanking/validation/payment.fields';
import { credentialsFor } from '../../helpers/sandboxCredentials';
import { byId, type NodeRun, runNode } from '../../integration/actionNode';
import { runPayments } from '../../integration/payments/paymentNode';
import { type Sandbox, startSandbox } from '../../sandbox';

let sandbox: Sandbox;
let credentials: ICredentialDataDecryptedObject;
let run = 0;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	credentials = credentialsFor(sandbox);
});
afterAll(async () => await sandbox.close());

const node = (parameters: Record<string, unknown>) =>
	runNode(sandbox, credentials, { parameters, executionId: `bad-input-${++run}` });

const pay = (
	parameters: Record<string, unknown>,
	itemParameters?: Array<Record<string, unknown>>,
) =>
	runPayments(sandbox, credentials, {
		executionId: `bad-input-${++run}`,
		parameters: {
			operation: 'submit',
			account: byId(sandbox.seeded.accounts.gbp),
			payee: byId(sandbox.seeded.payees.gbp),
			amount: 1.5,
			reference: `BAD-${run}-REF`,
			...parameters,
		},
		itemParameters,
	});

/** A valid Create form for the GBP account (top-level fields as the node shows them). */
const gbpPayee = (overrides: Record<string, unknown> = {}) => ({
	resource: 'payee',
	operation: 'create',
	account: byId(sandbox.seeded.accounts.gbp),
	name: 'Birch Joinery Ltd',
	reference: 'BIRCH-0001',
	purpose: 'Supplier payment',
	purposeCategory: 'SUPPLIER',
	addressLine1: '3 Mill Lane',
	townCity: 'Leeds',
	postCode: 'LS1 4AP',
	countryCode: 'GB',
	bankDetailsFormat: 'gbp',
	sortCode: '040004',
	accountNumber: '11223344',
	...overrides,
});

/** Refused before any HTTP call, by a NodeOperationError whose message names the field and the rule. */
function expectRefused(result: Pick<NodeRun, 'error' | 'requests'>, ...expected: string[]) {
	expect(result.error).toBeInstanceOf(NodeOperationError);
	// a raw error wrapped by the router keeps the engine's words: never one of those
	expect(result.error?.message).not.toMatch(
		/URI malformed|is not iterable|Cannot (?:read|convert)|undefined or null/,
	);
	for (const text of expected) expect(result.error?.message).toContain(text);
	expect(result.requests).toEqual([]);
}

/**
 * What n8n removes before the node runs (keys a collection does not declare, a collection that is not
 * a group of fields) never reaches the bank: the node runs on what is left and sends none of it.
 */
function expectRemovedByN8n(result: Pick<NodeRun, 'error' | 'requests'>, marker: string) {
	expect(result.error).toBeUndefined();
	expect(
		result.requests.filter(
			(request) => request.method === 'POST' && !request.url.includes('/oauth'),
		),
	).toHaveLength(1);
	for (const request of result.requests) {
		expect(request.rawBody ?? '').not.toContain(marker);
		expect(request.rawBody ?? '').not.toMatch(/"(?:__proto__|constructor|prototype)"/);
	}
}

/** An expression giving the parsed JSON, as a workflow hands a declared field an object; braces escaped for n8n's template. */
const expressionGiving = (json: string) =>
	`={{ JSON.parse(${JSON.stringify(json).replace(/[{}]/g, (brace) => (brace === '{' ? '\\u007b' : '\\u007d'))}) }}`;

const LONE_SURROGATES = ['\uD800', 'abc\uDFFF', '\uDBFF\uDBFF'];
const NOT_TEXT = 'contains characters that are not valid text';

describe('1. lone UTF-16 surrogates in IDs', () => {
	const cases: Array<[string, (id: string) => Record<string, unknown>, string]> = [
		[
			'Account → Get',
			(id) => ({ resource: 'account', operation: 'get', account: byId(id) }),
			'Account',
		],
		[
			'Account → Get Balance',
			(id) => ({ resource: 'account', operation: 'getBalance', account: byId(id) }),
			'Account',
		],
		[
			'Transaction → Get',
			(id) => ({ resource: 'transaction', operation: 'get', transactionId: id }),
			'Transaction ID',
		],
		[
			'Transaction → Get Many of one account',
			(id) => ({
				resource: 'transaction',
				operation: 'getMany',
				scope: 'account',
				account: byId(id),
				returnAll: true,
			}),
			'Account',
		],
		[
			'Approval → Get',
			(id) => ({ resource: 'approval', operation: 'get', approvalRef: id }),
			'Approval Reference (ref)',
		],
		[
			'Approval → Get by Payment',
			(id) => ({
				resource: 'approval',
				operation: 'getByPayment',
				transactionId: id,
				scope: 'all',
			}),
			'Transaction ID',
		],
		[
			'Approval → Get Many of one account',
			(id) => ({
				resource: 'approval',
				operation: 'getMany',
				scope: 'account',
				account: byId(id),
				returnAll: true,
			}),
			'Account',
		],
		['Payee → Get', (id) => ({ resource: 'payee', operation: 'get', payee: byId(id) }), 'Payee'],
		[
			'Payee → Get Many of one account',
			(id) => ({
				resource: 'payee',
				operation: 'getMany',
				scope: 'account',
				account: byId(id),
				returnAll: true,
			}),
			'Account',
		],
		['Payee → Create', (id) => gbpPayee({ account: byId(id) }), 'Account'],
		// the payee ID used to reach encodeURIComponent only after GET /account/{xaid} had been sent
		[
			'Payee → Update',
			(id) => ({
				resource: 'payee',
				operation: 'update',
				account: byId(sandbox.seeded.accounts.gbp),
				payee: byId(id),
				bankDetails: { sortCode: '040004' },
			}),
			'Payee',
		],
		[
			'Payee → Create or Update (Payee ID)',
			(id) => gbpPayee({ operation: 'upsert', payeeId: id }),
			'Payee ID',
		],
	];
	for (const [operation, parameters, field] of cases) {
		it.each(LONE_SURROGATES.map((id) => [JSON.stringify(id), id]))(
			`${operation}: %s is refused, naming ${field}`,
			async (_shown, id) => {
				expectRefused(await node(parameters(id)), `${field}: ${NOT_TEXT} (item 0)`);
			},
		);
	}

	it.each([
		['Submit', 'submit'],
		['Submit Batch', 'submitBatch'],
	])(
		'Payment → %s: in the payee, the account and the Custom Idempotency Key',
		async (_name, operation) => {
			expectRefused(await pay({ operation, payee: byId('\uD800') }), `Payee ${NOT_TEXT}`);
			expectRefused(
				await pay({ operation, account: byId('abc\uDFFF') }),
				`Source Account ${NOT_TEXT}`,
			);
			expectRefused(
				await pay({ operation, options: { idempotencyKey: 'INV-\uD83D' } }),
				`Custom Idempotency Key ${NOT_TEXT}`,
			);
		},
	);

	it('the same IDs with a whole surrogate pair are valid text and travel percent-encoded', async () => {
		const result = await node({ resource: 'payee', operation: 'get', payee: byId('pye-💸') });
		expect(result.error?.constructor.name).toBe('NodeApiError');
		expect(result.calls).toEqual([`GET /payee/${encodeURIComponent('pye-💸')}`]);
	});
});

describe('2. prototype keys and option values', () => {
	it.each([
		['{"__proto__": {"x": 1}}', '__proto__'],
		['{"constructor": 1}', 'constructor'],
		['{"prototype": {"polluted": true}}', 'prototype'],
		['{"meta": {"__proto__": {"admin": true}}}', 'meta.__proto__'],
		['[{"constructor": 1}]', undefined],
	])('Additional Body Fields %s is refused, naming the field', async (json, key) => {
		const result = await pay({ additionalFields: { additionalBodyFields: json } });
		expectRefused(
			result,
			'Invalid payment in item 0: Additional Body Fields must',
			key === undefined ? 'be a JSON object' : `not contain the key "${key}"`,
		);
	});

	it('as an object (an expression) too, and in Submit Batch', async () => {
		const extra = expressionGiving('{"__proto__": {"amount": 1000000}}');
		expectRefused(
			await pay({ additionalFields: { additionalBodyFields: extra } }),
			'Additional Body Fields must not contain the key "__proto__"',
		);
		expectRefused(
			await pay({
				operation: 'submitBatch',
				additionalFields: { additionalBodyFields: expressionGiving('{"constructor": 1}') },
			}),
			'Additional Body Fields must not contain the key "constructor"',
		);
	});

	// n8n keeps only the fields a collection declares, so these keys never reach the node
	it.each(['additionalFields', 'options'])(
		'a key like "__proto__" in the %s collection is removed by n8n and never sent',
		async (collection) => {
			for (const key of ['__proto__', 'constructor', 'prototype']) {
				const group = JSON.parse(`{"${key}": {"description": "INJECTED"}}`) as object;
				expectRemovedByN8n(await pay({ [collection]: group }), 'INJECTED');
			}
		},
	);

	it.each(['identity', 'contact', 'address', 'bankDetails', 'intermediaryBank'])(
		'payee collection %s with a prototype key: n8n removes the key, nothing of it is sent (create and update)',
		async (collection) => {
			for (const [index, key] of ['__proto__', 'constructor', 'prototype'].entries()) {
				const group = JSON.parse(`{"${key}": {"name": "Injected Name"}}`) as object;
				expectRemovedByN8n(
					await node(gbpPayee({ name: `Proto ${collection} ${index}`, [collection]: group })),
					'Injected Name',
				);
				// an update with only the removed key left has nothing to change
				expectRefused(
					await node({
						resource: 'payee',
						operation: 'update',
						account: byId(sandbox.seeded.accounts.gbp),
						payee: byId(sandbox.seeded.payees.gbp),
						[collection]: group,
					}),
					'Nothing to update in item 0',
				);
			}
		},
	);

	it.each(['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'])(
		'options parameters: "%s" is no option value',
		async (value) => {
			expectRefused(
				await node(gbpPayee({ bankDetailsFormat: value })),
				'Bank Details Format: must be one of cad, gbp, iban, usd',
			);
			expectRefused(
				await node({ resource: 'payee', operation: 'getMany', scope: value, returnAll: true }),
				'Scope: must be one of all, account',
			);
			expectRefused(
				await node({ resource: 'account', operation: value }),
				`The operation "${value}"`,
			);
			expectRefused(await node({ resource: value, operation: 'get' }), `the resource "${value}"`);
		},
	);

	it('booleans given as text are refused rather than read as true or false', async () => {
		expectRefused(
			await node(gbpPayee({ operation: 'upsert', lookUpExisting: 'false' })),
			'Look Up Existing Payee First: must be true or false',
		);
		expectRefused(
			await node({ resource: 'account', operation: 'getMany', returnAll: 'false' }),
			'Return All: must be true or false',
		);
		// "true" must not mean "send": Validate Only is checked with === true
		expectRefused(
			await pay({ options: { validateOnly: 'true' } }),
			'Validate Only must be true or false',
		);
	});

	it('an ID of the wrong type is refused instead of being sent as "[object Object]"', async () => {
		expectRefused(
			await node(gbpPayee({ operation: 'upsert', payeeId: { id: 'x' } })),
			'Payee ID: must be text',
		);
		expectRefused(
			await node({ resource: 'payee', operation: 'get', payee: byId(12345 as never) }),
			'Payee: must be text',
		);
	});
});

describe('3. whole field groups that are null', () => {
	const groups = {
		identity: null,
		contact: null,
		address: null,
		bankDetails: null,
		intermediaryBank: null,
	};

	it('payee Create: null groups are empty groups', async () => {
		const result = await node(gbpPayee({ name: 'Null Groups Ltd', ...groups }));
		expect(result.error).toBeUndefined();
		expect(result.calls.filter((call) => call.startsWith('POST'))).toHaveLength(1);
	});

	it('payee Update: null groups leave nothing to update, and nothing is sent', async () => {
		const result = await node({
			resource: 'payee',
			operation: 'update',
			account: byId(sandbox.seeded.accounts.gbp),
			payee: byId(sandbox.seeded.payees.gbp),
			...groups,
		});
		expectRefused(result, 'Nothing to update in item 0');
	});

	// n8n reads a collection's declared fields out of whatever it holds, so one that is not a group
	// (as given or from an expression) reaches the node as an empty group
	it.each([
		['a string', 'abc'],
		['an expression giving a string', '={{ "abc" }}'],
		['a list', [{ name: 'abc' }]],
		['a number', 5],
	])(
		'a payee group that is %s is an empty group in n8n; nothing of it is sent',
		async (kind, value) => {
			expectRemovedByN8n(
				await node(gbpPayee({ name: `Group Address ${kind}`, address: value })),
				'abc',
			);
			expectRemovedByN8n(
				await node(gbpPayee({ name: `Group Bank ${kind}`, bankDetails: value })),
				'abc',
			);
		},
	);

	it('payment: null Additional Fields, Options and Additional Body Fields are empty', async () => {
		const result = await pay({ additionalFields: null, options: null });
		expect(result.error).toBeUndefined();
		expect(result.posts).toHaveLength(1);
		const blank = await pay({
			additionalFields: { additionalBodyFields: null, description: null, currency: null },
		});
		expect(blank.error).toBeUndefined();
		expect(blank.posts).toHaveLength(1);
	});

	it('payment: Additional Fields or Options that are not groups are empty groups in n8n; nothing of them is sent', async () => {
		expectRemovedByN8n(await pay({ additionalFields: 'abc' }), 'abc');
		expectRemovedByN8n(await pay({ operation: 'submitBatch', options: ['abc'] }), 'abc');
	});
});

describe('4. blank values', () => {
	it.each(['      ', '\t \n', '\u00A0\u00A0\u00A0\u00A0\u00A0\u00A0'])(
		'payment Reference %j is refused, never paid',
		async (reference) => {
			expectRefused(
				await pay({ reference }),
				'Invalid payment in item 0: Reference must not be blank',
			);
			expectRefused(
				await pay({ operation: 'submitBatch' }, [{ reference: 'FINE-REF-1' }, { reference }]),
				'Invalid payment in item 1: Reference must not be blank',
			);
		},
	);

	it.each([...REQUIRED_ON_CREATE, 'sortCode', 'accountNumber'])(
		'payee Create: a blank %s is refused',
		async (field) => {
			const label = PAYEE_FIELD_LABELS[field as PayeeField];
			expectRefused(
				await node(gbpPayee({ [field]: '     ' })),
				`Invalid payee in item 0: ${label} (${field}) must not be blank`,
			);
		},
	);

	it('payee Create or Update and Update: blank values are refused too (an update would clear the field)', async () => {
		expectRefused(
			await node(gbpPayee({ operation: 'upsert', purpose: '   ' })),
			'Purpose (purpose) must not be blank',
		);
		expectRefused(
			await node({
				resource: 'payee',
				operation: 'update',
				account: byId(sandbox.seeded.accounts.gbp),
				payee: byId(sandbox.seeded.payees.gbp),
				intermediaryBank: { intermediaryAddress1: '   ' },
			}),
			'Intermediary Address Line 1 (intermediaryAddress1) must not be blank',
		);
	});

	it('a blank Payee or Account is refused as missing', async () => {
		expectRefused(
			await node({ resource: 'payee', operation: 'get', payee: byId('   ') }),
			'Payee: is required (item 0)',
		);
		expectRefused(await pay({ payee: byId('   ') }), 'Payee is required');
	});
});

describe('5. rules the sandbox decided where the spec is silent', () => {
	const purposeMax = PAYEE_FIELDS.purpose.rule.max;

	it.each([
		[
			'purpose',
			{ purpose: 'p'.repeat(purposeMax + 1) },
			`Purpose (purpose) must be 1-${purposeMax} characters`,
		],
		[
			'purposeCategory',
			{ purposeCategory: 'c'.repeat(PAYEE_FIELDS.purposeCategory.rule.max + 1) },
			`Purpose Category (purposeCategory) must be ${payeeFieldHint('purposeCategory')}`,
		],
		[
			'intermediaryCountryCode',
			{ intermediaryBank: { intermediaryCountryCode: 'GBR' } },
			`Intermediary Country Code (intermediaryCountryCode) must be ${PAYEE_FIELDS.intermediaryCountryCode.rule.format.rule}`,
		],
		[
			'intermediaryCountryCode',
			{ intermediaryBank: { intermediaryCountryCode: 'G1' } },
			'Intermediary Country Code (intermediaryCountryCode) must be 2 letters',
		],
		[
			'website',
			{ contact: { website: 'https://localhost' } },
			'Website (website) must be a valid URL',
		],
	])('payee %s: refused before any request', async (_field, overrides, message) => {
		expectRefused(await node(gbpPayee(overrides)), message);
	});

	it('payment Description over the limit is refused before any request', async () => {
		const description = 'd'.repeat(PAYMENT_DESCRIPTION_MAX + 1);
		expectRefused(
			await pay({ additionalFields: { description } }),
			`Description must be at most ${PAYMENT_DESCRIPTION_MAX} characters (has ${PAYMENT_DESCRIPTION_MAX + 1})`,
		);
	});

	it('the node and the bank agree at the limits: the longest values are accepted by both', async () => {
		const created = await node(
			gbpPayee({
				name: 'Limits Ltd',
				purpose: 'p'.repeat(purposeMax),
				purposeCategory: 'c'.repeat(PAYEE_FIELDS.purposeCategory.rule.max),
				intermediaryBank: { intermediaryCountryCode: 'us' },
			}),
		);
		expect(created.error).toBeUndefined();
		const paid = await pay({
			additionalFields: { description: 'd'.repeat(PAYMENT_DESCRIPTION_MAX) },
		});
		expect(paid.error).toBeUndefined();
		expect(paid.output?.[0][0].json.status).toBe('sent');
	});

	/** Every payee field the form offers, with its description. */
	const formFields = (description: INodeProperties[]) =>
		description.flatMap((property) =>
			property.type === 'collection' ? ((property.options ?? []) as INodeProperties[]) : [property],
		);

	it('every payee form hint reads the rule the schema enforces', () => {
		for (const description of [payeeCreate.description, payeeUpdate.description]) {
			const fields = formFields(description).filter((field) => field.name in PAYEE_FIELD_LABELS);
			for (const field of fields) {
				const hint = payeeFieldHint(field.name as PayeeField);
				if (hint === '') continue;
				expect([field.name, field.description?.toLowerCase()]).toEqual([
					field.name,
					expect.stringContaining(hint.toLowerCase()),
				]);
			}
		}
		const byName = (name: string) =>
			formFields(payeeCreate.description).find((field) => field.name === name);
		expect(byName('purpose')?.description).toContain(
			`1-${PAYEE_FIELDS.purpose.rule.max} characters`,
		);
		expect(byName('purposeCategory')?.description).toContain(
			`1-${PAYEE_FIELDS.purposeCategory.rule.max} characters`,
		);
		expect(byName('intermediaryCountryCode')?.description).toContain(
			PAYEE_FIELDS.intermediaryCountryCode.rule.format.rule,
		);
	});

	it('the payment form hints read the description limit and the reference lengths', () => {
		const fields = formFields(paymentSubmit.description);
		expect(fields.find((field) => field.name === 'description')?.description).toContain(
			`at most ${PAYMENT_DESCRIPTION_MAX} characters`,
		);
		expect(fields.find((field) => field.name === 'reference')?.description).toContain(
			'6-18 characters for GBP, 6-140 for other currencies',
		);
	});
});

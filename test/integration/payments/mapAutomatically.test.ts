/**
 * "Map Automatically" takes each payment from the input item's fields accountId, payeeId, amount,
 * reference (and optionally currency, description), as a spreadsheet of invoices names them; missing
 * and extra fields are errors naming the item and the field, before anything is sent.
 */
import { AMOUNT_RULES } from '../../../nodes/CustomerBanking/validation/amount';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { credentialsFor } from '../../helpers/sandboxCredentials';
import { type Sandbox, startSandbox } from '../../sandbox';
import { runPayments, sentWithReference } from './paymentNode';

let sandbox: Sandbox;
let credentials: ICredentialDataDecryptedObject;
let counter = 0;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: 22 });
	credentials = credentialsFor(sandbox);
});
afterAll(async () => await sandbox.close());

const invoice = (fields: IDataObject = {}): IDataObject => ({
	accountId: sandbox.seeded.accounts.gbp,
	payeeId: sandbox.seeded.payees.gbp,
	amount: 12.5,
	reference: `AUTO-${process.pid % 1000}-${++counter}`,
	...fields,
});

function pay(
	operation: 'submit' | 'submitBatch',
	rows: IDataObject[],
	options: IDataObject = {},
	continueOnFail = false,
) {
	return runPayments(sandbox, credentials, {
		executionId: `exec-auto-${++counter}`,
		continueOnFail,
		parameters: { operation, mappingMode: 'autoMapInputData', options },
		items: rows.map((json) => ({ json })),
	});
}

describe.each(['submit', 'submitBatch'] as const)('%s, Map Automatically', (operation) => {
	it('pays each item from its fields, with numbers given as text as a spreadsheet gives them', async () => {
		const rows = [invoice(), invoice({ amount: '7.25', currency: 'GBP', description: 'March' })];
		const run = await pay(operation, rows);
		expect(run.error).toBeUndefined();
		const outputs = (run.output?.[0] ?? []).map((item) => item.json);
		expect(outputs.map((output) => output.status)).toEqual(['sent', 'sent']);
		expect(
			run.posts.flatMap((post) => (Array.isArray(post.body) ? post.body : [post.body])),
		).toEqual([
			{
				xaid: rows[0].accountId,
				xpid: rows[0].payeeId,
				amount: 12.5,
				reference: rows[0].reference,
			},
			{
				xaid: rows[1].accountId,
				xpid: rows[1].payeeId,
				amount: 7.25,
				currency: 'GBP',
				reference: rows[1].reference,
				description: 'March',
			},
		]);
		for (const row of rows)
			expect(sentWithReference(sandbox, String(row.reference))).toHaveLength(1);
	});

	it('a missing field fails the item by name before anything is sent', async () => {
		const withoutAmount = invoice();
		delete withoutAmount.amount;
		const run = await pay(operation, [invoice(), withoutAmount]);
		expect(run.posts).toEqual([]);
		expect(run.error?.message).toBe("Invalid payment in item 1: Input field 'amount' is required");
	});

	it('an extra field fails the item by name before anything is sent, saying how to map it', async () => {
		const run = await pay(operation, [invoice({ invoiceNumber: 'INV-1', customer: 'ACME' })]);
		expect(run.posts).toEqual([]);
		expect(run.error?.message).toMatch(
			/^Invalid payment in item 0: Input fields 'invoiceNumber', 'customer' are not a payment field/,
		);
		expect(run.error?.description).toMatch(/Map Each Field Below/);
	});

	it('with Continue On Fail the bad items fail alone and the others are paid', async () => {
		const good = invoice();
		const run = await pay(operation, [invoice({ amount: 'twelve' }), good], {}, true);
		const outputs = (run.output?.[0] ?? []).map((item) => item.json);
		expect(outputs.find((output) => output.error !== undefined)?.error).toBe(
			`Invalid payment in item 0: Input field 'amount' ${AMOUNT_RULES.notANumber}`,
		);
		expect(outputs.find((output) => output.status === 'sent')).toMatchObject({
			reference: good.reference,
		});
		expect(sentWithReference(sandbox, String(good.reference))).toHaveLength(1);
	});

	it('Validate Only shows what would be sent and sends nothing', async () => {
		const row = invoice();
		const run = await pay(operation, [row], { validateOnly: true });
		expect(run.posts).toEqual([]);
		expect(JSON.stringify(run.output?.[0]?.[0]?.json)).toContain(String(row.reference));
	});
});

/**
 * The body of a payee write, against a scripted bank: every rule that needs no account is checked
 * before any request (a bad item sends nothing), then the account's currency and, where bank details
 * change, the stored payee are read; an upsert looks the payee up first and passes its xpid.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

import {
	prepareCreate,
	prepareUpdate,
	prepareUpsert,
} from '../../../../nodes/CustomerBanking/payees/payeeBody';
import { type BankCall, fails, ok, page, scriptedBank } from '../../../helpers/scriptedBank';

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

/** A bank whose account acc-1 is in GBP, with these payees. */
function gbpBank(payees: IDataObject[] = []) {
	return scriptedBank((call: BankCall) => {
		if (call.path === '/account/acc-1') return ok({ xaid: 'acc-1', currency: 'GBP' });
		if (call.path === '/account/acc-1/payees') return page(payees, call.qs);
		const payee = payees.find((entry) => call.path === `/payee/${String(entry.xpid)}`);
		return payee ? ok(payee) : fails(404);
	});
}

const paths = (calls: BankCall[]) => calls.map((call) => call.path);

describe('prepareCreate', () => {
	it("a valid payee: checked, then with the rules of the account's currency", async () => {
		const bank = gbpBank();
		await expect(
			prepareCreate.call(bank.context, 0, 'acc-1', { ...GBP_PAYEE, sortCode: '04-00-04' }),
		).resolves.toMatchObject({
			name: 'Acme Supplies Ltd',
			sortCode: '040004',
		});
		expect(paths(bank.calls)).toEqual(['/account/acc-1']);
	});

	it('a payee breaking a rule that needs no account is refused before any request, naming item, label and field', async () => {
		const bank = gbpBank();
		const create = prepareCreate.call(bank.context, 3, 'acc-1', {
			...GBP_PAYEE,
			sortCode: '04-00-4',
		});
		await expect(create).rejects.toBeInstanceOf(NodeOperationError);
		await expect(create).rejects.toThrow(/^Invalid payee in item 3: .*\(sortCode\)/);
		expect(bank.calls).toEqual([]);
	});
});

describe('prepareUpdate', () => {
	it('nothing to update is refused before any request', async () => {
		const bank = gbpBank();
		await expect(
			prepareUpdate.call(bank.context, 1, { xaid: 'acc-1', xpid: 'p-1' }, {}),
		).rejects.toThrow('Nothing to update in item 1');
		expect(bank.calls).toEqual([]);
	});

	it('a name change does not read the stored payee; a bank detail change does', async () => {
		const stored = { xpid: 'p-1', ...GBP_PAYEE };
		const rename = gbpBank([stored]);
		await prepareUpdate.call(
			rename.context,
			0,
			{ xaid: 'acc-1', xpid: 'p-1' },
			{ name: 'Acme Ltd' },
		);
		expect(paths(rename.calls)).toEqual(['/account/acc-1']);
		const details = gbpBank([stored]);
		await prepareUpdate.call(
			details.context,
			0,
			{ xaid: 'acc-1', xpid: 'p-1' },
			{ accountNumber: '87654321' },
		);
		expect(paths(details.calls)).toEqual(['/account/acc-1', '/payee/p-1']);
	});
});

describe('prepareUpsert', () => {
	it('with Look Up, an existing payee is found and its xpid passed', async () => {
		const bank = gbpBank([{ xpid: 'p-7', ...GBP_PAYEE }]);
		const body = await prepareUpsert.call(
			bank.context,
			0,
			{ xaid: 'acc-1', xpid: '', lookUp: true },
			GBP_PAYEE,
		);
		expect(body.xpid).toBe('p-7');
	});

	it('with Look Up and no match, it is created (no xpid)', async () => {
		const bank = gbpBank([]);
		const body = await prepareUpsert.call(
			bank.context,
			0,
			{ xaid: 'acc-1', xpid: '', lookUp: true },
			GBP_PAYEE,
		);
		expect(body.xpid).toBeUndefined();
	});

	it('Look Up without a name is refused before any request', async () => {
		const bank = gbpBank();
		const nameless: IDataObject = { ...GBP_PAYEE };
		delete nameless.name;
		await expect(
			prepareUpsert.call(bank.context, 2, { xaid: 'acc-1', xpid: '', lookUp: true }, nameless),
		).rejects.toThrow(
			/^Invalid payee in item 2: .*\(name\) is required to look up an existing payee$/,
		);
		expect(bank.calls).toEqual([]);
	});

	it('a Payee ID given is passed without a look-up', async () => {
		const bank = gbpBank([{ xpid: 'p-1', ...GBP_PAYEE }]);
		const body = await prepareUpsert.call(
			bank.context,
			0,
			{ xaid: 'acc-1', xpid: 'p-1', lookUp: true },
			{ name: 'Renamed Ltd' },
		);
		expect(body).toMatchObject({ xpid: 'p-1', name: 'Renamed Ltd' });
		expect(paths(bank.calls)).toEqual(['/account/acc-1']);
	});
});

import type { Account } from './accounts/model';
import { type Sandbox, startSandbox } from './index';
import { type Api, apiAs, type ErrorBody, type List } from './testing';

interface Balance {
	currency: string;
	balance: number;
	availableBalance: number;
	pendingBalance: number;
}

interface Transaction {
	xtid: string;
	xaid: string;
	direction: string;
	status: string;
	amount: number;
	reference: string;
}

const MISSING_UUID = '00000000-0000-4000-8000-000000000000';

describe('sandbox accounts, balances and transactions (spec §Endpoints)', () => {
	let sandbox: Sandbox;
	let api: Api;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0 });
		api = await apiAs(sandbox);
	});
	afterAll(() => sandbox.close());

	it('lists the caller workspace accounts in the { total, results } envelope', async () => {
		const reply = await api.get<List<Account>>('/accounts');
		expect(reply.status).toBe(200);
		expect(reply.body.total).toBe(5);
		const byCurrency = reply.body.results.map((a) => [a.currency, a.type, a.status]);
		expect(byCurrency).toEqual([
			['GBP', 'SCAN', 'ACTIVE'],
			['EUR', 'IBAN', 'ACTIVE'],
			['USD', 'IBAN', 'ACTIVE'],
			['CAD', 'IBAN', 'ACTIVE'],
			['GBP', 'SCAN', 'SUSPENDED'],
		]);
		expect(reply.body.results.map((a) => a.xaid)).not.toContain(
			sandbox.seeded.accounts.otherWorkspace,
		);
	});

	it('returns every spec §Account field; IBAN accounts have empty sortCode and accountNumber', async () => {
		const gbp = await api.get<Account>(`/account/${sandbox.seeded.accounts.gbp}`);
		expect(Object.keys(gbp.body)).toEqual([
			'xaid',
			'status',
			'type',
			'currency',
			'name',
			'accountNumber',
			'sortCode',
			'iban',
			'bic',
			'fullName',
			'companyName',
			'companyReg',
			'legalEntity',
			'isBusiness',
			'customerType',
			'displayName',
			'defaultAccount',
			'externalReference',
			'createdDate',
		]);
		expect(gbp.body).toMatchObject({
			sortCode: '601613',
			accountNumber: '31926819',
			customerType: 'BUSINESS',
		});
		expect(gbp.body.createdDate).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
		const eur = await api.get<Account>(`/account/${sandbox.seeded.accounts.eur}`);
		expect(eur.body).toMatchObject({
			type: 'IBAN',
			sortCode: '',
			accountNumber: '',
			iban: 'DE89370400440532013000',
		});
	});

	it('answers the balance with available = ledger - pending', async () => {
		const reply = await api.get<Balance>(`/account/${sandbox.seeded.accounts.usd}/balance`);
		expect(reply.body).toEqual({
			currency: 'USD',
			balance: 50000,
			availableBalance: 50000,
			pendingBalance: 0,
		});
	});

	it.each(['', '/balance', '/transactions', '/approvals'])(
		'answers 401 on /account/{xaid}%s for an unknown or foreign account and 400 for a non-UUID',
		async (suffix) => {
			for (const xaid of [MISSING_UUID, sandbox.seeded.accounts.otherWorkspace]) {
				const reply = await api.get<ErrorBody>(`/account/${xaid}${suffix}`);
				expect(reply.status).toBe(401);
				expect(reply.body.message).toContain(xaid);
			}
			const malformed = await api.get<ErrorBody>(`/account/not-a-uuid${suffix}`);
			expect(malformed.status).toBe(400);
			expect(malformed.body.message).toBe('xaid must be a UUID');
		},
	);

	it('pages with limit max 500, default 100, 0-based page, 400 naming the field', async () => {
		await sandbox.control.seedTransactions(sandbox.seeded.accounts.gbp, 600);
		const all = await api.get<List<Transaction>>(
			`/account/${sandbox.seeded.accounts.gbp}/transactions`,
		);
		expect(all.body.total).toBe(603);
		expect(all.body.results).toHaveLength(100);
		const last = await api.get<List<Transaction>>(
			`/account/${sandbox.seeded.accounts.gbp}/transactions?limit=500&page=1`,
		);
		expect(last.body.results).toHaveLength(103);
		expect(last.body.results.at(-1)?.reference).toBe('Seeded receipt 600');
		const max = await api.get<List<Transaction>>('/transactions?limit=500');
		expect(max.body.results).toHaveLength(500);
		for (const [query, message] of [
			['limit=501', 'limit must be at most 500'],
			['limit=0', 'limit must be at least 1'],
			['limit=ten', 'limit must be an integer'],
			['page=-1', 'page must be at least 0'],
		]) {
			const reply = await api.get<ErrorBody>(`/transactions?${query}`);
			expect(reply.status).toBe(400);
			expect(reply.body).toEqual({ statusCode: 400, message });
		}
		expect((await api.get<ErrorBody>('/accounts?limit=501')).status).toBe(400);
		expect((await api.get<ErrorBody>('/approvals?limit=501')).status).toBe(400);
		expect((await api.get<ErrorBody>('/approvals?limit=500')).status).toBe(200);
	});

	it('reads one transaction; 404 for an unknown or foreign one', async () => {
		const list = await api.get<List<Transaction>>(
			`/account/${sandbox.seeded.accounts.eur}/transactions`,
		);
		const first = list.body.results[0];
		expect(first).toMatchObject({
			direction: 'incoming',
			status: 'settled',
			amount: 50000,
			reference: 'Opening balance',
		});
		const one = await api.get<Transaction>(`/transaction/${first.xtid}`);
		expect(one.body).toEqual(first);
		expect((await api.get(`/transaction/${MISSING_UUID}`)).status).toBe(404);
		const other = await apiAs(sandbox, 'otherWorkspace');
		expect((await other.get(`/transaction/${first.xtid}`)).status).toBe(404);
		expect((await api.get('/transaction/nope')).status).toBe(400);
	});

	it('keeps the two workspaces apart in every list', async () => {
		const other = await apiAs(sandbox, 'otherWorkspace');
		const accounts = await other.get<List<Account>>('/accounts');
		expect(accounts.body.results.map((a) => a.xaid)).toEqual([
			sandbox.seeded.accounts.otherWorkspace,
		]);
		const transactions = await other.get<List<Transaction>>('/transactions');
		expect(new Set(transactions.body.results.map((t) => t.xaid))).toEqual(
			new Set([sandbox.seeded.accounts.otherWorkspace]),
		);
		const payees = await other.get<List<{ xpid: string }>>('/payees');
		expect(payees.body.results.map((p) => p.xpid)).toEqual([sandbox.seeded.payees.otherWorkspace]);
	});

	it('answers 404 for unknown paths and 405 for a known path with another method', async () => {
		expect((await api.get('/nothing-here')).status).toBe(404);
		expect((await api.put('/accounts', {})).status).toBe(405);
	});
});

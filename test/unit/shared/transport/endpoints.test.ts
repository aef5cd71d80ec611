import { ENDPOINTS } from '../../../../nodes/shared/transport/endpoints';

describe('endpoint table', () => {
	it('encodes every ID it puts into a path', () => {
		const id = 'a/b?c#d e';
		const encoded = encodeURIComponent(id);
		expect(ENDPOINTS.account.at({ xaid: id }).path).toBe(`/account/${encoded}`);
		expect(ENDPOINTS.balance.at({ xaid: id }).path).toBe(`/account/${encoded}/balance`);
		expect(ENDPOINTS.transaction.at({ xtid: id }).path).toBe(`/transaction/${encoded}`);
		expect(ENDPOINTS.approval.at({ ref: id }).path).toBe(`/approval/${encoded}`);
		expect(ENDPOINTS.payee.at({ xpid: id }).path).toBe(`/payee/${encoded}`);
		expect(ENDPOINTS.createPayee.at({ xaid: id }).path).toBe(`/account/${encoded}/payees`);
		expect(ENDPOINTS.updatePayee.at({ xaid: id, xpid: id }).path).toBe(
			`/account/${encoded}/payees/${encoded}`,
		);
		expect(ENDPOINTS.upsertPayee.at({ xaid: id }).path).toBe(`/account/${encoded}/payee`);
		for (const list of [ENDPOINTS.approvals, ENDPOINTS.payees, ENDPOINTS.transactions]) {
			expect(list.at({ xaid: id }).path).toMatch(
				new RegExp(`^/account/${encoded.replace(/[%?]/g, '\\$&')}/[a-z]+$`),
			);
			expect(list.at({}).path).toMatch(/^\/[a-z]+$/);
		}
	});

	it('gives a 429 on payee endpoints the meaning "account not active", a rate limit elsewhere (spec §Errors)', () => {
		const payee = ['payees', 'payee', 'createPayee', 'updatePayee', 'upsertPayee'];
		for (const [name, endpoint] of Object.entries(ENDPOINTS)) {
			expect([name, endpoint.tooManyRequests]).toEqual([
				name,
				payee.includes(name) ? 'accountNotActive' : 'rateLimited',
			]);
		}
	});

	it('resends reads and payments only; payee lists page by 100, the others by 500 (spec §Errors, §Limits)', () => {
		for (const [name, endpoint] of Object.entries(ENDPOINTS)) {
			const resend = endpoint.method === 'GET' || name === 'payments' ? 'safe' : 'never';
			expect([name, endpoint.retry]).toEqual([name, resend]);
		}
		expect(ENDPOINTS.payees.at({}).pageLimit).toBe(100);
		expect(
			[ENDPOINTS.accounts, ENDPOINTS.approvals, ENDPOINTS.transactions].map(
				(list) => list.pageLimit,
			),
		).toEqual([500, 500, 500]);
	});
});

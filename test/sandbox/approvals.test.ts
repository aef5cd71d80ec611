import { randomUUID } from 'node:crypto';

import { type Sandbox, startSandbox } from './index';
import type { PaymentResponse } from './payments/model';
import { type Api, apiAs, type ErrorBody, type List } from './testing';

interface Approval {
	ref: string;
	xtid: string;
	parent_xaid: string;
	status: string;
	transaction: { xtid: string; amount: number; reference: string };
	meta: {
		policyId: string;
		approvers: string[];
		requestId: string;
		expiresAt: string;
		decidedBy?: string;
	};
}

interface Balance {
	balance: number;
	availableBalance: number;
	pendingBalance: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

describe('sandbox approvals (spec §Approval, §States and transitions)', () => {
	let sandbox: Sandbox;
	let api: Api;
	let gbp: string;

	beforeEach(async () => {
		sandbox = await startSandbox({ port: 0, tokenTtlSeconds: 3 * 24 * 3600 });
		api = await apiAs(sandbox);
		gbp = sandbox.seeded.accounts.gbp;
	});
	afterEach(() => sandbox.close());

	const pay = async (amount: number, xaid = gbp, xpid = sandbox.seeded.payees.gbp) => {
		const reply = await api.post<PaymentResponse>(
			'/payments',
			{ xaid, xpid, amount, reference: 'BIG-PAYMENT-1' },
			{ 'x-idempotent-key': randomUUID() },
		);
		expect(reply.status).toBe(202);
		return reply.body.submitted[0];
	};
	const balance = async () => (await api.get<Balance>(`/account/${gbp}/balance`)).body;
	const accountXtids = async () =>
		(
			await api.get<List<{ xtid: string }>>(`/account/${gbp}/transactions?limit=500`)
		).body.results.map((t) => t.xtid);

	it('holds a covered payment (1000.00 and up) as a pending approval carrying its xtid; sends nothing', async () => {
		const below = await pay(999.99);
		expect(below.status).toBe('submitted');
		const held = await pay(1000);
		expect(held).toMatchObject({ status: 'pending_approval', approvalRef: expect.any(String) });
		const approval = await api.get<Approval>(`/approval/${held.approvalRef}`);
		expect(approval.body).toMatchObject({
			ref: held.approvalRef,
			xtid: held.xtid,
			parent_xaid: gbp,
			status: 'pending',
			transaction: { xtid: held.xtid, amount: 1000, reference: 'BIG-PAYMENT-1' },
			meta: { policyId: 'policy-api-1000', approvers: ['Alex Approver', 'Sam Signer'] },
		});
		expect((await api.get(`/transaction/${held.xtid}`)).status).toBe(404);
		expect(await accountXtids()).not.toContain(held.xtid);
		expect(await balance()).toMatchObject({
			balance: 50000,
			pendingBalance: 1999.99,
			availableBalance: 48000.01,
		});
	});

	it('approve → the payment is sent: its xtid appears among the account transactions', async () => {
		const held = await pay(2500);
		const decided = await sandbox.control.approve(held.approvalRef as string);
		expect(decided).toMatchObject({ status: 'approved', meta: { decidedBy: 'Alex Approver' } });
		expect(await accountXtids()).toContain(held.xtid);
		expect((await api.get<{ status: string }>(`/transaction/${held.xtid}`)).body.status).toBe(
			'sent',
		);
		await sandbox.control.settle(held.xtid);
		expect(await balance()).toMatchObject({
			balance: 47500,
			pendingBalance: 0,
			availableBalance: 47500,
		});
		await expect(sandbox.control.approve(held.approvalRef as string)).rejects.toThrow(
			'is already approved',
		);
	});

	it('decline → not sent, the reservation is released', async () => {
		const held = await pay(5000);
		expect(await balance()).toMatchObject({ availableBalance: 45000 });
		expect(await sandbox.control.decline(held.approvalRef as string)).toMatchObject({
			status: 'declined',
		});
		expect(await balance()).toMatchObject({
			balance: 50000,
			availableBalance: 50000,
			pendingBalance: 0,
		});
		expect(await accountXtids()).not.toContain(held.xtid);
		expect((await api.get<Approval>(`/approval/${held.approvalRef}`)).body.status).toBe('declined');
	});

	it('expires on the sandbox clock at the end of the policy window, not before', async () => {
		const held = await pay(1500);
		await sandbox.control.advanceClock(DAY_MS - 1000);
		expect((await api.get<Approval>(`/approval/${held.approvalRef}`)).body.status).toBe('pending');
		await sandbox.control.advanceClock(1000);
		expect((await api.get<Approval>(`/approval/${held.approvalRef}`)).body.status).toBe('expired');
		expect(await balance()).toMatchObject({ availableBalance: 50000, pendingBalance: 0 });
		expect(await accountXtids()).not.toContain(held.xtid);
		await expect(sandbox.control.approve(held.approvalRef as string)).rejects.toThrow(
			'is already expired',
		);
	});

	it('expires on demand through the control handle', async () => {
		const held = await pay(1500);
		expect(await sandbox.control.expire(held.approvalRef as string)).toMatchObject({
			status: 'expired',
		});
		expect(await balance()).toMatchObject({ pendingBalance: 0 });
	});

	it('lists approvals of every status, per account too; 404 foreign or unknown; 400 non-UUID', async () => {
		const first = await pay(1200);
		const second = await pay(1300, sandbox.seeded.accounts.eur, sandbox.seeded.payees.eur);
		await sandbox.control.decline(first.approvalRef as string);
		const all = await api.get<List<Approval>>('/approvals?limit=50');
		expect(all.body.results.map((a) => [a.xtid, a.status])).toEqual([
			[first.xtid, 'declined'],
			[second.xtid, 'pending'],
		]);
		const perAccount = await api.get<List<Approval>>(`/account/${gbp}/approvals`);
		expect(perAccount.body).toMatchObject({ total: 1, results: [{ ref: first.approvalRef }] });
		const other = await apiAs(sandbox, 'otherWorkspace');
		expect((await other.get(`/approval/${first.approvalRef}`)).status).toBe(404);
		expect((await other.get<List<Approval>>('/approvals')).body.total).toBe(0);
		expect((await api.get(`/approval/${randomUUID()}`)).status).toBe(404);
		expect((await api.get<ErrorBody>('/approval/abc')).body.message).toBe('ref must be a UUID');
	});

	it('applies policies by range, currency and the "covers API payments" switch', async () => {
		const base = { approvers: ['Pat'], expiresInSeconds: 60 };
		sandbox.control.setPolicies('workspace-1', [
			{
				...base,
				id: 'off',
				name: 'Not for API',
				minAmount: 0,
				maxAmount: null,
				currency: null,
				coversApiPayments: false,
			},
			{
				...base,
				id: 'eur-band',
				name: 'EUR 10-20',
				minAmount: 10,
				maxAmount: 20,
				currency: 'EUR',
				coversApiPayments: true,
			},
		]);
		expect((await pay(15)).status).toBe('submitted');
		const eur = (amount: number) =>
			pay(amount, sandbox.seeded.accounts.eur, sandbox.seeded.payees.eur);
		expect((await eur(9.99)).status).toBe('submitted');
		expect((await eur(10)).status).toBe('pending_approval');
		expect((await eur(20)).status).toBe('pending_approval');
		expect((await eur(20.01)).status).toBe('submitted');
		const held = await eur(12);
		await sandbox.control.advanceClock(60_000);
		expect((await api.get<Approval>(`/approval/${held.approvalRef}`)).body.status).toBe('expired');
	});
});

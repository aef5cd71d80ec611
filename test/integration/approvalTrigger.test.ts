/**
 * Customer Banking Approval Trigger against the sandbox: each approval emitted once per event (requested,
 * decided), across polls and restarts, with a bank that lists every status or pending ones only, and
 * whatever it calls decided approvals. Polls are run as n8n runs them for an active workflow: static
 * data kept between polls, and saved to the database only when a poll emits (n8n 2.41.1 / 1.123.81).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { CustomerBankingApprovalTrigger } from '../../nodes/CustomerBankingApprovalTrigger/CustomerBankingApprovalTrigger.node';
import { createPollContext } from '../helpers/n8nContext';
import { credentialsFor } from '../helpers/sandboxCredentials';
import { type Sandbox, startSandbox } from '../sandbox';
import type { VariantsOption } from '../sandbox/variants';
import { byId, runPayments } from './payments/paymentNode';

const WORKSPACE = 'workspace-1';

/** One active trigger node in n8n: the static data it polls with, and what the database holds. */
class ActiveTrigger {
	private memory: IDataObject = {};
	database: IDataObject = {};
	private readonly credentials;

	constructor(
		private readonly sandbox: Sandbox,
		private readonly parameters: IDataObject,
		private readonly nodeType = new CustomerBankingApprovalTrigger(),
	) {
		this.credentials = credentialsFor(sandbox);
	}

	async poll(mode: 'trigger' | 'manual' = 'trigger'): Promise<IDataObject[]> {
		const staticData = { node: this.memory, global: {} };
		const { context } = createPollContext({
			credentials: this.credentials,
			parameters: this.parameters,
			nodeType: this.nodeType,
			node: { name: 'Customer Banking Approval Trigger', id: 'approval-trigger-1' },
			workflowId: 'workflow-approvals',
			staticData,
			mode: mode === 'manual' ? 'manual' : 'trigger',
		});
		const result = (await this.nodeType.poll.call(context)) as INodeExecutionData[][] | null;
		this.memory = staticData.node;
		if (result !== null && mode !== 'manual') this.database = structuredClone(this.memory);
		return (result?.[0] ?? []).map((item) => item.json);
	}

	/** n8n restarted: the node starts again from what the database holds. */
	restart(): ActiveTrigger {
		const restarted = new ActiveTrigger(
			this.sandbox,
			this.parameters,
			new CustomerBankingApprovalTrigger(),
		);
		restarted.memory = structuredClone(this.database);
		restarted.database = structuredClone(this.database);
		return restarted;
	}
}

describe.each<[string, VariantsOption]>([
	['a bank that lists every status', {}],
	[
		'a bank that lists pending approvals only, with other names for decided ones',
		{ approvalList: 'pendingOnly', approvalStatusNames: 'other', createdTimes: false },
	],
])('Approval Trigger, %s', (_name, variants) => {
	let sandbox: Sandbox;
	let counter = 0;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, seed: 41, variants });
	});
	afterAll(async () => await sandbox.close());
	beforeEach(() => sandbox.control.reset());

	/** Submits payments of `amounts` (1,000 or more needs approval); returns the approvals they made. */
	async function requestApprovals(
		amounts: number[],
	): Promise<Array<{ ref: string; xtid: string }>> {
		const references = amounts.map(() => `APPR-${++counter}`);
		const run = await runPayments(sandbox, credentialsFor(sandbox), {
			executionId: `approvals-${counter}`,
			parameters: {
				operation: 'submitBatch',
				account: byId(sandbox.seeded.accounts.gbp),
				payee: byId(sandbox.seeded.payees.gbp),
			},
			itemParameters: amounts.map((amount, index) => ({ amount, reference: references[index] })),
		});
		if (run.error) throw run.error;
		return sandbox.control
			.ledger(WORKSPACE)
			.approvals.filter((approval) =>
				references.includes(String((approval.transaction as IDataObject).reference)),
			)
			.map((approval) => ({ ref: String(approval.ref), xtid: String(approval.xtid) }));
	}

	const trigger = (parameters: IDataObject = {}) =>
		new ActiveTrigger(sandbox, { events: ['approvalRequested', 'approvalDecided'], ...parameters });

	it('takes a baseline at the first poll: nothing old is emitted, unless asked to', async () => {
		const [old] = await requestApprovals([1500]);
		expect(await trigger().poll()).toEqual([]);
		const including = await trigger({ options: { includePendingAtStart: true } }).poll();
		expect(including).toEqual([
			expect.objectContaining({
				event: 'approvalRequested',
				approvalId: old.ref,
				transactionId: old.xtid,
			}),
		]);
	});

	it('emits a new pending approval once, with what the record carries, and its decisions once each', async () => {
		const node = trigger();
		await node.poll();
		const [approved, declined, expired] = await requestApprovals([1500, 1600, 1700]);
		const requested = await node.poll();
		expect(requested.map((event) => [event.event, event.approvalId])).toEqual([
			['approvalRequested', approved.ref],
			['approvalRequested', declined.ref],
			['approvalRequested', expired.ref],
		]);
		expect(requested[0]).toMatchObject({
			transactionId: approved.xtid,
			accountId: sandbox.seeded.accounts.gbp,
			payeeId: sandbox.seeded.payees.gbp,
			bankStatus: 'pending',
			amount: 1500,
			reference: expect.any(String),
		});
		expect(await node.poll()).toEqual([]);

		await sandbox.control.approve(approved.ref);
		await sandbox.control.decline(declined.ref);
		await sandbox.control.expire(expired.ref);
		const decided = await node.poll();
		const transaction = sandbox.control
			.ledger(WORKSPACE)
			.transactions.find((t) => t.xtid === approved.xtid);
		expect(decided.map((event) => [event.event, event.approvalId, event.decision])).toEqual([
			['approvalDecided', approved.ref, 'approved'],
			['approvalDecided', declined.ref, 'declined'],
			['approvalDecided', expired.ref, 'expired'],
		]);
		expect(transaction).toBeDefined();
		// Simplify (on by default): plain names only, the bank's records left out
		for (const event of [...requested, ...decided]) {
			expect(event).not.toHaveProperty('approval');
			expect(event).not.toHaveProperty('transaction');
		}
		expect(decided[1].bankStatus).toBe(
			sandbox.variants.approvalStatusNames === 'other' ? 'REJECTED' : 'declined',
		);
		for (let i = 0; i < 10; i++) expect(await node.poll()).toEqual([]);
	});

	it("Simplify off: each event also holds the bank's records, as the bank sent them", async () => {
		const node = trigger({ simplify: false });
		await node.poll();
		const [approval] = await requestApprovals([1500]);
		const [requested] = await node.poll();
		expect(requested).toMatchObject({
			approvalId: approval.ref,
			approval: { ref: approval.ref, xtid: approval.xtid },
		});
		expect(requested).not.toHaveProperty('transaction');
		await sandbox.control.approve(approval.ref);
		const [decided] = await node.poll();
		expect(decided).toMatchObject({
			decision: 'approved',
			approvalId: approval.ref,
			approval: { ref: approval.ref },
			transaction: { xtid: approval.xtid },
		});
	});

	it('an approval decided between two polls is emitted as decided once', async () => {
		const node = trigger();
		await node.poll();
		const [approval] = await requestApprovals([1800]);
		expect(await node.poll()).toHaveLength(1);
		await sandbox.control.approve(approval.ref);
		expect((await node.poll()).map((event) => event.decision)).toEqual(['approved']);
		expect(await node.poll()).toEqual([]);
	});

	it('after an n8n restart (static data as saved), nothing is emitted twice and nothing decided meanwhile is lost', async () => {
		let node = trigger();
		await node.poll();
		const [first, second] = await requestApprovals([1500, 1500]);
		expect(await node.poll()).toHaveLength(2);
		node = node.restart();
		expect(await node.poll()).toEqual([]);
		await sandbox.control.decline(first.ref);
		node = node.restart();
		expect((await node.poll()).map((event) => [event.approvalId, event.decision])).toEqual([
			[first.ref, 'declined'],
		]);
		node = node.restart();
		expect(await node.poll()).toEqual([]);
		await sandbox.control.approve(second.ref);
		expect((await node.poll()).map((event) => [event.approvalId, event.decision])).toEqual([
			[second.ref, 'approved'],
		]);
	});

	it('only the chosen events and accounts', async () => {
		const decidedOnly = trigger({ events: ['approvalDecided'] });
		const otherAccount = trigger({ accounts: [sandbox.seeded.accounts.eur] });
		await decidedOnly.poll();
		await otherAccount.poll();
		const [approval] = await requestApprovals([2000]);
		expect(await decidedOnly.poll()).toEqual([]);
		expect(await otherAccount.poll()).toEqual([]);
		await sandbox.control.approve(approval.ref);
		expect((await decidedOnly.poll()).map((event) => event.decision)).toEqual(['approved']);
		expect(await otherAccount.poll()).toEqual([]);
	});

	it('pages through more than 500 pending approvals: one pass, one read per change', async () => {
		sandbox.control.setPolicies(WORKSPACE, [
			{
				id: 'all',
				name: 'every payment',
				minAmount: 0.01,
				maxAmount: null,
				currency: null,
				approvers: ['Alex'],
				coversApiPayments: true,
				expiresInSeconds: 86_400,
			},
		]);
		const node = trigger();
		await node.poll();
		const approvals = await requestApprovals(
			Array.from({ length: 520 }, (_, i) => 1 + (i % 50) / 100),
		);
		sandbox.control.clearRequests();
		const requested = await node.poll();
		expect(requested).toHaveLength(520);
		const reads = sandbox.control.requests().filter((r) => r.method === 'GET');
		expect(reads.map((r) => r.path)).toEqual(['/approvals', '/approvals']);
		await sandbox.control.approve(approvals[7].ref);
		sandbox.control.clearRequests();
		expect((await node.poll()).map((event) => event.approvalId)).toEqual([approvals[7].ref]);
		const changedReads = sandbox.control
			.requests()
			.filter((r) => r.method === 'GET' && !r.path.startsWith('/approvals'));
		// a bank that lists decided approvals shows the status in the list: only the transaction is read
		const expected =
			sandbox.variants.approvalList === 'allStatuses'
				? ['/transaction/{xtid}']
				: ['/approval/{ref}', '/transaction/{xtid}'];
		expect(changedReads.map((r) => r.route)).toEqual(expected);
	});

	it('Fetch Test Event shows the newest approval and remembers nothing', async () => {
		const node = trigger();
		const [approval] = await requestApprovals([1500]);
		const [example] = await node.poll('manual');
		expect(example).toMatchObject({ event: 'approvalRequested', approvalId: approval.ref });
		// still the first poll: a baseline, nothing emitted
		expect(await node.poll()).toEqual([]);
	});
});

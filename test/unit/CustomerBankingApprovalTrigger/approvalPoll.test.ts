/**
 * Polls of the Approval Trigger in n8n-core's PollContext, the bank scripted: the first poll takes a
 * baseline, later ones report new pending approvals and decisions; a decision the evidence does not
 * settle is watched, then reported as undetermined, never as approved or declined; polls of one node
 * never overlap; the editor's Fetch Test Event remembers nothing.
 */
import type { IDataObject } from 'n8n-workflow';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

import { UNDETERMINED_AFTER_POLLS } from '../../../nodes/CustomerBankingApprovalTrigger/approvalEvents';
import {
	pollApprovals,
	type PollOptions,
} from '../../../nodes/CustomerBankingApprovalTrigger/approvalPoll';
import { createPollContext, type StaticData } from '../../helpers/n8nContext';
import {
	type BankCall,
	type BankReply,
	fails,
	ok,
	page,
	scriptedBankCredentials,
	scriptRequests,
} from '../../helpers/scriptedBank';

const BOTH: PollOptions = {
	events: ['approvalRequested', 'approvalDecided'],
	accounts: ['acc-1'],
	includePendingAtStart: false,
	simplify: true,
};

const approval = (ref: string, status: string, xtid = `tx-${ref}`): IDataObject => ({
	ref,
	status,
	parent_xaid: 'acc-1',
	transaction: { xtid, amount: 10, reference: `INV-${ref}` },
});

/** The bank as a test sets it: the approvals list, and the records read one by one. */
interface BankState {
	approvals: IDataObject[];
	records: Record<string, IDataObject>;
}

function script(bank: BankState) {
	return (call: BankCall): BankReply => {
		if (call.path === '/account/acc-1/approvals') return page(bank.approvals, call.qs);
		const record = bank.records[call.path];
		return record ? ok(record) : fails(404, { message: 'not found' });
	};
}

let workflowCount = 0;

/** A trigger node; `poll()` runs one poll of it with the static data n8n keeps between polls. */
function triggerNode(bank: BankState, options: PollOptions = BOTH) {
	const staticData: StaticData = { node: {}, global: {} };
	const workflowId = `approval-poll-${++workflowCount}`;
	const calls: BankCall[] = [];
	const poll = async (mode: 'trigger' | 'manual' = 'trigger') => {
		const { context } = createPollContext({
			credentials: scriptedBankCredentials(),
			node: { name: 'Customer Banking Approval Trigger', id: 'approval-trigger-1' },
			workflowId,
			staticData: { node: staticData.node, global: {} },
			mode,
		});
		const scripted = scriptRequests(context, script(bank));
		const result = await pollApprovals.call(context, options);
		calls.push(...scripted.calls);
		if (mode === 'trigger') staticData.node = context.getWorkflowStaticData('node');
		return (result?.[0] ?? []).map((item) => item.json);
	};
	return { poll, calls, staticData };
}

const summary = (events: IDataObject[]) =>
	events.map(
		(event) =>
			`${String(event.event)} ${String(event.approvalId)}${event.decision ? ` ${String(event.decision)}` : ''}`,
	);

describe('pollApprovals', () => {
	it('the first poll takes a baseline; a pending approval that appears later is reported once', async () => {
		const bank: BankState = { approvals: [approval('ap-1', 'pending')], records: {} };
		const node = triggerNode(bank);
		expect(await node.poll()).toEqual([]);
		bank.approvals.push(approval('ap-2', 'pending'));
		expect(summary(await node.poll())).toEqual(['approvalRequested ap-2']);
		expect(await node.poll()).toEqual([]);
	});

	it('Include Pending at Start reports the pending approvals of the first poll', async () => {
		const node = triggerNode(
			{ approvals: [approval('ap-1', 'pending')], records: {} },
			{ ...BOTH, includePendingAtStart: true },
		);
		expect(summary(await node.poll())).toEqual(['approvalRequested ap-1']);
	});

	it.each<[string, IDataObject, IDataObject | undefined, string]>([
		['declined, no transaction', approval('ap-1', 'declined'), undefined, 'declined'],
		[
			'approved, its transaction sent',
			approval('ap-1', 'approved'),
			{ xtid: 'tx-ap-1', status: 'SETTLED' },
			'approved',
		],
		['expired', approval('ap-1', 'EXPIRED'), undefined, 'expired'],
		// spec §States and transitions: approved → sent; Submit states the same records as sent
		['approved, no transaction shown yet', approval('ap-1', 'approved'), undefined, 'approved'],
		[
			'approved, its transaction then failed',
			approval('ap-1', 'approved'),
			{ xtid: 'tx-ap-1', status: 'FAILED' },
			'not_sent',
		],
	])(
		'a known pending approval that left pending, %s → %s',
		async (_case, decided, transaction, decision) => {
			const bank: BankState = { approvals: [approval('ap-1', 'pending')], records: {} };
			const node = triggerNode(bank);
			await node.poll();
			bank.approvals = [decided];
			if (transaction) bank.records['/transaction/tx-ap-1'] = transaction;
			expect(summary(await node.poll())).toEqual([`approvalDecided ap-1 ${decision}`]);
			// reported once
			expect(await node.poll()).toEqual([]);
		},
	);

	it(`evidence that does not settle a decision is watched, then reported undetermined after ${UNDETERMINED_AFTER_POLLS} polls, never approved or declined`, async () => {
		const bank: BankState = { approvals: [approval('ap-1', 'pending')], records: {} };
		const node = triggerNode(bank);
		await node.poll();
		// approved, but its transaction still says it is held: the records contradict each other
		bank.approvals = [approval('ap-1', 'approved')];
		bank.records['/transaction/tx-ap-1'] = { xtid: 'tx-ap-1', status: 'PENDING_APPROVAL' };
		for (let poll = 1; poll < UNDETERMINED_AFTER_POLLS; poll++)
			expect(await node.poll()).toEqual([]);
		const [event] = await node.poll();
		expect(event).toMatchObject({ event: 'approvalDecided', decision: 'undetermined' });
		expect(String(event.note)).toMatch(/contradict each other\. Nothing shows whether it was sent/);
		expect(await node.poll()).toEqual([]);
	});

	it('a status word nobody knows is undetermined in the end, never a decision', async () => {
		const bank: BankState = { approvals: [approval('ap-1', 'pending')], records: {} };
		const node = triggerNode(bank);
		await node.poll();
		bank.approvals = [approval('ap-1', 'IN_REVIEW_X')];
		const events: IDataObject[] = [];
		for (let poll = 0; poll < UNDETERMINED_AFTER_POLLS; poll++) events.push(...(await node.poll()));
		expect(events.map((event) => event.decision)).toEqual(['undetermined']);
	});

	it('a pending approval no longer listed is read by its ref: gone from the bank and no transaction is undetermined in the end', async () => {
		const bank: BankState = { approvals: [approval('ap-1', 'pending')], records: {} };
		const node = triggerNode(bank);
		await node.poll();
		bank.approvals = [];
		const events: IDataObject[] = [];
		for (let poll = 0; poll < UNDETERMINED_AFTER_POLLS; poll++) events.push(...(await node.poll()));
		expect(summary(events)).toEqual(['approvalDecided ap-1 undetermined']);
		expect(node.calls.some((call) => call.path === '/approval/ap-1')).toBe(true);
	});

	it('an approval decided between two polls (never seen pending) is reported; one decided before the baseline is not', async () => {
		const bank: BankState = { approvals: [approval('ap-old', 'declined')], records: {} };
		const node = triggerNode(bank);
		expect(await node.poll()).toEqual([]);
		bank.approvals.push(approval('ap-new', 'declined'));
		expect(summary(await node.poll())).toEqual(['approvalDecided ap-new declined']);
	});

	it('only the events chosen: Approval Requested alone reports no decisions', async () => {
		const bank: BankState = { approvals: [approval('ap-1', 'pending')], records: {} };
		const node = triggerNode(bank, { ...BOTH, events: ['approvalRequested'] });
		await node.poll();
		bank.approvals = [approval('ap-1', 'declined')];
		expect(await node.poll()).toEqual([]);
	});

	it("Simplify off keeps the bank's records on the event", async () => {
		const bank: BankState = { approvals: [], records: {} };
		const node = triggerNode(bank, { ...BOTH, simplify: false, includePendingAtStart: true });
		bank.approvals = [approval('ap-1', 'pending')];
		const [event] = await node.poll();
		expect(event.approval).toEqual(approval('ap-1', 'pending'));
		const simplified = triggerNode(bank, { ...BOTH, includePendingAtStart: true });
		const [plain] = await simplified.poll();
		expect(plain).not.toHaveProperty('approval');
	});

	it('Fetch Test Event shows the newest approval and remembers nothing', async () => {
		const bank: BankState = {
			approvals: [approval('ap-1', 'pending'), approval('ap-2', 'pending')],
			records: {},
		};
		const node = triggerNode(bank);
		expect(summary(await node.poll('manual'))).toEqual(['approvalRequested ap-2']);
		expect(node.staticData.node).toEqual({});
		// the baseline is still to be taken
		expect(await node.poll()).toEqual([]);
	});

	it('Fetch Test Event shows the newest approval by its creation time at a bank that lists newest first', async () => {
		const created = (ref: string, time: string) => ({
			...approval(ref, 'pending'),
			meta: { created: time },
		});
		const bank: BankState = {
			approvals: [
				created('ap-new', '2026-11-29T10:00:00Z'),
				created('ap-old', '2026-11-28 09:00:00'),
			],
			records: {},
		};
		expect(summary(await triggerNode(bank).poll('manual'))).toEqual(['approvalRequested ap-new']);
		// one record without a readable time: the list's order is all there is, its last is taken
		bank.approvals[0] = { ...bank.approvals[0], meta: { created: 'yesterday' } };
		expect(summary(await triggerNode(bank).poll('manual'))).toEqual(['approvalRequested ap-old']);
	});

	it('Fetch Test Event without an approval to show fails with what to do', async () => {
		const node = triggerNode({ approvals: [], records: {} });
		await expect(node.poll('manual')).rejects.toThrow('No approval to show as an example');
	});

	it('two polls of one node started together run one after the other', async () => {
		// n8n runs an active workflow's polls on one workflow object, whose static data they share
		const bank: BankState = { approvals: [approval('ap-1', 'pending')], records: {} };
		const { context } = createPollContext({
			credentials: scriptedBankCredentials(),
			node: { name: 'Customer Banking Approval Trigger', id: 'approval-trigger-1' },
			workflowId: `approval-poll-${++workflowCount}`,
			mode: 'trigger',
		});
		scriptRequests(context, script(bank));
		await pollApprovals.call(context, BOTH);
		bank.approvals.push(approval('ap-2', 'pending'));
		const [first, second] = await Promise.all([
			pollApprovals.call(context, BOTH),
			pollApprovals.call(context, BOTH),
		]);
		// the second reads the state the first left: ap-2 is reported once
		const reported = [...(first?.[0] ?? []), ...(second?.[0] ?? [])];
		expect(reported.map((item) => item.json.approvalId)).toEqual(['ap-2']);
	});
});

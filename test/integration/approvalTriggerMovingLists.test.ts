/**
 * The Approval Trigger's poll over an approvals list that moves while it is read: a bank that lists the
 * newest first, with new approvals arriving between two pages of one poll. Approvals pushed onto the
 * next page are listed twice in that poll; each is announced once, and the new ones at the next poll.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { CustomerBankingApprovalTrigger } from '../../nodes/CustomerBankingApprovalTrigger/CustomerBankingApprovalTrigger.node';
import { createPollContext } from '../helpers/n8nContext';
import { credentialsFor } from '../helpers/sandboxCredentials';
import { type Sandbox, startSandbox } from '../sandbox';
import { byId, runPayments } from './payments/paymentNode';

const WORKSPACE = 'workspace-1';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, variants: { listOrder: 'newestFirst' } });
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
});
afterAll(async () => await sandbox.close());

let counter = 0;

/** `count` payments held for approval (the policy covers every payment), through the action node. */
async function requestApprovals(count: number): Promise<void> {
	const run = await runPayments(sandbox, credentialsFor(sandbox), {
		executionId: `moving-approvals-${++counter}`,
		parameters: {
			operation: 'submitBatch',
			account: byId(sandbox.seeded.accounts.gbp),
			payee: byId(sandbox.seeded.payees.gbp),
		},
		itemParameters: Array.from({ length: count }, (_, at) => ({
			amount: 1 + (at % 50) / 100,
			reference: `MOVING-${counter}-${at}`,
		})),
	});
	if (run.error) throw run.error;
}

const memory = { node: {} as IDataObject, global: {} };
const credentials = () => credentialsFor(sandbox);

/** One poll of an active workflow; `betweenPages` runs after the first approvals page is answered. */
async function poll(betweenPages?: () => Promise<void>): Promise<IDataObject[]> {
	const nodeType = new CustomerBankingApprovalTrigger();
	const { context } = createPollContext({
		credentials: credentials(),
		parameters: { events: ['approvalRequested', 'approvalDecided'] },
		nodeType,
		node: { name: 'Customer Banking Approval Trigger', id: 'approval-trigger-moving' },
		workflowId: 'workflow-moving-approvals',
		staticData: memory,
		mode: 'trigger',
	});
	let pages = 0;
	const send = context.helpers.httpRequestWithAuthentication;
	context.helpers.httpRequestWithAuthentication = async function (this: unknown, ...args) {
		const answer = await send.apply(this as never, args);
		const [, request] = args;
		if (String(request.url).endsWith('/approvals') && ++pages === 1) await betweenPages?.();
		return answer;
	} as typeof send;
	const result = (await nodeType.poll.call(context)) as INodeExecutionData[][] | null;
	return (result?.[0] ?? []).map((item) => item.json);
}

it('approvals arriving between two pages of a poll: every approval announced once, the new ones at the next poll', async () => {
	expect(await poll()).toEqual([]);
	await requestApprovals(520);
	const announced = await poll(async () => await requestApprovals(5));
	const ids = announced.map((event) => String(event.approvalId));
	expect(new Set(ids).size).toBe(ids.length);
	expect(ids).toHaveLength(520);
	const next = await poll();
	expect(next.map((event) => event.event)).toEqual(Array(5).fill('approvalRequested'));
	expect(next.filter((event) => ids.includes(String(event.approvalId)))).toEqual([]);
	expect(await poll()).toEqual([]);
}, 60_000);

import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { getAccounts } from '../CustomerBanking/methods/loadOptions';
import { textList } from '../CustomerBanking/validation/text';
import {
	type ApprovalEvent,
	type ApprovalState,
	describeApproval,
	isPending,
	listApprovals,
	readDecision,
	readState,
	writeState,
} from './approvalEvents';

// Polls of one node never overlap: n8n starts the next on time even if the last is still running, and
// both would read and write the same remembered state.
const runningPolls = new Map<string, Promise<unknown>>();

async function oneAtATime<T>(owner: string, poll: () => Promise<T>): Promise<T> {
	const previous = runningPolls.get(owner) ?? Promise.resolve();
	const next = previous.then(poll, poll);
	const settled = next.catch(() => undefined);
	runningPolls.set(owner, settled);
	try {
		return await next;
	} finally {
		if (runningPolls.get(owner) === settled) runningPolls.delete(owner);
	}
}

/** The newest pending approval (Approval Requested), else the newest decided one (Approval Decided). */
async function exampleEvent(this: IPollFunctions, approvals: IDataObject[], events: ApprovalEvent[]): Promise<IDataObject> {
	const newestFirst = [...approvals].reverse();
	const pending = newestFirst.find(isPending);
	if (pending && events.includes('approvalRequested')) {
		return { event: 'approvalRequested', ...describeApproval(pending), approval: pending };
	}
	for (const approval of events.includes('approvalDecided') ? newestFirst.filter((a) => !isPending(a)) : []) {
		const details = describeApproval(approval);
		const decided = await readDecision.call(this, String(details.ref), { xtid: (details.xtid as string | null) ?? null, account: null });
		if (decided.stillPending) continue;
		return { event: 'approvalDecided', decision: decided.decision, ...details, approval, ...(decided.transaction && { transaction: decided.transaction }) };
	}
	throw new NodeOperationError(this.getNode(), 'No approval to show as an example', {
		description: events.includes('approvalDecided')
			? 'Decide an approval in the bank\'s app (or submit a payment that needs approval), then fetch a test event again. A bank that lists only pending approvals shows no decided one here.'
			: 'Submit a payment that needs approval (Payment → Submit), then fetch a test event again.',
	});
}

export class CustomerBankingApprovalTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Customer Banking Approval Trigger',
		name: 'customerBankingApprovalTrigger',
		icon: {
			light: 'file:../../icons/customerBanking.svg',
			dark: 'file:../../icons/customerBanking.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{ [].concat($parameter["events"]).join(", ") }}',
		description:
			'Starts the workflow when a Customer Banking payment needs approval, and when its approval is decided',
		defaults: { name: 'Customer Banking Approval Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'customerBankingApi', required: true }],
		properties: [
			{
				displayName:
					'Approving happens in the bank\'s web or mobile app; this trigger checks the approvals on every poll and starts the workflow once per event.',
				name: 'pollNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['approvalRequested', 'approvalDecided'],
				options: [
					{
						name: 'Approval Decided',
						value: 'approvalDecided',
						description:
							'A pending approval was approved (the payment was sent), declined or expired',
					},
					{
						name: 'Approval Requested',
						value: 'approvalRequested',
						description: 'A payment needs approval',
					},
				],
			},
			{
				displayName: 'Account Names or IDs',
				name: 'accounts',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getAccounts' },
				default: [],
				description:
					'Only approvals of these accounts; leave empty for every account of the credential. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Include Approvals Pending at Activation',
						name: 'includePendingAtStart',
						type: 'boolean',
						default: false,
						description:
							'Whether the first poll emits Approval Requested for approvals that were already pending; by default it only remembers them, and emits their decisions later',
					},
				],
			},
		],
	};

	methods = { loadOptions: { getAccounts } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const events = textList(this.getNodeParameter('events', [])) as ApprovalEvent[];
		if (events.length === 0) {
			throw new NodeOperationError(this.getNode(), 'Events must contain at least one event');
		}
		const accounts = textList(this.getNodeParameter('accounts', []));
		const includePendingAtStart = this.getNodeParameter('options.includePendingAtStart', false) === true;
		const owner = JSON.stringify([this.getWorkflow().id ?? '', this.getNode().id || this.getNode().name]);
		return await oneAtATime(owner, async () => {
			const approvals = await listApprovals.call(this, accounts);

			// n8n's "Fetch Test Event": the newest approval of a chosen event as an example; nothing is remembered.
			if (this.getMode() === 'manual') return [[{ json: await exampleEvent.call(this, approvals, events) }]];

			const staticData = this.getWorkflowStaticData('node');
			const known = readState(staticData);
			const next: ApprovalState = { baselineTaken: true, pending: {} };
			const emitted: IDataObject[] = [];
			const pendingNow = approvals.filter(isPending);
			for (const approval of pendingNow) {
				const details = describeApproval(approval);
				const ref = String(details.ref ?? '');
				if (!ref) continue;
				next.pending[ref] = { xtid: (details.xtid as string | null) ?? null, account: (details.account as string | null) ?? null };
				const isNew = known.pending[ref] === undefined;
				const announce = known.baselineTaken ? isNew : includePendingAtStart;
				if (announce && events.includes('approvalRequested')) {
					emitted.push({ event: 'approvalRequested', ...details, approval });
				}
			}
			// Every approval that stopped being pending is read once more: one read per change.
			for (const [ref, approval] of Object.entries(known.pending)) {
				if (next.pending[ref] !== undefined) continue;
				const decided = await readDecision.call(this, ref, approval);
				if (decided.stillPending) {
					next.pending[ref] = approval;
					continue;
				}
				if (!events.includes('approvalDecided')) continue;
				emitted.push({
					event: 'approvalDecided',
					decision: decided.decision,
					...(decided.approval ? describeApproval(decided.approval) : { ref, xtid: approval.xtid, account: approval.account, bankStatus: null }),
					...(decided.approval && { approval: decided.approval }),
					...(decided.transaction && { transaction: decided.transaction }),
				});
			}
			writeState(staticData, next);
			return emitted.length > 0 ? [this.helpers.returnJsonArray(emitted)] : null;
		});
	}
}

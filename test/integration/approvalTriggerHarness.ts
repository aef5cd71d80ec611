/**
 * The Approval Trigger as n8n runs it for an active workflow, on n8n-core's own poll context: static
 * data kept in memory between polls and saved to the database as the chosen n8n does it (read in n8n's
 * source, docs/triggers.md §Customer Banking Approval Trigger):
 * - `onEmit` (n8n 1.123.81, and 2.41.1 with its default scheduler): after activation (the first poll),
 *   and after a poll that emits;
 * - `everyPoll` (n8n 2.41.1 with durable poll cursors): after every poll.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { CustomerBankingApprovalTrigger } from '../../nodes/CustomerBankingApprovalTrigger/CustomerBankingApprovalTrigger.node';
import { createPollContext } from '../helpers/n8nContext';
import { credentialsFor } from '../helpers/sandboxCredentials';
import type { Sandbox } from '../sandbox';
import { byId, runPayments } from './payments/paymentNode';

export type SaveRule = 'onEmit' | 'everyPoll';

export class ActiveTrigger {
	private memory: IDataObject = {};
	database: IDataObject = {};
	private activated = false;

	constructor(
		private readonly credentials: ICredentialDataDecryptedObject,
		private readonly parameters: IDataObject,
		private readonly saveRule: SaveRule = 'onEmit',
		private readonly nodeType = new CustomerBankingApprovalTrigger(),
	) {}

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
		if (mode === 'manual') return (result?.[0] ?? []).map((item) => item.json);
		this.memory = staticData.node;
		// n8n saves static data after activating the workflow (its first poll runs during activation)
		const saved = !this.activated || result !== null || this.saveRule === 'everyPoll';
		this.activated = true;
		if (saved) this.database = structuredClone(this.memory);
		return (result?.[0] ?? []).map((item) => item.json);
	}

	/** n8n restarted: the node starts again from what the database holds. */
	restart(): ActiveTrigger {
		const restarted = new ActiveTrigger(
			this.credentials,
			this.parameters,
			this.saveRule,
			new CustomerBankingApprovalTrigger(),
		);
		restarted.memory = structuredClone(this.database);
		restarted.database = structuredClone(this.database);
		restarted.activated = true;
		return restarted;
	}
}

const credentialStores = new WeakMap<Sandbox, ICredentialDataDecryptedObject>();

/** One credential per sandbox, shared as n8n shares it (its token reused), so the token service is not flooded. */
export function sandboxCredentials(sandbox: Sandbox): ICredentialDataDecryptedObject {
	const stored = credentialStores.get(sandbox) ?? credentialsFor(sandbox);
	credentialStores.set(sandbox, stored);
	return stored;
}

export const sandboxTrigger = (
	sandbox: Sandbox,
	parameters: IDataObject = {},
	saveRule: SaveRule = 'onEmit',
) =>
	new ActiveTrigger(
		sandboxCredentials(sandbox),
		{ events: ['approvalRequested', 'approvalDecided'], ...parameters },
		saveRule,
	);

let counter = 0;

/** Submits payments of `amounts` (1,000 or more needs approval) through the action node; returns their approvals. */
export async function requestApprovals(
	sandbox: Sandbox,
	amounts: number[],
	workspace = 'workspace-1',
): Promise<Array<{ ref: string; xtid: string }>> {
	const references = amounts.map(() => `APPR-${process.pid}-${++counter}`);
	const run = await runPayments(sandbox, sandboxCredentials(sandbox), {
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
		.ledger(workspace)
		.approvals.filter((approval) =>
			references.includes(String((approval.transaction as IDataObject).reference)),
		)
		.map((approval) => ({ ref: String(approval.ref), xtid: String(approval.xtid) }));
}

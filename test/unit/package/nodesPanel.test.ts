/**
 * What a newcomer reads before using the nodes: the nodes panel's entry for the app, and the subtitle
 * under each action node on the canvas.
 */
import type { INode, INodeProperties, INodeTypeDescription, INodeTypes } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { CustomerBanking } from '../../../nodes/CustomerBanking/CustomerBanking.node';
import { CustomerBankingApprovalTrigger } from '../../../nodes/CustomerBankingApprovalTrigger/CustomerBankingApprovalTrigger.node';
import { CustomerBankingTrigger } from '../../../nodes/CustomerBankingTrigger/CustomerBankingTrigger.node';

const action = new CustomerBanking().description;
const trigger = new CustomerBankingTrigger().description;
const approvalTrigger = new CustomerBankingApprovalTrigger().description;

const hasActions = (description: INodeTypeDescription) =>
	description.properties.some((property) =>
		(property.options ?? []).some((option) => 'action' in option && option.action !== undefined),
	);

/**
 * The panel's entries as n8n 2.41.1's editor builds them (n8n-editor-ui, node types store,
 * generateMergedNodesAndActions): every node that is not a trigger is an entry; a trigger whose name
 * without "Trigger" is an entry with actions joins that entry and gives it its description; any other
 * trigger is an entry of its own.
 */
function panelEntries(descriptions: INodeTypeDescription[]): Map<string, string> {
	const entries = new Map<string, string>();
	const isTrigger = (description: INodeTypeDescription) => description.group.includes('trigger');
	for (const description of descriptions.filter((d) => !isTrigger(d)))
		entries.set(description.name, description.description);
	for (const description of descriptions.filter(isTrigger)) {
		const base = description.name.replace('Trigger', '');
		const grouped = descriptions.find((d) => d.name === base && !isTrigger(d));
		if (grouped && hasActions(grouped)) entries.set(base, description.description);
		else entries.set(description.name, description.description);
	}
	return entries;
}

describe('nodes panel', () => {
	const entries = panelEntries([action, trigger, approvalTrigger]);

	it('groups the action node and the Customer Banking Trigger into one entry, the Approval Trigger apart', () => {
		expect([...entries.keys()].sort()).toEqual([
			'customerBanking',
			'customerBankingApprovalTrigger',
		]);
	});

	it("the app's entry reads as the app: what its actions do first, then what its trigger starts", () => {
		const text = entries.get('customerBanking');
		expect(text).toBe(
			'Read accounts, balances, transactions and approvals, manage payees and send payments, and start a workflow when money arrives or an outgoing payment settles',
		);
		// the trigger's words alone would present the app as a trigger to someone adding an action
		expect(text).not.toMatch(/^Starts? /);
		expect(text?.startsWith(action.description)).toBe(true);
	});

	it("the action node's own words (also its AI tool's) say what the actions do, nothing about starting workflows", () => {
		expect(action.description).toBe(
			'Read accounts, balances, transactions and approvals, manage payees and send payments',
		);
		expect(action.description).not.toBe(trigger.description);
	});

	it('the Approval Trigger keeps its own words', () => {
		expect(entries.get('customerBankingApprovalTrigger')).toBe(approvalTrigger.description);
		expect(approvalTrigger.description).toMatch(/approv/i);
	});
});

/** The subtitle as n8n's canvas computes it: the node type's subtitle evaluated over the node. */
function subtitleOf(parameters: INode['parameters']): unknown {
	const nodeType = new CustomerBanking();
	const nodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	} as unknown as INodeTypes;
	const node: INode = {
		id: 'n1',
		name: 'Customer Banking',
		type: 'customerBanking',
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(
		node,
		nodeType.description.subtitle,
		'internal',
		{},
	);
}

const resourceOptions = (action.properties.find((p) => p.name === 'resource')?.options ??
	[]) as Array<{ name: string; value: string }>;
const everyOperation = resourceOptions.flatMap((resource) =>
	action.properties
		.filter(
			(property: INodeProperties) =>
				property.name === 'operation' &&
				(property.displayOptions?.show?.resource ?? []).includes(resource.value),
		)
		.flatMap((property) => property.options as Array<{ name: string; value: string }>)
		.map((operation) => ({ resource, operation })),
);

describe('canvas subtitle', () => {
	it('names the operation and the resource as the form does', () => {
		expect(subtitleOf({ resource: 'payment', operation: 'submitBatch' })).toBe(
			'Submit Batch: Payment',
		);
		expect(subtitleOf({ resource: 'account', operation: 'getBalance' })).toBe(
			'Get Balance: Account',
		);
		expect(subtitleOf({ resource: 'approval', operation: 'getByPayment' })).toBe(
			'Get by Payment: Approval',
		);
	});

	it('covers every operation of every resource', () => {
		expect(everyOperation.length).toBeGreaterThanOrEqual(15);
		for (const { resource, operation } of everyOperation)
			expect(subtitleOf({ resource: resource.value, operation: operation.value })).toBe(
				`${operation.name}: ${resource.name}`,
			);
	});

	it('shows the stored values for a pair it does not know', () => {
		expect(subtitleOf({ resource: 'account', operation: 'submit' })).toBe('submit: account');
	});
});

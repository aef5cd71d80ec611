/**
 * The example workflows (examples/*.json): every node of the package at the version n8n gives a new
 * node, and the pinned data a newcomer sees without a bank has the shape the nodes really output
 * (the same keys as a run against the sandbox).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeTypeDescription } from 'n8n-workflow';

import { CustomerBanking } from '../../nodes/CustomerBanking/CustomerBanking.node';
import { CustomerBankingApprovalTrigger } from '../../nodes/CustomerBankingApprovalTrigger/CustomerBankingApprovalTrigger.node';
import { CustomerBankingTrigger } from '../../nodes/CustomerBankingTrigger/CustomerBankingTrigger.node';
import { credentialsFor } from '../helpers/sandboxCredentials';
import { type Sandbox, startSandbox } from '../sandbox';
import { byId, mainJson, runNode } from './actionNode';
import { withPlainNames } from '../../nodes/shared/outputNames';
import { requestApprovals, sandboxTrigger } from './approvalTriggerHarness';

interface ExampleNode {
	name: string;
	type: string;
	typeVersion: number;
	disabled?: boolean;
	notes?: string;
	notesInFlow?: boolean;
	credentials?: Record<string, { id: string; name: string }>;
	parameters: Record<string, unknown>;
}
interface Example {
	nodes: ExampleNode[];
	connections: Record<string, { main: Array<Array<{ node: string }>> }>;
	pinData?: Record<string, Array<{ json: Record<string, unknown> }>>;
}

const folder = join(__dirname, '..', '..', 'examples');
const examples: Array<[string, Example]> = readdirSync(folder)
	.filter((file) => file.endsWith('.json'))
	.sort()
	.map((file) => [file, JSON.parse(readFileSync(join(folder, file), 'utf8')) as Example]);
const example = (file: string) => examples.find(([name]) => name === file)?.[1] as Example;
const pinned = (file: string, node: string) =>
	(example(file).pinData?.[node] ?? []).map((item) => item.json);
const keys = (objects: Array<Record<string, unknown>>) =>
	[...new Set(objects.flatMap((object) => Object.keys(object)))].sort();

const defaults: Record<string, number> = Object.fromEntries(
	[new CustomerBanking(), new CustomerBankingTrigger(), new CustomerBankingApprovalTrigger()].map(
		({ description }) => {
			const { name, version, defaultVersion } = description as INodeTypeDescription;
			return [
				`n8n-nodes-customer-banking.${name}`,
				defaultVersion ?? Math.max(...[version].flat()),
			];
		},
	),
);

describe('examples', () => {
	it.each(examples)(
		'%s: the nodes of the package are at the version of a new node',
		(_, workflow) => {
			const ours = workflow.nodes.filter((node) => node.type in defaults);
			expect(ours.length).toBeGreaterThan(0);
			for (const node of ours)
				expect(`${node.name}@${node.typeVersion}`).toBe(`${node.name}@${defaults[node.type]}`);
		},
	);

	it.each(examples.filter(([, workflow]) => workflow.pinData))(
		'%s: pinned data only for nodes of the workflow',
		(_, workflow) => {
			const names = workflow.nodes.map((node) => node.name);
			for (const [node, items] of Object.entries(workflow.pinData ?? {})) {
				expect(names).toContain(node);
				expect(items.length).toBeGreaterThan(0);
			}
		},
	);

	/**
	 * n8n's own nodes where a user sends the result, at versions both supported n8n lines have, with the
	 * credential each needs for the parameters used (n8n's default name for a new one, no ID).
	 */
	const DESTINATIONS: Record<string, { version: number; credential: string; name: string }> = {
		'n8n-nodes-base.slack': { version: 2.4, credential: 'slackApi', name: 'Slack account' },
		'n8n-nodes-base.emailSend': { version: 2.1, credential: 'smtp', name: 'SMTP account' },
		'n8n-nodes-base.googleSheets': {
			version: 4.7,
			credential: 'googleSheetsOAuth2Api',
			name: 'Google Sheets account',
		},
	};
	const ends = (workflow: Example) =>
		workflow.nodes.filter(
			(node) =>
				node.type !== 'n8n-nodes-base.stickyNote' &&
				!(workflow.connections[node.name]?.main ?? []).some((output) => output.length > 0),
		);

	it.each(examples)(
		'%s: ends where a user sends the result (Slack, Send Email or Google Sheets), off until its credential is chosen',
		(_, workflow) => {
			const last = ends(workflow);
			expect(last.length).toBeGreaterThan(0);
			for (const node of last) {
				const destination = DESTINATIONS[node.type];
				expect(`${node.name}: ${node.type}`).toBe(
					`${node.name}: ${destination ? node.type : 'Slack, Send Email or Google Sheets'}`,
				);
				expect(node.typeVersion).toBe(destination.version);
				expect(node.disabled).toBe(true);
				expect(node.credentials).toEqual({
					[destination.credential]: { id: '', name: destination.name },
				});
				// the canvas shows the note's start under the node
				expect(node.notes).toMatch(/^Needs your credential: /);
				expect(node.notesInFlow).toBe(true);
			}
		},
	);

	it('the destinations come after the nodes the tests and the README name', () => {
		const fedBy = (file: string, destination: string) =>
			Object.entries(example(file).connections)
				.filter(([, { main }]) => main.flat().some((link) => link.node === destination))
				.map(([source]) => source)
				.sort();
		expect(fedBy('approval-requested.json', 'Post to approvers')).toEqual(['Notification']);
		expect(fedBy('approval-decided.json', 'Email the requester')).toEqual(
			['Approved', 'Check in the bank', 'Declined', 'Expired', 'Not sent'].sort(),
		);
		expect(fedBy('approved-invoices.json', 'Update invoice row')).toEqual(['Mark invoice paid']);
		expect(fedBy('approved-invoices.json', 'Alert finance')).toEqual([
			'Alert',
			'Check in the bank',
		]);
		expect(fedBy('daily-balances.json', 'Add to balance sheet')).toEqual(['Summary line']);
		expect(fedBy('pay-invoices.json', 'Record payment status')).toEqual(['Pay']);
		expect(fedBy('settled-payments.json', 'Post to finance')).toEqual(['Message']);
		expect(fedBy('sync-payees.json', 'Write payee ID to supplier sheet')).toEqual([
			'Create or update payee',
		]);
	});

	it('show a delivery, accounts with balances and payees without a bank', () => {
		expect(Object.keys(example('settled-payments.json').pinData ?? {})).toEqual([
			'Customer Banking Trigger',
		]);
		expect(Object.keys(example('daily-balances.json').pinData ?? {})).toEqual([
			'Accounts',
			'Balance',
		]);
		expect(Object.keys(example('sync-payees.json').pinData ?? {})).toEqual([
			'Create or update payee',
		]);
	});

	it('show an approval request and each decision without a bank', () => {
		expect(
			pinned('approval-requested.json', 'Approval Trigger').map((event) => event.event),
		).toEqual(['approvalRequested']);
		for (const file of ['approval-decided.json', 'approved-invoices.json']) {
			expect(Object.keys(example(file).pinData ?? {})).toEqual(['Approval Trigger']);
			expect(pinned(file, 'Approval Trigger').map((event) => event.decision)).toEqual([
				'approved',
				'declined',
				'expired',
			]);
		}
	});
});

describe('pinned data has the shape of real output', () => {
	let sandbox: Sandbox;
	const run = async (parameters: Record<string, unknown>) =>
		mainJson(await runNode(sandbox, credentialsFor(sandbox), { parameters }));

	beforeAll(async () => {
		// the pinned data was taken from the default sandbox, whatever mode this run gives the others
		sandbox = await startSandbox({ port: 0, variants: {} });
	});
	afterAll(async () => await sandbox.close());

	it('accounts and balances', async () => {
		const accounts = await run({ resource: 'account', operation: 'getMany', returnAll: true });
		expect(keys(pinned('daily-balances.json', 'Accounts'))).toEqual(keys(accounts));
		const balance = await run({
			resource: 'account',
			operation: 'getBalance',
			account: byId(sandbox.seeded.accounts.gbp),
		});
		expect(keys(pinned('daily-balances.json', 'Balance'))).toEqual(keys(balance));
	});

	it('payees made or updated by the sync', async () => {
		const payee = await run({
			resource: 'payee',
			operation: 'get',
			payee: byId(sandbox.seeded.payees.gbp),
		});
		expect(keys(pinned('sync-payees.json', 'Create or update payee'))).toEqual(keys(payee));
	});

	it("a delivery: the trigger's fields and the transaction under the plain names the trigger gives it", async () => {
		const [delivery] = pinned('settled-payments.json', 'Customer Banking Trigger');
		expect(Object.keys(delivery).sort()).toEqual([
			'accountId',
			'deliveryId',
			'event',
			'occurredAt',
			'transaction',
			'transactionId',
		]);
		const incoming = await sandbox.control.receive(sandbox.seeded.accounts.gbp, 10, 'Pinned shape');
		const transaction = await run({
			resource: 'transaction',
			operation: 'get',
			transactionId: String((incoming as { xtid: string }).xtid),
			simplify: false,
		});
		// the trigger's `transaction` is the whole record with its IDs under the plain names (deliverySteps.ts)
		expect(keys([delivery.transaction as Record<string, unknown>])).toEqual(
			keys(transaction.map((record) => withPlainNames(record))),
		);
		expect((delivery.transaction as { transactionId: string }).transactionId).toBe(
			delivery.transactionId,
		);
	});

	it('approval events: requested, and approved, declined and expired as the Approval Trigger emits them', async () => {
		const shape = (event: Record<string, unknown>) => ({
			top: Object.keys(event).sort(),
			approval: keys([(event.approval as Record<string, unknown> | undefined) ?? {}]),
			transaction: keys([(event.transaction as Record<string, unknown> | undefined) ?? {}]),
		});
		const requested = sandboxTrigger(sandbox, { events: ['approvalRequested'] });
		const decided = sandboxTrigger(sandbox, { events: ['approvalDecided'] });
		await requested.poll();
		await decided.poll();
		const [approved, declined, expired] = await requestApprovals(sandbox, [1250, 4800, 2300]);
		const [request] = await requested.poll();
		expect(pinned('approval-requested.json', 'Approval Trigger').map(shape)).toEqual([
			shape(request),
		]);
		await sandbox.control.approve(approved.ref);
		await sandbox.control.decline(declined.ref);
		await sandbox.control.expire(expired.ref);
		const decisions = await decided.poll();
		expect(decisions.map((event) => event.decision)).toEqual(['approved', 'declined', 'expired']);
		for (const file of ['approval-decided.json', 'approved-invoices.json']) {
			expect(pinned(file, 'Approval Trigger').map(shape)).toEqual(decisions.map(shape));
		}
	});
});

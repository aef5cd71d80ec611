/**
 * The action node as an AI agent's tool (both lines): n8n's AI Agent, driven by a scripted chat model on
 * loopback (lib/scriptedChatModel.ts) through n8n's OpenAI Chat Model node, calls the node's read
 * operations (Payment → Get Status among them) as tools and the model receives their records in the simplified shape, even with Simplify
 * off in the tool; a payment tool call over the tool's Maximum Amount is refused, the bank sees no
 * payment request, and the model reads why. n8n offers the node as a tool because its description has
 * `usableAsTool` (n8n turns it into the node type `customerBankingTool`; no setting needed on either line).
 */
import { randomUUID } from 'node:crypto';

import { COMPACT_FIELDS, simplifyRecord } from '../../nodes/CustomerBanking/actions/simplify';
import { selectedVersions } from './lib/config';
import {
	SCRIPTED_MODEL,
	type ScriptedChatModel,
	type ScriptedTurn,
	startScriptedChatModel,
	toolResults,
} from './lib/scriptedChatModel';
import {
	activate,
	CREDENTIAL_TYPE,
	createCredential,
	credentialData,
	executionError,
	nodeOutput,
	PACKAGE,
	runWebhookWorkflow,
	type Stack,
	startStack,
} from './lib/stack';

const PATH = 'e2e-ai-agent';
const MAX_AMOUNT = 100;

type Json = Record<string, unknown>;

function agentWorkflow(bankCredential: string, modelCredential: string) {
	const tool = (name: string, x: number, parameters: Json) => ({
		id: randomUUID(),
		name,
		type: `${PACKAGE}.customerBankingTool`,
		typeVersion: 1,
		position: [x, 240],
		parameters,
		credentials: { [CREDENTIAL_TYPE]: { id: bankCredential, name: 'Customer Banking sandbox' } },
	});
	const fromAi = (key: string, description: string, type = 'string') =>
		`={{ $fromAI('${key}', '${description}', '${type}') }}`;
	return {
		name: 'E2E: AI agent with the banking tools',
		nodes: [
			{
				id: randomUUID(),
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: {
					httpMethod: 'POST',
					path: PATH,
					responseMode: 'lastNode',
					responseData: 'firstEntryJson',
					options: {},
				},
			},
			{
				id: randomUUID(),
				name: 'AI Agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				typeVersion: 3,
				position: [220, 0],
				parameters: {
					promptType: 'define',
					text: '={{ $json.body.prompt }}',
					hasOutputParser: false,
					options: {},
				},
			},
			{
				id: randomUUID(),
				name: 'OpenAI Chat Model',
				type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
				typeVersion: 1.2,
				position: [0, 240],
				parameters: { model: { __rl: true, mode: 'id', value: SCRIPTED_MODEL }, options: {} },
				credentials: { openAiApi: { id: modelCredential, name: 'Scripted model' } },
			},
			// Simplify off: as a tool the node returns the simplified records all the same
			tool('Accounts', 220, {
				resource: 'account',
				operation: 'getMany',
				returnAll: true,
				simplify: false,
			}),
			tool('Payees', 440, { resource: 'payee', operation: 'getMany', returnAll: true }),
			tool('Pay', 660, {
				resource: 'payment',
				operation: 'submit',
				account: { __rl: true, mode: 'id', value: fromAi('account', 'The account ID to pay from') },
				payee: { __rl: true, mode: 'id', value: fromAi('payee', 'The payee ID to pay') },
				amount: fromAi('amount', 'The amount to pay', 'number'),
				reference: fromAi('reference', 'The payment reference'),
				options: { maxAmount: MAX_AMOUNT },
			}),
			tool('Status', 880, {
				resource: 'payment',
				operation: 'getStatus',
				account: {
					__rl: true,
					mode: 'id',
					value: fromAi('account', 'The account ID the payment was paid from'),
				},
				transactionId: fromAi('transactionId', 'The transaction ID of the payment'),
			}),
		],
		connections: {
			Webhook: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'OpenAI Chat Model': {
				ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
			},
			Accounts: { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
			Payees: { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
			Pay: { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
			Status: { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

describe.each(selectedVersions())('n8n %s: the node as an AI agent tool', (version) => {
	let stack: Stack;
	let model: ScriptedChatModel;
	let workflowId: string;

	/** Runs the agent with `turns` scripted; returns the tool results the model received, by tool name. */
	const runAgent = async (turns: ScriptedTurn[]) => {
		model.script(turns);
		const before = model.requests.length;
		const { execution } = await runWebhookWorkflow(stack.n8n, workflowId, PATH, {
			prompt: 'Look after my banking.',
		});
		expect(executionError(execution)).toBeUndefined();
		const requests = model.requests.slice(before);
		expect(requests).toHaveLength(turns.length);
		const received = new Map<string, string>();
		for (const [id, content] of toolResults(requests.at(-1)!))
			received.set(model.calls.get(id)!.name, content);
		return { execution, requests, received };
	};

	beforeAll(async () => {
		stack = await startStack(version);
		model = await startScriptedChatModel();
		const bank = await createCredential(
			stack.n8n,
			'Customer Banking sandbox',
			credentialData(stack.sandbox),
		);
		const openAi = await stack.n8n.restOk<{ data: { id: string } }>('POST', '/credentials', {
			name: 'Scripted model',
			type: 'openAiApi',
			data: { apiKey: 'scripted-model-key', url: model.url },
		});
		const created = await stack.n8n.apiOk<{ id: string }>(
			'POST',
			'/workflows',
			agentWorkflow(bank.id, String(openAi.data.id)),
		);
		workflowId = String(created.id);
		await activate(stack.n8n, workflowId);
	});

	afterAll(async () => {
		await stack?.stop();
		await model?.close();
	});

	beforeEach(() => stack.sandbox.control.clearRequests());

	const seen = () =>
		stack.sandbox.control.requests().map((r) => `${r.method} ${r.route ?? r.path} ${r.status}`);

	it('offers the four tool nodes to the model', async () => {
		const { requests } = await runAgent([{ content: 'Nothing to do.' }]);
		expect(requests[0].tools?.map((t) => t.function.name).sort()).toEqual([
			'Accounts',
			'Pay',
			'Payees',
			'Status',
		]);
		const pay = requests[0].tools?.find((t) => t.function.name === 'Pay');
		expect(
			Object.keys((pay?.function.parameters as { properties: Json }).properties).sort(),
		).toEqual(['account', 'amount', 'payee', 'reference']);
	});

	it('reads accounts and payees as tools; the model receives the simplified records', async () => {
		const { received, execution } = await runAgent([
			{
				toolCalls: [
					{ name: 'Accounts', arguments: {} },
					{ name: 'Payees', arguments: {} },
				],
			},
			{ content: 'Here are your accounts and payees.' },
		]);
		expect(nodeOutput(execution, 'AI Agent')).toEqual([
			{ output: 'Here are your accounts and payees.' },
		]);

		const accounts = JSON.parse(received.get('Accounts')!) as Json[];
		const ledger = stack.sandbox.control.ledger().accounts;
		const byId = (a: Json, b: Json) => String(a.accountId).localeCompare(String(b.accountId));
		expect([...accounts].sort(byId)).toEqual(
			ledger.map((account) => simplifyRecord('account', account)).sort(byId),
		);
		// the bank's record has more (its balance, for one) than the model is given
		expect(Object.keys(ledger[0]).length).toBeGreaterThan(Object.keys(accounts[0]).length);

		const payees = JSON.parse(received.get('Payees')!) as Json[];
		const payeeKeys = COMPACT_FIELDS.payee.map((field) => field.key);
		expect(payees.map((payee) => payee.payeeId)).toEqual(
			expect.arrayContaining([stack.sandbox.seeded.payees.gbp, stack.sandbox.seeded.payees.eur]),
		);
		for (const payee of payees)
			expect(Object.keys(payee)).toEqual(payeeKeys.filter((key) => key in payee));
		expect(
			seen()
				.filter((request) => !request.includes('/oauth/token'))
				.sort(),
		).toEqual(['GET /accounts 200', 'GET /payees 200']);
	});

	it('refuses a payment over the Maximum Amount: the bank sees no payment request, the model reads why', async () => {
		const { seeded } = stack.sandbox;
		const { received } = await runAgent([
			{
				toolCalls: [
					{
						name: 'Pay',
						arguments: {
							account: seeded.accounts.gbp,
							payee: seeded.payees.gbp,
							amount: 250,
							reference: 'AGENT-OVER',
						},
					},
				],
			},
			{ content: 'The payment was refused.' },
		]);
		const [result] = JSON.parse(received.get('Pay')!) as Json[];
		expect(result).toMatchObject({
			status: 'rejected',
			notSent: true,
			amount: 250,
			reference: 'AGENT-OVER',
		});
		expect(result.rejectionReason).toBe(
			`Amount 250 is over the Maximum Amount of ${MAX_AMOUNT}: not sent`,
		);
		expect(seen().filter((request) => request.includes('/payments'))).toEqual([]);
		expect(
			stack.sandbox.control
				.ledger()
				.paymentRequests.some((request) => JSON.stringify(request).includes('AGENT-OVER')),
		).toBe(false);
	});

	it('pays within the Maximum Amount with the arguments the model gave', async () => {
		const { seeded } = stack.sandbox;
		const { received } = await runAgent([
			{
				toolCalls: [
					{
						name: 'Pay',
						arguments: {
							account: seeded.accounts.gbp,
							payee: seeded.payees.gbp,
							amount: 12.5,
							reference: 'AGENT-SMALL',
						},
					},
				],
			},
			{ content: 'Paid.' },
		]);
		const [result] = JSON.parse(received.get('Pay')!) as Json[];
		expect(result).toMatchObject({ amount: 12.5, reference: 'AGENT-SMALL' });
		expect(result.status).not.toBe('rejected');
		expect(seen().filter((request) => request.includes('/payments'))).toEqual([
			'POST /payments 202',
		]);
	});

	it('tells where a payment is as a tool, in the words Submit used, without sending anything', async () => {
		const { seeded } = stack.sandbox;
		const paid = await runAgent([
			{
				toolCalls: [
					{
						name: 'Pay',
						arguments: {
							account: seeded.accounts.gbp,
							payee: seeded.payees.gbp,
							amount: 13.5,
							reference: 'AGENT-STATUS',
						},
					},
				],
			},
			{ content: 'Paid.' },
		]);
		const [payment] = JSON.parse(paid.received.get('Pay')!) as Json[];
		stack.sandbox.control.clearRequests();

		const { received } = await runAgent([
			{
				toolCalls: [
					{
						name: 'Status',
						arguments: { account: seeded.accounts.gbp, transactionId: payment.transactionId },
					},
				],
			},
			{ content: 'It was sent.' },
		]);
		const [status] = JSON.parse(received.get('Status')!) as Json[];
		expect(status).toMatchObject({
			status: payment.status,
			transactionId: payment.transactionId,
			accountId: seeded.accounts.gbp,
		});
		expect(status.status).toBe('sent');
		expect(seen().filter((request) => request.startsWith('POST /payments'))).toEqual([]);
	});
});

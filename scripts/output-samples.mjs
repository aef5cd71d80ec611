// The outputs lint-jargon.mjs checks for the API's names among output keys: every operation of the
// action node and the Approval Trigger run as n8n runs them, with their default parameters, against a
// scripted bank whose records carry every field the bank may send under its own names (xaid, xpid,
// xtid, xid, ref, parent_xaid, meta, requestId); and one payment item of every kind of result. Loads the
// TypeScript sources (run with tsx).
import Module from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const load = async (source) => await import(pathToFileURL(join(repoRoot, source)).href);

const ACCOUNT = '09c8633e-25d2-4ee4-866d-af583e89c3cb';
const PAYEE = 'ea76e8ff-9b32-439e-98e8-5ee90c733e03';
const TRANSACTION = '8e9f2cbf-2e85-4233-a21a-09670fa22a4c';
const APPROVAL = '73dc8df6-5e5f-414c-a295-727e1e46900a';

const BANK_RECORDS = {
	account: { xaid: ACCOUNT, name: 'Operating', currency: 'GBP', status: 'ACTIVE' },
	transaction: {
		xtid: TRANSACTION,
		xaid: ACCOUNT,
		xpid: PAYEE,
		direction: 'outgoing',
		amount: 12.5,
		requestId: 'req-1',
	},
	payee: { xpid: PAYEE, xaid: ACCOUNT, name: 'Acme', currency: 'GBP' },
	approval: {
		ref: APPROVAL,
		xtid: TRANSACTION,
		parent_xaid: ACCOUNT,
		status: 'pending',
		transaction: { xtid: TRANSACTION, xpid: PAYEE, amount: 1500, payeeName: 'Acme' },
		meta: { created: '2026-11-27T10:00:00Z', expiresAt: '2026-11-28T10:00:00Z' },
	},
};

/**
 * What the bank answers on each endpoint in the run of every operation below: its records with every
 * identifier under the bank's names, at the top and nested, and the owner field (xid) a payee carries.
 */
function bankAnswer({ method, path }) {
	const list = (record) => ({ status: 200, body: { total: 1, results: [record] } });
	const owner = { xid: 'owner-1' };
	if (method === 'POST' && path === '/payments')
		return {
			status: 202,
			body: {
				submitted: [{ xtid: TRANSACTION }],
				rejected: [],
				rejectedCount: 0,
				requestId: 'req-1',
			},
		};
	if (/\/payees?(\/[^/]+)?$/.test(path) && method !== 'GET')
		return { status: 200, body: { ...BANK_RECORDS.payee, ...owner } };
	if (path === '/accounts') return list(BANK_RECORDS.account);
	if (/\/balance$/.test(path))
		return {
			status: 200,
			body: { currency: 'GBP', balance: 10, availableBalance: 10, pendingBalance: 0 },
		};
	if (/\/transactions$/.test(path)) return list(BANK_RECORDS.transaction);
	if (/\/approvals$/.test(path)) return list(BANK_RECORDS.approval);
	if (/\/payees$/.test(path)) return list({ ...BANK_RECORDS.payee, ...owner });
	if (path.startsWith('/transaction/')) return { status: 200, body: BANK_RECORDS.transaction };
	if (path.startsWith('/approval/')) return { status: 200, body: BANK_RECORDS.approval };
	if (path.startsWith('/payee/')) return { status: 200, body: { ...BANK_RECORDS.payee, ...owner } };
	if (path.startsWith('/account/')) return { status: 200, body: BANK_RECORDS.account };
	return { status: 404, body: { error: `not served here: ${method} ${path}` } };
}

/** The scripted bank (test/helpers/scriptedApi.ts) answering as `answer` says, and its credential. */
async function startBank(answer) {
	const { scriptedCredentials, startScriptedApi } = await load('test/helpers/scriptedApi.ts');
	const api = await startScriptedApi(answer);
	return { credentials: scriptedCredentials(api), close: async () => await api.close() };
}

const byId = (value) => ({ __rl: true, mode: 'id', value });
const GBP_PAYEE_FORM = {
	name: 'Oak Timber Ltd',
	reference: 'OAK-000001',
	purpose: 'Supplier payment',
	purposeCategory: 'SUPPLIER',
	addressLine1: '2 Mill Lane',
	townCity: 'Leeds',
	postCode: 'LS1 4AP',
	countryCode: 'GB',
	bankDetailsFormat: 'gbp',
	sortCode: '040004',
	accountNumber: '11223344',
};
const PAYMENT = {
	account: byId(ACCOUNT),
	payee: byId(PAYEE),
	amount: 12.5,
	reference: 'INV-000002',
};

/**
 * What each operation needs besides its defaults (IDs, a payee's form, a payment's fields); every other
 * parameter keeps the default the node's description gives it, as in n8n. An operation of the node
 * without an entry here fails the check: a new operation is checked from its first day.
 */
export const OPERATION_INPUTS = {
	'account:get': { account: byId(ACCOUNT) },
	'account:getBalance': { account: byId(ACCOUNT) },
	'account:getMany': {},
	'transaction:get': { transactionId: TRANSACTION },
	'transaction:getMany': {},
	'payee:create': { account: byId(ACCOUNT), ...GBP_PAYEE_FORM },
	'payee:get': { payee: byId(PAYEE) },
	'payee:getMany': {},
	'payee:update': { account: byId(ACCOUNT), payee: byId(PAYEE), identity: { name: 'Oak Timber' } },
	'payee:upsert': { account: byId(ACCOUNT), ...GBP_PAYEE_FORM, lookUpExisting: false },
	'payment:submit': PAYMENT,
	'payment:submitBatch': PAYMENT,
	'payment:getStatus': { account: byId(ACCOUNT), transactionId: TRANSACTION },
	'approval:get': { approvalRef: APPROVAL },
	'approval:getByPayment': { transactionId: TRANSACTION },
	'approval:getMany': {},
};

/**
 * The test helpers import the nodes as `….node`, which Node resolves to the codex file `….node.json`
 * before tsx gets to `….node.ts` (as in test/bench/triggerDeliveryCost.bench.ts): resolved to the source.
 */
function resolveNodeSources() {
	const resolveFilename = Module._resolveFilename;
	if (resolveFilename.nodeSources) return;
	Module._resolveFilename = Object.assign(
		function (request, ...rest) {
			if (request.endsWith('.node')) {
				try {
					return resolveFilename.call(this, `${request}.ts`, ...rest);
				} catch {
					// not one of ours: resolved as usual below
				}
			}
			return resolveFilename.call(this, request, ...rest);
		},
		{ nodeSources: true },
	);
}

/** Every resource and operation the action node's form offers. */
function operationsOf(description) {
	const resource = description.properties.find((property) => property.name === 'resource');
	return resource.options.flatMap(({ value }) =>
		description.properties
			.filter(
				(property) =>
					property.name === 'operation' && property.displayOptions?.show?.resource?.includes(value),
			)
			.flatMap((operation) => operation.options.map((option) => `${value}:${option.value}`)),
	);
}

/**
 * Every operation of the action node run as n8n runs it, with its default parameters, against a bank
 * that answers records carrying the bank's names everywhere: what a user sees by default. `inputs`
 * replaces OPERATION_INPUTS (the checker's own test plants one).
 */
export async function operationSamples(inputs = OPERATION_INPUTS) {
	resolveNodeSources();
	const { createExecuteContext } = await load('test/helpers/n8nContext.ts');
	const { CustomerBanking } = await load('nodes/CustomerBanking/CustomerBanking.node.ts');
	const api = await startBank(bankAnswer);
	try {
		const samples = [];
		for (const operation of operationsOf(new CustomerBanking().description)) {
			const where = `Customer Banking (${operation.replace(':', ' → ')})`;
			if (!Object.hasOwn(inputs, operation))
				throw new Error(
					`${where}: no inputs for it in scripts/output-samples.mjs OPERATION_INPUTS`,
				);
			const [resource, name] = operation.split(':');
			const nodeType = new CustomerBanking();
			const { context } = createExecuteContext({
				parameters: { resource, operation: name, ...inputs[operation] },
				credentials: api.credentials,
				executionId: `lint-${operation}`,
				nodeType,
			});
			const outputs = await nodeType.execute.call(context).catch((error) => {
				throw new Error(`${where}: ${error.message}`);
			});
			const items = outputs.flat();
			if (items.length === 0) throw new Error(`${where}: gave no output`);
			for (const { json } of items) {
				if (json.error !== undefined || json.status === 'failed')
					throw new Error(`${where}: failed: ${JSON.stringify(json)}`);
				samples.push({ where, output: json });
			}
		}
		return samples;
	} finally {
		await api.close();
	}
}

/** Submit and Submit Batch: one item per kind of result. */
async function paymentItems() {
	const results = await load('nodes/CustomerBanking/actions/payment/paymentItems.ts');
	const body = {
		xaid: ACCOUNT,
		xpid: PAYEE,
		amount: 12.5,
		currency: 'GBP',
		reference: 'INV-1',
		description: 'April',
	};
	const payment = { itemIndex: 0, body };
	const key = { key: 'key-1', source: 'custom', customKey: 'INV-1' };
	const found = {
		xtid: TRANSACTION,
		approvalRef: APPROVAL,
		approvalStatus: 'pending',
		transactionStatus: 'PENDING_APPROVAL',
		foundIn: 'approvals',
	};
	const placement = {
		batch: { index: 0, itemIndexes: [0, 1] },
		resubmission: { resubmitted: true, firstRejection: 'x', firstIdempotencyKey: 'key-0' },
	};
	const outcomes = [
		{
			kind: 'accepted',
			payment,
			key,
			accepted: { index: 0, xtid: TRANSACTION, xaid: ACCOUNT, xpid: PAYEE, approvalRef: APPROVAL },
			requestId: 'req-1',
			replayed: false,
			fromEvidence: {
				status: 'accepted',
				fields: { approvalRef: APPROVAL, approvalStatus: 'pending' },
				check: 'not known',
			},
		},
		{ kind: 'rejected', payment, key, reason: 'payee unknown', requestId: 'req-1' },
		{
			kind: 'undetermined',
			payment,
			key,
			statement: 'one of two',
			xtids: [TRANSACTION],
			notPaid: false,
			sharedWith: [1],
			requestId: 'req-1',
		},
		{ kind: 'found', payment, key, found, failure: 'HTTP 500' },
	];
	const items = [
		...outcomes.map((outcome) => results.itemOfOutcome(outcome, placement)),
		results.unsentItem({ kind: 'alreadyMade', payment, earlier: [found] }),
		results.unsentItem({ kind: 'overLimit', payment, reason: 'over the Maximum Amount' }),
		results.validatedItem(payment, key, placement.batch),
	];
	return items.flatMap((item) =>
		(item.items ?? []).map(({ json }) => ({
			where: `Payment (${String(json.status)})`,
			output: json,
			// Validate Only shows the request as it would be sent, in the bank's words
			raw: ['request'],
		})),
	);
}

/**
 * The Approval Trigger run as n8n runs it, with its default parameters: Fetch Test Event (an approval
 * requested), then a poll that takes the pending approval in, and one after the bank decided it. The
 * approval record that the bank no longer shows is the event builder's, with Simplify's shape applied.
 */
async function approvalEvents() {
	resolveNodeSources();
	const { createPollContext } = await load('test/helpers/n8nContext.ts');
	const { CustomerBankingApprovalTrigger } = await load(
		'nodes/CustomerBankingApprovalTrigger/CustomerBankingApprovalTrigger.node.ts',
	);
	const { decidedEvent, simplifiedEvent } = await load(
		'nodes/CustomerBankingApprovalTrigger/approvalEvents.ts',
	);
	let approval = BANK_RECORDS.approval;
	const api = await startBank((request) =>
		request.path.includes('/approval') ? answerApproval(request, approval) : bankAnswer(request),
	);
	const staticData = { node: {}, global: {} };
	const poll = async (mode) => {
		const nodeType = new CustomerBankingApprovalTrigger();
		const { context } = createPollContext({
			credentials: api.credentials,
			nodeType,
			staticData,
			mode,
		});
		const result = await nodeType.poll.call(context);
		return (result?.[0] ?? []).map((item) => item.json);
	};
	try {
		const requested = await poll('manual');
		const taken = await poll('trigger');
		approval = { ...approval, status: 'approved' };
		const decided = await poll('trigger');
		if (requested.length !== 1 || taken.length !== 0 || decided.length !== 1)
			throw new Error(
				`Approval Trigger: ${requested.length} test event(s), ${taken.length} and ${decided.length} event(s) from two polls, instead of 1, 0 and 1`,
			);
		return [
			{ where: 'Approval Trigger (requested)', output: requested[0] },
			{ where: 'Approval Trigger (decided)', output: decided[0] },
			{
				where: 'Approval Trigger (decided, record gone)',
				output: simplifiedEvent(
					decidedEvent(
						APPROVAL,
						{ xtid: TRANSACTION, account: ACCOUNT },
						{},
						'undetermined',
						'not shown',
					),
				),
			},
		];
	} finally {
		await api.close();
	}
}

function answerApproval({ path }, approval) {
	return path.startsWith('/approval/')
		? { status: 200, body: approval }
		: { status: 200, body: { total: 1, results: [approval] } };
}

/** The Customer Banking Trigger's item for a delivery: Fetch Full Transaction off, and on with the bank's record. */
async function delivery() {
	const { deliveryItem, deliveryOutput } = await load(
		'nodes/CustomerBankingTrigger/deliverySteps.ts',
	);
	const context = {
		getNodeParameter: (name, fallback) => (name === 'fetchTransaction' ? false : fallback),
	};
	const facts = {
		event: 'transactionReceived',
		xaid: ACCOUNT,
		xtid: TRANSACTION,
		deliveryId: 'd-1',
		occurredAt: '2026-11-27T10:00:00Z',
	};
	return [
		{ where: 'Customer Banking Trigger', output: await deliveryOutput.call(context, facts) },
		{
			where: 'Customer Banking Trigger, Fetch Full Transaction',
			output: deliveryItem(facts, BANK_RECORDS.transaction),
		},
	];
}

export async function outputSamples() {
	return [
		...(await operationSamples()),
		...(await paymentItems()),
		...(await approvalEvents()),
		...(await delivery()),
	];
}

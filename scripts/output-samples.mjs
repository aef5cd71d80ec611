// One output item of every kind the nodes build, from records that carry every field the bank may send
// under its own names (xaid, xpid, xtid, ref, parent_xaid, requestId): what lint-jargon.mjs checks for
// the API's names among output keys. Loads the TypeScript sources (run with tsx).
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

/** Simplify's shape of each resource. */
async function simplified() {
	const { COMPACT_FIELDS, simplifyRecord } = await load(
		'nodes/CustomerBanking/actions/simplify.ts',
	);
	return Object.keys(COMPACT_FIELDS).map((resource) => ({
		where: `Simplify (${resource})`,
		output: simplifyRecord(resource, BANK_RECORDS[resource]),
	}));
}

/** Submit and Submit Batch: one item per kind of result. */
async function paymentResults() {
	const results = await load('nodes/CustomerBanking/actions/payment/paymentResults.ts');
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
			state: {
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
		...outcomes.map((outcome) => results.outcomeResult(outcome, placement)),
		results.unsentResult({ kind: 'alreadyMade', payment, earlier: [found] }),
		results.unsentResult({ kind: 'overLimit', payment, reason: 'over the Maximum Amount' }),
		results.validatedResult(payment, key, placement.batch),
	];
	return items.flatMap((item) =>
		(item.results ?? []).map(({ json }) => ({
			where: `Payment (${String(json.status)})`,
			output: json,
			// Validate Only shows the request as it would be sent, in the bank's words
			raw: ['request'],
		})),
	);
}

/** The Approval Trigger's events, with the record and without (an approval the bank stopped showing). */
async function approvalEvents() {
	const { describeApproval, decidedEvent } = await load(
		'nodes/CustomerBankingApprovalTrigger/approvalEvents.ts',
	);
	const approval = BANK_RECORDS.approval;
	const transaction = { xtid: TRANSACTION, status: 'sent' };
	const known = { xtid: TRANSACTION, account: ACCOUNT };
	const raw = ['approval', 'transaction'];
	return [
		{ where: 'Approval Trigger (requested)', output: describeApproval(approval), raw },
		{
			where: 'Approval Trigger (decided)',
			output: decidedEvent(APPROVAL, known, { approval, transaction }, 'approved'),
			raw,
		},
		{
			where: 'Approval Trigger (decided, record gone)',
			output: decidedEvent(APPROVAL, known, {}, 'undetermined', 'not shown'),
			raw,
		},
	];
}

/** The Customer Banking Trigger's item for a delivery (Fetch Full Transaction off: no request). */
async function delivery() {
	const { deliveryOutput } = await load('nodes/CustomerBankingTrigger/deliverySteps.ts');
	const context = {
		getNodeParameter: (name, fallback) => (name === 'fetchTransaction' ? false : fallback),
	};
	const facts = {
		event: 'TransactionReceived',
		xaid: ACCOUNT,
		xtid: TRANSACTION,
		deliveryId: 'd-1',
		occurredAt: '2026-11-27T10:00:00Z',
	};
	return [
		{
			where: 'Customer Banking Trigger',
			output: await deliveryOutput.call(context, facts),
			raw: ['transaction'],
		},
	];
}

export async function outputSamples() {
	return [
		...(await simplified()),
		...(await paymentResults()),
		...(await approvalEvents()),
		...(await delivery()),
	];
}

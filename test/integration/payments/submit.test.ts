import { nextStepOf } from '../../../nodes/CustomerBanking/payments/paymentStatuses';
import { AMOUNT_RULES } from '../../../nodes/CustomerBanking/validation/amount';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { credentialsFor } from '../../helpers/sandboxCredentials';
import { type Sandbox, startSandbox } from '../../sandbox';
import {
	approvalsWithReference,
	byId,
	expectStateUnknown,
	jsonOf,
	runPayments,
	sentWithReference,
	UUID_V4,
	type RunOptions,
} from './paymentNode';

// the transport's waits between attempts are not slept through: outcomes, not timing, are under test
jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

let sandbox: Sandbox;
let credentials: ICredentialDataDecryptedObject;
let gbp: { xaid: string; xpid: string };
let refCounter = 0;

/** A fresh GBP reference (6-18 characters): the look-up matches on it, so tests never share one. */
const newReference = () => `SUB-${process.pid % 1000}-${++refCounter}`.slice(0, 18);

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	credentials = credentialsFor(sandbox);
	gbp = { xaid: sandbox.seeded.accounts.gbp, xpid: sandbox.seeded.payees.gbp };
});
afterAll(async () => await sandbox.close());
afterEach(() => sandbox.control.clearFaults());

function submit(
	fields: IDataObject,
	options: Omit<RunOptions, 'parameters'> & { parameters?: IDataObject } = {},
) {
	return runPayments(sandbox, credentials, {
		// a new execution per run unless the test says otherwise: derived keys are per execution
		executionId: `exec-${++refCounter}`,
		...options,
		parameters: {
			operation: 'submit',
			account: byId(gbp.xaid),
			payee: byId(gbp.xpid),
			...fields,
			...options.parameters,
		},
	});
}

describe('Payment → Submit', () => {
	it('sends one payment per item, each with its own UUID v4 key, and reports its transaction ID and key', async () => {
		const [first, second] = [newReference(), newReference()];
		const run = await submit(
			{},
			{
				executionId: 'exec-basic',
				itemParameters: [
					{ amount: 25, reference: first },
					{
						amount: 30.5,
						reference: second,
						additionalFields: { currency: 'GBP', description: 'April' },
					},
				],
			},
		);
		const [a, b] = jsonOf(run);
		expect(run.posts).toHaveLength(2);
		expect(run.posts.map((post) => post.key)).toEqual([a.idempotencyKey, b.idempotencyKey]);
		expect(a.idempotencyKey).toMatch(UUID_V4);
		expect(a.idempotencyKey).not.toBe(b.idempotencyKey);
		expect(run.posts[1].body).toEqual({
			xaid: gbp.xaid,
			xpid: gbp.xpid,
			amount: 30.5,
			currency: 'GBP',
			reference: second,
			description: 'April',
		});
		expect(a).toMatchObject({
			status: 'sent',
			reference: first,
			amount: 25,
			accountId: gbp.xaid,
			payeeId: gbp.xpid,
			keySource: 'derived',
		});
		// the bank's identifier names stay in the request; the output names them in plain words
		expect(Object.keys(a)).not.toEqual(expect.arrayContaining(['xaid']));
		expect(Object.keys(a)).not.toEqual(expect.arrayContaining(['xpid']));
		expect(Object.keys(a)).not.toEqual(expect.arrayContaining(['xtid']));
		expect(b).toMatchObject({
			status: 'sent',
			reference: second,
			amount: 30.5,
			currency: 'GBP',
		});
		expect(sentWithReference(sandbox, first).map((t) => t.xtid)).toEqual([a.transactionId]);
		expect(sentWithReference(sandbox, second).map((t) => t.xtid)).toEqual([b.transactionId]);
		expect(run.output?.[0].map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('an amount of 1000 or more becomes an approval request: pending_approval with its approval ID, nothing sent', async () => {
		const reference = newReference();
		const [result] = jsonOf(await submit({ amount: 1000, reference }));
		expect(result).toMatchObject({ status: 'pending_approval', reference, amount: 1000 });
		expect(result.approvalId).toEqual(expect.any(String));
		const [approval] = approvalsWithReference(sandbox, reference);
		expect(approval).toMatchObject({
			ref: result.approvalId,
			xtid: result.transactionId,
			status: 'pending',
		});
		expect(sentWithReference(sandbox, reference)).toEqual([]);
	});

	it('no double payment when run twice in one execution after the bank committed and dropped the answer', async () => {
		const reference = newReference();
		// every answer to POST /payments is lost: the first attempt commits, the resends are replays
		sandbox.control.setFaults([{ method: 'POST', path: '/payments', kind: 'commitThenDrop' }]);
		const first = await submit({ amount: 42.1, reference }, { executionId: 'exec-retry-on-fail' });
		const made = sentWithReference(sandbox, reference);
		expect(made).toHaveLength(1);
		// nothing proves the payment found is this one and not an earlier identical one: it is a candidate
		expectStateUnknown(first.error, {
			reference,
			xaid: gbp.xaid,
			candidates: [made[0].xtid as string],
			key: first.posts[0].key,
		});
		const found: IDataObject = { idempotencyKey: first.posts[0].key, transactionId: made[0].xtid };
		expect(first.posts.length).toBeGreaterThan(1);
		expect(new Set(first.posts.map((post) => post.key))).toEqual(new Set([found.idempotencyKey]));
		// looked up, not resubmitted: the only POSTs are the transport's resends with the same key
		expect(
			first.requests.filter((r) => r.method === 'GET').map((r) => new URL(r.url).pathname),
		).toEqual([`/api/account/${gbp.xaid}/approvals`, `/api/account/${gbp.xaid}/transactions`]);

		// Retry On Fail: the same node, the same execution, the network healthy again
		sandbox.control.clearFaults();
		const second = await submit({ amount: 42.1, reference }, { executionId: 'exec-retry-on-fail' });
		const [replayed] = jsonOf(second);
		expect(second.posts).toEqual([{ key: found.idempotencyKey, body: first.posts[0].body }]);
		expect(replayed).toMatchObject({ status: 'sent', transactionId: found.transactionId });
		expect(sentWithReference(sandbox, reference)).toHaveLength(1);
		expect(sentWithReference(sandbox, reference)[0].xtid).toBe(found.transactionId);
	}, 60_000);

	it('a transport resend after a dropped answer reuses the key: one payment, reported as sent', async () => {
		const reference = newReference();
		sandbox.control.setFaults([
			{ method: 'POST', path: '/payments', kind: 'commitThenDrop', times: 1 },
		]);
		const run = await submit({ amount: 12, reference });
		const [result] = jsonOf(run);
		expect(run.posts).toHaveLength(2);
		expect(run.posts[0]).toEqual(run.posts[1]);
		expect(result).toMatchObject({ status: 'sent' });
		expect(sentWithReference(sandbox, reference).map((t) => t.xtid)).toEqual([
			result.transactionId,
		]);
	});

	it('a token refresh resend (401, new token, resent once) carries the same key and body: one payment', async () => {
		const reference = newReference();
		sandbox.control.setFaults([
			{ method: 'POST', path: '/payments', kind: 'expireToken', times: 1 },
		]);
		const run = await submit({ amount: 13, reference });
		const [result] = jsonOf(run);
		const firstPost = run.requests.findIndex(
			(r) => r.method === 'POST' && r.url.endsWith('/payments'),
		);
		expect(run.requests.slice(firstPost).filter((r) => r.url === sandbox.tokenUrl)).toHaveLength(1);
		expect(run.posts).toHaveLength(2);
		expect(run.posts[1]).toEqual(run.posts[0]);
		expect(
			run.requests
				.filter((r) => r.method === 'POST' && r.url.endsWith('/payments'))
				.map((r) => r.status),
		).toEqual([401, 202]);
		expect(sentWithReference(sandbox, reference).map((t) => t.xtid)).toEqual([
			result.transactionId,
		]);
	});

	it('a new execution without a custom key derives a new key: the workflow run again pays again (documented)', async () => {
		const reference = newReference();
		const [first] = jsonOf(await submit({ amount: 5, reference }, { executionId: 'exec-a' }));
		const [second] = jsonOf(await submit({ amount: 5, reference }, { executionId: 'exec-b' }));
		expect(second.idempotencyKey).not.toBe(first.idempotencyKey);
		expect(sentWithReference(sandbox, reference).map((t) => t.xtid)).toEqual([
			first.transactionId,
			second.transactionId,
		]);
	});

	it('a loop runs the node again in one execution: each run has its own keys, Retry On Fail of a run reuses them', async () => {
		// Loop Over Items: the same node, the same execution, the next $runIndex, a different payment in item 0
		const [first, second] = [newReference(), newReference()];
		const loop1 = await submit(
			{ amount: 8, reference: first },
			{ executionId: 'exec-loop', runIndex: 0 },
		);
		const loop2 = await submit(
			{ amount: 9, reference: second },
			{ executionId: 'exec-loop', runIndex: 1 },
		);
		const [a] = jsonOf(loop1);
		const [b] = jsonOf(loop2);
		expect(b).toMatchObject({ status: 'sent', reference: second, amount: 9 });
		expect(b.idempotencyKey).not.toBe(a.idempotencyKey);
		expect(sentWithReference(sandbox, first).map((t) => t.xtid)).toEqual([a.transactionId]);
		expect(sentWithReference(sandbox, second).map((t) => t.xtid)).toEqual([b.transactionId]);

		// Retry On Fail of the second run keeps its $runIndex: the same key, a replay, nothing paid again
		const retried = await submit(
			{ amount: 9, reference: second },
			{ executionId: 'exec-loop', runIndex: 1 },
		);
		expect(retried.posts).toEqual([{ key: b.idempotencyKey, body: loop2.posts[0].body }]);
		expect(jsonOf(retried)[0]).toMatchObject({
			status: 'sent',
			transactionId: b.transactionId,
		});
		expect(sentWithReference(sandbox, second)).toHaveLength(1);
	});

	it('a custom key keeps the key across executions: no second payment, the original key shown', async () => {
		const reference = newReference();
		const options = { idempotencyKey: `invoice-${reference}` };
		const first = await submit(
			{ amount: 7.25, reference, options },
			{ executionId: 'exec-c', workflowId: 'wf-pay' },
		);
		const second = await submit(
			{ amount: 7.25, reference, options },
			{ executionId: 'exec-d', workflowId: 'wf-pay' },
		);
		const [a] = jsonOf(first);
		const [b] = jsonOf(second);
		expect(a).toMatchObject({
			keySource: 'custom',
			customIdempotencyKey: `invoice-${reference}`,
		});
		expect(a.idempotencyKey).toMatch(UUID_V4);
		expect(b.idempotencyKey).toBe(a.idempotencyKey);
		expect(b.transactionId).toBe(a.transactionId);
		expect(sentWithReference(sandbox, reference)).toHaveLength(1);
		// the bank replayed the original answer
		const replays = sandbox.control
			.requests()
			.filter(
				(entry) =>
					entry.method === 'POST' && entry.headers['x-idempotent-key'] === a.idempotencyKey,
			);
		expect(replays).toHaveLength(2);
	});

	it('a custom key reused for a different payment is refused (422) with a clear error; nothing is paid', async () => {
		const reference = newReference();
		const options = { idempotencyKey: `invoice-${reference}` };
		jsonOf(await submit({ amount: 10, reference, options }, { executionId: 'exec-e' }));
		const run = await submit({ amount: 11, reference, options }, { executionId: 'exec-f' });
		expect(run.error).toBeInstanceOf(NodeApiError);
		expect(run.error?.message).toMatch(
			/^Idempotency key [0-9a-f-]{36} was already used for a different payment request: nothing new was paid$/,
		);
		expect(run.error?.httpCode).toBe('422');
		expect(run.posts).toHaveLength(1);
		expect(sentWithReference(sandbox, reference).map((t) => t.amount)).toEqual([10]);
	});

	it('state unknown after 500s on every resend: looked up, nothing found, fails naming key and reference, not resubmitted', async () => {
		const reference = newReference();
		sandbox.control.setFaults([
			{ method: 'POST', path: '/payments', kind: 'status', status: 500, retryAfterSeconds: 0 },
		]);
		const run = await submit({ amount: 15, reference }, { executionId: 'exec-500' });
		expect(run.error).toBeInstanceOf(NodeOperationError);
		const key = run.posts[0].key;
		expect(run.error?.message).toBe(
			`Payment state unknown — not resubmitted (reference "${reference}", idempotency key ${key})`,
		);
		expect(run.error?.description).toMatch(/HTTP 500/);
		expect(run.error?.description).toMatch(/No payment of 15 to payee .* was found/);
		expect(run.error?.context?.itemIndex).toBe(0);
		expect(run.posts).toHaveLength(5);
		expect(new Set(run.posts.map((post) => post.key)).size).toBe(1);
		const lastPost = run.requests.map((r) => r.method).lastIndexOf('POST');
		const afterPosts = run.requests.slice(lastPost + 1);
		expect(afterPosts.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
			`GET /api/account/${gbp.xaid}/approvals`,
			`GET /api/account/${gbp.xaid}/transactions`,
		]);
		expect(sentWithReference(sandbox, reference)).toEqual([]);
	});

	it('state unknown when several recent payments match reference, amount and payee: none is claimed', async () => {
		const reference = newReference();
		jsonOf(await submit({ amount: 16, reference }));
		jsonOf(await submit({ amount: 16, reference }));
		sandbox.control.setFaults([
			{ method: 'POST', path: '/payments', kind: 'status', status: 500, retryAfterSeconds: 0 },
		]);
		const run = await submit({ amount: 16, reference });
		const earlier = sentWithReference(sandbox, reference).map((t) => t.xtid as string);
		expect(earlier).toHaveLength(2);
		expect(run.error?.message).toMatch(/^Payment state unknown — not resubmitted/);
		expect(run.error?.description).toContain(
			`2 payment(s) of account ${gbp.xaid} match reference, amount and payee (${earlier.join(', ')}), but none can be shown to be this one`,
		);
	});

	it('a lost payment is not taken for the one another item of the same run was just paid with', async () => {
		// two items pay the same payee the same amount under one reference; the second request fails unprocessed
		const reference = newReference();
		let posts = 0;
		const run = await submit(
			{ amount: 17, reference },
			{
				itemParameters: [{}, {}],
				continueOnFail: true,
				afterRequest: async (request) => {
					if (request.method === 'POST' && ++posts === 1) {
						sandbox.control.setFaults([
							{
								method: 'POST',
								path: '/payments',
								kind: 'status',
								status: 500,
								retryAfterSeconds: 0,
							},
						]);
					}
				},
			},
		);
		const [paid, lost] = jsonOf(run);
		expect(paid).toMatchObject({ status: 'sent', reference });
		expect(sentWithReference(sandbox, reference).map((t) => t.xtid)).toEqual([paid.transactionId]);
		// only one payment exists: it is item 0's, so item 1's state is unknown, never "found" as item 0's xtid
		expect(lost).not.toMatchObject({ transactionId: paid.transactionId });
		expect(lost.error).toMatch(/^Payment state unknown — not resubmitted/);
	});

	it('an approval request whose answer was lost is found among the approvals', async () => {
		const reference = newReference();
		sandbox.control.setFaults([
			{ method: 'POST', path: '/payments', kind: 'commitThenDrop', times: 1 },
			{ method: 'POST', path: '/payments', kind: 'status', status: 503, retryAfterSeconds: 0 },
		]);
		const run = await submit({ amount: 1500, reference });
		const [approval] = approvalsWithReference(sandbox, reference);
		expect(approvalsWithReference(sandbox, reference)).toHaveLength(1);
		expect(sentWithReference(sandbox, reference)).toEqual([]);
		// the approval request is a candidate, not proven to be this one (an earlier identical one looks the same)
		expectStateUnknown(run.error, {
			reference,
			xaid: gbp.xaid,
			candidates: [approval.xtid as string],
			key: run.posts[0].key,
		});
		expect(run.error?.description).toMatch(/HTTP 503/);
	});

	it('bad input fails before any request, naming the field, the rule and the item', async () => {
		const run = await submit(
			{},
			{
				itemParameters: [
					{ amount: 20, reference: newReference() },
					{ amount: 10.005, reference: 'INV' },
				],
			},
		);
		expect(run.error).toBeInstanceOf(NodeOperationError);
		expect(run.error?.message).toBe(
			`Invalid payment in item 1: Amount ${AMOUNT_RULES.decimals}; Reference must be 6-140 characters (has 3)`,
		);
		expect(run.error?.context?.itemIndex).toBe(1);
		expect(run.requests).toEqual([]);
	});

	it('an empty custom key is bad input, not a silent fallback to a derived key', async () => {
		const run = await submit({
			amount: 20,
			reference: newReference(),
			options: { idempotencyKey: ' ' },
		});
		expect(run.error?.message).toBe(
			'Invalid payment in item 0: Custom Idempotency Key is empty for this item',
		);
		expect(run.requests).toEqual([]);
	});

	it('Continue On Fail: invalid and failed items become error items, every item paired with its input', async () => {
		const [good, rejected] = [newReference(), newReference()];
		const run = await submit(
			{},
			{
				continueOnFail: true,
				itemParameters: [
					{ amount: 20, reference: good },
					{ amount: -1, reference: newReference() },
					{ amount: 20, reference: rejected, account: byId(sandbox.seeded.accounts.suspended) },
				],
			},
		);
		const items = run.output?.[0] ?? [];
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[0].json).toMatchObject({ status: 'sent', reference: good });
		expect(items[1].json).toEqual({
			status: 'invalid',
			nextStep: nextStepOf('invalid'),
			error: `Invalid payment in item 1: Amount ${AMOUNT_RULES.positive}`,
		});
		expect(items[2].json).toMatchObject({ status: 'rejected', reference: rejected });
		expect(items[2].json.rejectionReason).toMatch(/not active/);
		expect(run.posts.map((post) => (post.body as IDataObject).reference)).toEqual([good, rejected]);
	});

	it('Route Rejected: rejected payments go to the second output, paired with their items', async () => {
		const [good, rejected] = [newReference(), newReference()];
		const run = await submit(
			{ routeRejected: true },
			{
				itemParameters: [
					{ amount: 20, reference: rejected, payee: byId(sandbox.seeded.payees.eur) },
					{ amount: 21, reference: good },
				],
			},
		);
		expect(run.output).toHaveLength(2);
		const [submitted, rejectedOutput] = run.output ?? [];
		expect(
			submitted.map((item) => [item.json.status, item.json.reference, item.pairedItem]),
		).toEqual([['sent', good, { item: 1 }]]);
		expect(
			rejectedOutput.map((item) => [item.json.status, item.json.reference, item.pairedItem]),
		).toEqual([['rejected', rejected, { item: 0 }]]);
		expect(rejectedOutput[0].json.rejectionReason).toMatch(/payee .* not found on account/);
	});

	it('Validate Only sends nothing and shows the body and the key the real run then uses', async () => {
		const reference = newReference();
		const fields = { amount: 33.3, reference, options: { validateOnly: true } };
		sandbox.control.clearRequests();
		const check = await submit(fields, {
			executionId: 'exec-validate',
			itemParameters: [{}, { amount: 0, reference: 'x' }],
		});
		expect(check.requests).toEqual([]);
		expect(sandbox.control.requests()).toEqual([]);
		const [valid, invalid] = jsonOf(check);
		expect(valid).toMatchObject({
			status: 'valid',
			request: {
				method: 'POST',
				path: '/payments',
				headers: { 'x-idempotent-key': valid.idempotencyKey },
				body: { xaid: gbp.xaid, xpid: gbp.xpid, amount: 33.3, reference },
			},
		});
		expect(invalid).toEqual({
			status: 'invalid',
			nextStep: nextStepOf('invalid'),
			issues: [`Amount ${AMOUNT_RULES.positive}`, 'Reference must be 6-140 characters (has 1)'],
		});

		const real = await submit({ ...fields, options: {} }, { executionId: 'exec-validate' });
		expect(real.posts).toEqual([
			{ key: valid.idempotencyKey, body: (valid.request as IDataObject).body },
		]);
	});
});

describe('Payment → Submit: look-up window', () => {
	let pastSandbox: Sandbox;

	beforeAll(async () => {
		// the bank's clock starts an hour ago, so the first payment is an hour old when the clock catches up
		pastSandbox = await startSandbox({ port: 0, now: new Date(Date.now() - 60 * 60 * 1000) });
	});
	afterAll(async () => await pastSandbox.close());

	it('an identical payment made an hour earlier is not taken for the lost one', async () => {
		const pastCredentials = credentialsFor(pastSandbox);
		const account = {
			account: byId(pastSandbox.seeded.accounts.gbp),
			payee: byId(pastSandbox.seeded.payees.gbp),
		};
		const parameters = { operation: 'submit', ...account, amount: 19, reference: 'MONTHLY-RENT' };
		const earlier = jsonOf(
			await runPayments(pastSandbox, pastCredentials, { parameters, executionId: 'month-1' }),
		);
		expect(earlier[0].status).toBe('sent');
		await pastSandbox.control.advanceClock(60 * 60 * 1000);

		pastSandbox.control.setFaults([
			{ method: 'POST', path: '/payments', kind: 'status', status: 500, retryAfterSeconds: 0 },
		]);
		const run = await runPayments(pastSandbox, pastCredentials, {
			parameters,
			executionId: 'month-2',
		});
		expect(run.error?.message).toMatch(
			/^Payment state unknown — not resubmitted \(reference "MONTHLY-RENT"/,
		);
		// the earlier payment cannot be ruled out: named as a candidate, never claimed
		expectStateUnknown(run.error, {
			reference: 'MONTHLY-RENT',
			xaid: pastSandbox.seeded.accounts.gbp,
			candidates: [earlier[0].transactionId as string],
			key: run.posts[0].key,
		});
		expect(sentWithReference(pastSandbox, 'MONTHLY-RENT').map((t) => t.xtid)).toEqual([
			earlier[0].transactionId,
		]);
	});
});

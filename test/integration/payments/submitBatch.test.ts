import { AMOUNT_RULES } from '../../../nodes/CustomerBanking/validation/amount';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { credentialsFor } from '../../helpers/sandboxCredentials';
import { type Sandbox, startSandbox } from '../../sandbox';
import {
	approvalsWithReference,
	byId,
	expectStateUnknownItem,
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
let counter = 0;

const newReference = () => `BAT-${++counter}-${process.pid % 1000}`.slice(0, 18);

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	credentials = credentialsFor(sandbox);
	gbp = { xaid: sandbox.seeded.accounts.gbp, xpid: sandbox.seeded.payees.gbp };
});
afterAll(async () => await sandbox.close());
afterEach(() => sandbox.control.clearFaults());

function submitBatch(
	itemParameters: Array<Record<string, unknown>>,
	options: Omit<RunOptions, 'parameters' | 'itemParameters'> & { parameters?: IDataObject } = {},
) {
	return runPayments(sandbox, credentials, {
		executionId: `batch-exec-${++counter}`,
		...options,
		itemParameters,
		parameters: {
			operation: 'submitBatch',
			account: byId(gbp.xaid),
			payee: byId(gbp.xpid),
			amount: 10,
			...options.parameters,
		},
	});
}

/** The bank answers only what the spec shows of payment items: xtid, error (sandbox.variants.paymentAnswer). */
const answerIsXtidOnly = () => sandbox.variants.paymentAnswer === 'xtidOnly';

const references = (body: unknown) => (body as IDataObject[]).map((payment) => payment.reference);
const availableGbp = () =>
	Number(
		sandbox.control.ledger().accounts.find((account) => account.xaid === gbp.xaid)
			?.availableBalance,
	);

describe('Payment → Submit Batch', () => {
	it('groups items into requests of Batch Size, one UUID v4 key per request, results paired per item', async () => {
		const refs = Array.from({ length: 5 }, newReference);
		const run = await submitBatch(
			refs.map((reference, index) => ({ reference, amount: 10 + index })),
			{ parameters: { batchSize: 2 } },
		);
		expect(run.posts.map((post) => references(post.body))).toEqual([
			refs.slice(0, 2),
			refs.slice(2, 4),
			refs.slice(4),
		]);
		const keys = run.posts.map((post) => post.key);
		expect(new Set(keys).size).toBe(3);
		keys.forEach((key) => expect(key).toMatch(UUID_V4));

		const results = jsonOf(run);
		expect(
			results.map((result) => [result.status, result.reference, result.idempotencyKey]),
		).toEqual(refs.map((reference, index) => ['sent', reference, keys[Math.floor(index / 2)]]));
		expect(results[3].batch).toEqual({ index: 1, itemIndexes: [2, 3] });
		expect(run.output?.[0].map((item) => item.pairedItem)).toEqual(
			[0, 1, 2, 3, 4].map((item) => ({ item })),
		);
		for (const [index, reference] of refs.entries()) {
			expect(sentWithReference(sandbox, reference).map((t) => t.xtid)).toEqual([
				results[index].transactionId,
			]);
		}
	});

	it('sends at most 100 payments per request', async () => {
		const refs = Array.from({ length: 101 }, newReference);
		const run = await submitBatch(refs.map((reference) => ({ reference, amount: 0.01 })));
		expect(run.posts.map((post) => (post.body as unknown[]).length)).toEqual([100, 1]);
		expect(jsonOf(run).every((result) => result.status === 'sent')).toBe(true);
	});

	it('refuses a Batch Size over 100 before any request', async () => {
		const run = await submitBatch([{ reference: newReference() }], {
			parameters: { batchSize: 101 },
		});
		expect(run.error).toBeInstanceOf(NodeOperationError);
		expect(run.error?.message).toBe('Batch Size must be a whole number from 1 to 100');
		expect(run.requests).toEqual([]);
	});

	it('a batch mixes sent, pending_approval and rejected items; Route Rejected splits them', async () => {
		const [small, large, foreignPayee] = [newReference(), newReference(), newReference()];
		const run = await submitBatch(
			[
				{ reference: small, amount: 20 },
				{ reference: large, amount: 1000 },
				{ reference: foreignPayee, amount: 20, payee: byId(sandbox.seeded.payees.usd) },
			],
			{ parameters: { routeRejected: true } },
		);
		expect(run.posts).toHaveLength(1);
		const [submitted, rejected] = run.output ?? [];
		expect(
			submitted.map((item) => [item.json.status, item.json.reference, item.pairedItem]),
		).toEqual([
			['sent', small, { item: 0 }],
			['pending_approval', large, { item: 1 }],
		]);
		expect(submitted[1].json.approvalId).toBe(approvalsWithReference(sandbox, large)[0].ref);
		expect(
			rejected.map((item) => [item.json.status, item.json.reference, item.pairedItem]),
		).toEqual([['rejected', foreignPayee, { item: 2 }]]);
	});

	it('Resubmit Rejected Items resends only the rejected item, once, with a new key; nothing accepted is sent again', async () => {
		const [accepted, shortOfFunds, badPayee] = [newReference(), newReference(), newReference()];
		const large = Math.round(availableGbp() + 5000);
		const parameters = {
			options: { resubmitRejected: true, resubmitWhen: 'insufficient' },
		};
		const items = [
			{ reference: accepted, amount: 100 },
			{ reference: shortOfFunds, amount: large },
			{ reference: badPayee, amount: 20, payee: byId(sandbox.seeded.payees.eur) },
		];
		// money arrives between the bank's answer and the resubmission
		let credited = false;
		const afterRequest = async (request: IHttpRequestOptions) => {
			if (!credited && request.method === 'POST') {
				credited = true;
				await sandbox.control.receive(gbp.xaid, 10_000, 'Top-up');
			}
		};
		const run = await submitBatch(items, {
			parameters,
			executionId: 'batch-resubmit',
			afterRequest,
		});

		if (answerIsXtidOnly()) {
			// the answer carries only xtid / error: the accepted payment is found by its xtid, but two
			// rejections for two payments cannot be told apart: neither is pinned, neither is resubmitted
			expect(run.posts).toHaveLength(1);
			const [onlyPost] = run.posts;
			expect(references(onlyPost.body)).toEqual([accepted, shortOfFunds, badPayee]);
			const [a, b, c] = jsonOf(run);
			expect(a).toMatchObject({ status: 'sent', idempotencyKey: onlyPost.key });
			expect(a.resubmission).toBeUndefined();
			for (const [result, reference] of [
				[b, shortOfFunds],
				[c, badPayee],
			] as const) {
				expect(result).toMatchObject({
					status: 'rejected',
					reference,
					idempotencyKey: onlyPost.key,
					rejectionReasonUncertain: true,
					resubmission: {
						resubmitted: false,
						notResubmittedBecause:
							"the bank's answer did not say which of its rejections is this payment's",
					},
				});
				expect(result.rejectionReason).toMatch(
					/^one of the rejections of this request: [^|]*insufficient available balance[^|]* \| [^|]*payee .* not found on account/,
				);
			}
			expect(sentWithReference(sandbox, accepted).map((t) => t.xtid)).toEqual([a.transactionId]);
			expect(approvalsWithReference(sandbox, shortOfFunds)).toEqual([]);
			expect(sentWithReference(sandbox, shortOfFunds)).toEqual([]);

			// Retry On Fail: the request is replayed with its key, still nothing resubmitted, nothing paid again
			const again = await submitBatch(items, { parameters, executionId: 'batch-resubmit' });
			expect(again.posts).toEqual(run.posts);
			expect(jsonOf(again).map((result) => [result.status, result.transactionId])).toEqual([
				['sent', a.transactionId],
				['rejected', undefined],
				['rejected', undefined],
			]);
			expect(sentWithReference(sandbox, accepted)).toHaveLength(1);
			expect(approvalsWithReference(sandbox, shortOfFunds)).toEqual([]);
			return;
		}

		expect(run.posts).toHaveLength(2);
		const [firstPost, resubmission] = run.posts;
		expect(references(firstPost.body)).toEqual([accepted, shortOfFunds, badPayee]);
		expect(references(resubmission.body)).toEqual([shortOfFunds]);
		expect(resubmission.key).toMatch(UUID_V4);
		expect(resubmission.key).not.toBe(firstPost.key);

		const [a, b, c] = jsonOf(run);
		expect(a).toMatchObject({ status: 'sent', idempotencyKey: firstPost.key });
		expect(a.resubmission).toBeUndefined();
		expect(b).toMatchObject({
			status: 'pending_approval',
			idempotencyKey: resubmission.key,
			keySource: 'resubmission',
			resubmission: { resubmitted: true, firstIdempotencyKey: firstPost.key },
		});
		expect((b.resubmission as IDataObject).firstRejection).toMatch(
			/insufficient available balance/,
		);
		expect(c).toMatchObject({
			status: 'rejected',
			idempotencyKey: firstPost.key,
			resubmission: { resubmitted: false },
		});
		expect((c.resubmission as IDataObject).notResubmittedBecause).toMatch(
			/would be rejected again/,
		);
		expect(sentWithReference(sandbox, accepted).map((t) => t.xtid)).toEqual([a.transactionId]);
		expect(approvalsWithReference(sandbox, shortOfFunds).map((x) => x.xtid)).toEqual([
			b.transactionId,
		]);

		// Retry On Fail: both requests are replayed with their keys, nothing is paid again
		const again = await submitBatch(items, { parameters, executionId: 'batch-resubmit' });
		expect(again.posts).toEqual(run.posts);
		expect(jsonOf(again).map((result) => result.transactionId)).toEqual([
			a.transactionId,
			b.transactionId,
			undefined,
		]);
		expect(sentWithReference(sandbox, accepted)).toHaveLength(1);
		expect(approvalsWithReference(sandbox, shortOfFunds)).toHaveLength(1);
	});

	it("Resubmit Rejected Items: a batch's only rejection is pinned to its payment even by an answer of xtid and error only", async () => {
		// with one accepted item (found by its xtid) and one rejection, the answer leaves one reading
		const [accepted, shortOfFunds] = [newReference(), newReference()];
		const parameters = { options: { resubmitRejected: true, resubmitWhen: 'insufficient' } };
		const items = [
			{ reference: accepted, amount: 100 },
			{ reference: shortOfFunds, amount: Math.round(availableGbp() + 5000) },
		];
		let credited = false;
		const afterRequest = async (request: IHttpRequestOptions) => {
			if (!credited && request.method === 'POST') {
				credited = true;
				await sandbox.control.receive(gbp.xaid, 10_000, 'Top-up');
			}
		};
		const run = await submitBatch(items, {
			parameters,
			executionId: 'batch-resubmit-one',
			afterRequest,
		});
		expect(run.posts.map((post) => references(post.body))).toEqual([
			[accepted, shortOfFunds],
			[shortOfFunds],
		]);
		const [a, b] = jsonOf(run);
		expect(a).toMatchObject({ status: 'sent', idempotencyKey: run.posts[0].key });
		expect(b).toMatchObject({
			status: 'pending_approval',
			idempotencyKey: run.posts[1].key,
			resubmission: { resubmitted: true, firstIdempotencyKey: run.posts[0].key },
		});
		expect(b.rejectionReasonUncertain).toBeUndefined();
		expect((b.resubmission as IDataObject).firstRejection).toMatch(
			/insufficient available balance/,
		);
		const [approval] = approvalsWithReference(sandbox, shortOfFunds);
		expect(b).toMatchObject({ transactionId: approval.xtid, approvalId: approval.ref });
		expect(sentWithReference(sandbox, accepted).map((t) => t.xtid)).toEqual([a.transactionId]);
		expect(approvalsWithReference(sandbox, shortOfFunds)).toHaveLength(1);
	});

	it('by default a rejection for insufficient funds or a field error is not resubmitted: no second request', async () => {
		const [accepted, shortOfFunds] = [newReference(), newReference()];
		const run = await submitBatch(
			[
				{ reference: accepted, amount: 5 },
				{ reference: shortOfFunds, amount: Math.round(availableGbp() + 5000) },
			],
			{ parameters: { options: { resubmitRejected: true } } },
		);
		expect(run.posts).toHaveLength(1);
		const [, rejected] = jsonOf(run);
		expect(rejected).toMatchObject({
			status: 'rejected',
			resubmission: {
				resubmitted: false,
				notResubmittedBecause:
					'insufficient funds is not resubmitted unless "Resubmit When Reason Matches" names it',
			},
		});
	});

	it('after lost answers the whole batch is looked up: each item names its one candidate, then the retry replays', async () => {
		const [small, large] = [newReference(), newReference()];
		sandbox.control.setFaults([
			{ method: 'POST', path: '/payments', kind: 'commitThenDrop', times: 1 },
			{ method: 'POST', path: '/payments', kind: 'status', status: 502, retryAfterSeconds: 0 },
		]);
		const items = [
			{ reference: small, amount: 30 },
			{ reference: large, amount: 2500 },
		];
		// nothing proves a record found is this batch's and not an earlier identical payment: Continue On
		// Fail shows every item's error and candidates
		const run = await submitBatch(items, {
			executionId: 'batch-lost',
			parameters: { options: { resubmitRejected: true } },
			continueOnFail: true,
		});
		const [a, b] = jsonOf(run);
		expect(new Set(run.posts.map((post) => post.key)).size).toBe(1);
		const key = run.posts[0].key;
		expectStateUnknownItem(a, {
			reference: small,
			key,
			candidates: sentWithReference(sandbox, small).map((t) => t.xtid as string),
		});
		expectStateUnknownItem(b, {
			reference: large,
			key,
			candidates: approvalsWithReference(sandbox, large).map((x) => x.xtid as string),
		});
		expect(a.candidates).toHaveLength(1);
		expect(b.candidates).toHaveLength(1);
		// what each item made: the one candidate the bank's records hold
		const [madeSmall, madeLarge] = [(a.candidates as string[])[0], (b.candidates as string[])[0]];
		expect(sentWithReference(sandbox, small)).toHaveLength(1);
		expect(approvalsWithReference(sandbox, large)).toHaveLength(1);
		expect(sentWithReference(sandbox, large)).toEqual([]);

		sandbox.control.clearFaults();
		const again = await submitBatch(items, { executionId: 'batch-lost' });
		expect(again.posts).toEqual([run.posts[0]]);
		expect(jsonOf(again).map((result) => [result.status, result.transactionId])).toEqual([
			['sent', madeSmall],
			['pending_approval', madeLarge],
		]);
		expect(sentWithReference(sandbox, small)).toHaveLength(1);
		expect(approvalsWithReference(sandbox, large)).toHaveLength(1);
	});

	it('state unknown for a batch: every item fails naming the key and its reference; later batches are not sent', async () => {
		const refs = [newReference(), newReference(), newReference()];
		sandbox.control.setFaults([
			{ method: 'POST', path: '/payments', kind: 'status', status: 500, retryAfterSeconds: 0 },
		]);
		const failing = await submitBatch(
			refs.map((reference) => ({ reference })),
			{ parameters: { batchSize: 2 } },
		);
		expect(failing.error).toBeInstanceOf(NodeOperationError);
		expect(failing.error?.message).toBe(
			`Payment state unknown — not resubmitted (reference "${refs[0]}", idempotency key ${failing.posts[0].key})`,
		);
		// five attempts of the first batch, the second batch never sent
		expect(failing.posts.map((post) => references(post.body))).toEqual(
			Array(5).fill(refs.slice(0, 2)),
		);

		const tolerant = await submitBatch(
			refs.map((reference) => ({ reference })),
			{ parameters: { batchSize: 2 }, continueOnFail: true },
		);
		const errors = (tolerant.output?.[0] ?? []).map((item) => [item.json.error, item.pairedItem]);
		expect(errors).toEqual(
			refs.map((reference, index) => [
				`Payment state unknown — not resubmitted (reference "${reference}", idempotency key ${tolerant.posts[index < 2 ? 0 : 5].key})`,
				{ item: index },
			]),
		);
		for (const reference of refs) expect(sentWithReference(sandbox, reference)).toEqual([]);
	});

	it('a declined approval is never resubmitted: a re-run only replays the original answer', async () => {
		const reference = newReference();
		const items = [{ reference, amount: 1200 }];
		const parameters = { options: { resubmitRejected: true } };
		const [pending] = jsonOf(
			await submitBatch(items, { executionId: 'batch-declined', parameters }),
		);
		await sandbox.control.decline(pending.approvalId as string);
		const again = await submitBatch(items, { executionId: 'batch-declined', parameters });
		expect(again.posts).toHaveLength(1);
		// the bank replays its original answer; the node reads the approval's current state: declined, so
		// nothing was sent. A bank that lists only pending approvals and answers only xtids shows neither the
		// approval nor a transaction: that proves nothing either way, so the payment stays "accepted"
		const showsDecided = sandbox.variants.approvalList === 'allStatuses';
		expect(jsonOf(again)[0]).toMatchObject(
			showsDecided
				? { status: 'not_sent', transactionId: pending.transactionId }
				: {
						status: 'accepted',
						transactionId: pending.transactionId,
						approvalCheck: expect.stringContaining('declined or may have expired'),
					},
		);
		expect(approvalsWithReference(sandbox, reference).map((a) => a.status)).toEqual(['declined']);
		expect(sentWithReference(sandbox, reference)).toEqual([]);
	});

	it("a loop runs the node again in one execution: each run's batches get their own keys and are paid", async () => {
		const first = [newReference(), newReference()];
		const second = [newReference(), newReference()];
		const loop1 = await submitBatch(
			first.map((reference) => ({ reference })),
			{ executionId: 'batch-loop', runIndex: 0 },
		);
		const loop2 = await submitBatch(
			second.map((reference) => ({ reference })),
			{ executionId: 'batch-loop', runIndex: 1 },
		);
		expect(jsonOf(loop1).map((result) => result.status)).toEqual(['sent', 'sent']);
		expect(jsonOf(loop2).map((result) => result.status)).toEqual(['sent', 'sent']);
		expect(loop2.posts[0].key).not.toBe(loop1.posts[0].key);
		for (const reference of [...first, ...second])
			expect(sentWithReference(sandbox, reference)).toHaveLength(1);
	});

	it("custom keys: the request key comes from the items' keys, stable across executions", async () => {
		const refs = [newReference(), newReference()];
		const items = refs.map((reference) => ({
			reference,
			options: { idempotencyKey: `inv-${reference}` },
		}));
		const first = await submitBatch(items, { executionId: 'batch-custom-1' });
		const second = await submitBatch(items, { executionId: 'batch-custom-2' });
		expect(second.posts[0].key).toBe(first.posts[0].key);
		expect(jsonOf(first)[1]).toMatchObject({ keySource: 'custom' });
		expect(jsonOf(second).map((result) => result.transactionId)).toEqual(
			jsonOf(first).map((result) => result.transactionId),
		);
		for (const reference of refs) expect(sentWithReference(sandbox, reference)).toHaveLength(1);
	});

	it('Validate Only: zero requests, the key of each batch and the invalid items with their rules', async () => {
		const refs = [newReference(), newReference(), newReference()];
		sandbox.control.clearRequests();
		const run = await submitBatch(
			[{ reference: refs[0] }, { reference: refs[1], amount: 1.234 }, { reference: refs[2] }],
			{
				parameters: { batchSize: 1, options: { validateOnly: true } },
				executionId: 'batch-validate',
			},
		);
		expect(run.requests).toEqual([]);
		expect(sandbox.control.requests()).toEqual([]);
		const results = jsonOf(run);
		expect(results.map((result) => result.status)).toEqual(['valid', 'invalid', 'valid']);
		expect(results[1].issues).toEqual([`Amount ${AMOUNT_RULES.decimals}`]);
		expect(run.output?.[0].map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(results[2]).toMatchObject({
			request: {
				batch: { index: 1, itemIndexes: [2] },
				payment: { reference: refs[2], amount: 10 },
			},
		});
		expect(results[0].idempotencyKey).not.toBe(results[2].idempotencyKey);
	});
});

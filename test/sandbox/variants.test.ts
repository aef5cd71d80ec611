import { createHmac, randomUUID } from 'node:crypto';

import { type Sandbox, type SandboxOptions, startSandbox } from './index';
import type { PaymentResponse } from './payments/model';
import {
	type Api,
	apiAs,
	call,
	type ErrorBody,
	type List,
	type Receiver,
	requestToken,
	startReceiver,
} from './testing';
import { ENCODING_NAMES, ENCODINGS } from '../helpers/secretEncodings';
import { echoedForms } from './echo';
import { DEFAULT_VARIANTS, SPEC_MINIMAL, type VariantsOption } from './variants';

interface Approval {
	ref: string;
	xtid: string;
	status: string;
	meta: Record<string, unknown>;
}

type Transaction = Record<string, unknown> & { xtid: string };
type Payee = Record<string, unknown> & { xpid: string };

const sign = (secret: string, timestamp: string, body: string) =>
	`v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

const ENV = 'CUSTOMER_BANKING_SANDBOX_MODE';

describe('sandbox variants: what the bank does where the spec says "not shown" (variants.ts, DECISIONS.md §Variants)', () => {
	let sandbox: Sandbox | undefined;
	let api: Api;
	let receiver: Receiver | undefined;

	/** A sandbox with these switches (the others at their defaults), and a `full` client. */
	async function open(variants: VariantsOption, options: SandboxOptions = {}): Promise<Sandbox> {
		sandbox = await startSandbox({
			port: 0,
			deliveryBackoffMs: [10, 20],
			deliveryTimeoutMs: 200,
			...options,
			variants,
		});
		api = await apiAs(sandbox);
		return sandbox;
	}

	afterEach(async () => {
		await sandbox?.close();
		await receiver?.close();
		sandbox = undefined;
		receiver = undefined;
	});

	const pay = (body: unknown, key: string = randomUUID()) =>
		api.post<PaymentResponse & ErrorBody>('/payments', body, { 'x-idempotent-key': key });
	const item = (bank: Sandbox, overrides: Record<string, unknown> = {}) => ({
		xaid: bank.seeded.accounts.gbp,
		xpid: bank.seeded.payees.gbp,
		amount: 12.5,
		reference: 'VARIANT-0001',
		...overrides,
	});
	/** Holds payments of 1000.00 and up for approval (the seeded policy); answers each approval's ref. */
	const approvals = async (bank: Sandbox, count: number) => {
		const reply = await pay(
			Array.from({ length: count }, (_, i) => item(bank, { amount: 1000 + i })),
		);
		expect(reply.body.rejectedCount).toBe(0);
		return reply.body.submitted.map((s) => s.approvalRef as string);
	};
	const subscription = (bank: Sandbox, url = 'https://hooks.example.com/a', zapId = 'zap-1') => ({
		zapId,
		xaid: bank.seeded.accounts.gbp,
		url,
		event: 'TransactionReceived',
	});

	describe('resolving the switches', () => {
		it("defaults to the sandbox's own choices; single switches change only themselves", async () => {
			expect((await open({})).variants).toEqual(DEFAULT_VARIANTS);
			await sandbox?.close();
			expect((await open({ paymentAnswer: 'xtidOnly' })).variants).toEqual({
				...DEFAULT_VARIANTS,
				paymentAnswer: 'xtidOnly',
			});
			await sandbox?.close();
			expect((await open('specMinimal')).variants).toEqual(SPEC_MINIMAL);
		});

		it(`follows ${ENV}=spec-minimal unless variants are given`, async () => {
			const before = process.env[ENV];
			process.env[ENV] = 'spec-minimal';
			try {
				sandbox = await startSandbox({ port: 0 });
				expect(sandbox.variants).toEqual(SPEC_MINIMAL);
				await sandbox.close();
				sandbox = await startSandbox({ port: 0, variants: { createdTimes: false } });
				expect(sandbox.variants).toEqual({ ...DEFAULT_VARIANTS, createdTimes: false });
			} finally {
				if (before === undefined) delete process.env[ENV];
				else process.env[ENV] = before;
			}
		});
	});

	describe('resubscribe', () => {
		it("'refuse': re-subscribing an existing zapId is 409 and changes nothing", async () => {
			const bank = await open({ resubscribe: 'refuse' });
			expect((await api.post('/webhooks/subscribe', subscription(bank))).status).toBe(201);
			const again = await api.post(
				'/webhooks/subscribe',
				subscription(bank, 'https://hooks.example.com/b'),
			);
			expect(again).toMatchObject({
				status: 409,
				body: { statusCode: 409, message: 'subscription zap-1 already exists' },
			});
			expect(bank.control.subscriptions()).toMatchObject([
				{ zapId: 'zap-1', url: 'https://hooks.example.com/a' },
			]);
		});
	});

	describe('unsubscribeAnswer', () => {
		it("'empty': 204 with no body; an unknown zapId is still 404", async () => {
			const bank = await open({ unsubscribeAnswer: 'empty' });
			await api.post('/webhooks/subscribe', subscription(bank));
			const deleted = await api.delete('/webhooks/unsubscribe', { zapId: 'zap-1' });
			expect(deleted).toMatchObject({ status: 204, body: '' });
			expect(bank.control.subscriptions()).toEqual([]);
			expect((await api.delete('/webhooks/unsubscribe', { zapId: 'zap-1' })).status).toBe(404);
		});
	});

	describe('echoCredentials', () => {
		it('true: the bearer token in payment answers, the client secret in token errors, each in every encoding', async () => {
			const bank = await open({ echoCredentials: true });
			const reply = await pay([item(bank), item(bank, { xpid: 'no-such-payee' })]);
			expect(reply.body.submitted[0]).toMatchObject({
				authorizedWith: `Bearer ${api.token}`,
				tokenSeen: echoedForms(api.token),
			});
			expect(reply.body.rejected[0].error).toContain(api.token);
			expect(reply.body.rejected[0].error).toContain(ENCODINGS.htmlHexLower(api.token));
			const secret = 'wrong/secret+1';
			const refused = await requestToken(bank, bank.clients.full, { client_secret: secret });
			expect(refused.status).toBe(401);
			for (const name of ENCODING_NAMES)
				expect(refused.body.message).toContain(ENCODINGS[name](secret));
		});

		it('true: an API error is a text page longer than 500 characters with the token across its 500th, then in every encoding', async () => {
			const bank = await open({ echoCredentials: true });
			const missing = await api.get<string>(`/transaction/${randomUUID()}`);
			expect(missing.status).toBe(404);
			expect(String(missing.headers['content-type'])).toMatch(/^text\/plain/);
			const at = missing.body.indexOf(api.token);
			expect(at).toBeLessThan(500);
			expect(at + api.token.length).toBeGreaterThan(500);
			expect(missing.body).toContain(ENCODINGS.percentEveryByteTwice(api.token));
			// without the variant: the JSON error of spec §Errors
			await bank.close();
			await open({});
			const plain = await api.get(`/transaction/${randomUUID()}`);
			expect(plain.body).toMatchObject({ statusCode: 404 });
		});
	});

	describe('paymentAnswer', () => {
		it("'xtidOnly': submitted items carry only xtid, rejected ones only error, each in the order sent", async () => {
			const bank = await open({ paymentAnswer: 'xtidOnly' });
			const key = randomUUID();
			const body = [
				item(bank, { amount: 10 }),
				item(bank, { reference: undefined }),
				item(bank, { amount: 1500 }), // held for approval
				item(bank, { xpid: bank.seeded.payees.eur }),
				item(bank, { amount: 20 }),
			];
			const reply = await pay(body, key);
			expect(reply.status).toBe(202);
			expect(Object.keys(reply.body)).toEqual([
				'requestId',
				'submitted',
				'rejected',
				'rejectedCount',
			]);
			expect(reply.body).toEqual({
				requestId: expect.any(String),
				submitted: [
					{ xtid: expect.any(String) },
					{ xtid: expect.any(String) },
					{ xtid: expect.any(String) },
				],
				rejected: [
					{ error: 'reference is required' },
					{
						error: `payee ${bank.seeded.payees.eur} not found on account ${bank.seeded.accounts.gbp}`,
					},
				],
				rejectedCount: 2,
			});
			// the bank's own record (control API) keeps the detail: same items, same order
			const [recorded] = bank.control.ledger().paymentRequests;
			expect(recorded.submitted.map((s) => [s.index, s.xtid])).toEqual([
				[0, reply.body.submitted[0].xtid],
				[2, reply.body.submitted[1].xtid],
				[4, reply.body.submitted[2].xtid],
			]);
			expect(recorded.rejected.map((r) => r.index)).toEqual([1, 3]);
			// the xtid is enough to find each payment (spec §Errors rule 3)
			expect(
				(await api.get<Transaction>(`/transaction/${reply.body.submitted[0].xtid}`)).status,
			).toBe(200);
			const listed = await api.get<List<Approval>>('/approvals');
			expect(listed.body.results.map((a) => a.xtid)).toEqual([reply.body.submitted[1].xtid]);

			const replay = await call<PaymentResponse>('POST', `${bank.baseUrl}/payments`, {
				token: api.token,
				body,
				headers: { 'x-idempotent-key': key },
			});
			expect(replay.headers['x-idempotent-replayed']).toBe('true');
			expect(JSON.stringify(replay.body)).toBe(JSON.stringify(reply.body));
		});
	});

	describe('approvalList', () => {
		it("'pendingOnly': the lists show pending approvals only; GET /approval/{ref} still answers any", async () => {
			const bank = await open({ approvalList: 'pendingOnly' });
			const [approved, declined, expired, pending] = await approvals(bank, 4);
			await bank.control.approve(approved);
			await bank.control.decline(declined);
			await bank.control.expire(expired);
			const gbp = bank.seeded.accounts.gbp;
			for (const path of [
				'/approvals',
				`/account/${gbp}/approvals`,
				'/approvals?limit=50&page=0',
			]) {
				const list = await api.get<List<Approval>>(path);
				expect(list.status).toBe(200);
				expect(list.body).toMatchObject({
					total: 1,
					results: [{ ref: pending, status: 'pending' }],
				});
			}
			for (const [ref, status] of [
				[approved, 'approved'],
				[declined, 'declined'],
				[expired, 'expired'],
			]) {
				expect(await api.get<Approval>(`/approval/${ref}`)).toMatchObject({
					status: 200,
					body: { ref, status },
				});
			}
		});
	});

	describe('approvalStatusNames', () => {
		it("'other': decided approvals are AUTHORISED, REJECTED, LAPSED; pending stays pending", async () => {
			const bank = await open({ approvalStatusNames: 'other' });
			const [approved, declined, expired, pending] = await approvals(bank, 4);
			await bank.control.approve(approved);
			await bank.control.decline(declined);
			await bank.control.expire(expired);
			const expected = [
				[approved, 'AUTHORISED'],
				[declined, 'REJECTED'],
				[expired, 'LAPSED'],
				[pending, 'pending'],
			];
			for (const [ref, status] of expected) {
				expect(await api.get<Approval>(`/approval/${ref}`)).toMatchObject({
					status: 200,
					body: { ref, status },
				});
			}
			for (const path of ['/approvals', `/account/${bank.seeded.accounts.gbp}/approvals`]) {
				const list = await api.get<List<Approval>>(path);
				expect(list.body.results.map((a) => [a.ref, a.status])).toEqual(expected);
			}
			// the control API keeps the sandbox's own names
			expect(bank.control.ledger().approvals.map((a) => a.status)).toEqual([
				'approved',
				'declined',
				'expired',
				'pending',
			]);
		});
	});

	describe("approvalStatusNames: 'negations'", () => {
		it('decided approvals are APPROVED, DISAPPROVED (declined), NOT_APPROVED (expired); pending stays pending', async () => {
			const bank = await open({ approvalStatusNames: 'negations' });
			const [approved, declined, expired, pending] = await approvals(bank, 4);
			await bank.control.approve(approved);
			await bank.control.decline(declined);
			await bank.control.expire(expired);
			const expected = [
				[approved, 'APPROVED'],
				[declined, 'DISAPPROVED'],
				[expired, 'NOT_APPROVED'],
				[pending, 'pending'],
			];
			for (const [ref, status] of expected) {
				expect(await api.get<Approval>(`/approval/${ref}`)).toMatchObject({
					status: 200,
					body: { ref, status },
				});
			}
			const list = await api.get<List<Approval>>('/approvals');
			expect(list.body.results.map((a) => [a.ref, a.status])).toEqual(expected);
			expect(bank.control.ledger().approvals.map((a) => a.status)).toEqual([
				'approved',
				'declined',
				'expired',
				'pending',
			]);
		});
	});

	describe('heldPaymentRecords', () => {
		it('a held payment has a transaction record PENDING_APPROVAL, then DECLINED or EXPIRED; approved → the sent transaction', async () => {
			const bank = await open({ heldPaymentRecords: true });
			const refs = await approvals(bank, 4);
			const xtids = await Promise.all(
				refs.map(async (ref) => (await api.get<Approval>(`/approval/${ref}`)).body.xtid),
			);
			const statusOf = async (xtid: string) =>
				(await api.get<Transaction>(`/transaction/${xtid}`)).body.status;
			for (const xtid of xtids) expect(await statusOf(xtid)).toBe('PENDING_APPROVAL');
			const gbp = bank.seeded.accounts.gbp;
			const listed = async (path: string) =>
				(await api.get<List<Transaction>>(`${path}?limit=500`)).body.results
					.filter((t) => xtids.includes(t.xtid))
					.map((t) => t.status);
			expect(await listed(`/account/${gbp}/transactions`)).toEqual(
				Array(4).fill('PENDING_APPROVAL'),
			);

			const [approved, declined, expired] = refs;
			await bank.control.approve(approved);
			await bank.control.decline(declined);
			await bank.control.expire(expired);
			expect(await Promise.all(xtids.map(statusOf))).toEqual([
				'sent',
				'DECLINED',
				'EXPIRED',
				'PENDING_APPROVAL',
			]);
			for (const path of ['/transactions', `/account/${gbp}/transactions`]) {
				expect(await listed(path)).toEqual(['sent', 'DECLINED', 'EXPIRED', 'PENDING_APPROVAL']);
			}
			// the approved one settles as any sent payment; nothing moved for the others
			expect((await bank.control.settle(xtids[0])).status).toBe('settled');
			await expect(bank.control.settle(xtids[1])).rejects.toThrow(
				/not an outgoing transaction in flight/,
			);
		});

		it('off (the default, and in spec-minimal mode): no record until the payment is sent', async () => {
			expect(DEFAULT_VARIANTS.heldPaymentRecords).toBe(false);
			expect(SPEC_MINIMAL.heldPaymentRecords).toBe(false);
			const bank = await open({});
			const [ref] = await approvals(bank, 1);
			const { xtid } = (await api.get<Approval>(`/approval/${ref}`)).body;
			expect((await api.get<Transaction>(`/transaction/${xtid}`)).status).toBe(404);
		});
	});

	describe('payeeListEnvelope', () => {
		it("'bareArray': payee lists are the page alone; page and limit still work, other lists keep { total, results }", async () => {
			const bank = await open({ payeeListEnvelope: 'bareArray' });
			const all = await api.get<Payee[]>('/payees');
			expect(all.status).toBe(200);
			expect(Array.isArray(all.body)).toBe(true);
			expect(all.body.map((p) => p.xpid)).toEqual(
				expect.arrayContaining([
					bank.seeded.payees.gbp,
					bank.seeded.payees.eur,
					bank.seeded.payees.usd,
					bank.seeded.payees.cad,
				]),
			);
			expect(all.body).toHaveLength(4);
			const pages = [];
			for (let page = 0; page < 3; page++)
				pages.push((await api.get<Payee[]>(`/payees?limit=3&page=${page}`)).body);
			expect(pages.map((p) => p.length)).toEqual([3, 1, 0]);
			expect(pages.flat().map((p) => p.xpid)).toEqual(all.body.map((p) => p.xpid));

			const gbp = bank.seeded.accounts.gbp;
			const account = await api.get<Payee[]>(`/account/${gbp}/payees`);
			expect(account).toMatchObject({
				status: 200,
				body: [{ xpid: bank.seeded.payees.gbp, xaid: gbp }],
			});
			expect((await api.get<Payee[]>(`/account/${gbp}/payees?page=1`)).body).toEqual([]);
			expect(await api.get('/payees?limit=101')).toMatchObject({
				status: 400,
				body: { message: 'limit must be at most 100' },
			});
			expect((await api.get<List<unknown>>('/accounts')).body).toMatchObject({
				total: 5,
				results: expect.any(Array),
			});
			expect((await api.get<List<unknown>>('/transactions')).body).toMatchObject({
				total: expect.any(Number),
			});
		});
	});

	describe('unknownAccount', () => {
		it('404: an unknown or foreign account is 404 with the same message on every endpoint that takes an xaid', async () => {
			const bank = await open({ unknownAccount: 404 });
			for (const xaid of [randomUUID(), bank.seeded.accounts.otherWorkspace]) {
				const replies = [
					await api.get(`/account/${xaid}`),
					await api.get(`/account/${xaid}/balance`),
					await api.get(`/account/${xaid}/transactions`),
					await api.get(`/account/${xaid}/approvals`),
					await api.get(`/account/${xaid}/payees`),
					await api.post(`/account/${xaid}/payees`, {}),
					await api.put(`/account/${xaid}/payees/${bank.seeded.payees.gbp}`, {}),
					await api.post(`/account/${xaid}/payee`, {}),
					await api.post('/webhooks/subscribe', { ...subscription(bank), xaid }),
				];
				for (const reply of replies) {
					expect(reply).toMatchObject({
						status: 404,
						body: {
							statusCode: 404,
							message: `account ${xaid} does not exist or does not belong to the caller`,
						},
					});
					expect(reply.headers['www-authenticate']).toBeUndefined();
				}
			}
			// payee endpoints type xaid as a string: any unknown one is 404 too
			expect((await api.get('/account/not-an-account/payees')).status).toBe(404);
			// unchanged: a non-UUID xaid where the spec types it UUID, and an unknown account inside a payment
			expect((await api.get('/account/not-a-uuid')).status).toBe(400);
			const payment = await pay(item(bank, { xaid: randomUUID() }));
			expect(payment.body).toMatchObject({ rejectedCount: 1, submitted: [] });
			expect(bank.control.subscriptions()).toEqual([]);
		});

		it('404: token problems stay 401', async () => {
			const bank = await open({ unknownAccount: 404 });
			const gbp = bank.seeded.accounts.gbp;
			const missing = await call('GET', `${bank.baseUrl}/account/${gbp}`);
			expect(missing).toMatchObject({ status: 401, body: { message: 'missing bearer token' } });
			expect(missing.headers['www-authenticate']).toBe('Bearer');
			bank.control.revokeTokens();
			expect(await api.get(`/account/${randomUUID()}`)).toMatchObject({
				status: 401,
				body: { message: 'invalid or revoked token' },
			});
		});
	});

	describe('webhookPayload', () => {
		it("'other': the same facts under other names; header, signature and the delivery record as before", async () => {
			const bank = await open({ webhookPayload: 'other' });
			receiver = await startReceiver();
			await api.post('/webhooks/subscribe', subscription(bank, receiver.url, 'zap-other'));
			const received = await bank.control.receive(bank.seeded.accounts.gbp, 12.5, 'Other payload');
			await bank.control.waitForDeliveries();
			expect(receiver.received).toHaveLength(1);
			const [delivery] = receiver.received;
			const deliveryId = delivery.headers['x-cb-delivery-id'];
			expect(JSON.parse(delivery.rawBody)).toEqual({
				id: deliveryId,
				type: 'TransactionReceived',
				accountId: bank.seeded.accounts.gbp,
				transactionId: received.xtid,
				createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
				subscription: 'zap-other',
			});
			const timestamp = String(delivery.headers['x-cb-timestamp']);
			expect(delivery.headers['x-cb-signature']).toBe(
				sign(bank.signingSecret, timestamp, delivery.rawBody),
			);
			expect(bank.control.deliveries()).toMatchObject([
				{
					deliveryId,
					event: 'TransactionReceived',
					xaid: bank.seeded.accounts.gbp,
					xtid: received.xtid,
					zapId: 'zap-other',
					status: 'delivered',
					body: delivery.rawBody,
				},
			]);
		});
	});

	describe('listOrder', () => {
		it("newestFirst: transactions and approvals lists serve the newest first, the same records as oldestFirst's reversed", async () => {
			const bank = await open({ listOrder: 'newestFirst' });
			await approvals(bank, 2);
			const gbp = bank.seeded.accounts.gbp;
			const ledger = bank.control.ledger();
			const ids = (list: Array<{ xtid?: string }>) => list.map((record) => record.xtid);
			const refsOf = (list: Array<{ ref?: string }>) => list.map((record) => record.ref);
			const oldestFirst = ledger.transactions.filter((t) => t.xaid === gbp).map((t) => t.xtid);
			const served = (await api.get<List<Transaction>>(`/account/${gbp}/transactions?limit=500`))
				.body.results;
			expect(ids(served)).toEqual([...oldestFirst].reverse());
			const everyTransaction = (await api.get<List<Transaction>>('/transactions?limit=500')).body
				.results;
			expect(ids(everyTransaction)).toEqual(ledger.transactions.map((t) => t.xtid).reverse());
			const refs = ledger.approvals.map((a) => a.ref);
			expect(refs.length).toBe(2);
			const listed = (await api.get<List<Approval>>(`/account/${gbp}/approvals`)).body.results;
			expect(refsOf(listed)).toEqual([...refs].reverse());
			const page1 = (await api.get<List<Approval>>('/approvals?limit=1&page=1')).body.results;
			expect(refsOf(page1)).toEqual([refs[0]]);
		});
	});

	describe('createdTimes', () => {
		it('false: transactions carry no created/updated, approvals no meta.created, on every endpoint', async () => {
			const bank = await open({ createdTimes: false });
			const reply = await pay([item(bank), item(bank, { amount: 1500 })]);
			const [sent, held] = reply.body.submitted;
			const gbp = bank.seeded.accounts.gbp;

			const transactions = [
				...(await api.get<List<Transaction>>('/transactions?limit=500')).body.results,
				...(await api.get<List<Transaction>>(`/account/${gbp}/transactions`)).body.results,
				(await api.get<Transaction>(`/transaction/${sent.xtid}`)).body,
			];
			expect(transactions.length).toBeGreaterThan(3);
			for (const transaction of transactions) {
				expect(transaction).not.toHaveProperty('created');
				expect(transaction).not.toHaveProperty('updated');
				expect(transaction).toMatchObject({
					xtid: expect.any(String),
					status: expect.any(String),
					amount: expect.any(Number),
				});
			}

			const approvalViews = [
				...(await api.get<List<Approval>>('/approvals')).body.results,
				...(await api.get<List<Approval>>(`/account/${gbp}/approvals`)).body.results,
				(await api.get<Approval>(`/approval/${held.approvalRef}`)).body,
			];
			expect(approvalViews).toHaveLength(3);
			for (const approval of approvalViews) {
				expect(approval.meta).not.toHaveProperty('created');
				expect(approval).toMatchObject({
					xtid: held.xtid,
					meta: { expiresAt: expect.any(String), policyId: 'policy-api-1000' },
				});
			}
			// the control API keeps the full records
			expect(bank.control.ledger().transactions[0]).toHaveProperty('created');
		});
	});

	describe('keyInUse: a repeat of a key still being processed', () => {
		it("'conflict' answers 409 while the first request runs, then the original answer", async () => {
			const bank = await open({ keyInUse: 'conflict' });
			bank.control.setFaults([
				{ method: 'POST', path: '/payments', kind: 'latency', latencyMs: 400, times: 1 },
			]);
			const key = randomUUID();
			const first = pay(item(bank, { reference: 'KEY-IN-USE-1' }), key);
			await new Promise((resolve) => setTimeout(resolve, 100));
			const twin = await pay(item(bank, { reference: 'KEY-IN-USE-1' }), key);
			expect(twin.status).toBe(409);
			expect(twin.body.message).toMatch(/in use/);
			const original = await first;
			expect(original.status).toBe(202);
			const later = await pay(item(bank, { reference: 'KEY-IN-USE-1' }), key);
			expect(later.body.requestId).toBe(original.body.requestId);
			expect(
				bank.control.ledger().transactions.filter((t) => t.reference === 'KEY-IN-USE-1'),
			).toHaveLength(1);
		});

		it("'wait' (default) answers the twin with the original answer", async () => {
			const bank = await open({});
			bank.control.setFaults([
				{ method: 'POST', path: '/payments', kind: 'latency', latencyMs: 300, times: 1 },
			]);
			const key = randomUUID();
			const first = pay(item(bank, { reference: 'KEY-IN-USE-2' }), key);
			await new Promise((resolve) => setTimeout(resolve, 100));
			const twin = await pay(item(bank, { reference: 'KEY-IN-USE-2' }), key);
			expect(twin.status).toBe(202);
			expect(twin.body.requestId).toBe((await first).body.requestId);
		});
	});

	describe('newPaymentVisibilityMs: new payments are seen by reads only after a lag', () => {
		it('hides the transaction and the approval of a new payment until the lag has passed', async () => {
			const bank = await open({ newPaymentVisibilityMs: 60_000 });
			const gbp = bank.seeded.accounts.gbp;
			const sent = await pay(item(bank, { reference: 'LAGGING-SENT' }));
			const [ref] = await approvals(bank, 1);
			const { xtid } = sent.body.submitted[0];
			expect((await api.get(`/transaction/${xtid}`)).status).toBe(404);
			expect(
				(
					await api.get<List<Transaction>>(`/account/${gbp}/transactions?limit=500`)
				).body.results.map((t) => t.xtid),
			).not.toContain(xtid);
			expect((await api.get(`/approval/${ref}`)).status).toBe(404);
			expect((await api.get<List<Approval>>(`/account/${gbp}/approvals`)).body.results).toEqual([]);
			// the opening balance and the seeded history stay visible
			expect(
				(await api.get<List<Transaction>>(`/account/${gbp}/transactions`)).body.total,
			).toBeGreaterThan(0);
			await bank.control.advanceClock(60_000);
			expect((await api.get(`/transaction/${xtid}`)).status).toBe(200);
			expect((await api.get<Approval>(`/approval/${ref}`)).body.ref).toBe(ref);
		});
	});

	it("answers every API request with a Date header on the bank's own clock", async () => {
		const bank = await open({}, { now: new Date('2030-01-02T03:04:05Z') });
		const reply = await api.get(`/account/${bank.seeded.accounts.gbp}/balance`);
		const bankTime = Date.parse(String(reply.headers.date));
		expect(bankTime).toBeGreaterThanOrEqual(Date.parse('2030-01-02T03:04:05Z'));
		expect(bankTime).toBeLessThan(Date.parse('2030-01-02T03:05:05Z'));
	});

	describe('payment answers: positions, echoes, state words, order, and answers that do not add up', () => {
		const batch = (bank: Sandbox) => [
			item(bank, { amount: 10, reference: 'SHAPE-0001' }),
			item(bank, { reference: undefined }),
			item(bank, { amount: 1500, reference: 'SHAPE-0003' }),
		];

		it("answerPositions 'oneBased' and 'absent', answerEchoes false", async () => {
			await open({ answerPositions: 'oneBased' });
			const oneBased = (await pay(batch(sandbox as Sandbox))).body;
			expect(oneBased.submitted.map((s) => s.index)).toEqual([1, 3]);
			expect(oneBased.rejected.map((r) => r.index)).toEqual([2]);
			await sandbox?.close();
			await open({ answerPositions: 'absent', answerEchoes: false });
			const bare = (await pay(batch(sandbox as Sandbox))).body;
			expect(bare.submitted[0]).toEqual({ xtid: expect.any(String), status: 'submitted' });
			expect(bare.submitted[1]).toEqual({
				xtid: expect.any(String),
				status: 'pending_approval',
				approvalRef: expect.any(String),
			});
			expect(bare.rejected).toEqual([{ error: 'reference is required' }]);
		});

		it("answerStatus 'specWord': every accepted entry says submitted, none names its approval; the ledger holds the approval", async () => {
			const bank = await open({ answerStatus: 'specWord' });
			const reply = (await pay(batch(bank))).body;
			expect(reply.submitted.map((s) => [s.status, s.approvalRef])).toEqual([
				['submitted', undefined],
				['submitted', undefined],
			]);
			expect(bank.control.ledger().approvals.map((a) => a.xtid)).toContain(reply.submitted[1].xtid);
		});

		it("answerOrder 'shuffled': the same entries, in another order for some request", async () => {
			const bank = await open({ answerOrder: 'shuffled' });
			const body = Array.from({ length: 8 }, (_, i) => item(bank, { amount: 10 + i }));
			const orders = [];
			for (let i = 0; i < 3; i++)
				orders.push((await pay(body)).body.submitted.map((s) => s.index).join(','));
			expect(orders.some((order) => order !== '0,1,2,3,4,5,6,7')).toBe(true);
			for (const order of orders)
				expect(order.split(',').map(Number).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
		});

		it.each<[VariantsOption, (reply: PaymentResponse) => void]>([
			[
				{ answerOddity: 'alsoRejected' },
				(reply) => {
					expect(reply.rejected.map((r) => r.index)).toEqual([1, 0, 2]);
					expect(reply.rejected[1].error).toBe('temporarily unavailable, try again');
					expect(reply.rejectedCount).toBe(3);
				},
			],
			[
				{ answerOddity: 'extraAccepted' },
				(reply) => {
					expect(reply.submitted.map((s) => s.index)).toEqual([0, 2, 0, 2]);
					expect(new Set(reply.submitted.map((s) => s.xtid)).size).toBe(4);
				},
			],
			[
				{ answerOddity: 'repeatedXtid' },
				(reply) => expect(reply.submitted[1].xtid).toBe(reply.submitted[0].xtid),
			],
			[{ answerOddity: 'wrongRejectedCount' }, (reply) => expect(reply.rejectedCount).toBe(2)],
		])('%p: the answer does not add up; the ledger is as usual', async (variants, check) => {
			const bank = await open(variants);
			check((await pay(batch(bank))).body);
			const [recorded] = bank.control.ledger().paymentRequests;
			expect(recorded.submitted).toHaveLength(2);
			expect(recorded.rejected).toHaveLength(1);
		});
	});

	describe('status words, record times, the Date header, reads by ID', () => {
		it("transactionStatusWords and approvalStatusWords: the bank's own words for each status", async () => {
			const bank = await open({
				transactionStatusWords: { sent: 'NEW' },
				approvalStatusWords: { pending: 'PARTIALLY_APPROVED' },
			});
			const reply = (await pay([item(bank), item(bank, { amount: 1500 })])).body;
			const [sent, held] = reply.submitted;
			expect((await api.get<Transaction>(`/transaction/${sent.xtid}`)).body.status).toBe('NEW');
			expect((await api.get<Approval>(`/approval/${held.approvalRef}`)).body.status).toBe(
				'PARTIALLY_APPROVED',
			);
			expect(bank.control.ledger().approvals[0].status).toBe('pending');
		});

		it("recordTimes 'zoneless': times as the spec writes them, in the bank's own zone", async () => {
			const bank = await open(
				{ recordTimes: 'zoneless', bankUtcOffsetMinutes: 60 },
				{ now: new Date('2030-01-02T03:04:05Z') },
			);
			const { xtid } = (await pay(item(bank))).body.submitted[0];
			const created = String((await api.get<Transaction>(`/transaction/${xtid}`)).body.created);
			expect(created).toMatch(/^2030-01-02 04:0\d:\d\d$/);
		});

		it("dateHeaderSkewMs: a gateway's clock, or no Date at all", async () => {
			const bank = await open(
				{ dateHeaderSkewMs: -600_000 },
				{ now: new Date('2030-01-02T03:04:05Z') },
			);
			const slow = await api.get(`/account/${bank.seeded.accounts.gbp}/balance`);
			expect(Date.parse(String(slow.headers.date))).toBeLessThan(
				Date.parse('2030-01-02T02:55:05Z'),
			);
			await bank.close();
			const none = await open({ dateHeaderSkewMs: null });
			const reply = await api.get(`/account/${none.seeded.accounts.gbp}/balance`);
			expect(reply.headers.date).toBeUndefined();
		});

		it("transactionById 'anyRecord': an xtid the bank does not show is answered with another payment's record", async () => {
			await open({ transactionById: 'anyRecord' });
			const xtid = randomUUID();
			const reply = await api.get<Transaction>(`/transaction/${xtid}`);
			expect(reply.status).toBe(200);
			expect(reply.body.xtid).not.toBe(xtid);
			expect(reply.body.direction).toBe('outgoing');
		});

		it('control fail: a sent payment that fails releases its reservation', async () => {
			const bank = await open({});
			const { xtid } = (await pay(item(bank, { amount: 40 }))).body.submitted[0];
			const before = (
				await api.get<{ availableBalance: number }>(`/account/${bank.seeded.accounts.gbp}/balance`)
			).body;
			await bank.control.fail(xtid);
			expect((await api.get<Transaction>(`/transaction/${xtid}`)).body.status).toBe('failed');
			const after = (
				await api.get<{ availableBalance: number }>(`/account/${bank.seeded.accounts.gbp}/balance`)
			).body;
			expect(after.availableBalance).toBe(before.availableBalance + 40);
			await expect(bank.control.fail(xtid)).rejects.toThrow(
				/not an outgoing transaction in flight/,
			);
		});
	});

	describe('spec-minimal mode', () => {
		it('answers only what the spec promises, and the spec-following flow still works end to end', async () => {
			const bank = await open('specMinimal');
			expect(bank.variants).toEqual(SPEC_MINIMAL);
			const gbp = bank.seeded.accounts.gbp;

			// payments: xtids only; the approval is found by matching xtid (spec §Endpoints §Approvals)
			const reply = await pay([
				item(bank, { amount: 20 }),
				item(bank, { amount: 1500 }),
				item(bank, { amount: 0 }),
			]);
			expect(reply.body).toEqual({
				requestId: expect.any(String),
				submitted: [{ xtid: expect.any(String) }, { xtid: expect.any(String) }],
				rejected: [{ error: 'amount must be greater than 0' }],
				rejectedCount: 1,
			});
			const [sent, held] = reply.body.submitted;
			const pending = await api.get<List<Approval>>('/approvals?limit=50');
			expect(pending.body.results).toEqual([
				expect.objectContaining({
					xtid: held.xtid,
					status: 'pending',
					meta: expect.not.objectContaining({ created: expect.anything() }),
				}),
			]);
			const { ref } = pending.body.results[0];
			await bank.control.approve(ref);
			expect((await api.get<List<Approval>>('/approvals')).body).toEqual({ total: 0, results: [] });
			expect((await api.get<Approval>(`/approval/${ref}`)).body.status).toBe('AUTHORISED');
			for (const xtid of [sent.xtid, held.xtid]) {
				const transaction = await api.get<Transaction>(`/transaction/${xtid}`);
				expect(transaction.status).toBe(200);
				expect(transaction.body).not.toHaveProperty('created');
			}

			// payees: a bare array; unknown accounts: 404
			expect((await api.get<Payee[]>(`/account/${gbp}/payees`)).body).toMatchObject([
				{ xpid: bank.seeded.payees.gbp },
			]);
			expect((await api.get(`/account/${randomUUID()}/balance`)).status).toBe(404);

			// webhooks: refused re-subscribe, the other payload, 204 on unsubscribe
			receiver = await startReceiver();
			expect((await api.post('/webhooks/subscribe', subscription(bank, receiver.url))).status).toBe(
				201,
			);
			expect((await api.post('/webhooks/subscribe', subscription(bank, receiver.url))).status).toBe(
				409,
			);
			const received = await bank.control.receive(gbp, 5);
			await bank.control.waitForDeliveries();
			expect(receiver.received.map((d) => JSON.parse(d.rawBody))).toMatchObject([
				{
					type: 'TransactionReceived',
					accountId: gbp,
					transactionId: received.xtid,
					subscription: 'zap-1',
				},
			]);
			expect(await api.delete('/webhooks/unsubscribe', { zapId: 'zap-1' })).toMatchObject({
				status: 204,
				body: '',
			});

			// no credential echoes
			const refused = await requestToken(bank, bank.clients.full, {
				client_secret: 'wrong-secret',
			});
			expect(refused.body.message).not.toContain('wrong-secret');
		});
	});
});

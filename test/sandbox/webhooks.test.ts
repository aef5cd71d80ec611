import { createHmac } from 'node:crypto';

import { type Sandbox, startSandbox } from './index';
import { type Api, apiAs, type ErrorBody, type Receiver, startReceiver } from './testing';

interface SubscriptionBody {
	ref: string;
	zapId: string;
	xaid: string;
	event: string;
	url: string;
	created: string;
}

const sign = (secret: string, timestamp: string, body: string) =>
	`v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

describe('sandbox webhooks (spec §Webhook subscriptions, §Events, DECISIONS.md §Webhooks)', () => {
	let sandbox: Sandbox;
	let api: Api;
	let receiver: Receiver | undefined;

	beforeEach(async () => {
		sandbox = await startSandbox({
			port: 0,
			deliveryBackoffMs: [10, 20, 40],
			deliveryTimeoutMs: 100,
		});
		api = await apiAs(sandbox);
	});
	afterEach(async () => {
		await sandbox.close();
		await receiver?.close();
		receiver = undefined;
	});

	const subscribe = (body: Record<string, unknown>) =>
		api.post<SubscriptionBody & ErrorBody>('/webhooks/subscribe', body);
	const watch = (
		url: string,
		event = 'TransactionReceived',
		xaid = sandbox.seeded.accounts.gbp,
		zapId = `zap-${event}-${xaid}`,
	) => subscribe({ zapId, xaid, url, event });

	it('subscribes with 201 and replaces an existing zapId in place', async () => {
		const first = await watch(
			'https://hooks.example.com/a',
			'TransactionReceived',
			sandbox.seeded.accounts.gbp,
			'zap-1',
		);
		expect(first.status).toBe(201);
		expect(first.body).toEqual({
			ref: expect.any(String),
			zapId: 'zap-1',
			xaid: sandbox.seeded.accounts.gbp,
			event: 'TransactionReceived',
			url: 'https://hooks.example.com/a',
			created: expect.any(String),
		});
		const again = await watch(
			'https://hooks.example.com/b',
			'TransactionConfirmed',
			sandbox.seeded.accounts.gbp,
			'zap-1',
		);
		expect(again.status).toBe(201);
		expect(again.body).toMatchObject({
			ref: first.body.ref,
			url: 'https://hooks.example.com/b',
			event: 'TransactionConfirmed',
		});
		expect(sandbox.control.subscriptions()).toEqual([
			{ ...again.body, workspaceId: 'workspace-1' },
		]);
	});

	it('validates the subscription body with 400 naming the field, and the account with 401', async () => {
		const good = {
			zapId: 'z',
			xaid: sandbox.seeded.accounts.gbp,
			url: 'https://hooks.example.com',
			event: 'TransactionReceived',
		};
		const cases: Array<[Record<string, unknown>, string]> = [
			[{ ...good, zapId: undefined }, 'zapId is required'],
			[
				{ ...good, event: 'PaymentApproved' },
				'event must be one of TransactionConfirmed, TransactionReceived',
			],
			[
				{ ...good, url: 'http://hooks.example.com' },
				'url must be an https URL (http allowed for loopback hosts only)',
			],
			[
				{ ...good, url: 'not a url' },
				'url must be an https URL (http allowed for loopback hosts only)',
			],
			[{ ...good, xaid: 5 }, 'xaid must be a string'],
		];
		for (const [body, message] of cases)
			expect(await subscribe(body)).toMatchObject({ status: 400, body: { message } });
		expect(
			(await subscribe({ ...good, xaid: sandbox.seeded.accounts.otherWorkspace })).status,
		).toBe(401);
		expect(sandbox.control.subscriptions()).toEqual([]);
	});

	it('unsubscribes by zapId; 404 when unknown', async () => {
		const created = await watch(
			'https://hooks.example.com/a',
			'TransactionReceived',
			sandbox.seeded.accounts.gbp,
			'zap-x',
		);
		const deleted = await api.delete('/webhooks/unsubscribe', { zapId: 'zap-x' });
		expect(deleted).toMatchObject({
			status: 200,
			body: { zapId: 'zap-x', ref: created.body.ref, deleted: true },
		});
		expect((await api.delete('/webhooks/unsubscribe', { zapId: 'zap-x' })).status).toBe(404);
		expect((await api.delete('/webhooks/unsubscribe', {})).status).toBe(400);
		expect(sandbox.control.subscriptions()).toEqual([]);
	});

	it('delivers a signed TransactionReceived to subscribers of that account and event only', async () => {
		receiver = await startReceiver();
		await watch(receiver.url, 'TransactionReceived');
		await watch(receiver.url, 'TransactionConfirmed');
		await watch(receiver.url, 'TransactionReceived', sandbox.seeded.accounts.eur);
		const received = await sandbox.control.receive(sandbox.seeded.accounts.gbp, 10);
		await sandbox.control.waitForDeliveries();
		expect(receiver.received).toHaveLength(1);
		const [delivery] = receiver.received;
		const payload = JSON.parse(delivery.rawBody);
		expect(payload).toEqual({
			deliveryId: delivery.headers['x-cb-delivery-id'],
			event: 'TransactionReceived',
			xaid: sandbox.seeded.accounts.gbp,
			xtid: received.xtid,
			zapId: `zap-TransactionReceived-${sandbox.seeded.accounts.gbp}`,
			occurredAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
		});
		const timestamp = String(delivery.headers['x-cb-timestamp']);
		expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(5);
		expect(delivery.headers['x-cb-signature']).toBe(
			sign(sandbox.signingSecret, timestamp, delivery.rawBody),
		);
		expect(delivery.headers['content-type']).toBe('application/json');
		expect(sandbox.control.deliveries()).toMatchObject([
			{ status: 'delivered', attempts: [{ attempt: 1, statusCode: 200 }] },
		]);
	});

	it('delivers TransactionConfirmed when an outgoing transaction settles', async () => {
		receiver = await startReceiver();
		await watch(receiver.url, 'TransactionConfirmed');
		const payment = await api.post<{ submitted: Array<{ xtid: string }> }>(
			'/payments',
			{
				xaid: sandbox.seeded.accounts.gbp,
				xpid: sandbox.seeded.payees.gbp,
				amount: 5,
				reference: 'SETTLE-0001',
			},
			{ 'x-idempotent-key': '1f0e7c8a-4b1d-4e2f-9a3b-5c6d7e8f9a0b' },
		);
		await sandbox.control.waitForDeliveries();
		expect(receiver.received).toHaveLength(0);
		await sandbox.control.settle(payment.body.submitted[0].xtid);
		await sandbox.control.waitForDeliveries();
		expect(receiver.received.map((d) => JSON.parse(d.rawBody))).toMatchObject([
			{ event: 'TransactionConfirmed', xtid: payment.body.submitted[0].xtid },
		]);
	});

	it('retries a non-2xx answer with backoff, keeping the deliveryId and body', async () => {
		receiver = await startReceiver((n) => (n < 2 ? 500 : 204));
		await watch(receiver.url);
		await sandbox.control.receive(sandbox.seeded.accounts.gbp, 1);
		await sandbox.control.waitForDeliveries();
		expect(receiver.received).toHaveLength(3);
		expect(new Set(receiver.received.map((d) => d.headers['x-cb-delivery-id'])).size).toBe(1);
		expect(new Set(receiver.received.map((d) => d.rawBody)).size).toBe(1);
		const [record] = sandbox.control.deliveries();
		expect(record.status).toBe('delivered');
		expect(record.attempts.map((a) => a.statusCode)).toEqual([500, 500, 204]);
		const gaps = record.attempts
			.slice(1)
			.map((a, i) => Date.parse(a.at) - Date.parse(record.attempts[i].at));
		expect(gaps[0]).toBeGreaterThanOrEqual(10);
		expect(gaps[1]).toBeGreaterThanOrEqual(20);
	});

	it('records timeouts and the final failure after the last attempt', async () => {
		receiver = await startReceiver(() => 'hang');
		await watch(receiver.url);
		await sandbox.control.receive(sandbox.seeded.accounts.gbp, 1);
		await sandbox.control.waitForDeliveries();
		const [record] = sandbox.control.deliveries();
		expect(record.status).toBe('failed');
		expect(record.attempts).toHaveLength(4);
		for (const attempt of record.attempts) {
			expect(attempt.statusCode).toBeUndefined();
			expect(attempt.error).toMatch(/abort|timeout/i);
		}
	});

	it('records deliveries to an unreachable url as failures (spec §Events rule 4)', async () => {
		const closed = await startReceiver();
		await closed.close();
		await watch(closed.url);
		await sandbox.control.receive(sandbox.seeded.accounts.gbp, 1);
		await sandbox.control.waitForDeliveries();
		const [record] = sandbox.control.deliveries();
		expect(record.status).toBe('failed');
		expect(record.attempts.every((a) => a.error !== undefined)).toBe(true);
	});

	it('signs with both secrets while one is being rotated, current first', async () => {
		receiver = await startReceiver();
		await watch(receiver.url);
		const before = sandbox.signingSecret;
		const rotated = sandbox.control.rotateSigningSecret();
		expect(rotated.previous).toBe(before);
		expect(sandbox.signingSecret).toBe(rotated.current);
		await sandbox.control.receive(sandbox.seeded.accounts.gbp, 1);
		await sandbox.control.waitForDeliveries();
		const [delivery] = receiver.received;
		const timestamp = String(delivery.headers['x-cb-timestamp']);
		expect(delivery.headers['x-cb-signature']).toBe(
			`${sign(rotated.current, timestamp, delivery.rawBody)},${sign(rotated.previous, timestamp, delivery.rawBody)}`,
		);
		await sandbox.control.advanceClock(24 * 60 * 60 * 1000);
		await sandbox.control.receive(sandbox.seeded.accounts.gbp, 1);
		await sandbox.control.waitForDeliveries();
		const later = receiver.received[1];
		expect(later.headers['x-cb-signature']).toBe(
			sign(rotated.current, String(later.headers['x-cb-timestamp']), later.rawBody),
		);
	});

	it('keeps workspaces apart: events of one never reach the other', async () => {
		receiver = await startReceiver();
		await watch(receiver.url);
		await sandbox.control.receive(sandbox.seeded.accounts.otherWorkspace, 1);
		await sandbox.control.waitForDeliveries();
		expect(receiver.received).toHaveLength(0);
		expect(sandbox.signingSecrets.otherWorkspace).not.toBe(sandbox.signingSecrets.main);
	});
});

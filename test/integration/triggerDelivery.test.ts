/**
 * Customer Banking Trigger: the sandbox's signed deliveries, captured byte for byte by a local node:http
 * receiver, fed to webhook() with their exact raw body and headers.
 */
import { createHmac, randomUUID } from 'node:crypto';

import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { ENDPOINTS, request } from '../../nodes/shared/transport';
import { REFUSAL_LOG_INTERVAL_MS } from '../../nodes/CustomerBankingTrigger/refusalLog';
import {
	REREAD_INTERVAL_MS,
	SECRET_REUSE_MS,
} from '../../nodes/CustomerBankingTrigger/signingSecrets';
import { credentialsFor } from '../helpers/sandboxCredentials';
import { startSandbox } from '../sandbox';
import type { Sandbox } from '../sandbox';
import {
	deliveryFacts,
	hookContext,
	hooks,
	newStaticData,
	payloadFieldNames,
	reportedRefusals,
	startReceiver,
	trigger,
	webhookContext,
	withPayloadFields,
} from './triggerFixtures';
import type { CapturedDelivery, Receiver, TriggerParameters } from './triggerFixtures';

const BOTH = ['transactionReceived', 'transactionConfirmed'];

let sandbox: Sandbox;
let receiver: Receiver;
let parameters: TriggerParameters;
let gbp: string;

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 11, deliveryBackoffMs: [50, 50], deliveryTimeoutMs: 2000 });
	receiver = await startReceiver();
	gbp = sandbox.seeded.accounts.gbp;
	// the bank's delivery field names (spec §Events rule 3: not shown), set as a user would
	parameters = withPayloadFields(sandbox.variants, { accounts: [gbp], events: BOTH });
	const { context } = hookContext(credentialsFor(sandbox), parameters, {
		webhookUrl: `${receiver.url}/webhook/webhook-1/webhook`,
	});
	await hooks.create.call(context);
});

afterAll(async () => {
	await sandbox.close();
	await receiver.close();
});

beforeEach(() => {
	receiver.answer = async () => ({ status: 200 });
	sandbox.control.clearFaults();
});

/** The delivery body's facts, read with the field names of the bank's mode. */
function payloadOf(delivery: CapturedDelivery) {
	return deliveryFacts(sandbox.variants, delivery);
}

/** Runs `action`, waits for the sandbox to finish delivering, returns what the receiver got meanwhile. */
async function deliveriesDuring(action: () => Promise<unknown>): Promise<CapturedDelivery[]> {
	const before = receiver.captured.length;
	await action();
	await sandbox.control.waitForDeliveries();
	return receiver.captured.slice(before);
}

async function receiveMoney(amount = 12.34, reference = 'Invoice 1001') {
	let transaction: IDataObject = {};
	const [delivery] = await deliveriesDuring(async () => {
		transaction = await sandbox.control.receive(gbp, amount, reference);
	});
	return { delivery, transaction };
}

/** An outgoing payment through the API, then settled by the sandbox: the TransactionConfirmed delivery. */
async function settlePayment() {
	const { context } = hookContext(credentialsFor(sandbox), parameters);
	const response = await request.call(context, ENDPOINTS.payments.at({}), {
		body: [{ xaid: gbp, xpid: sandbox.seeded.payees.gbp, amount: 25, reference: 'TRIGGERTEST1' }],
		idempotencyKey: randomUUID(),
	});
	const xtid = ((response.submitted as IDataObject[])[0] as IDataObject).xtid as string;
	const [delivery] = await deliveriesDuring(async () => await sandbox.control.settle(xtid));
	return { delivery, xtid };
}

function credentialsWith(secrets: {
	current: string;
	previous?: string;
}): ICredentialDataDecryptedObject {
	return {
		...credentialsFor(sandbox),
		webhookSigningSecret: secrets.current,
		webhookSigningSecretPrevious: secrets.previous ?? '',
	};
}

function apiRequestsOf(requests: Array<{ method: string; url: string }>) {
	return requests.filter((request) => !request.url.includes('/oauth/token'));
}

describe('verified deliveries', () => {
	it("receive money → the bank's TransactionReceived, the item's transactionReceived, with the full current transaction", async () => {
		const { delivery, transaction } = await receiveMoney(12.34, 'Invoice 1001');
		const payload = payloadOf(delivery);
		expect(payload).toMatchObject({
			event: 'TransactionReceived',
			account: gbp,
			transaction: transaction.xtid,
		});
		expect(payload.deliveryId).toBe(delivery.headers['x-cb-delivery-id']);
		expect(payload.occurredAt).toEqual(expect.any(String));
		expect(delivery.headers['x-cb-signature']).toMatch(/^v1=[0-9a-f]{64}$/);

		const { context, response, requests } = webhookContext(
			credentialsFor(sandbox),
			parameters,
			delivery,
		);
		const result = await trigger.webhook.call(context);

		expect(result.workflowData).toHaveLength(1);
		expect(result.workflowData?.[0]).toEqual([
			{
				json: {
					event: 'transactionReceived',
					accountId: gbp,
					transactionId: transaction.xtid,
					deliveryId: delivery.headers['x-cb-delivery-id'],
					occurredAt: payload.occurredAt,
					transaction: expect.objectContaining({
						transactionId: transaction.xtid,
						accountId: gbp,
						direction: 'incoming',
						status: 'settled',
						amount: 12.34,
						reference: 'Invoice 1001',
					}),
				},
			},
		]);
		expect(response.statusCode).toBe(200);
		expect(apiRequestsOf(requests).map((r) => `${r.method} ${r.url}`)).toEqual([
			`GET ${sandbox.baseUrl}/transaction/${transaction.xtid as string}`,
		]);
	});

	it("settle → the bank's TransactionConfirmed, the item's transactionConfirmed, with the transaction as it is now (settled)", async () => {
		const { delivery, xtid } = await settlePayment();
		expect(payloadOf(delivery)).toMatchObject({
			event: 'TransactionConfirmed',
			account: gbp,
			transaction: xtid,
		});

		const { context } = webhookContext(credentialsFor(sandbox), parameters, delivery);
		const result = await trigger.webhook.call(context);

		const json = result.workflowData?.[0][0].json;
		expect(json).toMatchObject({
			event: 'transactionConfirmed',
			accountId: gbp,
			transactionId: xtid,
		});
		expect(json?.transaction).toMatchObject({
			transactionId: xtid,
			direction: 'outgoing',
			status: 'settled',
			amount: 25,
		});
	});

	it('without Fetch Full Transaction emits the signal alone and calls no API', async () => {
		const { delivery, transaction } = await receiveMoney();
		const { context, requests } = webhookContext(
			credentialsFor(sandbox),
			{ ...parameters, fetchTransaction: false },
			delivery,
		);
		const result = await trigger.webhook.call(context);

		expect(result.workflowData?.[0][0].json).toEqual({
			event: 'transactionReceived',
			accountId: gbp,
			transactionId: transaction.xtid,
			deliveryId: delivery.headers['x-cb-delivery-id'],
			occurredAt: payloadOf(delivery).occurredAt,
		});
		expect(requests).toEqual([]);
	});

	it("a fetch failure is an execution error (NodeApiError), and the delivery is given back for the bank's retry", async () => {
		const { delivery } = await receiveMoney();
		const staticData = newStaticData();
		sandbox.control.setFaults([
			{ method: 'GET', path: /^\/transaction\//, kind: 'status', status: 404, times: 1 },
		]);

		const failing = webhookContext(credentialsFor(sandbox), parameters, delivery, { staticData });
		await expect(trigger.webhook.call(failing.context)).rejects.toBeInstanceOf(NodeApiError);

		// The bank retries (same delivery id): now it goes through.
		const retried = webhookContext(credentialsFor(sandbox), parameters, delivery, { staticData });
		expect((await trigger.webhook.call(retried.context)).workflowData).toHaveLength(1);
	});

	it('verifies the raw bytes received, not the parsed and re-serialised body', async () => {
		const { transaction } = await receiveMoney(8.88, 'Raw bytes');
		// Spacing a sender may use: n8n's parsed body, serialised again, would not be these bytes.
		const names = payloadFieldNames(sandbox.variants);
		const raw = Buffer.from(
			`{ "${names.deliveryId}": "${randomUUID()}", "${names.event}": "TransactionReceived", "${names.account}": "${gbp}", "${names.transaction}": "${transaction.xtid as string}", "${names.occurredAt}": "2026-11-21T10:00:00.000Z" }`,
		);
		expect(Buffer.from(JSON.stringify(JSON.parse(raw.toString()))).equals(raw)).toBe(false);
		const timestamp = String(Math.floor(Date.now() / 1000));
		const signature = createHmac('sha256', sandbox.signingSecret)
			.update(`${timestamp}.`)
			.update(raw)
			.digest('hex');
		const delivery: CapturedDelivery = {
			path: '/webhook',
			rawBody: raw,
			headers: { 'x-cb-timestamp': timestamp, 'x-cb-signature': `v1=${signature}` },
		};

		const { context } = webhookContext(credentialsFor(sandbox), parameters, delivery);
		const result = await trigger.webhook.call(context);
		expect(result.workflowData?.[0][0].json).toMatchObject({
			transactionId: transaction.xtid,
			occurredAt: '2026-11-21T10:00:00.000Z',
		});
	});

	it('a delivery for an event this trigger does not watch is acknowledged, not emitted', async () => {
		const { delivery } = await settlePayment();
		const { context, requests } = webhookContext(
			credentialsFor(sandbox),
			{ ...parameters, events: ['transactionReceived'] },
			delivery,
		);
		const result = await trigger.webhook.call(context);
		expect(result.workflowData).toBeUndefined();
		expect(result.webhookResponse).toMatchObject({ received: true, emitted: false });
		expect(requests).toEqual([]);
	});
});

describe('refused deliveries: nothing emitted, nothing fetched, the first one reported', () => {
	let delivery: CapturedDelivery;

	beforeAll(async () => {
		({ delivery } = await receiveMoney(7.5, 'Refusals'));
	});

	function withoutHeader(name: string): CapturedDelivery {
		const headers = { ...delivery.headers };
		delete headers[name];
		return { ...delivery, headers };
	}

	function tampered(): CapturedDelivery {
		const payload = payloadOf(delivery);
		const body = delivery.rawBody
			.toString('utf8')
			.replace(payload.transaction as string, randomUUID());
		expect(body).not.toBe(delivery.rawBody.toString('utf8'));
		return { ...delivery, rawBody: Buffer.from(body) };
	}

	// a node of its own by default: refusals are logged in summary per node (refusalLog.ts)
	async function expectRefused(
		input: CapturedDelivery,
		credentials = credentialsFor(sandbox),
		nodeId = `refusals-${randomUUID()}`,
	) {
		const { context, response, requests, logs } = webhookContext(credentials, parameters, input, {
			node: { name: 'Customer Banking Trigger', id: nodeId },
		});
		const reports = reportedRefusals.length;
		const result = await trigger.webhook.call(context);
		expect(result).toEqual({ noWebhookResponse: true });
		// a node's first refusal is reported: n8n answers 500 and shows a failed execution saying why
		expect(response.statusCode).toBe(500);
		expect(reportedRefusals).toHaveLength(reports + 1);
		expect(response.ended).toBe(true);
		expect(requests).toEqual([]);
		const report = reportedRefusals[reports];
		expect(`${report.message} ${report.description}`).not.toContain(
			String(credentials.webhookSigningSecret) || 'no secret set',
		);
		const secret = String(credentials.webhookSigningSecret);
		for (const entry of logs) if (secret) expect(entry.message).not.toContain(secret);
		return logs;
	}

	it('the untouched delivery is accepted (control)', async () => {
		const { context } = webhookContext(credentialsFor(sandbox), parameters, delivery);
		expect((await trigger.webhook.call(context)).workflowData).toHaveLength(1);
	});

	it('missing signature', async () => {
		const logs = await expectRefused(withoutHeader('x-cb-signature'));
		expect(logs.map((l) => l.message)).toEqual([
			'Customer Banking Trigger: refused 1 delivery without a valid signature or timestamp (missingSignature: 1)',
		]);
	});

	it('missing timestamp', async () => {
		await expectRefused(withoutHeader('x-cb-timestamp'));
	});

	it('wrong secret', async () => {
		// a trigger whose credential held the wrong secret from the start (a node that read the right one
		// keeps it for SECRET_REUSE_MS: see "signing secrets read once per SECRET_REUSE_MS")
		await expectRefused(
			delivery,
			credentialsWith({ current: 'whsec_not_the_right_one' }),
			'trigger-wrong-secret',
		);
	});

	it('tampered body', async () => {
		await expectRefused(tampered());
	});

	it('raw bytes other than those signed (an empty body)', async () => {
		await expectRefused({ ...delivery, rawBody: Buffer.alloc(0) });
	});

	it('stale timestamp (more than 300 s old)', async () => {
		const sentAt = Number(delivery.headers['x-cb-timestamp']) * 1000;
		const clock = jest.spyOn(Date, 'now').mockReturnValue(sentAt + 301_000);
		try {
			const logs = await expectRefused(delivery);
			expect(logs.map((l) => l.message)).toEqual([
				'Customer Banking Trigger: refused 1 delivery without a valid signature or timestamp (staleTimestamp: 1)',
			]);
		} finally {
			clock.mockRestore();
		}
	});

	it('no signing secret in the credential: refused, never an open endpoint', async () => {
		await expectRefused(
			delivery,
			credentialsWith({ current: '', previous: '' }),
			'trigger-no-secret',
		);
	});
});

describe('replays and retries', () => {
	it('a replayed delivery is acknowledged with 2xx and not emitted twice', async () => {
		const { delivery } = await receiveMoney(3.21, 'Replay');
		const staticData = newStaticData();

		const first = webhookContext(credentialsFor(sandbox), parameters, delivery, { staticData });
		expect((await trigger.webhook.call(first.context)).workflowData).toHaveLength(1);

		const replay = webhookContext(credentialsFor(sandbox), parameters, delivery, { staticData });
		const result = await trigger.webhook.call(replay.context);
		expect(result.workflowData).toBeUndefined();
		expect(result.noWebhookResponse).toBeUndefined();
		expect(result.webhookResponse).toEqual({
			received: true,
			emitted: false,
			reason: 'duplicate delivery',
		});
		expect(replay.response.statusCode).toBe(200);
		expect(replay.requests).toEqual([]);
	});

	it('raw body signing with an unsigned timestamp header: a captured delivery sent again later with a fresh timestamp is not emitted again', async () => {
		const { delivery } = await receiveMoney(5.67, 'Raw body replay');
		// a bank that signs the raw body alone and sends the time of the attempt in a header it does not sign
		const signature = `v1=${createHmac('sha256', sandbox.signingSecret).update(delivery.rawBody).digest('hex')}`;
		const rawBodyParameters = {
			...parameters,
			fetchTransaction: false,
			signatureScheme: 'custom',
			signature: { signedContent: 'body' },
		};
		const node = { name: 'Customer Banking Trigger', id: `raw-body-replay-${randomUUID()}` };
		const at = (nowMs: number) => ({
			...delivery,
			headers: { 'x-cb-timestamp': String(Math.floor(nowMs / 1000)), 'x-cb-signature': signature },
		});
		const started = Date.now();
		const clock = jest.spyOn(Date, 'now').mockReturnValue(started);
		try {
			const first = webhookContext(credentialsFor(sandbox), rawBodyParameters, at(started), {
				node,
			});
			expect((await trigger.webhook.call(first.context)).workflowData).toHaveLength(1);
			// the attacker's copy, hours after any window a timestamp could give, with the header set to now
			for (const laterMs of [16 * 60_000, 3 * 3600_000, 23 * 3600_000]) {
				clock.mockReturnValue(started + laterMs);
				const replay = webhookContext(
					credentialsFor(sandbox),
					rawBodyParameters,
					at(started + laterMs),
					{ node },
				);
				const result = await trigger.webhook.call(replay.context);
				expect(result.workflowData).toBeUndefined();
				expect(result.webhookResponse).toEqual({
					received: true,
					emitted: false,
					reason: 'duplicate delivery',
				});
			}
		} finally {
			clock.mockRestore();
		}
	});

	it("the sandbox's own retry (same delivery id and body, signed again) is emitted once", async () => {
		let attempts = 0;
		receiver.answer = async () => ({ status: ++attempts === 1 ? 503 : 200 });
		const { delivery } = await receiveMoney(4.56, 'Retried');
		const attemptsSeen = receiver.captured.slice(-2);
		expect(attemptsSeen).toHaveLength(2);
		expect(attemptsSeen[0].headers['x-cb-delivery-id']).toBe(
			attemptsSeen[1].headers['x-cb-delivery-id'],
		);
		expect(attemptsSeen[0].rawBody.equals(attemptsSeen[1].rawBody)).toBe(true);
		expect(delivery).toBe(attemptsSeen[0]);

		const staticData = newStaticData();
		const emitted: unknown[] = [];
		for (const attempt of attemptsSeen) {
			const { context } = webhookContext(credentialsFor(sandbox), parameters, attempt, {
				staticData,
			});
			const result = await trigger.webhook.call(context);
			if (result.workflowData) emitted.push(result.workflowData);
		}
		expect(emitted).toHaveLength(1);
	});
});

describe('end to end: the receiver answers with what webhook() decides', () => {
	it('the sandbox sees 401 on every attempt for a wrong secret, and 200 once verified', async () => {
		const staticData = newStaticData();
		let credentials = credentialsWith({ current: 'whsec_not_the_right_one' });
		let executions = 0;
		let node = { name: 'Customer Banking Trigger', id: 'trigger-wrong-secret-e2e' };
		receiver.answer = async (captured) => {
			const { context, response } = webhookContext(credentials, parameters, captured, {
				staticData,
				node,
			});
			const result = await trigger.webhook.call(context);
			if (result.workflowData) executions++;
			return { status: result.noWebhookResponse ? response.statusCode : 200 };
		};

		await receiveMoney(1.11, 'Refused E2E');
		const refused = sandbox.control.deliveries().at(-1);
		expect(refused?.status).toBe('failed');
		// the first refusal reported as a failed execution (n8n answers 500), the bank's retries inside
		// the minute answered 401
		expect(refused?.attempts.map((a) => a.statusCode)).toEqual([500, 401, 401]);
		expect(executions).toBe(0);

		// the right secret, on a node that has not just read the credential again (a re-read after a bad
		// signature happens at most once per REREAD_INTERVAL_MS: see the forged flood below)
		credentials = credentialsFor(sandbox);
		node = { name: 'Customer Banking Trigger', id: 'trigger-right-secret' };
		await receiveMoney(2.22, 'Accepted E2E');
		const accepted = sandbox.control.deliveries().at(-1);
		expect(accepted?.status).toBe('delivered');
		expect(accepted?.attempts.map((a) => a.statusCode)).toEqual([200]);
		expect(executions).toBe(1);
	});
});

describe('signing secret rotation', () => {
	it('accepts both the current and the previous secret', async () => {
		const { delivery: beforeRotation } = await receiveMoney(5, 'Before rotation');
		const { current, previous } = sandbox.control.rotateSigningSecret();
		const { delivery: duringRotation } = await receiveMoney(6, 'During rotation');
		expect(duringRotation.headers['x-cb-signature'].split(',')).toHaveLength(2);

		// each check as another trigger node, so the same delivery is not taken for a replay
		let node = 0;
		const accepts = async (
			delivery: CapturedDelivery,
			credentials: ICredentialDataDecryptedObject,
		) => {
			const { context, response } = webhookContext(credentials, parameters, delivery, {
				node: { name: 'Customer Banking Trigger', id: `rotation-node-${++node}` },
			});
			const result = await trigger.webhook.call(context);
			return result.workflowData !== undefined && response.statusCode === 200;
		};

		// A delivery signed only with the old secret: accepted through "Previous Webhook Signing Secret".
		expect(await accepts(beforeRotation, credentialsWith({ current, previous }))).toBe(true);
		expect(await accepts(beforeRotation, credentialsWith({ current }))).toBe(false);
		// Signed with both: the new current secret alone is enough.
		expect(await accepts(duringRotation, credentialsWith({ current }))).toBe(true);
		expect(await accepts(duringRotation, credentialsWith({ current, previous }))).toBe(true);
	});
});

describe('signing secrets read once per SECRET_REUSE_MS', () => {
	let template: CapturedDelivery;
	let node = 0;

	beforeAll(async () => {
		({ delivery: template } = await receiveMoney(3.33, 'Secret reuse'));
	});

	/** The template delivery with its own delivery id, signed now with `secret`. */
	function signedWith(secret: string, nowMs = Date.now()): CapturedDelivery {
		const body = JSON.parse(template.rawBody.toString('utf8')) as IDataObject;
		body[payloadFieldNames(sandbox.variants).deliveryId] = randomUUID();
		const raw = Buffer.from(JSON.stringify(body));
		const timestamp = String(Math.floor(nowMs / 1000));
		const signature = createHmac('sha256', secret)
			.update(`${timestamp}.`)
			.update(raw)
			.digest('hex');
		return {
			path: '/webhook',
			rawBody: raw,
			headers: { 'x-cb-timestamp': timestamp, 'x-cb-signature': `v1=${signature}` },
		};
	}

	/** Feeds one delivery to the trigger node `nodeId`: whether it was emitted, and whether the credential was read. */
	async function deliver(
		nodeId: string,
		credentials: ICredentialDataDecryptedObject,
		delivery: CapturedDelivery,
	) {
		// fetch off: the transaction fetch reads the credential for its request, not for the signature
		const { context, response } = webhookContext(
			credentials,
			{ ...parameters, fetchTransaction: false },
			delivery,
			{
				node: { name: 'Customer Banking Trigger', id: nodeId },
			},
		);
		const reads = jest.spyOn(context, 'getCredentials');
		const result = await trigger.webhook.call(context);
		return {
			emitted: result.workflowData !== undefined && response.statusCode === 200,
			status: response.statusCode,
			credentialReads: reads.mock.calls.length,
		};
	}

	it('verifies later deliveries with the secrets it read, without reading the credential again', async () => {
		const nodeId = `reuse-${++node}`;
		const credentials = credentialsFor(sandbox);
		const results = [];
		for (let n = 0; n < 4; n++)
			results.push(await deliver(nodeId, credentials, signedWith(sandbox.signingSecret)));
		expect(results.map((r) => r.emitted)).toEqual([true, true, true, true]);
		expect(results.map((r) => r.credentialReads)).toEqual([1, 0, 0, 0]);
	});

	it('a delivery signed with a secret set since then reads the credential again and is accepted at once', async () => {
		const nodeId = `reuse-${++node}`;
		expect(
			(await deliver(nodeId, credentialsFor(sandbox), signedWith(sandbox.signingSecret))).emitted,
		).toBe(true);
		const rotated = credentialsWith({
			current: 'whsec_new_secret_0001',
			previous: sandbox.signingSecret,
		});
		const withNew = await deliver(nodeId, rotated, signedWith('whsec_new_secret_0001'));
		expect(withNew).toMatchObject({ emitted: true, credentialReads: 1 });
	});

	it('a secret removed from the credential is refused once SECRET_REUSE_MS has passed', async () => {
		const nodeId = `reuse-${++node}`;
		const started = Date.now();
		const clock = jest.spyOn(Date, 'now').mockReturnValue(started);
		try {
			expect(
				(await deliver(nodeId, credentialsFor(sandbox), signedWith(sandbox.signingSecret, started)))
					.emitted,
			).toBe(true);
			const replaced = credentialsWith({ current: 'whsec_replacement_0002' });
			// inside the window the remembered secret still verifies (the documented limit)
			clock.mockReturnValue(started + SECRET_REUSE_MS - 1);
			expect(
				(
					await deliver(
						nodeId,
						replaced,
						signedWith(sandbox.signingSecret, started + SECRET_REUSE_MS - 1),
					)
				).emitted,
			).toBe(true);
			clock.mockReturnValue(started + SECRET_REUSE_MS);
			const after = await deliver(
				nodeId,
				replaced,
				signedWith(sandbox.signingSecret, started + SECRET_REUSE_MS),
			);
			// the node's first refusal: reported (n8n answers 500, a failed execution says why)
			expect(after).toMatchObject({ emitted: false, status: 500, credentialReads: 1 });
			expect(
				(
					await deliver(
						nodeId,
						replaced,
						signedWith('whsec_replacement_0002', started + SECRET_REUSE_MS),
					)
				).emitted,
			).toBe(true);
		} finally {
			clock.mockRestore();
		}
	});

	it('a flood of forged deliveries with current timestamps: credential reads and log lines stay bounded', async () => {
		const nodeId = `flood-${++node}`;
		const credentials = credentialsFor(sandbox);
		const started = Date.now();
		const clock = jest.spyOn(Date, 'now').mockReturnValue(started);
		try {
			expect(
				(await deliver(nodeId, credentials, signedWith(sandbox.signingSecret, started))).emitted,
			).toBe(true);
			let reads = 0;
			let warnings = 0;
			let reports = 0;
			// 2,000 forged deliveries over 60 s of clock, 50 at a time as concurrent requests
			for (let wave = 0; wave < 40; wave++) {
				const nowMs = started + wave * 1500;
				clock.mockReturnValue(nowMs);
				const outcomes = await Promise.all(
					Array.from({ length: 50 }, async () => {
						const { context, response, logs } = webhookContext(
							credentials,
							{ ...parameters, fetchTransaction: false },
							signedWith('whsec_forged_by_attacker', nowMs),
							{
								node: { name: 'Customer Banking Trigger', id: nodeId },
							},
						);
						const spy = jest.spyOn(context, 'getCredentials');
						const result = await trigger.webhook.call(context);
						return {
							status: response.statusCode,
							emitted: result.workflowData !== undefined,
							reads: spy.mock.calls.length,
							warnings: logs.filter((l) => l.level === 'warn').length,
						};
					}),
				);
				// refused: 401, or 500 for the one refusal a minute reported as a failed execution
				expect(outcomes.every((o) => [401, 500].includes(o.status) && !o.emitted)).toBe(true);
				reports += outcomes.filter((o) => o.status === 500).length;
				reads += outcomes.reduce((sum, o) => sum + o.reads, 0);
				warnings += outcomes.reduce((sum, o) => sum + o.warnings, 0);
			}
			// 60 s: at most one read per REREAD_INTERVAL_MS and one per SECRET_REUSE_MS, each shared by concurrent requests
			expect(reads).toBeLessThanOrEqual(
				Math.ceil(60_000 / REREAD_INTERVAL_MS) + Math.ceil(60_000 / SECRET_REUSE_MS) + 2,
			);
			// a summary at most once per REFUSAL_LOG_INTERVAL_MS, not a line per delivery
			expect(warnings).toBeLessThanOrEqual(Math.ceil(60_000 / REFUSAL_LOG_INTERVAL_MS) + 1);
			expect(warnings).toBeGreaterThanOrEqual(1);
			// and a failed execution saying why at most as often
			expect(reports).toBeLessThanOrEqual(Math.ceil(60_000 / REFUSAL_LOG_INTERVAL_MS) + 1);
			expect(reports).toBeGreaterThanOrEqual(1);
			// and the real bank's deliveries still go through
			expect(
				(await deliver(nodeId, credentials, signedWith(sandbox.signingSecret, started + 60_000)))
					.emitted,
			).toBe(true);
		} finally {
			clock.mockRestore();
		}
	});

	it('a secret saved just after a refused delivery made the trigger read the credential is used once REREAD_INTERVAL_MS has passed', async () => {
		const nodeId = `reread-${++node}`;
		const started = Date.now();
		const clock = jest.spyOn(Date, 'now').mockReturnValue(started);
		try {
			expect(
				(await deliver(nodeId, credentialsFor(sandbox), signedWith(sandbox.signingSecret, started)))
					.emitted,
			).toBe(true);
			// a forged delivery: read again at once
			expect(
				await deliver(
					nodeId,
					credentialsFor(sandbox),
					signedWith('whsec_forged_0004', started + 10),
				),
			).toMatchObject({ status: 500, credentialReads: 1 });
			const rotated = credentialsWith({ current: 'whsec_new_secret_0005' });
			clock.mockReturnValue(started + REREAD_INTERVAL_MS - 1);
			expect(
				await deliver(
					nodeId,
					rotated,
					signedWith('whsec_new_secret_0005', started + REREAD_INTERVAL_MS - 1),
				),
			).toMatchObject({ status: 401, credentialReads: 0 });
			clock.mockReturnValue(started + REREAD_INTERVAL_MS + 10);
			expect(
				await deliver(
					nodeId,
					rotated,
					signedWith('whsec_new_secret_0005', started + REREAD_INTERVAL_MS + 10),
				),
			).toMatchObject({ emitted: true, credentialReads: 1 });
		} finally {
			clock.mockRestore();
		}
	});

	it('the refusal summary counts what it summarises and names no secret', async () => {
		const nodeId = `flood-${++node}`;
		const started = Date.now();
		const clock = jest.spyOn(Date, 'now').mockReturnValue(started);
		const lines: string[] = [];
		try {
			for (const offsetMs of [0, 1000, 2000, REFUSAL_LOG_INTERVAL_MS + 1000]) {
				clock.mockReturnValue(started + offsetMs);
				const { context, logs } = webhookContext(
					credentialsFor(sandbox),
					{ ...parameters, fetchTransaction: false },
					signedWith('whsec_forged_by_attacker', started + offsetMs),
					{
						node: { name: 'Customer Banking Trigger', id: nodeId },
					},
				);
				await trigger.webhook.call(context);
				lines.push(...logs.filter((l) => l.level === 'warn').map((l) => l.message));
			}
		} finally {
			clock.mockRestore();
		}
		expect(lines).toEqual([
			'Customer Banking Trigger: refused 1 delivery without a valid signature or timestamp (badSignature: 1)',
			'Customer Banking Trigger: refused 3 deliveries in the last 61 s without a valid signature or timestamp (badSignature: 3)',
		]);
		expect(lines.join(' ')).not.toContain(sandbox.signingSecret);
	});

	it('secrets are remembered per trigger node: another node reads its own credential', async () => {
		const first = await deliver(
			`reuse-${++node}`,
			credentialsFor(sandbox),
			signedWith(sandbox.signingSecret),
		);
		const other = await deliver(
			`reuse-${++node}`,
			credentialsWith({ current: 'whsec_other_node_0003' }),
			signedWith(sandbox.signingSecret),
		);
		expect(first.emitted).toBe(true);
		expect(other).toMatchObject({ emitted: false, status: 500, credentialReads: 1 });
	});
});

/**
 * One delivery → at most one execution, no invalid delivery ever emitted. Thousands of
 * deliveries an unlucky network, an impatient bank and an attacker would send, fed to webhook() as n8n
 * does (a fresh static-data copy per call, calls overlapping), against the sandbox.
 */
import { createHmac, randomUUID } from 'node:crypto';

import type { IDataObject, IWebhookResponseData } from 'n8n-workflow';

import { CustomerBankingTrigger } from '../../nodes/CustomerBankingTrigger/CustomerBankingTrigger.node';
import { IN_FLIGHT_RETRY_AFTER_SECONDS } from '../../nodes/CustomerBankingTrigger/deliveryLedger';
import { credentialsFor } from '../helpers/sandboxCredentials';
import { startSandbox } from '../sandbox';
import type { Sandbox } from '../sandbox';
import {
	deliveryBody,
	newStaticData,
	trigger,
	webhookContext,
	withPayloadFields,
} from './triggerFixtures';

let sandbox: Sandbox;
let gbp: string;
let xtid: string;
let otherXtid: string;
let nodeCounter = 0;

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 12 });
	gbp = sandbox.seeded.accounts.gbp;
	xtid = String((await sandbox.control.receive(gbp, 10, 'Adversarial')).xtid);
	otherXtid = String((await sandbox.control.receive(gbp, 11, 'Adversarial other')).xtid);
	await sandbox.control.waitForDeliveries();
});

afterAll(async () => {
	await sandbox.close();
});

interface Delivery {
	rawBody: Buffer;
	headers: Record<string, string>;
}

const now = () => Math.floor(Date.now() / 1000);

/** A delivery body with the bank's field names (fields by the trigger's Payload Field Names keys). */
function body(fields: IDataObject): Buffer {
	return deliveryBody(sandbox.variants, {
		event: 'TransactionReceived',
		account: gbp,
		transaction: xtid,
		occurredAt: new Date().toISOString(),
		...fields,
	});
}

function sign(rawBody: Buffer, secret = sandbox.signingSecret, timestamp = now()): Delivery {
	const signature = createHmac('sha256', secret)
		.update(`${timestamp}.`)
		.update(rawBody)
		.digest('hex');
	return {
		rawBody,
		headers: { 'x-cb-timestamp': String(timestamp), 'x-cb-signature': `v1=${signature}` },
	};
}

/** A trigger node of its own (its own ledger), watching the GBP account (unless told), fetch on or off. */
function triggerNode(fetchTransaction: boolean, accounts = [gbp]) {
	const node = { name: 'Customer Banking Trigger', id: `adversarial-node-${++nodeCounter}` };
	const credentials = credentialsFor(sandbox);
	const parameters = withPayloadFields(sandbox.variants, {
		accounts,
		events: ['transactionReceived', 'transactionConfirmed'],
		fetchTransaction,
	});
	return async (
		delivery: Delivery,
	): Promise<{
		result?: IWebhookResponseData;
		status: number;
		body?: unknown;
		headers?: Record<string, string>;
		error?: unknown;
	}> => {
		// n8n builds the workflow, and so the static data, anew from the database for every call
		const { context, response } = webhookContext(
			credentials,
			parameters,
			{ ...delivery, path: '/webhook' },
			{ node, staticData: newStaticData() },
		);
		try {
			const result = await trigger.webhook.call(context);
			return result.noWebhookResponse
				? { result, status: response.statusCode, body: response.body, headers: response.headers }
				: { result, status: 200, body: result.webhookResponse };
		} catch (error) {
			return { status: 500, error };
		}
	};
}

const emitted = (outcome: { result?: IWebhookResponseData }) =>
	outcome.result?.workflowData !== undefined;

describe('adversarial deliveries', () => {
	it('10 concurrent copies of one delivery, with the transaction fetched, start one execution; the others are asked to retry', async () => {
		const receive = triggerNode(true);
		sandbox.control.setFaults([
			{ method: 'GET', path: /^\/transaction\//, kind: 'latency', latencyMs: 300 },
		]);
		const delivery = sign(body({ deliveryId: randomUUID() }));
		const outcomes = await Promise.all(Array.from({ length: 10 }, () => receive(delivery)));
		sandbox.control.clearFaults();
		expect(outcomes.filter(emitted)).toHaveLength(1);
		// answered by n8n once the execution has ended, without the execution's data
		expect(outcomes.find(emitted)?.result).toEqual({
			workflowData: [[{ json: expect.objectContaining({ deliveryId: expect.any(String) }) }]],
		});
		// while the first one runs, nobody knows yet whether it will: the copies are not told "received"
		const copies = outcomes.filter((o) => !emitted(o));
		expect(copies.map((o) => [o.status, o.headers?.['retry-after']])).toEqual(
			Array(9).fill([503, String(IN_FLIGHT_RETRY_AFTER_SECONDS)]),
		);
		// once it ran, a copy is a duplicate
		expect(await receive(delivery)).toMatchObject({
			status: 200,
			body: { received: true, emitted: false, reason: 'duplicate delivery' },
		});
	});

	it("the bank's retry arriving while the first copy still fetches, re-signed with a later timestamp, is not emitted again", async () => {
		const receive = triggerNode(true);
		sandbox.control.setFaults([
			{ method: 'GET', path: /^\/transaction\//, kind: 'latency', latencyMs: 500, times: 1 },
		]);
		const raw = body({ deliveryId: randomUUID() });
		const first = receive(sign(raw, sandbox.signingSecret, now() - 5));
		await new Promise((resolve) => setTimeout(resolve, 100));
		const retry = await receive(sign(raw));
		expect(emitted(retry)).toBe(false);
		expect(retry.status).toBe(503);
		expect(emitted(await first)).toBe(true);
		expect(await receive(sign(raw))).toMatchObject({
			status: 200,
			body: { reason: 'duplicate delivery' },
		});
	});

	it("a copy arriving while the first one fetches is not answered 200; the first one's fetch fails; the bank's retry is processed once", async () => {
		const receive = triggerNode(true);
		sandbox.control.setFaults([
			{
				method: 'GET',
				path: `/transaction/${xtid}`,
				kind: 'status',
				status: 404,
				latencyMs: 400,
				times: 1,
			},
		]);
		const raw = body({ deliveryId: randomUUID() });
		const first = receive(sign(raw));
		await new Promise((resolve) => setTimeout(resolve, 100));
		const copy = await receive(sign(raw));
		// answered before the first one's outcome is known: never "received" for an event that has not run
		expect(copy.status).toBeGreaterThanOrEqual(300);
		expect(emitted(copy)).toBe(false);
		expect((await first).status).toBe(500);
		const retry = await receive(sign(raw));
		expect(emitted(retry)).toBe(true);
		expect(emitted(await receive(sign(raw)))).toBe(false);
	});

	it("another delivery completes while the first one fetches, the first one's fetch fails: the bank's retry is processed (static data as n8n saves it)", async () => {
		const node = { name: 'Customer Banking Trigger', id: `lost-node-${++nodeCounter}` };
		const parameters = withPayloadFields(sandbox.variants, {
			accounts: [gbp],
			events: ['transactionReceived'],
			fetchTransaction: true,
		});
		let database: IDataObject = {};
		/** One webhook call as n8n makes it: static data read from the database, saved when the call is answered (not after one that threw). */
		const call = async (delivery: Delivery) => {
			const staticData = { node: structuredClone(database), global: {} };
			const { context } = webhookContext(
				credentialsFor(sandbox),
				parameters,
				{ ...delivery, path: '/webhook' },
				{ node, staticData },
			);
			try {
				const result = await trigger.webhook.call(context);
				database = staticData.node;
				return result.workflowData !== undefined ? 'emitted' : 'not emitted';
			} catch {
				return 'failed';
			}
		};
		sandbox.control.setFaults([
			{
				method: 'GET',
				path: `/transaction/${xtid}`,
				kind: 'status',
				status: 404,
				latencyMs: 400,
				times: 1,
			},
		]);
		const raw = body({ deliveryId: randomUUID() });
		const first = call(sign(raw));
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(await call(sign(body({ deliveryId: randomUUID(), transaction: otherXtid })))).toBe(
			'emitted',
		);
		expect(await first).toBe('failed');
		expect(await call(sign(raw))).toBe('emitted');
		expect(await call(sign(raw))).toBe('not emitted');
	});

	it('an exact replay after another delivery arrived during the fetch is not emitted again', async () => {
		const receive = triggerNode(true);
		sandbox.control.setFaults([
			{ method: 'GET', path: /^\/transaction\//, kind: 'latency', latencyMs: 300, times: 1 },
		]);
		const replayed = sign(body({ deliveryId: randomUUID() }));
		const first = receive(replayed);
		const other = await receive(sign(body({ deliveryId: randomUUID() })));
		expect(emitted(other)).toBe(true);
		expect(emitted(await first)).toBe(true);
		expect(emitted(await receive(replayed))).toBe(false);
	});

	it('across an n8n restart (memory gone, static data as n8n saved it), the same delivery is not emitted again', async () => {
		const node = { name: 'Customer Banking Trigger', id: `restart-node-${++nodeCounter}` };
		const parameters = withPayloadFields(sandbox.variants, {
			accounts: [gbp],
			events: ['transactionReceived'],
			fetchTransaction: false,
		});
		let database: IDataObject = {};
		/**
		 * One webhook call as n8n makes it: static data read from the database, saved when the call is
		 * answered (an emitted delivery: by n8n after its execution, both lines' live-webhooks.js response
		 * callback; the runner reloads its own copy from the database, so the flag the node set stays).
		 */
		const call = async (nodeType: typeof trigger, delivery: Delivery) => {
			const staticData = { node: structuredClone(database), global: {} };
			const { context } = webhookContext(
				credentialsFor(sandbox),
				parameters,
				{ ...delivery, path: '/webhook' },
				{ node, staticData },
			);
			const result = await nodeType.webhook.call(context);
			database = staticData.node;
			return result.workflowData !== undefined;
		};
		const delivery = sign(body({ deliveryId: randomUUID() }));
		expect(await call(trigger, delivery)).toBe(true);

		let restarted: typeof trigger | undefined;
		// a fresh copy of the node's modules: what a restarted n8n process loads
		await jest.isolateModulesAsync(async () => {
			const { CustomerBankingTrigger } = await import(
				'../../nodes/CustomerBankingTrigger/CustomerBankingTrigger.node'
			);
			restarted = new CustomerBankingTrigger();
		});
		expect(await call(restarted as typeof trigger, sign(delivery.rawBody))).toBe(false);
		expect(await call(restarted as typeof trigger, sign(body({ deliveryId: randomUUID() })))).toBe(
			true,
		);
	});

	it('a delivery whose fetch failed is processed when the bank retries it', async () => {
		const receive = triggerNode(true);
		sandbox.control.setFaults([
			{ method: 'GET', path: /^\/transaction\//, kind: 'status', status: 404, times: 1 },
		]);
		const delivery = sign(body({ deliveryId: randomUUID() }));
		const failed = await receive(delivery);
		expect(failed.error).toBeDefined();
		expect(emitted(await receive(delivery))).toBe(true);
		expect(emitted(await receive(delivery))).toBe(false);
	});

	it('the dedupe key comes from signed content: a changed unsigned delivery-id header does not make a delivery new', async () => {
		const receive = triggerNode(false);
		const withoutId = sign(body({ note: randomUUID() }));
		expect(
			emitted(
				await receive({ ...withoutId, headers: { ...withoutId.headers, 'x-cb-delivery-id': 'a' } }),
			),
		).toBe(true);
		expect(
			emitted(
				await receive({ ...withoutId, headers: { ...withoutId.headers, 'x-cb-delivery-id': 'b' } }),
			),
		).toBe(false);
	});

	it('over 13,000 adversarial deliveries: no invalid one emitted, every valid one exactly once (> 5,000 distinct ids inside the window)', async () => {
		const receive = triggerNode(false);
		const secret = sandbox.signingSecret;
		const validIds: string[] = [];
		const invalid: Array<[string, Delivery]> = [];
		const valid: Array<[string, Delivery]> = [];
		for (let i = 0; i < 5200; i++) {
			const id = `bulk-${i}-${randomUUID()}`;
			validIds.push(id);
			const raw = body({ deliveryId: id });
			const delivery = sign(raw);
			valid.push([id, delivery]);
			switch (i % 13) {
				case 0:
					invalid.push([
						'unsigned',
						{ rawBody: raw, headers: { 'x-cb-timestamp': String(now()) } },
					]);
					break;
				case 1:
					invalid.push(['wrong secret', sign(raw, 'whsec_wrong')]);
					break;
				case 2: {
					const tampered = Buffer.from(raw);
					tampered[tampered.length - 3] ^= 1;
					invalid.push(['tampered byte', { rawBody: tampered, headers: delivery.headers }]);
					break;
				}
				// an hour outside the 300 s window: signed now, sent up to minutes later on a loaded machine
				// (at +400 s a future one came inside the window by the time it was sent); the window's
				// edges are signature.test.ts's
				case 3:
					invalid.push(['stale timestamp', sign(raw, secret, now() - 3600)]);
					break;
				case 4:
					invalid.push(['future timestamp', sign(raw, secret, now() + 3600)]);
					break;
				case 5:
					invalid.push([
						'only bad signature entries',
						{
							rawBody: raw,
							headers: {
								...delivery.headers,
								'x-cb-signature': 'v1=00,v0=abc,v1=' + 'f'.repeat(64),
							},
						},
					]);
					break;
				case 6:
					invalid.push(['empty body', sign(Buffer.alloc(0))]);
					break;
				case 7:
					invalid.push(['non-JSON body', sign(Buffer.from('not json'))]);
					break;
				case 8:
					invalid.push(['JSON array body', sign(Buffer.from('[1,2]'))]);
					break;
				case 9:
					invalid.push(['huge non-JSON body', sign(Buffer.alloc(1_000_000, 0x61))]);
					break;
				case 10:
					invalid.push([
						'two timestamps',
						{
							rawBody: raw,
							headers: { ...delivery.headers, 'x-cb-timestamp': `${now()},${now()}` },
						},
					]);
					break;
				case 11:
					invalid.push([
						'signature for another body',
						{ rawBody: body({ deliveryId: `other-${id}` }), headers: delivery.headers },
					]);
					break;
				case 12:
					invalid.push([
						'unwatched account',
						sign(body({ deliveryId: `acct-${id}`, account: sandbox.seeded.accounts.eur })),
					]);
					break;
			}
			// valid forms of the same delivery: header name case, several signature entries
			if (i % 7 === 0)
				valid.push([
					id,
					{
						rawBody: raw,
						headers: {
							'X-CB-Timestamp': delivery.headers['x-cb-timestamp'],
							'X-Cb-Signature': `v1=${'0'.repeat(64)}, ${delivery.headers['x-cb-signature']}`,
						},
					},
				]);
			// replays: sequential, and concurrent copies below
			if (i % 5 === 0) valid.push([id, sign(raw)]);
		}

		const emittedIds = new Map<string, number>();
		let invalidEmitted = 0;
		let refusedInvalid = 0;
		// interleaved, in waves of concurrent calls, as n8n would run them
		const all: Array<[string, Delivery, boolean]> = [];
		for (let i = 0; i < Math.max(valid.length, invalid.length); i++) {
			if (valid[i]) all.push([valid[i][0], valid[i][1], true]);
			if (invalid[i]) all.push([invalid[i][0], invalid[i][1], false]);
			if (i % 11 === 0 && valid[i])
				all.push([valid[i][0], valid[i][1], true], [valid[i][0], valid[i][1], true]);
		}
		/** A wave of concurrent calls; what is asked to come back (503: in flight, or too many running) is sent again, as the bank does. */
		const answered = async (wave: Array<[string, Delivery, boolean]>) => {
			const outcomes = await Promise.all(wave.map(([, delivery]) => receive(delivery)));
			for (let round = 0; round < 20; round++) {
				const again = outcomes.flatMap((outcome, index) => (outcome.status === 503 ? [index] : []));
				if (again.length === 0) break;
				const retried = await Promise.all(again.map((index) => receive(wave[index][1])));
				again.forEach((index, i) => (outcomes[index] = retried[i]));
			}
			return outcomes;
		};
		for (let start = 0; start < all.length; start += 50) {
			const wave = all.slice(start, start + 50);
			const outcomes = await answered(wave);
			outcomes.forEach((outcome, index) => {
				const [label, , isValid] = wave[index];
				if (!isValid) {
					if (emitted(outcome)) invalidEmitted++;
					if (
						outcome.status === 401 ||
						outcome.status === 400 ||
						// the refusal reported as a failed execution (at most once a minute per node)
						(outcome.status === 500 && outcome.error === undefined) ||
						(label === 'unwatched account' && outcome.status === 200)
					)
						refusedInvalid++;
					return;
				}
				if (emitted(outcome)) {
					const json = outcome.result?.workflowData?.[0][0].json as IDataObject;
					emittedIds.set(
						String(json.deliveryId),
						(emittedIds.get(String(json.deliveryId)) ?? 0) + 1,
					);
				}
			});
		}

		const twice = [...emittedIds.values()].filter((count) => count > 1).length;
		const missed = validIds.filter((id) => !emittedIds.has(id)).length;
		console.log(
			`adversarial deliveries: ${all.length} sent (${invalid.length} invalid), ${emittedIds.size} emitted, ${twice} emitted twice, ${missed} valid missed, ${invalidEmitted} invalid emitted`,
		);
		expect(all.length).toBeGreaterThanOrEqual(5000);
		expect(invalidEmitted).toBe(0);
		expect(refusedInvalid).toBe(invalid.length);
		expect(twice).toBe(0);
		expect(missed).toBe(0);
		expect(emittedIds.size).toBe(validIds.length);
	});
});

/**
 * n8n as it runs one trigger node across restarts: the static data in its database; each webhook call
 * reads it, and it is saved when n8n answers the call (for an emitted delivery once its execution has
 * ended: `answer()`, which saves and then answers, as both lines' live-webhooks.js do; never for a call
 * that threw). A killed n8n answers nothing and saves nothing; `restarted()` is the process started
 * again: fresh modules (nothing in memory), the same database.
 */
function n8nWithDatabase(parameters: IDataObject) {
	const node = { name: 'Customer Banking Trigger', id: `crash-node-${++nodeCounter}` };
	let database: IDataObject = {};
	const running = (nodeType: CustomerBankingTrigger) => async (delivery: Delivery) => {
		const staticData = { node: structuredClone(database), global: {} };
		const { context, response } = webhookContext(
			credentialsFor(sandbox),
			parameters,
			{ ...delivery, path: '/webhook' },
			{ node, staticData },
		);
		const result = await nodeType.webhook.call(context);
		const save = () => (database = structuredClone(staticData.node));
		const hangUp = () => response.close();
		if (result.workflowData === undefined) {
			save();
			return { emitted: false, body: result.webhookResponse as unknown, answer: save, hangUp };
		}
		return {
			emitted: true,
			body: undefined,
			answer: () => {
				save();
				if (!response.ended) context.getResponseObject().end();
			},
			hangUp,
		};
	};
	return {
		receive: running(new CustomerBankingTrigger()),
		database: () => database,
		async restarted() {
			let nodeType: CustomerBankingTrigger | undefined;
			// a fresh copy of the node's modules: what a restarted n8n process loads
			await jest.isolateModulesAsync(async () => {
				const fresh = await import(
					'../../nodes/CustomerBankingTrigger/CustomerBankingTrigger.node'
				);
				nodeType = new fresh.CustomerBankingTrigger();
			});
			return running(nodeType as CustomerBankingTrigger);
		},
	};
}

describe('across a crash of n8n', () => {
	const parameters = () =>
		withPayloadFields(sandbox.variants, {
			accounts: [gbp],
			events: ['transactionReceived'],
			fetchTransaction: false,
		});

	it("a delivery whose execution was still running when n8n was killed, saved meanwhile by another delivery's answer, runs again when the bank sends it again", async () => {
		const n8n = n8nWithDatabase(parameters());
		const d1 = sign(body({ deliveryId: randomUUID() }));
		const running = await n8n.receive(d1);
		expect(running.emitted).toBe(true);
		const other = await n8n.receive(
			sign(body({ deliveryId: randomUUID(), transaction: otherXtid })),
		);
		expect(other.emitted).toBe(true);
		other.answer();
		// the database holds d1, written while its execution ran; then n8n is killed: d1 is never answered
		expect(String(n8n.database().recentDeliveries).split(',')).toHaveLength(2);

		const receive = await n8n.restarted();
		const again = await receive(sign(d1.rawBody));
		expect(again.emitted).toBe(true);
		again.answer();
		// and once that run has ended, it is one execution: a further attempt is a duplicate
		expect(await receive(sign(d1.rawBody))).toMatchObject({
			emitted: false,
			body: { reason: 'duplicate delivery' },
		});
		const afterAnotherRestart = await n8n.restarted();
		expect((await afterAnotherRestart(sign(d1.rawBody))).emitted).toBe(false);
	});

	it.each([
		['the other delivery is answered first', ['other', 'd1']],
		['the delivery is answered first', ['d1', 'other']],
	])(
		'both executions ended before a restart (%s): the bank sending either again starts nothing',
		async (_order, order) => {
			const n8n = n8nWithDatabase(parameters());
			const deliveries = {
				d1: sign(body({ deliveryId: randomUUID() })),
				other: sign(body({ deliveryId: randomUUID(), transaction: otherXtid })),
			};
			const calls = {
				d1: await n8n.receive(deliveries.d1),
				other: await n8n.receive(deliveries.other),
			};
			for (const name of order as Array<keyof typeof calls>) calls[name].answer();
			const receive = await n8n.restarted();
			expect((await receive(sign(deliveries.d1.rawBody))).emitted).toBe(false);
			expect((await receive(sign(deliveries.other.rawBody))).emitted).toBe(false);
		},
	);

	it('a delivery whose sender hung up while its execution ran is saved as ended by its own call once that execution ended', async () => {
		const n8n = n8nWithDatabase(parameters());
		const d1 = sign(body({ deliveryId: randomUUID() }));
		const first = await n8n.receive(d1);
		first.hangUp();
		const other = await n8n.receive(
			sign(body({ deliveryId: randomUUID(), transaction: otherXtid })),
		);
		other.answer();
		// n8n saves the call's static data when the execution ends, though nobody waits for the answer
		first.answer();
		const receive = await n8n.restarted();
		expect((await receive(sign(d1.rawBody))).emitted).toBe(false);
	});
});

describe('deliveries that share a delivery id', () => {
	it.each([
		['another account', { account: 'eur' }],
		['another event', { event: 'TransactionConfirmed' }],
		['another transaction', { transaction: 'other' }],
	])(
		'the same delivery id for %s is another delivery: both run, and a retry of each is a duplicate',
		async (_about, change) => {
			const receive = triggerNode(false, [gbp, sandbox.seeded.accounts.eur]);
			const id = randomUUID();
			const first = body({ deliveryId: id });
			const second = body({
				deliveryId: id,
				...('account' in change && { account: sandbox.seeded.accounts.eur }),
				...('event' in change && { event: change.event }),
				...('transaction' in change && { transaction: otherXtid }),
			});
			expect(emitted(await receive(sign(first)))).toBe(true);
			expect(emitted(await receive(sign(second)))).toBe(true);
			expect(emitted(await receive(sign(first)))).toBe(false);
			expect(emitted(await receive(sign(second)))).toBe(false);
		},
	);
});

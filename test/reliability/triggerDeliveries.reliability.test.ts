/**
 * Reliability check: the bank's own deliveries of hundreds of events reach the trigger through
 * a bank whose transaction look-ups fail at random after a while, with extra copies of each delivery sent
 * at the same time and other deliveries completing meanwhile. webhook() is called as n8n calls it: static
 * data read from a "database" for each call and saved when the call is answered, a call that throws
 * answered 500. Every event the bank counts as delivered must have run exactly once, no event
 * twice, and no copy may be answered 200 for an event that never ran.
 */
import { createHmac } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { credentialsFor } from '../helpers/sandboxCredentials';
import {
	deliveryFacts,
	hookContext,
	hooks,
	startReceiver,
	trigger,
	webhookContext,
	withPayloadFields,
} from '../integration/triggerFixtures';
import type { CapturedDelivery, Receiver } from '../integration/triggerFixtures';
import { type Sandbox, startSandbox } from '../sandbox';
import { SeededRandom } from '../sandbox/random';

const EVENTS = 240;
const AT_ONCE = 20;
const COPY_PROBABILITY = 0.35;

let sandbox: Sandbox;
let receiver: Receiver;

beforeAll(async () => {
	sandbox = await startSandbox({
		port: 0,
		seed: 211,
		deliveryBackoffMs: [30, 60, 120, 240],
		deliveryTimeoutMs: 3000,
	});
	receiver = await startReceiver();
});
afterAll(async () => {
	await sandbox.close();
	await receiver.close();
});

it(`${EVENTS} events, look-ups failing at random, copies sent concurrently: each delivered event ran once, none answered 200 before it ran`, async () => {
	const gbp = sandbox.seeded.accounts.gbp;
	const credentials = credentialsFor(sandbox);
	const parameters = withPayloadFields(sandbox.variants, {
		accounts: [gbp],
		events: ['transactionReceived'],
		fetchTransaction: true,
	});
	const { context: hook } = hookContext(credentials, parameters, {
		webhookUrl: `${receiver.url}/webhook/reliability/webhook`,
	});
	await hooks.create.call(hook);

	const node = { name: 'Customer Banking Trigger', id: 'reliability-trigger' };
	const random = new SeededRandom(212);
	let database: IDataObject = {};
	const executions = new Map<string, number>();
	/** delivery id → every status answered to it, the bank's attempts and the copies */
	const answers = new Map<string, number[]>();
	let copies = 0;

	const call = async (delivery: CapturedDelivery): Promise<number> => {
		const staticData = { node: structuredClone(database), global: {} };
		const { context, response } = webhookContext(credentials, parameters, delivery, {
			node,
			staticData,
		});
		let status: number;
		try {
			const result = await trigger.webhook.call(context);
			// n8n saves the static data when it answers (an emitted delivery: after its execution)
			database = staticData.node;
			if (result.workflowData) {
				const id = String((result.workflowData[0][0].json as IDataObject).deliveryId);
				executions.set(id, (executions.get(id) ?? 0) + 1);
			}
			status = result.noWebhookResponse ? response.statusCode : 200;
		} catch {
			status = 500;
		}
		const id = String(deliveryFacts(sandbox.variants, delivery).deliveryId);
		answers.set(id, [...(answers.get(id) ?? []), status]);
		return status;
	};
	const resigned = (delivery: CapturedDelivery): CapturedDelivery => {
		const timestamp = String(Math.floor(Date.now() / 1000));
		const signature = createHmac('sha256', sandbox.signingSecret)
			.update(`${timestamp}.`)
			.update(delivery.rawBody)
			.digest('hex');
		return {
			...delivery,
			headers: {
				...delivery.headers,
				'x-cb-timestamp': timestamp,
				'x-cb-signature': `v1=${signature}`,
			},
		};
	};
	receiver.answer = async (delivery) => {
		const pending: Array<Promise<number>> = [];
		// a copy of the same delivery at the same moment, and sometimes one a little later
		if (random.next() < COPY_PROBABILITY) {
			copies++;
			pending.push(call(resigned(delivery)));
		}
		if (random.next() < COPY_PROBABILITY) {
			copies++;
			pending.push(
				new Promise((resolve) => setTimeout(resolve, 40)).then(
					async () => await call(resigned(delivery)),
				),
			);
		}
		const status = await call(delivery);
		await Promise.all(pending);
		return { status };
	};

	// look-ups that fail after a while (not retried: 404), and slow ones, so deliveries overlap
	sandbox.control.setFaults([
		{
			method: 'GET',
			path: /^\/transaction\//,
			kind: 'status',
			status: 404,
			latencyMs: 80,
			probability: 0.3,
		},
		{ method: 'GET', path: /^\/transaction\//, kind: 'latency', latencyMs: 60, probability: 0.5 },
	]);
	try {
		for (let sent = 0; sent < EVENTS; sent += AT_ONCE) {
			await Promise.all(
				Array.from(
					{ length: AT_ONCE },
					async (_, i) => await sandbox.control.receive(gbp, 1 + sent + i, `REL-${sent + i}`),
				),
			);
		}
		await sandbox.control.waitForDeliveries();
	} finally {
		sandbox.control.clearFaults();
	}

	const records = sandbox.control.deliveries().filter((d) => d.url.startsWith(receiver.url));
	const delivered = records.filter((d) => d.status === 'delivered');
	const failed = records.filter((d) => d.status === 'failed');
	const retriedToSuccess = delivered.filter((d) => d.attempts.length > 1).length;
	const ranTwice = [...executions.values()].filter((count) => count > 1).length;
	const deliveredNotRun = delivered.filter((d) => executions.get(d.deliveryId) !== 1).length;
	const failedButRun = failed.filter((d) => executions.has(d.deliveryId)).length;
	// a 200 to any copy of an event that never ran: the bank was told "received" for nothing
	const answered200NotRun = [...answers].filter(
		([id, statuses]) => statuses.includes(200) && !executions.has(id),
	).length;
	const inFlightAnswers = [...answers.values()].flat().filter((status) => status === 503).length;
	console.log(
		`trigger reliability: ${records.length} events, ${delivered.length} delivered (${retriedToSuccess} after the bank retried), ${failed.length} given up by the bank, ` +
			`${copies} extra copies, ${inFlightAnswers} answers "in flight, retry"; ${ranTwice} ran twice, ${deliveredNotRun} delivered but not run once, ` +
			`${failedButRun} given up but run, ${answered200NotRun} answered 200 without running`,
	);
	expect(records).toHaveLength(EVENTS);
	// No event lost: with the default Maximum Running Executions, deliveries over it wait for a place
	// instead of being refused again and again until the bank gives up on them. A delivery the bank gave
	// up on can still have run, through a copy sent beside its last attempt (the copy's 200 does not reach
	// the bank): on a loaded machine a few attempts time out, and that is not a lost event.
	expect(failed.length - failedButRun).toBe(0);
	expect(retriedToSuccess).toBeGreaterThan(20);
	expect(inFlightAnswers).toBeGreaterThan(0);
	expect(ranTwice).toBe(0);
	expect(deliveredNotRun).toBe(0);
	expect(answered200NotRun).toBe(0);
});

/**
 * Back-pressure: a trigger node never has more deliveries accepted and not yet answered (its
 * transaction being fetched, or its execution running: n8n answers when the execution has ended) than
 * its Maximum Running Executions; the others wait for a place (first come, first served), and only
 * those that get none within PLACE_WAIT_SECONDS get a retryable answer (503 + Retry-After), are not
 * emitted and not remembered, so a burst runs without retries and the bank's retries run each event
 * exactly once. Fed to webhook() as n8n does
 * (a fresh static-data copy per call, calls overlapping), against the sandbox; `close()` on a call's
 * response is n8n answering it (the execution ended) or the sender hanging up.
 */
import { createHmac, randomUUID } from 'node:crypto';

import type { IDataObject, IWebhookFunctions, IWebhookResponseData, Workflow } from 'n8n-workflow';
import { ObservableObject } from 'n8n-workflow';

import {
	deliveryKey,
	IN_FLIGHT_RETRY_AFTER_SECONDS,
	persistedAsEnded,
} from '../../nodes/CustomerBankingTrigger/deliveryLedger';
import {
	BUSY_RETRY_AFTER_SECONDS,
	DEFAULT_MAX_RUNNING,
	PLACE_WAIT_SECONDS,
} from '../../nodes/CustomerBankingTrigger/runningDeliveries';
import type { RecordedResponse, StaticData } from '../helpers/n8nContext';
import { credentialsFor } from '../helpers/sandboxCredentials';
import { startSandbox } from '../sandbox';
import type { Sandbox } from '../sandbox';
import { CustomerBankingTrigger } from '../../nodes/CustomerBankingTrigger/CustomerBankingTrigger.node';
import {
	deliveryBody,
	hookContext,
	hooks,
	newStaticData,
	webhookContext,
	withPayloadFields,
} from './triggerFixtures';

/** Not the suites' shared one: here the test decides when n8n answers (the execution ended). */
const trigger = new CustomerBankingTrigger();

let sandbox: Sandbox;
let gbp: string;
let xtid: string;
let nodeCounter = 0;

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 24 });
	gbp = sandbox.seeded.accounts.gbp;
	xtid = String((await sandbox.control.receive(gbp, 10, 'Back-pressure')).xtid);
	await sandbox.control.waitForDeliveries();
});

afterAll(async () => {
	await sandbox.close();
});

interface Delivery {
	id: string;
	rawBody: Buffer;
}

function delivery(id = randomUUID()): Delivery {
	const rawBody = deliveryBody(sandbox.variants, {
		deliveryId: id,
		event: 'TransactionReceived',
		account: gbp,
		transaction: xtid,
		occurredAt: new Date().toISOString(),
	});
	return { id, rawBody };
}

/** Signed afresh for each attempt, as the bank does. */
function signed({ rawBody }: Delivery): { rawBody: Buffer; headers: Record<string, string> } {
	const timestamp = Math.floor(Date.now() / 1000);
	const signature = createHmac('sha256', sandbox.signingSecret)
		.update(`${timestamp}.`)
		.update(rawBody)
		.digest('hex');
	return {
		rawBody,
		headers: { 'x-cb-timestamp': String(timestamp), 'x-cb-signature': `v1=${signature}` },
	};
}

interface Outcome {
	emitted: boolean;
	status: number;
	body?: unknown;
	retryAfter?: string;
	staticData: StaticData;
	/** n8n answering the call (its execution ended), or the sender hanging up. */
	close(): void;
	/** n8n answering the call once its execution ended (the answer sent in full). */
	answer(): void;
}

/** A trigger node of its own (its own ledger and places), watching the GBP account. */
function triggerNode(parameters: IDataObject = {}) {
	const node = { name: 'Customer Banking Trigger', id: `back-pressure-node-${++nodeCounter}` };
	const credentials = credentialsFor(sandbox);
	const all = withPayloadFields(sandbox.variants, {
		accounts: [gbp],
		events: ['transactionReceived'],
		fetchTransaction: false,
		...parameters,
	});
	const start = (one: Delivery): Started => {
		const staticData = newStaticData();
		const { context, response } = webhookContext(
			credentials,
			all,
			{ ...signed(one), path: '/webhook' },
			{ node, staticData },
		);
		const close = () => response.close();
		const answer = () => void context.getResponseObject().end();
		return {
			outcome: outcomeOf(context, response, staticData, close).then((o) => ({ ...o, answer })),
			hangUp: close,
		};
	};
	const receive = async (one: Delivery): Promise<Outcome> => await start(one).outcome;
	return Object.assign(receive, { start });
}

/** A call under way: `hangUp()` is the sender hanging up before it is answered. */
interface Started {
	outcome: Promise<Outcome>;
	hangUp(): void;
}

async function outcomeOf(
	context: IWebhookFunctions,
	response: RecordedResponse,
	staticData: StaticData,
	close: () => void,
): Promise<Omit<Outcome, 'answer'>> {
	try {
		const result: IWebhookResponseData = await trigger.webhook.call(context);
		const emitted = result.workflowData !== undefined;
		if (emitted) return { emitted, status: 200, staticData, close };
		if (result.noWebhookResponse) {
			return {
				emitted,
				status: response.statusCode,
				body: response.body,
				retryAfter: response.headers['retry-after'],
				staticData,
				close,
			};
		}
		return { emitted, status: 200, body: result.webhookResponse, staticData, close };
	} catch {
		// n8n answers 500 to an error in webhook(), which closes the response
		close();
		return { emitted: false, status: 500, staticData, close };
	}
}

const busy = {
	status: 503,
	retryAfter: String(BUSY_RETRY_AFTER_SECONDS),
	body: { received: false, reason: 'too many executions running; send again later' },
};

/** n8n running a delivery's execution: it answers (closes the call) when the execution ends. */
function endsAfter(ms: number, outcome: Outcome): void {
	if (outcome.emitted) setTimeout(() => outcome.close(), ms);
}

describe('back-pressure', () => {
	it('with Maximum Running Executions 3, a burst of 30 sent once each by a sender that never retries, executions ending shortly after: each waits for a place, none is refused, each is emitted exactly once, never more than 3 running', async () => {
		const receive = triggerNode({ options: { maxRunningExecutions: 3 } });
		const burst = Array.from({ length: 30 }, () => delivery());
		let running = 0;
		let mostRunning = 0;
		const outcomes = await Promise.all(
			burst.map(async (one) => {
				const outcome = await receive(one);
				if (outcome.emitted) {
					running++;
					mostRunning = Math.max(mostRunning, running);
					setTimeout(() => {
						running--;
						outcome.close();
					}, 40);
				}
				return outcome;
			}),
		);
		expect(outcomes.map((o) => o.status)).toEqual(Array(30).fill(200));
		expect(outcomes.filter((o) => o.emitted)).toHaveLength(30);
		expect(mostRunning).toBe(3);
		await new Promise((resolve) => setTimeout(resolve, 100));
		// every one of them, sent again, is a duplicate: each ran once
		for (const outcome of await Promise.all(burst.map(receive))) {
			expect(outcome).toMatchObject({
				emitted: false,
				status: 200,
				body: { reason: 'duplicate delivery' },
			});
		}
	});

	it(`a delivery that gets no place within ${PLACE_WAIT_SECONDS} s is asked to come back (503 + Retry-After), not emitted and not remembered; sent again once a place is free, it runs`, async () => {
		const receive = triggerNode({ options: { maxRunningExecutions: 1 } });
		const first = await receive(delivery());
		expect(first.emitted).toBe(true);
		const late = delivery();
		const startedAt = Date.now();
		expect(await receive(late)).toMatchObject(busy);
		expect(Date.now() - startedAt).toBeGreaterThanOrEqual(PLACE_WAIT_SECONDS * 1000 - 50);
		first.close();
		const again = await receive(late);
		expect(again.emitted).toBe(true);
		again.close();
	});

	it('waiting deliveries get the places in the order they came; one that gave up waiting is not handed a place later', async () => {
		const receive = triggerNode({ options: { maxRunningExecutions: 1 } });
		const first = await receive(delivery());
		const gaveUp = await receive(delivery());
		expect(gaveUp).toMatchObject(busy);
		const order: string[] = [];
		const waiting = ['a', 'b', 'c'].map(async (name) => {
			const outcome = await receive(delivery());
			order.push(name);
			expect(outcome.emitted).toBe(true);
			endsAfter(20, outcome);
		});
		await new Promise((resolve) => setTimeout(resolve, 20));
		first.close();
		await Promise.all(waiting);
		expect(order).toEqual(['a', 'b', 'c']);
	});

	it(`without the option, at most ${DEFAULT_MAX_RUNNING} are running; the others wait, and one runs as soon as a place is free`, async () => {
		const receive = triggerNode();
		const outcomes = await Promise.all(
			Array.from({ length: DEFAULT_MAX_RUNNING }, () => receive(delivery())),
		);
		expect(outcomes.filter((o) => o.emitted)).toHaveLength(DEFAULT_MAX_RUNNING);
		let settled = false;
		const waiting = receive(delivery()).then((outcome) => {
			settled = true;
			return outcome;
		});
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(settled).toBe(false);
		outcomes[0].close();
		expect((await waiting).emitted).toBe(true);
	});

	it('a copy of a delivery whose execution is still running is asked to come back, never told "received"; once n8n answered it, a copy is a duplicate', async () => {
		const receive = triggerNode({ options: { maxRunningExecutions: 5 } });
		const one = delivery();
		const first = await receive(one);
		expect(first.emitted).toBe(true);
		const copy = await receive(one);
		expect(copy).toMatchObject({
			emitted: false,
			status: 503,
			retryAfter: String(IN_FLIGHT_RETRY_AFTER_SECONDS),
			body: { received: false },
		});
		first.close();
		expect(await receive(one)).toMatchObject({
			emitted: false,
			status: 200,
			body: { received: true, emitted: false, reason: 'duplicate delivery' },
		});
	});

	it('a copy of a delivery waiting for a place is asked to come back at once; the waiting one runs once', async () => {
		const receive = triggerNode({ options: { maxRunningExecutions: 1 } });
		const first = await receive(delivery());
		const one = delivery();
		const waiting = receive(one);
		const copy = await receive(one);
		expect(copy).toMatchObject({
			emitted: false,
			status: 503,
			retryAfter: String(IN_FLIGHT_RETRY_AFTER_SECONDS),
			body: { received: false, reason: 'the same delivery is being processed' },
		});
		first.close();
		const ran = await waiting;
		expect(ran.emitted).toBe(true);
		expect((await receive(one)).emitted).toBe(false);
		ran.close();
		expect(await receive(one)).toMatchObject({
			status: 200,
			body: { reason: 'duplicate delivery' },
		});
	});

	it("a delivery whose transaction fetch fails gives its place back: the next one runs, and the bank's retry of the failed one waits for a place and runs once", async () => {
		const receive = triggerNode({ options: { maxRunningExecutions: 1 }, fetchTransaction: true });
		const failing = delivery();
		sandbox.control.setFaults([
			{ method: 'GET', path: `/transaction/${xtid}`, kind: 'status', status: 404, times: 1 },
		]);
		try {
			expect((await receive(failing)).status).toBe(500);
		} finally {
			sandbox.control.clearFaults();
		}
		const next = await receive(delivery());
		expect(next.emitted).toBe(true);
		const retried = receive(failing);
		await new Promise((resolve) => setTimeout(resolve, 20));
		next.close();
		const ran = await retried;
		expect(ran.emitted).toBe(true);
		ran.close();
		expect((await receive(failing)).emitted).toBe(false);
	});

	it('a sender that hangs up frees the place of its delivery', async () => {
		const receive = triggerNode({ options: { maxRunningExecutions: 1 } });
		const first = await receive(delivery());
		const waiting = receive(delivery());
		await new Promise((resolve) => setTimeout(resolve, 20));
		first.close();
		const second = await waiting;
		expect(second.emitted).toBe(true);
		second.close();
		expect((await receive(delivery())).emitted).toBe(true);
	});

	it('a delivery whose sender hung up while it waited still runs once it gets a place (its retry would be a duplicate; losing it would lose the event), and gives the place back at once', async () => {
		const receive = triggerNode({ options: { maxRunningExecutions: 1 } });
		const first = await receive(delivery());
		// one hangs up before it is even verified, one while it waits
		const hungUpAtOnce = receive.start(delivery());
		hungUpAtOnce.hangUp();
		const hungUpWaiting = receive.start(delivery());
		await new Promise((resolve) => setTimeout(resolve, 20));
		hungUpWaiting.hangUp();
		first.close();
		expect((await hungUpAtOnce.outcome).emitted).toBe(true);
		expect((await hungUpWaiting.outcome).emitted).toBe(true);
		// nothing will tell when their executions end (the responses are closed): the place is free
		const next = await receive(delivery());
		expect(next.emitted).toBe(true);
		next.close();
	});

	it("a delivery handed over while another still runs is written into that one's static data too (as running until n8n answered it), so whichever n8n saves last holds both", async () => {
		const receive = triggerNode({ options: { maxRunningExecutions: 5 } });
		const a = delivery();
		const b = delivery();
		const first = await receive(a);
		const second = await receive(b);
		const now = Math.floor(Date.now() / 1000);
		const keyOf = (one: Delivery) =>
			deliveryKey(
				{ deliveryId: one.id, event: 'TransactionReceived', xaid: gbp, xtid },
				one.rawBody,
			);
		const saved = (outcome: Outcome) => String(outcome.staticData.node.recentDeliveries);
		// each call's own key as ended (n8n saves it only once that execution ended), the other's as running
		expect(persistedAsEnded(first.staticData.node, keyOf(a), now, 900)).toBe(true);
		expect(saved(first)).toMatch(new RegExp(`(^|,)${keyOf(b)} \\d+ running(,|$)`));
		expect(persistedAsEnded(second.staticData.node, keyOf(b), now, 900)).toBe(true);
		expect(saved(second)).toMatch(new RegExp(`(^|,)${keyOf(a)} \\d+ running(,|$)`));
		// n8n answers b: its execution ended, and a's static data, saved later, says so
		second.answer();
		expect(persistedAsEnded(first.staticData.node, keyOf(b), now, 900)).toBe(true);
		first.answer();
	});

	it('the keys are written again once n8n has started the run, whose workflow clears the static data\'s "changed" mark (n8n 2.41.1), so n8n saves them when it answers', async () => {
		const node = { name: 'Customer Banking Trigger', id: `back-pressure-node-${++nodeCounter}` };
		const parameters = withPayloadFields(sandbox.variants, {
			accounts: [gbp],
			events: ['transactionReceived'],
			fetchTransaction: false,
		});
		const { context } = webhookContext(
			credentialsFor(sandbox),
			parameters,
			{ ...signed(delivery()), path: '/webhook' },
			{ node, staticData: newStaticData() },
		);
		const { workflow } = context as unknown as { workflow: Workflow };
		expect((await trigger.webhook.call(context)).workflowData).toBeDefined();
		expect(workflow.staticData.__dataChanged).toBe(true);
		// what 2.41.1's WorkflowRunner.run does in the same tick (establishContextForPersistence: a new
		// Workflow over the same static data object)
		ObservableObject.create(workflow.staticData);
		expect(workflow.staticData.__dataChanged).toBe(false);
		await new Promise((resolve) => setTimeout(resolve, 10));
		expect(workflow.staticData.__dataChanged).toBe(true);
		context.getResponseObject().end();
	});

	it('Maximum Running Executions outside 1 to 1000 is refused at activation, naming the field', async () => {
		for (const maxRunningExecutions of [0, 1.5, 1001]) {
			const { context } = hookContext(
				credentialsFor(sandbox),
				{ accounts: [gbp], events: ['transactionReceived'], options: { maxRunningExecutions } },
				{ staticData: newStaticData() },
			);
			await expect(hooks.create.call(context)).rejects.toThrow(
				'Maximum Running Executions must be a whole number from 1 to 1000',
			);
		}
	});
});

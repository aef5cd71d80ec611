/**
 * The admission of verified deliveries, in n8n-core's WebhookContext with express' response recorded:
 * one bank event → one execution. A copy of a delivery whose execution has not ended is asked to come
 * back (503), never "received"; once it ended, a copy is acknowledged without running; a delivery whose
 * output failed gives its key back so the bank's retry runs; at most Max Running Executions run, a
 * delivery waiting for a place at most PLACE_WAIT_SECONDS (n8n-workflow's `sleep`, scripted here).
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

import { CustomerBankingTrigger } from '../../../nodes/CustomerBankingTrigger/CustomerBankingTrigger.node';
import { admit } from '../../../nodes/CustomerBankingTrigger/admission';
import { acknowledge, Answer } from '../../../nodes/CustomerBankingTrigger/answers';
import { DeliveryLedger, deliveryKey } from '../../../nodes/CustomerBankingTrigger/deliveryLedger';
import type {
	DeliveryFacts,
	VerifiedDelivery,
} from '../../../nodes/CustomerBankingTrigger/deliverySteps';
import {
	RunningDeliveries,
	type Place,
} from '../../../nodes/CustomerBankingTrigger/runningDeliveries';
import { DEFAULT_SIGNATURE_SCHEME } from '../../../nodes/CustomerBankingTrigger/signature';
import { createWebhookContext, type StaticData } from '../../helpers/n8nContext';
import { scriptedBankCredentials } from '../../helpers/scriptedBank';

const trigger = new CustomerBankingTrigger();
const sleepMock = sleep as jest.MockedFunction<typeof sleep>;
let workflowCount = 0;

beforeEach(() => {
	sleepMock.mockReset();
	sleepMock.mockImplementation(async () => undefined);
	workflowCount++;
});

const facts = (xtid = 'tx-1'): DeliveryFacts => ({
	event: 'transactionReceived',
	xaid: 'acc-1',
	xtid,
	deliveryId: `delivery-${xtid}`,
});

const delivery = (): VerifiedDelivery => ({
	rawBody: Buffer.from('{}'),
	scheme: { ...DEFAULT_SIGNATURE_SCHEME },
	nowSeconds: Math.floor(Date.now() / 1000),
});

/** One webhook call of the trigger node of this test's workflow. */
function webhookCall(
	options: { maxRunning?: number; staticData?: StaticData; workflowId?: string } = {},
) {
	return createWebhookContext({
		nodeType: trigger,
		node: { name: 'Customer Banking Trigger', id: 'trigger-1' },
		workflowId: options.workflowId ?? `admission-${workflowCount}`,
		parameters: {
			accounts: ['acc-1'],
			events: ['transactionReceived'],
			...(options.maxRunning !== undefined && {
				options: { maxRunningExecutions: options.maxRunning },
			}),
		},
		credentials: scriptedBankCredentials(),
		staticData: options.staticData,
	});
}

type Call = ReturnType<typeof webhookCall>;

/** A delivery admitted, its output not produced yet: `settle` produces it and ends the admission. */
class Admission {
	constructor(
		private readonly produce: (output: () => Promise<IDataObject>) => void,
		private readonly admitted: Promise<Answer | IDataObject>,
	) {}

	async settle(output: () => Promise<IDataObject>): Promise<Answer | IDataObject> {
		this.produce(output);
		return await this.admitted;
	}
}

/** The admission of a delivery up to the moment it asks for its output, or its answer. */
async function take(call: Call, xtid = 'tx-1'): Promise<Answer | Admission> {
	let produce: (output: () => Promise<IDataObject>) => void = () => undefined;
	const produced = new Promise<() => Promise<IDataObject>>((resolve) => (produce = resolve));
	let asked: () => void = () => undefined;
	const outputAsked = new Promise<undefined>((resolve) => (asked = () => resolve(undefined)));
	const admitted = admit(call.context, facts(xtid), delivery(), async () => {
		asked();
		return await (
			await produced
		)();
	});
	const first = await Promise.race([outputAsked, admitted]);
	return first === undefined ? new Admission(produce, admitted) : (first as Answer);
}

/** n8n answers the delivery once its execution ended (express' response finished, then 'close'). */
function answer(call: Call) {
	call.response.finished = true;
	call.response.close();
}

/** The bank hangs up before n8n answered. */
function hangUp(call: Call) {
	call.response.close();
}

function expectComeBack(call: Call, answered: Answer | Admission, reason: string, after: string) {
	expect(answered).toEqual(new Answer({ noWebhookResponse: true }));
	expect(call.response).toMatchObject({
		statusCode: 503,
		headers: { 'retry-after': after },
		body: { received: false, reason },
	});
}

describe('Admission: one bank event, one execution', () => {
	it('a delivery is taken and handed to n8n with its output as the one item', async () => {
		const first = webhookCall();
		const admission = await take(first);
		expect(admission).toBeInstanceOf(Admission);
		await expect((admission as Admission).settle(async () => ({ ok: 1 }))).resolves.toEqual({
			ok: 1,
		});
		// its key is saved with the node's static data, as n8n saves it when it answers
		expect(String(first.staticData.node.recentDeliveries)).toMatch(/ ended$/);
	});

	it('a copy arriving before the first is handed over is asked to come back', async () => {
		const first = webhookCall();
		expect(await take(first)).toBeInstanceOf(Admission);
		const copy = webhookCall();
		expectComeBack(copy, await take(copy), 'the same delivery is being processed', '5');
	});

	it('a copy arriving while the first execution runs is asked to come back, never "received"', async () => {
		const first = webhookCall();
		await ((await take(first)) as Admission).settle(async () => ({}));
		const copy = webhookCall();
		expectComeBack(copy, await take(copy), 'the same delivery is being processed', '5');
	});

	it('a copy arriving after the first execution ended is acknowledged without running', async () => {
		const first = webhookCall();
		await ((await take(first)) as Admission).settle(async () => ({}));
		answer(first);
		const copy = webhookCall();
		expect(await take(copy)).toEqual(acknowledge('duplicate delivery'));
	});

	it('another delivery is not a copy', async () => {
		const first = webhookCall();
		await ((await take(first, 'tx-1')) as Admission).settle(async () => ({}));
		answer(first);
		expect(await take(webhookCall(), 'tx-2')).toBeInstanceOf(Admission);
	});

	it("a delivery whose output fails gives its key back: the bank's retry runs", async () => {
		const first = webhookCall();
		const admission = (await take(first)) as Admission;
		const failure = new Error('GET /transaction failed');
		await expect(admission.settle(async () => Promise.reject(failure))).rejects.toBe(failure);
		expect(await take(webhookCall())).toBeInstanceOf(Admission);
	});

	it('an execution that ended on another n8n instance (saved as ended in the static data) is acknowledged', async () => {
		const first = webhookCall();
		await ((await take(first)) as Admission).settle(async () => ({}));
		const saved = first.staticData.node;
		// the same workflow's static data, read by an instance that never saw the delivery
		const elsewhere = webhookCall({
			workflowId: `admission-other-instance-${workflowCount}`,
			staticData: { node: saved, global: {} },
		});
		expect(await take(elsewhere)).toEqual(acknowledge('duplicate delivery'));
	});

	it("a delivery is keyed on the bank's word for its event, what the bank signed", async () => {
		// the key of { deliveryId: 'delivery-tx-1', event: 'TransactionReceived', xaid: 'acc-1', xtid: 'tx-1' }
		const key = 'ozW8BT-AB49O0V5VsT8Cl8';
		expect(
			deliveryKey(
				{ deliveryId: 'delivery-tx-1', event: 'TransactionReceived', xaid: 'acc-1', xtid: 'tx-1' },
				Buffer.from('{}'),
			),
		).toBe(key);
		const saved = { recentDeliveries: `${key} ${Math.floor(Date.now() / 1000)} ended` };
		const call = webhookCall({ staticData: { node: saved, global: {} } });
		expect(await take(call)).toEqual(acknowledge('duplicate delivery'));
	});
});

describe('Admission: Max Running Executions', () => {
	it('with every place taken, a delivery that waited PLACE_WAIT_SECONDS is asked to come back, and its key is given back', async () => {
		const first = webhookCall({ maxRunning: 1 });
		expect(await take(first, 'tx-1')).toBeInstanceOf(Admission);
		const second = webhookCall({ maxRunning: 1 });
		expectComeBack(
			second,
			await take(second, 'tx-2'),
			'too many executions running; send again later',
			'5',
		);
		expect(sleepMock).toHaveBeenCalledWith(3000);
		// the refused delivery is not remembered: once a place is free, its retry runs
		hangUp(first);
		expect(await take(webhookCall({ maxRunning: 1 }), 'tx-2')).toBeInstanceOf(Admission);
	});

	it('a delivery waiting for a place gets the one freed when an execution ends', async () => {
		sleepMock.mockImplementation(async () => new Promise<void>(() => undefined));
		const first = webhookCall({ maxRunning: 1 });
		await ((await take(first, 'tx-1')) as Admission).settle(async () => ({}));
		const second = webhookCall({ maxRunning: 1 });
		const waiting = take(second, 'tx-2');
		answer(first);
		expect(await waiting).toBeInstanceOf(Admission);
	});

	it('a delivery whose sender hung up while it waited still runs, and gives its place back at once', async () => {
		sleepMock.mockImplementation(async () => new Promise<void>(() => undefined));
		const first = webhookCall({ maxRunning: 1 });
		expect(await take(first, 'tx-1')).toBeInstanceOf(Admission);
		const second = webhookCall({ maxRunning: 1 });
		const waiting = take(second, 'tx-2');
		hangUp(second);
		hangUp(first);
		const admission = await waiting;
		expect(admission).toBeInstanceOf(Admission);
		// nothing will tell when its execution ends, so its place is already free for the next one
		expect(await take(webhookCall({ maxRunning: 1 }), 'tx-3')).toBeInstanceOf(Admission);
		// and the event is not run a second time while it runs
		const copy = webhookCall({ maxRunning: 1 });
		const again = await take(copy, 'tx-2');
		expect(again).not.toBeInstanceOf(Admission);
	});

	it('an unusable Max Running Executions counts as the default (10)', async () => {
		const calls = Array.from({ length: 10 }, () => webhookCall({ maxRunning: 0 }));
		for (const [index, call] of calls.entries())
			expect(await take(call, `tx-${index}`)).toBeInstanceOf(Admission);
		const eleventh = webhookCall({ maxRunning: 0 });
		expectComeBack(
			eleventh,
			await take(eleventh, 'tx-10'),
			'too many executions running; send again later',
			'5',
		);
	});
});

describe('Admission: static data of the running deliveries', () => {
	it('a hand-over is written into the static data of every call still waiting for its answer', async () => {
		const first = webhookCall();
		await ((await take(first, 'tx-1')) as Admission).settle(async () => ({}));
		const second = webhookCall();
		await ((await take(second, 'tx-2')) as Admission).settle(async () => ({}));
		const saved = (data: IDataObject) => String(data.recentDeliveries).split(',').length;
		// the first call, answered later, saves a list that holds the second delivery too
		expect(saved(first.staticData.node)).toBe(2);
		expect(saved(second.staticData.node)).toBe(2);
	});
});

describe('Admission: what a delivery holds is given back exactly once, on every exit', () => {
	let freed: jest.SpyInstance;
	let released: jest.SpyInstance;

	beforeEach(() => {
		freed = jest.spyOn(RunningDeliveries.prototype, 'free');
		released = jest.spyOn(DeliveryLedger.prototype, 'release');
	});

	afterEach(() => jest.restoreAllMocks());

	const keyOf = (xtid = 'tx-1') =>
		deliveryKey({ ...facts(xtid), event: 'TransactionReceived' }, delivery().rawBody);
	/** How often the delivery's place was given back, and its key. */
	const givenBack = (xtid = 'tx-1') => ({
		place: freed.mock.calls.filter(([place]) => (place as Place).key === keyOf(xtid)).length,
		key: released.mock.calls.filter(([key]) => key === keyOf(xtid)).length,
	});

	it('emitted: the place once n8n has answered (not before), the key never', async () => {
		const call = webhookCall();
		await ((await take(call)) as Admission).settle(async () => ({}));
		expect(givenBack()).toEqual({ place: 0, key: 0 });
		answer(call);
		expect(givenBack()).toEqual({ place: 1, key: 0 });
	});

	it('refused as a copy: nothing of the first copy is given back', async () => {
		const first = webhookCall();
		const admission = (await take(first)) as Admission;
		const copy = webhookCall();
		expect(await take(copy)).toBeInstanceOf(Answer);
		expect(givenBack()).toEqual({ place: 0, key: 0 });
		// the first still holds the key: a third copy is asked to come back too
		expect(await take(webhookCall())).toBeInstanceOf(Answer);
		await admission.settle(async () => ({}));
		answer(first);
		expect(givenBack()).toEqual({ place: 1, key: 0 });
	});

	it('deferred for lack of a place: the key once, also after the 503 has been sent', async () => {
		const first = webhookCall({ maxRunning: 1 });
		expect(await take(first, 'tx-1')).toBeInstanceOf(Admission);
		const second = webhookCall({ maxRunning: 1 });
		expect(await take(second, 'tx-2')).toBeInstanceOf(Answer);
		expect(second.response.ended).toBe(true);
		expect(givenBack('tx-2')).toEqual({ place: 0, key: 1 });
	});

	it('output failed: the key and the place once, before the failure reaches n8n, and not again when n8n answers', async () => {
		const call = webhookCall();
		const admission = (await take(call)) as Admission;
		const failure = new Error('GET /transaction failed');
		await expect(
			admission.settle(async () => {
				throw failure;
			}),
		).rejects.toBe(failure);
		expect(givenBack()).toEqual({ place: 1, key: 1 });
		// n8n answers the failed call with 500; the bank's retry has meanwhile claimed the key again
		const retry = webhookCall();
		const retried = (await take(retry)) as Admission;
		expect(retried).toBeInstanceOf(Admission);
		answer(call);
		expect(givenBack()).toEqual({ place: 1, key: 1 });
		// so the retry still holds the key: a copy of it is asked to come back
		expect(await take(webhookCall())).toBeInstanceOf(Answer);
		await retried.settle(async () => ({}));
	});

	it('the bank hung up while the output was produced: the place once, at the hang-up; the key never', async () => {
		const call = webhookCall();
		const admission = (await take(call)) as Admission;
		hangUp(call);
		expect(givenBack()).toEqual({ place: 1, key: 0 });
		await admission.settle(async () => ({}));
		expect(givenBack()).toEqual({ place: 1, key: 0 });
	});

	it('a throw after the output was produced (while handing it over): the place once, when n8n has answered', async () => {
		const call = webhookCall();
		const admission = (await take(call)) as Admission;
		const failure = new Error('static data not writable');
		jest.spyOn(DeliveryLedger.prototype, 'recent').mockImplementationOnce(() => {
			throw failure;
		});
		await expect(admission.settle(async () => ({}))).rejects.toBe(failure);
		expect(givenBack().place).toBe(0);
		answer(call);
		expect(givenBack().place).toBe(1);
	});
});

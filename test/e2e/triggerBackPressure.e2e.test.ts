/**
 * Back-pressure in a real n8n (both lines). The trigger (Maximum Running Executions set low)
 * starts a workflow that waits; n8n answers a delivery only once its execution has ended, and while
 * the bound is reached a new delivery waits up to PLACE_WAIT_SECONDS for a place, then gets 503 with
 * Retry-After and starts nothing. A sender that resends every 503 gets each event run exactly once: executions = distinct deliveries, none twice. Also with
 * the sandbox bank's own retry policy (DECISIONS.md §Webhooks: non-2xx retried after 1, 2, 4, 8 s).
 */
import { createHmac } from 'node:crypto';

import { PLACE_WAIT_SECONDS } from '../../nodes/CustomerBankingTrigger/runningDeliveries';
import { selectedVersions } from './lib/config';
import {
	activate,
	createCredential,
	credentialData,
	deactivate,
	executionIds,
	getExecution,
	importWorkflow,
	nodeOutput,
	sleep,
	type Stack,
	startStack,
	waitFor,
	whenWebhookServes,
} from './lib/stack';

const TRIGGER = 'Customer Banking Trigger';
const MAX_RUNNING = 3;
// an execution takes 2 s: a delivery waiting for a place gets one after ~2 s (under the 3 s wait),
// one that would need a second round (4 s or more) is refused when its wait runs out
const WAIT_SECONDS = 2;

interface Answer {
	status: number;
	retryAfter: string | null;
	body: string;
	/** Milliseconds from sending to the end of the answer. */
	ms: number;
}

describe.each(selectedVersions())('n8n %s: trigger back-pressure', (version) => {
	let stack: Stack;
	let workflowId: string;
	let reference = 0;

	beforeAll(async () => {
		stack = await startStack(version);
		const { n8n, sandbox } = stack;
		const { id } = await createCredential(n8n, 'Customer Banking sandbox', credentialData(sandbox));
		workflowId = (
			await importWorkflow(n8n, 'trigger-slow.json', {
				CREDENTIAL_ID: id,
				ACCOUNT_GBP: sandbox.seeded.accounts.gbp,
				MAX_RUNNING: String(MAX_RUNNING),
				WAIT_SECONDS: String(WAIT_SECONDS),
			})
		).id;
		await activate(n8n, workflowId);
		await waitFor(
			'the subscription',
			() => (subscriptions().length === 1 ? true : undefined),
			30_000,
		);
		// n8n answers 404 on a production webhook for a moment after activation
		await whenWebhookServes(url());
	});

	afterAll(async () => {
		if (stack && workflowId) await deactivate(stack.n8n, workflowId).catch(() => undefined);
		await stack?.stop();
	});

	const subscriptions = () => stack.sandbox.control.subscriptions('workspace-1');
	const url = () => subscriptions()[0]?.url as string;

	async function post(body: string, headers: Record<string, string>): Promise<Answer> {
		const started = Date.now();
		const answer = await fetch(url(), {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...headers },
			body,
		});
		const text = await answer.text();
		return {
			status: answer.status,
			retryAfter: answer.headers.get('retry-after'),
			body: text,
			ms: Date.now() - started,
		};
	}

	const signed = (body: string) => {
		const timestamp = Math.floor(Date.now() / 1000);
		const signature = createHmac('sha256', stack.sandbox.signingSecret)
			.update(`${timestamp}.${body}`)
			.digest('hex');
		return { 'x-cb-timestamp': String(timestamp), 'x-cb-signature': `v1=${signature}` };
	};

	/** How many executions emitted each delivery id, once the running ones have ended. */
	async function executionsPerDelivery(): Promise<Map<string, number>> {
		await sleep((WAIT_SECONDS + 2) * 1000);
		const counts = new Map<string, number>();
		for (const id of await executionIds(stack.n8n, workflowId)) {
			for (const item of nodeOutput(await getExecution(stack.n8n, id), TRIGGER)) {
				const deliveryId = String(item.deliveryId);
				counts.set(deliveryId, (counts.get(deliveryId) ?? 0) + 1);
			}
		}
		return counts;
	}

	it(`a burst of 12 signed deliveries: 3 run, some wait for them to end and run, the others get 503 + Retry-After after waiting ${PLACE_WAIT_SECONDS} s; resending every 503 runs each exactly once`, async () => {
		const { sandbox } = stack;
		// one delivery of the sandbox's as the template (its own execution ends before the burst)
		const before = sandbox.control.deliveries().length;
		await sandbox.control.receive(sandbox.seeded.accounts.gbp, 10, `E2E-BP-${++reference}`);
		await sandbox.control.waitForDeliveries();
		const template = sandbox.control.deliveries()[before];
		await sleep((WAIT_SECONDS + 1) * 1000);
		const ids = Array.from({ length: 12 }, (_, i) => `e2e-burst-${i}-${Date.now()}`);
		const bodies = ids.map((id) =>
			template.body.replace(/"deliveryId":"[^"]+"/, `"deliveryId":"${id}"`),
		);

		const first = await Promise.all(bodies.map((body) => post(body, signed(body))));
		const accepted = first.filter((a) => a.status === 200);
		const refused = first.filter((a) => a.status === 503);
		console.log(
			`n8n ${version}: first answers ${first.map((a) => `${a.status} in ${a.ms} ms`).join(', ')}`,
		);
		expect(accepted.length + refused.length).toBe(12);
		// the first three run; a delivery waiting gets the place of each that ends within its wait. n8n
		// reads the 12 requests one after the other, so a late one's wait ends later and may catch a place
		// of the second round: how many are taken depends on the machine, not how long any waited
		expect(accepted.length).toBeGreaterThan(MAX_RUNNING);
		expect(refused.length).toBeGreaterThan(0);
		// none waited longer for a place than those refused did: each was answered by the last refusal
		// plus one run (+ 2 s of n8n's overhead)
		const lastRefusal = Math.max(...refused.map((a) => a.ms));
		for (const answer of accepted)
			expect(answer.ms).toBeLessThanOrEqual(lastRefusal + (WAIT_SECONDS + 2) * 1000);
		for (const answer of refused) {
			// refused only once the wait for a place ran out
			expect(answer.ms).toBeGreaterThanOrEqual(PLACE_WAIT_SECONDS * 1000 - 100);
			expect(answer.retryAfter).toBe('5');
			expect(JSON.parse(answer.body)).toEqual({
				received: false,
				reason: 'too many executions running; send again later',
			});
		}
		// answered only once the execution ended (the workflow waits WAIT_SECONDS)
		for (const answer of accepted)
			expect(answer.ms).toBeGreaterThanOrEqual(WAIT_SECONDS * 1000 - 100);
		// those beyond the first three waited for one of them to end, then ran
		const times = accepted.map((a) => a.ms).sort((x, y) => x - y);
		for (const ms of times.slice(MAX_RUNNING))
			expect(ms).toBeGreaterThanOrEqual(times[0] + WAIT_SECONDS * 1000 - 100);

		// the sender resends every 503 (sooner than Retry-After, which is allowed), and copies of what was answered
		let pending = bodies.filter((_, i) => first[i].status !== 200);
		const answered = bodies.filter((_, i) => first[i].status === 200);
		let attempts = 12;
		while (pending.length > 0 && attempts < 200) {
			await sleep(500);
			const round = await Promise.all(pending.map((body) => post(body, signed(body))));
			attempts += round.length;
			for (const answer of round) expect([200, 503]).toContain(answer.status);
			answered.push(...pending.filter((_, i) => round[i].status === 200));
			pending = pending.filter((_, i) => round[i].status !== 200);
		}
		expect(pending).toEqual([]);
		const copies = await Promise.all(answered.slice(0, 3).map((body) => post(body, signed(body))));
		for (const copy of copies)
			expect(JSON.parse(copy.body)).toEqual({
				received: true,
				emitted: false,
				reason: 'duplicate delivery',
			});

		const counts = await executionsPerDelivery();
		expect(ids.map((id) => counts.get(id) ?? 0)).toEqual(Array(12).fill(1));
		console.log(
			`n8n ${version}: 12 deliveries, ${attempts} attempts, ${attempts - 12} answered 503 first`,
		);
	});

	it('the sandbox bank delivers 8 events at once: those that get no place within the wait are refused with 503 and retried by the bank, every one runs exactly once', async () => {
		const { sandbox } = stack;
		const before = sandbox.control.deliveries().length;
		const xtids: string[] = [];
		for (let i = 0; i < 8; i++) {
			xtids.push(
				String(
					(
						await sandbox.control.receive(
							sandbox.seeded.accounts.gbp,
							20 + i,
							`E2E-BPB-${++reference}`,
						)
					).xtid,
				),
			);
		}
		await waitFor(
			'the bank to have delivered every event',
			() => {
				const records = sandbox.control.deliveries().slice(before);
				return records.length >= 8 && records.every((d) => d.status !== 'pending')
					? true
					: undefined;
			},
			60_000,
			500,
		);
		await sandbox.control.waitForDeliveries();
		const records = sandbox.control.deliveries().slice(before);
		expect(records.map((d) => d.status)).toEqual(Array(8).fill('delivered'));
		const counts = await executionsPerDelivery();
		expect(records.map((d) => counts.get(d.deliveryId) ?? 0)).toEqual(Array(8).fill(1));
		const attempts = records.map((d) => d.attempts.length);
		console.log(`n8n ${version}: the bank's 8 deliveries took ${attempts.join(', ')} attempts`);
		expect(Math.max(...attempts)).toBeGreaterThan(1);
	});
});

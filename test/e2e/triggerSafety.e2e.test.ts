/**
 * The trigger in a real n8n (both lines): after deactivations that failed part-way, activation leaves
 * every subscription live; one bank delivery starts at most one execution for concurrent copies, for the
 * bank's retries during a slow transaction fetch, and across an n8n restart; a delivery whose transaction
 * fetch fails is run when the bank retries it, and no copy is answered 200 before its event ran.
 */
import { createHmac } from 'node:crypto';

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

describe.each(selectedVersions())('n8n %s: trigger safety', (version) => {
	let stack: Stack;
	let workflowId: string;
	let credentialId: string;
	let reference = 0;

	beforeAll(async () => {
		stack = await startStack(version);
		const { n8n, sandbox } = stack;
		const { id } = await createCredential(n8n, 'Customer Banking sandbox', credentialData(sandbox));
		credentialId = id;
		workflowId = (
			await importWorkflow(n8n, 'trigger.json', {
				CREDENTIAL_ID: id,
				ACCOUNT_GBP: sandbox.seeded.accounts.gbp,
				ACCOUNT_EUR: sandbox.seeded.accounts.eur,
			})
		).id;
	});

	afterAll(async () => {
		await stack?.stop();
	});

	const subscriptions = () => stack.sandbox.control.subscriptions('workspace-1');
	const url = () => subscriptions()[0]?.url as string;

	async function activated(): Promise<void> {
		await activate(stack.n8n, workflowId);
		await waitFor(
			'4 subscriptions',
			() => (subscriptions().length === 4 ? true : undefined),
			30_000,
		);
		// n8n answers 404 on a production webhook for a moment after activation
		await whenWebhookServes(url());
	}

	/** The status n8n answers, or 0 when it closed the connection without one. */
	async function post(body: string, headers: Record<string, string>): Promise<number> {
		try {
			const answer = await fetch(url(), {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...headers },
				body,
			});
			await answer.text();
			return answer.status;
		} catch {
			return 0;
		}
	}

	/** The delivery the sandbox made for money received now, with its body, re-signable at will. */
	async function aDelivery(): Promise<{ body: string; deliveryId: string; xtid: string }> {
		const { sandbox } = stack;
		const before = sandbox.control.deliveries().length;
		const transaction = await sandbox.control.receive(
			sandbox.seeded.accounts.gbp,
			10 + ++reference,
			`E2E-SAFE-${reference}`,
		);
		await sandbox.control.waitForDeliveries();
		const record = sandbox.control
			.deliveries()
			.slice(before)
			.find((d) => d.xtid === transaction.xtid);
		if (!record) throw new Error('the sandbox made no delivery');
		return { body: record.body, deliveryId: record.deliveryId, xtid: String(transaction.xtid) };
	}

	const signed = (body: string, secret = stack.sandbox.signingSecret) => {
		const timestamp = Math.floor(Date.now() / 1000);
		const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
		return { 'x-cb-timestamp': String(timestamp), 'x-cb-signature': `v1=${signature}` };
	};

	/** Executions of the trigger workflow that emitted this delivery id, once n8n has settled. */
	async function executionsOf(deliveryId: string): Promise<number> {
		await sleep(3000);
		let count = 0;
		for (const id of await executionIds(stack.n8n, workflowId)) {
			const execution = await getExecution(stack.n8n, id);
			if (nodeOutput(execution, TRIGGER).some((item) => item.deliveryId === deliveryId)) count++;
		}
		return count;
	}

	it('deactivations whose unsubscribes fail or lose their answers, then activation: every subscription is live and a delivery starts an execution', async () => {
		const { n8n, sandbox } = stack;
		await activated();

		sandbox.control.setFaults([
			{ method: 'DELETE', path: '/webhooks/unsubscribe', kind: 'status', status: 500, times: 2 },
		]);
		await deactivate(n8n, workflowId);
		await sleep(2000);
		await activated();

		// every unsubscribe commits at the bank but its answer is lost: n8n keeps believing they exist
		sandbox.control.setFaults([
			{ method: 'DELETE', path: '/webhooks/unsubscribe', kind: 'commitThenDrop' },
		]);
		await deactivate(n8n, workflowId);
		await waitFor(
			'the bank to have removed them',
			() => (subscriptions().length === 0 ? true : undefined),
			30_000,
		);
		sandbox.control.clearFaults();
		await activated();

		const live = subscriptions();
		expect(live.map((s) => `${s.xaid} ${s.event}`).sort()).toEqual(
			[sandbox.seeded.accounts.gbp, sandbox.seeded.accounts.eur]
				.flatMap((xaid) =>
					['TransactionConfirmed', 'TransactionReceived'].map((event) => `${xaid} ${event}`),
				)
				.sort(),
		);
		const { deliveryId } = await aDelivery();
		expect(sandbox.control.deliveries().find((d) => d.deliveryId === deliveryId)?.status).toBe(
			'delivered',
		);
		expect(await executionsOf(deliveryId)).toBe(1);
	});

	it('10 concurrent copies of one delivery start one execution', async () => {
		if (subscriptions().length < 4) await activated();
		const delivery = await aDelivery();
		const statuses = await Promise.all(
			Array.from({ length: 10 }, () => post(delivery.body, signed(delivery.body))),
		);
		expect(statuses).toEqual(Array(10).fill(200));
		// the sandbox's own delivery, plus 10 copies: still one execution
		expect(await executionsOf(delivery.deliveryId)).toBe(1);
	});

	it('copies sent while the first one still fetches a slow transaction start one execution', async () => {
		const { sandbox } = stack;
		if (subscriptions().length < 4) await activated();
		const before = sandbox.control.deliveries().length;
		sandbox.control.setFaults([
			{ method: 'GET', path: /^\/transaction\//, kind: 'latency', latencyMs: 2500 },
		]);
		const transaction = await sandbox.control.receive(
			sandbox.seeded.accounts.gbp,
			77.7,
			'E2E-SLOW-FETCH',
		);
		const record = await waitFor('the sandbox to send the delivery', () =>
			sandbox.control
				.deliveries()
				.slice(before)
				.find((d) => d.xtid === transaction.xtid),
		);
		const copies: Array<Promise<number>> = [];
		for (let i = 0; i < 3; i++) {
			copies.push(post(record.body, signed(record.body)));
			await sleep(400);
		}
		const statuses = await Promise.all(copies);
		// while the first one runs, a copy is asked to come back (503), never told "received" early
		expect(statuses.every((status) => status === 503 || status === 200)).toBe(true);
		expect(statuses.filter((status) => status === 503).length).toBeGreaterThanOrEqual(2);
		await sandbox.control.waitForDeliveries();
		sandbox.control.clearFaults();
		expect(
			sandbox.control.deliveries().find((d) => d.deliveryId === record.deliveryId)?.status,
		).toBe('delivered');
		expect(await executionsOf(record.deliveryId)).toBe(1);
	});

	/** A delivery of an existing transaction with a delivery id of its own, sent by the test as the bank would. */
	async function ownDelivery(
		label: string,
	): Promise<{ body: string; deliveryId: string; xtid: string }> {
		const template = await aDelivery();
		const deliveryId = `e2e-${label}-${Date.now()}`;
		const body = template.body.replace(/"deliveryId":"[^"]+"/, `"deliveryId":"${deliveryId}"`);
		expect(body).toContain(deliveryId);
		return { body, deliveryId, xtid: template.xtid };
	}

	it("another delivery completes while the first one fetches, then the first one's fetch fails: the bank's retry runs once", async () => {
		const { sandbox } = stack;
		if (subscriptions().length < 4) await activated();
		const first = await ownDelivery('lost-a');
		const other = await ownDelivery('lost-a-other');
		sandbox.control.setFaults([
			{
				method: 'GET',
				path: `/transaction/${first.xtid}`,
				kind: 'status',
				status: 404,
				latencyMs: 2000,
				times: 1,
			},
		]);
		try {
			const firstAnswer = post(first.body, signed(first.body));
			await sleep(400);
			// n8n saves the static data this one writes
			expect(await post(other.body, signed(other.body))).toBe(200);
			// the fetch error fails the webhook call: n8n answers 500 (both lines), and the bank retries
			expect(await firstAnswer).toBe(500);
		} finally {
			sandbox.control.clearFaults();
		}
		expect(await executionsOf(first.deliveryId)).toBe(0);
		// the bank's retry: processed, not "duplicate"
		expect(await post(first.body, signed(first.body))).toBe(200);
		expect(await executionsOf(first.deliveryId)).toBe(1);
		expect(await executionsOf(other.deliveryId)).toBe(1);
	});

	it("a copy arriving while the first one fetches is not answered 200; the first one fails; the bank's retry runs once", async () => {
		const { sandbox } = stack;
		if (subscriptions().length < 4) await activated();
		const delivery = await ownDelivery('lost-b');
		sandbox.control.setFaults([
			{
				method: 'GET',
				path: `/transaction/${delivery.xtid}`,
				kind: 'status',
				status: 404,
				latencyMs: 2000,
				times: 1,
			},
		]);
		try {
			const firstAnswer = post(delivery.body, signed(delivery.body));
			await sleep(500);
			expect(await post(delivery.body, signed(delivery.body))).toBe(503);
			// the fetch error fails the webhook call: n8n answers 500 (both lines), and the bank retries
			expect(await firstAnswer).toBe(500);
		} finally {
			sandbox.control.clearFaults();
		}
		expect(await post(delivery.body, signed(delivery.body))).toBe(200);
		expect(await post(delivery.body, signed(delivery.body))).toBe(200);
		expect(await executionsOf(delivery.deliveryId)).toBe(1);
	});

	it("a burst of forged deliveries: every one refused (401, or 500 for the one summary due), and summarised in n8n's log instead of a line each", async () => {
		if (subscriptions().length < 4) await activated();
		const template = await aDelivery();
		const refusals = () =>
			(stack.n8n.logs().match(/Customer Banking Trigger: refused/g) ?? []).length;
		const before = refusals();
		const statuses: number[] = [];
		for (let wave = 0; wave < 10; wave++) {
			statuses.push(
				...(await Promise.all(
					Array.from({ length: 10 }, (_, i) => {
						const body = template.body.replace(
							/"deliveryId":"[^"]+"/,
							`"deliveryId":"e2e-forged-${wave}-${i}-${Date.now()}"`,
						);
						return post(body, signed(body, 'whsec_guessed_by_an_attacker'));
					}),
				)),
			);
		}
		// the summary due in this minute is reported as a failed execution (500), once; every other 401
		const reported = statuses.filter((status) => status !== 401);
		expect(reported.length <= 1 && reported.every((status) => status === 500)).toBe(true);
		expect(statuses.filter((status) => status === 401)).toHaveLength(100 - reported.length);
		await sleep(500);
		// one summary at most once a minute per trigger (a refusal shortly before may have started the
		// minute): never a line each
		expect(refusals() - before).toBeLessThanOrEqual(2);
		// and the summaries do reach n8n's log
		expect(refusals()).toBeGreaterThanOrEqual(1);
		expect(await executionsOf(template.deliveryId)).toBe(1);
	});

	it('a delivery, n8n restarted, the same delivery again: one execution', async () => {
		if (subscriptions().length < 4) await activated();
		const delivery = await aDelivery();
		expect(await executionsOf(delivery.deliveryId)).toBe(1);
		await stack.n8n.restart();
		await whenWebhookServes(url(), 60_000);
		expect(await post(delivery.body, signed(delivery.body))).toBe(200);
		expect(await executionsOf(delivery.deliveryId)).toBe(1);
		// and a new delivery still starts one
		const next = await aDelivery();
		expect(await executionsOf(next.deliveryId)).toBe(1);
	});

	it('a signing secret saved in the credential while the trigger is active is used at once, and the one it replaced is refused', async () => {
		const { n8n, sandbox } = stack;
		if (subscriptions().length < 4) await activated();
		// the trigger has verified deliveries and remembers the sandbox's secret
		const first = await aDelivery();
		expect(await executionsOf(first.deliveryId)).toBe(1);

		const replacement = `whsec_e2e_replacement_${Date.now()}`;
		const saveSecret = async (secret: string) =>
			await n8n.restOk('PATCH', `/credentials/${credentialId}`, {
				name: 'Customer Banking sandbox',
				type: 'customerBankingApi',
				data: credentialData(sandbox, 'full', {
					webhookSigningSecret: secret,
					webhookSigningSecretPrevious: '',
				}),
			});
		await saveSecret(replacement);
		try {
			// the delivery above with new delivery ids: nothing the sandbox sends while its secret is not the credential's
			const fresh = first.body.replace(
				/"deliveryId":"[^"]+"/,
				`"deliveryId":"e2e-replacement-${Date.now()}"`,
			);
			expect(await post(fresh, signed(fresh, replacement))).toBe(200);
			const again = fresh.replace(
				/"deliveryId":"[^"]+"/,
				`"deliveryId":"e2e-replaced-${Date.now()}"`,
			);
			// refused: 401, or 500 when it is the refusal reported this minute (the first since n8n restarted)
			expect([401, 500]).toContain(await post(again, signed(again, sandbox.signingSecret)));
			expect(await executionsOf(JSON.parse(again).deliveryId as string)).toBe(0);
		} finally {
			await saveSecret(sandbox.signingSecret);
		}
		// and the sandbox's own deliveries are verified again with the restored secret
		const restored = await aDelivery();
		expect(
			sandbox.control.deliveries().find((d) => d.deliveryId === restored.deliveryId)?.status,
		).toBe('delivered');
		expect(await executionsOf(restored.deliveryId)).toBe(1);
	});
});

describe.each(selectedVersions())(
	'n8n %s: trigger across a crash (n8n killed mid-execution)',
	(version) => {
		const SLOW_PREFIX = 'e2e-crash-slow-';
		/** Long enough for another delivery to be answered and n8n to be killed while it runs. */
		const SLOW_SECONDS = 20;
		let stack: Stack;
		let workflowId: string;

		beforeAll(async () => {
			stack = await startStack(version);
			const { n8n, sandbox } = stack;
			const { id } = await createCredential(
				n8n,
				'Customer Banking sandbox',
				credentialData(sandbox),
			);
			workflowId = (
				await importWorkflow(n8n, 'trigger-crash.json', {
					CREDENTIAL_ID: id,
					ACCOUNT_GBP: sandbox.seeded.accounts.gbp,
					SLOW_PREFIX,
					SLOW_SECONDS: String(SLOW_SECONDS),
				})
			).id;
			await activate(n8n, workflowId);
			await waitFor('the subscription', () =>
				stack.sandbox.control.subscriptions('workspace-1').length === 1 ? true : undefined,
			);
			await registered();
		});

		afterAll(async () => {
			await stack?.stop();
		});

		const url = () => stack.sandbox.control.subscriptions('workspace-1')[0]?.url as string;

		/** n8n answers 404 on a production webhook for a moment after activation (and after a restart). */
		async function registered(): Promise<void> {
			await whenWebhookServes(url(), 60_000);
		}

		/** The status and body n8n answers, signed afresh; status 0 when the connection was cut without one. */
		async function post(body: string): Promise<{ status: number; text: string }> {
			const timestamp = Math.floor(Date.now() / 1000);
			const signature = createHmac('sha256', stack.sandbox.signingSecret)
				.update(`${timestamp}.${body}`)
				.digest('hex');
			try {
				const answer = await fetch(url(), {
					method: 'POST',
					headers: {
						'content-type': 'application/json',
						'x-cb-timestamp': String(timestamp),
						'x-cb-signature': `v1=${signature}`,
					},
					body,
				});
				return { status: answer.status, text: await answer.text() };
			} catch {
				return { status: 0, text: '' };
			}
		}

		/** Successful executions that emitted this delivery id. */
		async function succeeded(deliveryId: string): Promise<number> {
			let count = 0;
			for (const id of await executionIds(stack.n8n, workflowId)) {
				const execution = await getExecution(stack.n8n, id);
				if (execution.status !== 'success') continue;
				if (nodeOutput(execution, TRIGGER).some((item) => item.deliveryId === deliveryId)) count++;
			}
			return count;
		}

		/** The ids of deliveries the trigger's static data holds, as n8n saved it in its database. */
		async function savedDeliveries(): Promise<string[]> {
			const workflow = await stack.n8n.restOk<{ data: { staticData?: unknown } }>(
				'GET',
				`/workflows/${workflowId}`,
			);
			const raw = workflow.data.staticData;
			const staticData = (typeof raw === 'string' ? JSON.parse(raw) : (raw ?? {})) as Record<
				string,
				Record<string, unknown> | undefined
			>;
			const saved = staticData[`node:${TRIGGER}`]?.recentDeliveries;
			return typeof saved === 'string' && saved !== '' ? saved.split(',') : [];
		}

		it("activated with a sandbox credential on n8n's http address: subscribed, and a warning naming WEBHOOK_URL in n8n's log", () => {
			expect(url()).toMatch(/^http:\/\//);
			const warning = stack.n8n
				.logs()
				.split('\n')
				.find((line) => line.includes('Customer Banking Trigger: The webhook address'));
			expect(warning).toContain('is not https (http://127.0.0.1:');
			expect(warning).toContain('WEBHOOK_URL');
		});

		it("a delivery whose execution runs while another delivery is answered, n8n killed (kill -9) before it ends: the bank's next attempt runs it, once", async () => {
			const { sandbox } = stack;
			// a delivery the sandbox makes, as the body the bank would send
			const before = sandbox.control.deliveries().length;
			const transaction = await sandbox.control.receive(
				sandbox.seeded.accounts.gbp,
				42,
				'E2E-CRASH',
			);
			await sandbox.control.waitForDeliveries();
			const template = sandbox.control
				.deliveries()
				.slice(before)
				.find((d) => d.xtid === transaction.xtid);
			if (!template) throw new Error('the sandbox made no delivery');
			const withId = (deliveryId: string) =>
				template.body.replace(/"deliveryId":"[^"]+"/, `"deliveryId":"${deliveryId}"`);
			const slow = { id: `${SLOW_PREFIX}${Date.now()}`, body: '' };
			slow.body = withId(slow.id);
			const quick = { id: `e2e-crash-quick-${Date.now()}`, body: '' };
			quick.body = withId(quick.id);
			expect(slow.body).toContain(slow.id);
			await waitFor('the sandbox delivery to be saved', async () =>
				(await savedDeliveries()).length >= 1 ? true : undefined,
			);
			const savedBefore = (await savedDeliveries()).length;

			let slowAnswered = false;
			const slowAnswer = post(slow.body).finally(() => (slowAnswered = true));
			await sleep(1500);
			// another delivery answered while the slow one's execution runs: n8n saves the static data it
			// wrote, which names the slow one too
			expect(await post(quick.body)).toEqual({ status: 200, text: '' });
			expect((await savedDeliveries()).length).toBe(savedBefore + 2);
			expect(slowAnswered).toBe(false);

			await stack.n8n.killAndRestart();
			// n8n never answered it: the bank sends it again
			expect((await slowAnswer).status).toBe(0);
			await registered();

			const again = await post(slow.body);
			// run, and answered once its execution ended (not "duplicate delivery")
			expect(again).toEqual({ status: 200, text: '' });
			expect(await succeeded(slow.id)).toBe(1);
			// from now on both are duplicates: each ran once
			for (const delivery of [slow, quick]) {
				const copy = await post(delivery.body);
				expect(copy.status).toBe(200);
				expect(JSON.parse(copy.text)).toMatchObject({ reason: 'duplicate delivery' });
			}
			expect(await succeeded(quick.id)).toBe(1);
			expect(await succeeded(slow.id)).toBe(1);
		});
	},
);

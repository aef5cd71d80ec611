/**
 * The package in n8n's queue mode (n8n 2.41.1 main + 2 workers + 2 webhook processes behind nginx
 * running examples/deploy/nginx-webhooks.conf, main serving no production webhooks, Postgres and
 * Redis), each scenario checked against the sandbox's ledger and n8n's executions: every action
 * operation run by a worker; the trigger activated by main, its signed deliveries sent through the
 * load balancer and run by a worker; simultaneous copies of one delivery through the load balancer
 * and, bypassing it, to both webhook processes; a webhook process SIGKILLed while the bank delivers,
 * and while an execution it handed over runs on a worker;
 * the approval trigger's events exactly once; payments whose worker is SIGKILLed mid-execution, then
 * n8n's Retry in both modes. Ends by checking that stopping everything leaves no process and no port
 * behind.
 */
import {
	loadWorkflow,
	activate,
	createSandboxCredential,
	deactivate,
	type Execution,
	executionError,
	executionIds,
	getExecution,
	importWorkflow,
	nodeOutput,
	sleep,
	waitFor,
	whenWebhookServes,
} from '../e2e/lib/stack';
import { packedTarball } from '../e2e/lib/pack';
import { portsInUse, processesUsing, type QueueInstance } from './lib/cluster';
import type { BalancedRequest } from './lib/services';
import {
	finishedExecutions,
	post,
	postWhenRegistered,
	type QueueStack,
	signed,
	type WebhookAnswer,
	startQueueStack,
	workersThatRan,
} from './lib/queueStack';

const TRIGGER = 'Customer Banking Trigger';
const APPROVAL_TRIGGER = 'Customer Banking Approval Trigger';
/** trigger.json's webhookId: the trigger's production webhook is /webhook/<id>/webhook */
const TRIGGER_WEBHOOK_PATH = 'e2e00000-0000-4000-8000-000000000901/webhook';

const say = (line: string) => process.stdout.write(`${line}\n`);

describe('n8n 2.41.1 in queue mode: main, 2 workers, 2 webhook processes behind nginx, Postgres, Redis', () => {
	let stack: QueueStack;
	let credentialId: string;
	let runDir: string;
	let pids: number[] = [];

	beforeAll(async () => {
		stack = await startQueueStack({ tarball: packedTarball(), workers: 2, webhooks: 2, say });
		runDir = stack.cluster.runDir;
		credentialId = (await createSandboxCredential(stack.cluster.n8n, stack.sandbox)).id;
	});

	afterAll(async () => {
		await stack?.stop();
	});

	afterEach(() => stack?.sandbox.control.clearFaults());

	const n8n = () => stack.cluster.n8n;
	const ledger = () => stack.sandbox.control.ledger();

	/** every process of the cluster, for the teardown check (killed workers' pids are added as they go) */
	const remember = () => {
		const { cluster } = stack;
		pids = [
			...new Set([
				...pids,
				...cluster.instances().map((i) => i.pid),
				cluster.postgres.process.child.pid ?? 0,
				cluster.redis.process.child.pid ?? 0,
				cluster.balancer?.process.child.pid ?? 0,
			]),
		];
	};

	it('every action operation once: webhook received by the webhook instance, run by a worker, answers matching the bank', async () => {
		remember();
		const { sandbox, cluster } = stack;
		const gbp = sandbox.seeded.accounts.gbp;
		const workflow = await importWorkflow(n8n(), 'operations.json', {
			CREDENTIAL_ID: credentialId,
		});
		await activate(n8n(), workflow.id);
		const before = await executionIds(n8n(), workflow.id);

		const answer = await postWhenRegistered(cluster.webhook, 'e2e-operations', {
			gbp,
			payeeName: 'Queue Supplies Ltd',
			reference: 'QUEUE-OPS-0001',
			batchReference: 'QUEUE-OPS-0002',
		});
		expect(answer.status).toBe(200);
		const [execution] = await finishedExecutions(cluster, workflow.id, before, 1);

		expect(executionError(execution)).toBeUndefined();
		expect(execution.status).toBe('success');
		expect(workersThatRan(cluster, execution.id)).toHaveLength(1);
		expect(cluster.main.logs()).not.toContain(`Worker started execution ${execution.id} (job`);
		// every node of the workflow ran, each operation once
		const ran = Object.keys(execution.data.resultData.runData).sort();
		expect(ran).toEqual(workflow.nodes.map((node) => node.name).sort());

		const after = ledger();
		const [paid] = nodeOutput(execution, 'Pay');
		expect(paid).toEqual(
			expect.objectContaining({ status: 'sent', amount: 12.34, reference: 'QUEUE-OPS-0001' }),
		);
		expect(after.transactions.filter((t) => t.reference === 'QUEUE-OPS-0001')).toEqual([
			expect.objectContaining({
				xtid: paid.transactionId,
				xaid: gbp,
				direction: 'outgoing',
				status: 'sent',
				amount: 12.34,
			}),
		]);
		const [batched] = nodeOutput(execution, 'Pay Batch');
		expect(batched).toEqual(
			expect.objectContaining({
				status: 'pending_approval',
				amount: 1500,
				approvalId: expect.any(String),
			}),
		);
		expect(after.approvals.filter((a) => a.xtid === batched.transactionId)).toEqual([
			expect.objectContaining({ ref: batched.approvalId, status: 'pending' }),
		]);
		const [created] = nodeOutput(execution, 'Create Payee');
		expect(nodeOutput(execution, 'Upsert Payee')).toEqual([
			expect.objectContaining({ xpid: created.payeeId }),
		]);
		expect(nodeOutput(execution, 'Balance')).toEqual([
			expect.objectContaining({ currency: 'GBP', balance: expect.any(Number) }),
		]);
		expect(nodeOutput(execution, 'Transaction')).toEqual([
			expect.objectContaining({ transactionId: paid.transactionId, amount: 12.34 }),
		]);
		expect(nodeOutput(execution, 'Approval')).toEqual([
			expect.objectContaining({ approvalId: batched.approvalId }),
		]);
		expect(nodeOutput(execution, 'Approvals').map((a) => a.approvalId)).toEqual(
			after.approvals.map((a) => a.ref),
		);
		expect(nodeOutput(execution, 'Payment Status')).toEqual([
			expect.objectContaining({ status: 'sent', transactionId: paid.transactionId }),
		]);
		expect(nodeOutput(execution, 'Batch Payment Status')).toEqual([
			expect.objectContaining({ status: 'pending_approval', approvalId: batched.approvalId }),
		]);
		const payments = sandbox.control
			.requests()
			.filter((r) => r.method === 'POST' && r.path === '/payments');
		expect(payments.map((r) => r.headers['x-idempotent-key'])).toEqual([
			paid.idempotencyKey,
			batched.idempotencyKey,
		]);
	});

	describe('Customer Banking Trigger', () => {
		let workflowId: string;
		let known: string[] = [];
		let reference = 0;
		const subscriptions = () => stack.sandbox.control.subscriptions('workspace-1');

		const emittedBy = new Map<string, string[]>();
		/** Reads the trigger's new executions; returns, per delivery id, the executions that emitted it. */
		async function executionsByDelivery(): Promise<Map<string, string[]>> {
			const executions = await finishedExecutions(stack.cluster, workflowId, known, 0);
			for (const execution of executions) {
				expect(executionError(execution)).toBeUndefined();
				emittedBy.set(
					execution.id,
					nodeOutput(execution, TRIGGER).map((item) => String(item.deliveryId)),
				);
			}
			known = [...known, ...executions.map((e) => e.id)];
			const byDelivery = new Map<string, string[]>();
			for (const [id, deliveryIds] of emittedBy)
				for (const deliveryId of deliveryIds)
					byDelivery.set(deliveryId, [...(byDelivery.get(deliveryId) ?? []), id]);
			return byDelivery;
		}

		/** Executions of each of `deliveryIds`, once each has at least `atLeast`, plus any that come within 3 s more. */
		async function executionsOfAll(
			deliveryIds: string[],
			atLeast: number,
			timeoutMs = 60_000,
		): Promise<Map<string, string[]>> {
			await waitFor(
				`${atLeast} execution(s) of each of ${deliveryIds.length} deliveries`,
				async () => {
					const byDelivery = await executionsByDelivery();
					return deliveryIds.every((id) => (byDelivery.get(id) ?? []).length >= atLeast)
						? true
						: undefined;
				},
				timeoutMs,
				500,
			);
			await sleep(3000);
			return await executionsByDelivery();
		}

		/** Ids of the trigger's executions that emitted `deliveryId`: at least `atLeast`, plus any that come within 3 s more. */
		async function executionsOf(deliveryId: string, atLeast: number): Promise<string[]> {
			return (await executionsOfAll([deliveryId], atLeast)).get(deliveryId) ?? [];
		}

		const triggerUrl = (base: string) => `${base}/webhook/${TRIGGER_WEBHOOK_PATH}`;
		/** The webhook process nginx passed a trigger's path to last (its last answered request there). */
		const processServingTrigger = (webhookPath = TRIGGER_WEBHOOK_PATH): QueueInstance => {
			const { cluster } = stack;
			const served = (cluster.balancer?.requests() ?? []).filter(
				(r) => r.path === `/webhook/${webhookPath}` && r.upstreams.length > 0,
			);
			const last = served.at(-1)?.upstreams.at(-1);
			const instance = cluster.webhooks.find((w) => w.url === `http://${last}`);
			if (!instance) throw new Error(`no webhook process at ${last}`);
			return instance;
		};

		/** The body of a delivery the sandbox made, with another delivery id: a delivery n8n has not seen. */
		async function freshDelivery(
			tag: string,
		): Promise<{ body: string; deliveryId: string; xtid: string }> {
			const { sandbox } = stack;
			const before = sandbox.control.deliveries().length;
			const transaction = await sandbox.control.receive(
				sandbox.seeded.accounts.gbp,
				10 + ++reference,
				`QUEUE-IN-${reference}`,
			);
			await sandbox.control.waitForDeliveries();
			const record = sandbox.control
				.deliveries()
				.slice(before)
				.find((d) => d.xtid === transaction.xtid);
			if (!record) throw new Error('the sandbox made no delivery');
			expect(await executionsOf(record.deliveryId, 1)).toHaveLength(1);
			const deliveryId = `queue-${tag}-${reference}`;
			return {
				body: JSON.stringify({ ...JSON.parse(record.body), deliveryId }),
				deliveryId,
				xtid: String(transaction.xtid),
			};
		}

		it("activated by main, it subscribes with the load balancer's URL; main serves no production webhook; a settled payment is delivered through the load balancer and run by a worker", async () => {
			const { sandbox, cluster } = stack;
			workflowId = (
				await importWorkflow(n8n(), 'trigger.json', {
					CREDENTIAL_ID: credentialId,
					ACCOUNT_GBP: sandbox.seeded.accounts.gbp,
					ACCOUNT_EUR: sandbox.seeded.accounts.eur,
				})
			).id;
			await activate(n8n(), workflowId);
			const made = await waitFor(
				'4 subscriptions',
				() => (subscriptions().length >= 4 ? subscriptions() : undefined),
				60_000,
			);
			expect(made).toHaveLength(4);
			expect(new Set(made.map((s) => s.url))).toEqual(new Set([triggerUrl(cluster.webhookUrl)]));
			// the webhook processes answer 404 for a moment after activation
			for (const webhook of cluster.webhooks)
				await whenWebhookServes(triggerUrl(webhook.url), 60_000);
			// N8N_DISABLE_PRODUCTION_MAIN_PROCESS: main has no production webhook route at all
			expect((await post(triggerUrl(cluster.main.url), '{}')).status).toBe(404);

			const [{ xtid }] = sandbox.control
				.ledger()
				.transactions.filter((t) => t.reference === 'QUEUE-OPS-0001');
			await sandbox.control.settle(String(xtid));
			await sandbox.control.waitForDeliveries();
			const deliveries = sandbox.control.deliveries().filter((d) => d.xtid === xtid);
			expect(deliveries).toEqual([
				expect.objectContaining({
					event: 'TransactionConfirmed',
					status: 'delivered',
					attempts: [expect.objectContaining({ statusCode: 200 })],
				}),
			]);

			const ran = await executionsOf(deliveries[0].deliveryId, 1);
			expect(ran).toHaveLength(1);
			const execution = await getExecution(n8n(), ran[0]);
			expect(executionError(execution)).toBeUndefined();
			expect(nodeOutput(execution, TRIGGER)).toEqual([
				expect.objectContaining({
					event: 'transactionConfirmed',
					transactionId: xtid,
					deliveryId: deliveries[0].deliveryId,
					transaction: expect.objectContaining({ transactionId: xtid, status: 'settled' }),
				}),
			]);
			expect(workersThatRan(cluster, execution.id)).toHaveLength(1);
		});

		it('copies of one delivery at the same instant to one webhook process start one execution; one copy after the other across webhook processes start one', async () => {
			const { sandbox, cluster } = stack;
			const url = (instance: QueueInstance) => triggerUrl(instance.url);

			const burst = await freshDelivery('burst');
			const answers = await Promise.all(
				Array.from({ length: 10 }, () =>
					post(url(cluster.webhook), burst.body, signed(sandbox, burst.body)),
				),
			);
			// copies arriving while the first one is processed are asked to send again (503), never told "received" early
			expect(answers.every((a) => a.status === 200 || a.status === 503)).toBe(true);
			// an emitted delivery is answered by n8n once its execution ended: 200 with an empty body
			expect(answers.filter((a) => a.status === 200 && a.body === undefined)).toHaveLength(1);
			expect(await executionsOf(burst.deliveryId, 1)).toHaveLength(1);
			// the bank's next attempt of those copies: a duplicate
			expect(await post(url(cluster.webhook), burst.body, signed(sandbox, burst.body))).toEqual({
				status: 200,
				body: { received: true, emitted: false, reason: 'duplicate delivery' },
			});

			// answered by one webhook process, then repeated to the other: the static data (in Postgres) knows it
			const repeated = await freshDelivery('repeat');
			expect(
				await post(url(cluster.webhooks[0]), repeated.body, signed(sandbox, repeated.body)),
			).toEqual({ status: 200, body: undefined });
			await sleep(1000);
			const again = await post(
				url(cluster.webhooks[1]),
				repeated.body,
				signed(sandbox, repeated.body),
			);
			expect(again).toEqual({
				status: 200,
				body: { received: true, emitted: false, reason: 'duplicate delivery' },
			});
			expect(await executionsOf(repeated.deliveryId, 1)).toHaveLength(1);
		});

		it('copies of one delivery at the same instant to both webhook processes, bypassing the load balancer: at least one execution, at most one per process (the documented limit), measured', async () => {
			const { sandbox, cluster } = stack;
			const url = (instance: QueueInstance) => triggerUrl(instance.url);
			const rounds = 5;
			const measured: string[] = [];
			for (let round = 0; round < rounds; round++) {
				const delivery = await freshDelivery(`split-${round}`);
				const [one, other] = cluster.webhooks;
				const copies = [one, other, one, other, one, other];
				const answers = await Promise.all(
					copies.map((instance) =>
						post(url(instance), delivery.body, signed(sandbox, delivery.body)),
					),
				);
				// 503: a copy that arrived while the same instance was processing the first one
				expect(answers.every((a) => a.status === 200 || a.status === 503)).toBe(true);
				const emitted = answers.filter((a) => a.status === 200 && a.body === undefined).length;
				// one copy per process at most may say "emitted"
				expect(emitted).toBeGreaterThanOrEqual(1);
				expect(emitted).toBeLessThanOrEqual(2);
				let ran = await executionsOf(delivery.deliveryId, 1);
				const deadline = Date.now() + 15_000;
				while (ran.length < emitted && Date.now() < deadline)
					ran = await executionsOf(delivery.deliveryId, 1);
				expect(ran.length).toBeLessThanOrEqual(emitted);
				measured.push(`${emitted} emitted/${ran.length} ran`);
			}
			say(
				`[queue] simultaneous copies to both webhook processes (no load balancer), per delivery over ${rounds} rounds: ${measured.join(', ')}`,
			);
		});

		it('through the load balancer, copies of one delivery at the same instant (30 rounds of 6 copies): one execution each, every copy of a round passed to the same webhook process', async () => {
			const { sandbox, cluster } = stack;
			const balancer = cluster.balancer;
			if (!balancer) throw new Error('the cluster has no load balancer');
			const rounds = 30;
			const copies = 6;
			const template = JSON.parse((await freshDelivery('balanced-template')).body) as Record<
				string,
				unknown
			>;
			const logged = balancer.requests().length;
			const deliveries: Array<{ deliveryId: string; body: string; answers: WebhookAnswer[] }> = [];
			for (let round = 0; round < rounds; round++) {
				const deliveryId = `queue-balanced-${round}-${template.deliveryId as string}`;
				const body = JSON.stringify({ ...template, deliveryId });
				const headers = signed(sandbox, body);
				const answers = await Promise.all(
					Array.from({ length: copies }, () => post(triggerUrl(cluster.webhookUrl), body, headers)),
				);
				deliveries.push({ deliveryId, body, answers });
			}
			const tally: Record<string, number> = {};
			for (const { answers } of deliveries) {
				for (const answer of answers) {
					const kind =
						answer.status === 200 && answer.body === undefined
							? 'emitted'
							: answer.status === 200
								? 'duplicate'
								: String(answer.status);
					tally[kind] = (tally[kind] ?? 0) + 1;
				}
				// one copy emitted; the others asked to send again (in flight) or told it is a duplicate
				expect(answers.filter((a) => a.status === 200 && a.body === undefined)).toHaveLength(1);
				for (const answer of answers.filter((a) => !(a.status === 200 && a.body === undefined)))
					expect(
						answer.status === 503 ||
							(answer.status === 200 &&
								(answer.body as Record<string, unknown>).reason === 'duplicate delivery'),
					).toBe(true);
			}
			// the bank's next attempt of every delivery: a duplicate, whichever copy was answered 503
			for (const { body } of deliveries)
				expect(await post(triggerUrl(cluster.webhookUrl), body, signed(sandbox, body))).toEqual({
					status: 200,
					body: { received: true, emitted: false, reason: 'duplicate delivery' },
				});

			const ran = await executionsOfAll(
				deliveries.map((d) => d.deliveryId),
				1,
			);
			const twice = deliveries.filter((d) => (ran.get(d.deliveryId) ?? []).length !== 1);
			expect(twice).toEqual([]);
			// consistent hashing on the path: nginx passed every copy to one webhook process, none failed over
			const passed = balancer
				.requests()
				.slice(logged)
				.filter((r) => r.path === `/webhook/${TRIGGER_WEBHOOK_PATH}`);
			expect(passed).toHaveLength(rounds * (copies + 1));
			expect(new Set(passed.flatMap((r) => r.upstreams)).size).toBe(1);
			say(
				`[queue] through nginx, ${rounds} rounds of ${copies} simultaneous copies: answers ${JSON.stringify(tally)}; deliveries run twice: ${twice.length}; all passed to ${passed[0].upstreams[0]}`,
			);
		});

		it('through the load balancer, a burst of 30 deliveries over Maximum Running Executions (10) with a slow bank: at most 10 taken at once for the trigger as deployed, the rest answered 503, each run once when sent again', async () => {
			const { sandbox, cluster } = stack;
			const maxRunning = 10;
			const latencyMs = 2000;
			const burst = 30;
			const template = JSON.parse((await freshDelivery('burst-template')).body) as Record<
				string,
				unknown
			>;
			// every delivery taken holds its place at least while the bank answers the transaction look-up
			sandbox.control.setFaults([
				{ method: 'GET', path: '/transaction/{xtid}', kind: 'latency', latencyMs },
			]);
			const requestsBefore = sandbox.control.requests().length;
			const bodies = Array.from({ length: burst }, (_, index) =>
				JSON.stringify({
					...template,
					deliveryId: `queue-over-${index}-${template.deliveryId as string}`,
				}),
			);
			const began = Date.now();
			const answers = await Promise.all(
				bodies.map((body) => post(triggerUrl(cluster.webhookUrl), body, signed(sandbox, body))),
			);
			const burstSeconds = (Date.now() - began) / 1000;
			const refused = bodies.filter((_, index) => answers[index].status === 503);
			const emitted = answers.filter((a) => a.status === 200 && a.body === undefined).length;
			expect(
				answers.map((a) => a.status).filter((status) => status !== 200 && status !== 503),
			).toEqual([]);
			expect(emitted + refused.length).toBe(burst);
			expect(refused.length).toBeGreaterThan(0);
			for (const answer of answers.filter((a) => a.status === 503))
				expect(answer.body).toEqual(
					expect.objectContaining({
						received: false,
						reason: 'too many executions running; send again later',
					}),
				);
			// the look-ups in flight at once: never more than the trigger's places, though two processes serve
			const lookups = sandbox.control
				.requests()
				.slice(requestsBefore)
				.filter((r) => r.method === 'GET' && r.route === '/transaction/{xtid}')
				.map((r) => Date.parse(r.time));
			const mostAtOnce = Math.max(
				...lookups.map(
					(start) => lookups.filter((t) => t <= start && start < t + latencyMs).length,
				),
			);
			expect(lookups).toHaveLength(emitted);
			expect(mostAtOnce).toBeLessThanOrEqual(maxRunning);
			sandbox.control.clearFaults();
			// the bank's next attempts of the refused ones, as it makes them: again after a 5xx, at most 5 passes
			let waiting = refused;
			const passes: string[] = [];
			for (let pass = 0; pass < 5 && waiting.length > 0; pass++) {
				const started = Date.now();
				const again = await Promise.all(
					waiting.map((body) => post(triggerUrl(cluster.webhookUrl), body, signed(sandbox, body))),
				);
				passes.push(
					`${JSON.stringify(again.map((a) => a.status))} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
				);
				for (const answer of again)
					expect(answer.status === 200 || answer.status >= 500).toBe(true);
				waiting = waiting.filter((_, index) => again[index].status !== 200);
				if (waiting.length > 0) await sleep(1000);
			}
			say(`[queue] the refused deliveries sent again: ${passes.join('; ')}`);
			expect(waiting).toEqual([]);
			const ran = await executionsOfAll(
				bodies.map((body) => String(JSON.parse(body).deliveryId)),
				1,
			);
			expect(
				bodies.filter((body) => (ran.get(String(JSON.parse(body).deliveryId)) ?? []).length !== 1),
			).toEqual([]);
			say(
				`[queue] through nginx, ${burst} deliveries at once over Maximum Running Executions ${maxRunning} (look-ups ${latencyMs} ms): ${emitted} taken, ${refused.length} answered 503, in ${burstSeconds.toFixed(1)} s, at most ${mostAtOnce} look-ups at once; each run once after the refused ones were sent again`,
			);
		});

		it('the webhook process serving the trigger SIGKILLed while the bank delivers: nginx passes its path to the other one, no delivery lost, only a copy in flight at the kill may run twice', async () => {
			const { sandbox, cluster } = stack;
			const balancer = cluster.balancer;
			if (!balancer) throw new Error('the cluster has no load balancer');
			// a delivery through the load balancer first: the process it reaches is the one serving the path now
			await freshDelivery('kill-probe');
			const victim = processServingTrigger();
			const survivor = cluster.webhooks.find((w) => w !== victim);
			if (!survivor) throw new Error('one webhook process only');
			const logged = balancer.requests().length;
			const before = sandbox.control.deliveries().length;
			// slow transaction look-ups: deliveries are being processed by the victim when it is killed
			sandbox.control.setFaults([
				{ method: 'GET', path: '/transaction/{xtid}', kind: 'latency', latencyMs: 1000 },
			]);
			const count = 20;
			const killAfter = 6;
			let killedAt = 0;
			let answeredBeforeKill: BalancedRequest[] = [];
			remember();
			try {
				const received: Array<Promise<unknown>> = [];
				for (let index = 0; index < count; index++) {
					// not awaited here: the bank delivers on its own while the next payments arrive
					received.push(
						sandbox.control.receive(sandbox.seeded.accounts.gbp, 20 + index, `QUEUE-KILL-${index}`),
					);
					if (index === killAfter - 1) {
						await sleep(400);
						victim.kill();
						killedAt = Date.now();
						answeredBeforeKill = balancer.requests().slice(logged);
					}
					await sleep(150);
				}
				const xtids = new Set(
					(await Promise.all(received)).map((t) => String((t as { xtid: unknown }).xtid)),
				);
				await sandbox.control.waitForDeliveries();
				const made = sandbox.control
					.deliveries()
					.slice(before)
					.filter((d) => xtids.has(String(d.xtid)));
				expect(made).toHaveLength(count);
				// none lost: the bank's attempts ended in a 2xx for every delivery
				expect(made.filter((d) => d.status !== 'delivered')).toEqual([]);
				const ran = await executionsOfAll(
					made.map((d) => d.deliveryId),
					1,
				);
				const failedAttempt = (d: (typeof made)[number]) =>
					d.attempts.some((a) => a.statusCode === undefined || a.statusCode >= 500);
				const inFlight = made.filter(failedAttempt);
				const twice = made.filter((d) => (ran.get(d.deliveryId) ?? []).length > 1);
				for (const delivery of made) {
					const executions = ran.get(delivery.deliveryId) ?? [];
					expect(executions.length).toBeGreaterThanOrEqual(1);
					expect(executions.length).toBeLessThanOrEqual(2);
					// a second execution only for a delivery whose attempt the kill cut off, sent again by the bank
					if (executions.length === 2) expect(failedAttempt(delivery)).toBe(true);
				}
				// until the kill nginx passed the trigger's path to the victim (what it answered before the
				// kill, if anything: the bank's look-ups are slow and the machine may be too); the kill cut
				// off requests the victim held, and after it nginx passed the path to the survivor
				const victimAddress = victim.url.slice('http://'.length);
				expect(answeredBeforeKill.filter((r) => r.upstreams[0] !== victimAddress)).toEqual([]);
				const afterKill = balancer
					.requests()
					.slice(logged)
					.filter((r) => r.path === `/webhook/${TRIGGER_WEBHOOK_PATH}`);
				expect(afterKill.some((r) => r.upstreams[0] === victimAddress)).toBe(true);
				expect(
					afterKill.some((r) => r.upstreams.at(-1) === survivor.url.slice('http://'.length)),
				).toBe(true);
				const answered5xx = afterKill.filter((r) => r.status >= 500).length;
				say(
					`[queue] ${victim.name} SIGKILLed ${killAfter} deliveries into ${count}: all ${count} delivered, ${inFlight.length} had an attempt cut off (nginx answered ${answered5xx} with 5xx), ${twice.length} ran twice; statuses ${JSON.stringify(made.map((d) => d.attempts.map((a) => a.statusCode ?? a.error)))}; ${Math.round((Date.now() - killedAt) / 1000)} s from the kill to the last delivery's end`,
				);
			} finally {
				// the later tests address both webhook processes
				await victim.restart();
				remember();
			}
		});

		it('the webhook process SIGKILLed while the execution of a delivery it handed over runs on a worker: the execution still ends, the bank gets 502, its next attempt is not recognised and runs the event again (at least once)', async () => {
			const { sandbox, cluster } = stack;
			const balancer = cluster.balancer;
			if (!balancer) throw new Error('the cluster has no load balancer');
			const waitSeconds = 10;
			const killAfterMs = 3000;
			const slow = await importWorkflow(n8n(), 'trigger-slow.json', {
				CREDENTIAL_ID: credentialId,
				ACCOUNT_GBP: sandbox.seeded.accounts.gbp,
				MAX_RUNNING: '10',
				WAIT_SECONDS: String(waitSeconds),
			});
			const slowPath = 'e2e00000-0000-4000-8000-000000000791/webhook';
			const subscribed = subscriptions().length;
			await activate(n8n(), slow.id);
			let killed: QueueInstance | undefined;
			try {
				await waitFor(
					"the slow trigger's subscription",
					() => (subscriptions().length > subscribed ? true : undefined),
					60_000,
				);
				// the bank's own delivery to the slow trigger: its body is the template, its answer shows
				// which webhook process nginx passes the path to
				const before = sandbox.control.deliveries().length;
				await sandbox.control.receive(sandbox.seeded.accounts.gbp, 30, 'QUEUE-MIDRUN');
				await sandbox.control.waitForDeliveries();
				const record = sandbox.control
					.deliveries()
					.slice(before)
					.find((d) => d.url.includes(slowPath) && d.status === 'delivered');
				if (!record) throw new Error('the sandbox delivered nothing to the slow trigger');
				const victim = processServingTrigger(slowPath);
				const survivor = cluster.webhooks.find((w) => w !== victim);
				if (!survivor) throw new Error('one webhook process only');
				const known = await executionIds(n8n(), slow.id);
				const deliveryId = `queue-midrun-${record.deliveryId}`;
				const body = JSON.stringify({ ...JSON.parse(record.body), deliveryId });
				const logged = balancer.requests().length;

				remember();
				const slowUrl = `${cluster.webhookUrl}/webhook/${slowPath}`;
				const first = post(slowUrl, body, signed(sandbox, body));
				// handed over within a second; its execution then waits on a worker for `waitSeconds`
				await sleep(killAfterMs);
				victim.kill();
				killed = victim;
				const killedAt = Date.now();
				const firstAnswer = await first;
				const again = await post(slowUrl, body, signed(sandbox, body));
				const ran = await finishedExecutions(cluster, slow.id, known, 2, 90_000);
				const emitting = ran.filter((execution) =>
					nodeOutput(execution, TRIGGER).some((item) => item.deliveryId === deliveryId),
				);
				const times = emitting.map((execution) => {
					const { startedAt, stoppedAt } = execution as Execution & {
						startedAt: string;
						stoppedAt: string;
					};
					return { started: Date.parse(startedAt), stopped: Date.parse(stoppedAt) };
				});

				say(
					`[queue] ${victim.name} SIGKILLed ${killAfterMs / 1000} s after passing it a delivery whose execution waits ${waitSeconds} s on a worker: the bank got ${firstAnswer.status}; its next attempt through nginx went to ${survivor.name} and was answered ${again.status} ${JSON.stringify(again.body)}, its execution ended ${times[1] ? ((times[1].stopped - killedAt) / 1000).toFixed(1) : '-'} s after the kill; executions of the event: ${emitting.length} (${emitting.map((e) => e.status).join(', ')}), the first ended ${times[0] ? ((times[0].stopped - killedAt) / 1000).toFixed(1) : '-'} s after the kill (it started ${times[0] ? ((killedAt - times[0].started) / 1000).toFixed(1) : '-'} s before it)`,
				);

				// the bank saw nginx's 502 (the process died holding the call), then "emitted" from the survivor
				expect(firstAnswer.status).toBe(502);
				expect(again).toEqual({ status: 200, body: undefined });
				const passed = balancer
					.requests()
					.slice(logged)
					.filter((r) => r.path === `/webhook/${slowPath}`);
				expect(passed.map((r) => r.upstreams.at(-1))).toEqual([
					victim.url.slice('http://'.length),
					survivor.url.slice('http://'.length),
				]);
				// two executions of the one event, both ended: the one running at the kill, which the worker
				// finished, and the bank's next attempt, which nothing saved marked as run
				expect(emitting).toHaveLength(2);
				expect(emitting.map((execution) => execution.status)).toEqual(['success', 'success']);
				expect(times[0].started).toBeLessThan(killedAt);
				expect(times[0].stopped).toBeGreaterThan(killedAt);
			} finally {
				if (killed) {
					await killed.restart();
					remember();
				}
				await deactivate(n8n(), slow.id);
			}
		});

		afterAll(async () => {
			if (workflowId) await deactivate(n8n(), workflowId);
		});
	});

	describe('Customer Banking Approval Trigger: polled by main, run by the workers', () => {
		let payWorkflowId: string;
		let triggerWorkflowId: string;
		let seen: string[] = [];

		/** One poll: n8n polls when it activates the workflow. Returns the executions it started. */
		async function poll(): Promise<Execution[]> {
			await activate(n8n(), triggerWorkflowId);
			await sleep(3000);
			const fresh = await finishedExecutions(stack.cluster, triggerWorkflowId, seen, 0);
			seen = [...seen, ...fresh.map((e) => e.id)];
			await deactivate(n8n(), triggerWorkflowId);
			return fresh;
		}

		const events = (executions: Execution[]) =>
			executions.flatMap((execution) => {
				expect(executionError(execution)).toBeUndefined();
				expect(workersThatRan(stack.cluster, execution.id)).toHaveLength(1);
				return nodeOutput(execution, APPROVAL_TRIGGER);
			});

		async function payNeedingApproval(reference: string): Promise<{ ref: string; xtid: string }> {
			const { sandbox, cluster } = stack;
			const answer = await postWhenRegistered(cluster.webhook, 'e2e-pay', {
				xaid: sandbox.seeded.accounts.gbp,
				xpid: sandbox.seeded.payees.gbp,
				amount: 1500,
				reference,
			});
			expect(answer.status).toBe(200);
			const result = answer.body as Record<string, unknown>;
			expect(result).toMatchObject({
				status: 'pending_approval',
				approvalId: expect.any(String),
				reference,
			});
			expect(ledger().approvals.filter((a) => a.ref === result.approvalId)).toEqual([
				expect.objectContaining({ status: 'pending', xtid: result.transactionId }),
			]);
			return { ref: String(result.approvalId), xtid: String(result.transactionId) };
		}

		beforeAll(async () => {
			payWorkflowId = (await importWorkflow(n8n(), 'pay.json', { CREDENTIAL_ID: credentialId })).id;
			await activate(n8n(), payWorkflowId);
			triggerWorkflowId = (
				await importWorkflow(n8n(), 'approval-trigger.json', { CREDENTIAL_ID: credentialId })
			).id;
		});

		it('baseline, then one "requested" execution for three payments, one "decided" per decision, nothing on further polls', async () => {
			const { sandbox } = stack;
			await payNeedingApproval('QUEUE-APPR-OLD');
			expect(events(await poll())).toEqual([]);

			const approved = await payNeedingApproval('QUEUE-APPR-1');
			const declined = await payNeedingApproval('QUEUE-APPR-2');
			const expired = await payNeedingApproval('QUEUE-APPR-3');
			const requested = await poll();
			expect(requested).toHaveLength(1);
			expect(events(requested).map((event) => [event.event, event.approvalId])).toEqual([
				['approvalRequested', approved.ref],
				['approvalRequested', declined.ref],
				['approvalRequested', expired.ref],
			]);
			await sandbox.control.approve(approved.ref);
			await sandbox.control.decline(declined.ref);
			expect(events(await poll())).toEqual([
				expect.objectContaining({
					event: 'approvalDecided',
					decision: 'approved',
					approvalId: approved.ref,
					transactionId: approved.xtid,
				}),
				expect.objectContaining({
					event: 'approvalDecided',
					decision: 'declined',
					approvalId: declined.ref,
				}),
			]);
			await sandbox.control.expire(expired.ref);
			expect(events(await poll())).toEqual([
				expect.objectContaining({
					event: 'approvalDecided',
					decision: 'expired',
					approvalId: expired.ref,
				}),
			]);
			for (let i = 0; i < 3; i++) expect(await poll()).toEqual([]);
			// the bank made the approved payment once
			expect(ledger().transactions.filter((t) => t.xtid === approved.xtid)).toHaveLength(1);
		});
	});

	describe("payments whose worker is SIGKILLed mid-execution, then n8n's Retry, then a run again", () => {
		const COUNT = 300;
		const STALLED = /failed to be processed too many times/;
		interface Run {
			label: string;
			operation: 'submit' | 'submitBatch';
			workflowId: string;
			path: string;
			invoices: Array<{
				invoice: string;
				xaid: string;
				xpid: string;
				amount: number;
				reference: string;
			}>;
			failed?: Execution;
			paidBeforeRetry?: number;
		}
		const runs: Run[] = [];

		async function importPayMany(
			operation: Run['operation'],
			tag: string,
		): Promise<{ id: string; path: string }> {
			const path = `queue-pay-many-${tag}`;
			const workflow = loadWorkflow('pay-many.json', {
				OPERATION: operation,
				PATH: path,
				WEBHOOK_ID: `e2e00000-0000-4000-8000-${String(700 + runs.length).padStart(12, '0')}`,
				CREDENTIAL_ID: credentialId,
				// the invoice number: the key that makes a run again pay nothing twice
				CUSTOM_KEY: '={{ $json.invoice }}',
			});
			const pay = (
				workflow.nodes as Array<{ name: string; parameters: Record<string, unknown> }>
			).find((node) => node.name === 'Pay');
			if (!pay) throw new Error('pay-many.json has no Pay node');
			if (operation === 'submitBatch') pay.parameters.batchSize = 5;
			const created = await n8n().apiOk<{ id: string }>('POST', '/workflows', workflow);
			await activate(n8n(), String(created.id));
			return { id: String(created.id), path };
		}

		const paid = (run: Run) => {
			const wanted = new Set(run.invoices.map((i) => i.reference));
			return ledger().transactions.filter(
				(t) => t.direction === 'outgoing' && wanted.has(String(t.reference)),
			);
		};

		async function start(run: Run): Promise<void> {
			expect(
				(await postWhenRegistered(stack.cluster.webhook, run.path, { invoices: run.invoices }))
					.status,
			).toBe(200);
		}

		it('Submit Batch and Submit of 300 payments each (slow bank) on the workers; the workers running them are SIGKILLed by PID mid-way; n8n marks both failed, nothing paid twice', async () => {
			const { sandbox, cluster } = stack;
			const { gbp } = sandbox.seeded.accounts;
			for (const operation of ['submitBatch', 'submit'] as const) {
				const label = operation === 'submit' ? 'S' : 'B';
				const workflow = await importPayMany(operation, label);
				const invoices = Array.from({ length: COUNT }, (_, i) => ({
					invoice: `INV-${label}-${i}`,
					xaid: gbp,
					xpid: sandbox.seeded.payees.gbp,
					amount: 1 + (i % 50) / 100,
					reference: `QK-${label}-${i}`,
				}));
				runs.push({ label, operation, workflowId: workflow.id, path: workflow.path, invoices });
			}
			// a slow bank: every payment request takes 150 ms
			sandbox.control.setFaults([
				{ method: 'POST', path: '/payments', kind: 'latency', latencyMs: 150 },
			]);
			for (const run of runs) await start(run);
			await waitFor(
				'both executions to be part-way',
				() => (runs.every((run) => paid(run).length >= 25) ? true : undefined),
				60_000,
				50,
			);
			const ids = await Promise.all(
				runs.map(async (run) => (await executionIds(n8n(), run.workflowId))[0]),
			);
			const victims = cluster.workers.filter((worker) =>
				ids.some((id) => workersThatRan(cluster, id).includes(worker.name)),
			);
			expect(victims.length).toBeGreaterThanOrEqual(1);
			remember();
			for (const worker of victims) worker.kill();
			const killedAt = Date.now();
			const paidAtKill = runs.map((run) => paid(run).length);
			say(
				`[queue] SIGKILLed ${victims.map((w) => `${w.name} (pid ${w.pid})`).join(', ')} with ${paidAtKill.join(' and ')} of ${COUNT} payments made`,
			);
			for (const count of paidAtKill) {
				expect(count).toBeGreaterThan(0);
				expect(count).toBeLessThan(COUNT);
			}
			await Promise.all(victims.map((worker) => worker.restart()));
			remember();

			// n8n's crash recovery (the restarted worker's event log) marks it "crashed" first; the end
			// state is the stalled job's error, written by main
			for (const [index, run] of runs.entries()) {
				run.failed = await waitFor(
					`execution ${ids[index]} to be marked failed`,
					async () => {
						const execution = await getExecution(n8n(), ids[index]);
						return execution.status === 'error' && STALLED.test(executionError(execution) ?? '')
							? execution
							: undefined;
					},
					180_000,
					1000,
				);
			}
			say(
				`[queue] n8n marked both executions failed ${Math.round((Date.now() - killedAt) / 1000)} s after the kill: ${executionError(runs[0].failed as Execution)}`,
			);
			sandbox.control.clearFaults();
			await sleep(500);
			for (const [index, run] of runs.entries()) {
				const made = paid(run);
				expect(new Set(made.map((t) => t.reference)).size).toBe(made.length);
				expect(made.length).toBeGreaterThanOrEqual(paidAtKill[index]);
				expect(made.length).toBeLessThan(COUNT);
				run.paidBeforeRetry = made.length;
			}
		});

		it.each([
			['Submit Batch', false, 'submitBatch'],
			['Submit Batch', true, 'submitBatch'],
			['Submit', false, 'submit'],
			['Submit', true, 'submit'],
		] as const)(
			"%s: n8n's Retry (loadWorkflow: %s) of the killed execution runs no node and pays nothing (n8n kept none of its data)",
			async (_name, loadWorkflowToo, operation) => {
				const run = runs.find((r) => r.operation === operation);
				if (!run?.failed) throw new Error('the kill scenario did not leave this execution failed');
				// what n8n kept of the killed execution: the error, no node's data, nothing left to run
				expect(run.failed.data.resultData.runData).toEqual({});
				const known = await executionIds(n8n(), run.workflowId);
				await n8n().restOk('POST', `/executions/${run.failed.id}/retry`, {
					loadWorkflow: loadWorkflowToo,
				});
				const [retried] = await finishedExecutions(stack.cluster, run.workflowId, known, 1);
				expect(retried.mode).toBe('retry');
				expect(retried.status).toBe('error');
				expect(executionError(retried)).toMatch(STALLED);
				expect(retried.data.resultData.runData).toEqual({});
				expect(paid(run)).toHaveLength(run.paidBeforeRetry ?? -1);
			},
		);

		it.each([
			['Submit Batch', 'submitBatch'],
			['Submit', 'submit'],
		] as const)(
			'%s: the same invoices run again (Custom Idempotency Key = invoice) → each payment exactly once; the outputs say which the bank already had and which were made now',
			async (_name, operation) => {
				const run = runs.find((r) => r.operation === operation);
				if (!run?.failed) throw new Error('the kill scenario did not leave this execution failed');
				const before = new Map(paid(run).map((t) => [String(t.reference), t]));
				const known = await executionIds(n8n(), run.workflowId);
				await start(run);
				const [again] = await finishedExecutions(stack.cluster, run.workflowId, known, 1, 180_000);
				expect(executionError(again)).toBeUndefined();
				expect(again.status).toBe('success');
				expect(workersThatRan(stack.cluster, again.id)).toHaveLength(1);
				const after = paid(run);
				expect(after.map((t) => String(t.reference)).sort()).toEqual(
					run.invoices.map((i) => i.reference).sort(),
				);

				const outputs = nodeOutput(again, 'Pay');
				expect(outputs.map((o) => o.reference)).toEqual(run.invoices.map((i) => i.reference));
				const tally: Record<string, number> = {};
				let alreadyMade = 0;
				for (const output of outputs) {
					const status = String(output.status);
					tally[status] = (tally[status] ?? 0) + 1;
					const earlier = before.get(String(output.reference));
					if (earlier) {
						alreadyMade++;
						// made before the kill (or by the request in flight at the kill): Skip Payments Already
						// Made found it before sending (already_made), or the bank answered the invoice's key with
						// its original payment; nothing new was made
						expect(['already_made', 'replayed', 'sent']).toContain(status);
						expect(output.transactionId).toBe(earlier.xtid);
					} else {
						expect(status).toBe('sent');
						expect(output.transactionId).toBe(
							after.find((t) => t.reference === output.reference)?.xtid,
						);
					}
				}
				expect(alreadyMade).toBe(before.size);
				say(
					`[queue] ${_name} run again: statuses ${JSON.stringify(tally)}; ${alreadyMade} answered with the payment made before the kill, ${COUNT - alreadyMade} made now`,
				);
			},
		);
	});

	it('stopping the cluster and the sandbox leaves no process and no port behind', async () => {
		remember();
		const { cluster } = stack;
		await stack.stop();
		expect(processesUsing(runDir)).toEqual([]);
		expect(await portsInUse(cluster.ports)).toEqual([]);
		const alive = pids.filter((pid) => {
			try {
				process.kill(pid, 0);
				return true;
			} catch {
				return false;
			}
		});
		expect(alive).toEqual([]);
	});
});

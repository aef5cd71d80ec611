/**
 * Fixed loopback ports of the queue-mode suite, below the kernel's ephemeral range (32768-60999) where
 * the e2e harness's OS-picked ports live, and away from the demo's 4010/5678, so a queue run and an
 * e2e run on one machine never take each other's ports. CUSTOMER_BANKING_QUEUE_PORT_BASE moves the range.
 */
export interface QueuePorts {
	postgres: number;
	redis: number;
	main: number;
	mainBroker: number;
	/** the first webhook process (the one of a cluster without a load balancer) */
	webhook: number;
	webhookBroker: number;
	/** every webhook process: where it answers HTTP and its task broker */
	webhooks: Array<{ http: number; broker: number }>;
	/** the load balancer in front of the webhook processes */
	balancer: number;
	/** each worker's health-check server and task broker */
	workers: Array<{ health: number; broker: number }>;
	all(): number[];
}

export function queuePorts(workers: number, webhooks = 1): QueuePorts {
	const base = Number(process.env.CUSTOMER_BANKING_QUEUE_PORT_BASE ?? 15700);
	if (!Number.isInteger(base) || base < 1024 || base > 32000)
		throw new Error(
			`CUSTOMER_BANKING_QUEUE_PORT_BASE must be a port between 1024 and 32000, not ${base}`,
		);
	const ports: Omit<QueuePorts, 'all'> = {
		postgres: base,
		redis: base + 1,
		main: base + 10,
		mainBroker: base + 11,
		webhook: base + 20,
		webhookBroker: base + 21,
		webhooks: Array.from({ length: webhooks }, (_, index) => ({
			http: base + 20 + 2 * index,
			broker: base + 21 + 2 * index,
		})),
		balancer: base + 50,
		workers: Array.from({ length: workers }, (_, index) => ({
			health: base + 30 + index,
			broker: base + 40 + index,
		})),
	};
	return {
		...ports,
		all: () => [
			ports.postgres,
			ports.redis,
			ports.main,
			ports.mainBroker,
			...ports.webhooks.flatMap((w) => [w.http, w.broker]),
			ports.balancer,
			...ports.workers.flatMap((w) => [w.health, w.broker]),
		],
	};
}

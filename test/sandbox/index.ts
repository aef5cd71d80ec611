/**
 * The sandbox bank, in process: a stateful simulator of the Customer Banking API
 * (../../shared/spec/customer-banking-api.md) with the wire decisions of DECISIONS.md.
 *
 *   const sandbox = await startSandbox({ port: 0 });
 *   // sandbox.baseUrl, sandbox.tokenUrl, sandbox.clients.full, sandbox.control.approve(ref) …
 *   await sandbox.close();
 */
import { appendFileSync } from 'node:fs';

import { TokenService } from './auth';
import { SandboxClock } from './clock';
import { createControl, type SandboxControl } from './control';
import { Faults, type FaultRule } from './faults';
import { SeededRandom } from './random';
import {
	MAIN_WORKSPACE,
	OTHER_WORKSPACE,
	type SeededClients,
	type SeededIds,
	seedBank,
} from './seed';
import {
	API_PREFIX,
	AUTH_PREFIX,
	CONTROL_PREFIX,
	createSandboxServer,
	listen,
	type RequestLogEntry,
} from './server';
import type { Bank } from './state';
import {
	type BankVariants,
	resolveVariants,
	type VariantsOption,
	variantsFromEnvironment,
} from './variants';
import { WebhookDeliveries } from './webhooks/delivery';

export type { SandboxClient } from './auth';
export type {
	DeliveryRecord,
	LedgerSnapshot,
	Policy,
	SandboxControl,
	Subscription,
} from './control';
export type { BankVariants, FaultRule, RequestLogEntry };

/** DECISIONS.md §Addresses. */
export const SANDBOX_AUDIENCE = 'https://api.customer-banking.example';

export interface SandboxOptions {
	/** 0 picks a free port. */
	port?: number;
	host?: string;
	/** Drives every id, secret and probabilistic fault. */
	seed?: number;
	tokenTtlSeconds?: number;
	tokenRateLimit?: { max: number; windowSeconds: number };
	/** Waits between webhook delivery attempts. */
	deliveryBackoffMs?: number[];
	deliveryTimeoutMs?: number;
	faults?: FaultRule[];
	/** Where the sandbox clock starts; it then runs with real time plus every advance. */
	now?: Date;
	/**
	 * What the bank does where the spec says "not shown" (variants.ts): 'specMinimal', or single
	 * switches. Default: CUSTOMER_BANKING_SANDBOX_MODE, else the sandbox's own choices.
	 */
	variants?: VariantsOption;
}

export interface Sandbox {
	/** {base_url}. */
	baseUrl: string;
	/** {auth_url}: the credential's Token URL. */
	authUrl: string;
	/** The token endpoint itself: `${authUrl}/oauth/token`. */
	tokenUrl: string;
	audience: string;
	controlUrl: string;
	clients: SeededClients;
	/** Webhook signing secret of the main workspace (current value, follows rotation). */
	signingSecret: string;
	/** Current signing secrets of both workspaces. */
	signingSecrets: { main: string; otherWorkspace: string };
	seeded: SeededIds;
	/** The resolved switches this bank runs with (from `variants`, the environment, or the defaults). */
	variants: Readonly<BankVariants>;
	control: SandboxControl;
	close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const seed = options.seed ?? 1;
	const host = options.host ?? '127.0.0.1';
	const clock = new SandboxClock(options.now);
	const bank: Bank = {
		workspaces: new Map(),
		random: new SeededRandom(seed),
		clock,
		variants: resolveVariants(options.variants ?? variantsFromEnvironment()),
		emit: () => undefined,
	};
	const deliveries = new WebhookDeliveries(bank, {
		backoffMs: options.deliveryBackoffMs ?? [1000, 2000, 4000, 8000],
		timeoutMs: options.deliveryTimeoutMs ?? 5000,
	});
	bank.emit = (event) => deliveries.dispatch(event);
	const { clients, seeded } = seedBank(bank);
	const tokens = new TokenService(Object.values(clients), clock, {
		audience: SANDBOX_AUDIENCE,
		ttlSeconds: options.tokenTtlSeconds ?? 3600,
		rateLimit: options.tokenRateLimit ?? { max: 30, windowSeconds: 60 },
	});
	const faults = new Faults(seed);
	faults.set(options.faults ?? []);
	const requestLog: RequestLogEntry[] = [];
	const { control, routes: controlRoutes } = createControl({
		bank,
		tokens,
		faults,
		deliveries,
		requestLog,
		mainWorkspaceId: MAIN_WORKSPACE,
		reseed: () => {
			bank.random = new SeededRandom(seed);
			tokens.resetClients(Object.values(seedBank(bank).clients));
		},
	});
	const server = createSandboxServer({
		bank,
		tokens,
		faults,
		requestLog,
		controlRoutes,
		onAnswered: recordRequests(process.env.CUSTOMER_BANKING_SANDBOX_RECORD),
	});
	const port = await listen(server, options.port ?? 0, host);
	const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
	const authUrl = `${origin}${AUTH_PREFIX}`;
	const currentSecret = (workspaceId: string) =>
		bank.workspaces.get(workspaceId)?.signing.current ?? '';

	return {
		baseUrl: `${origin}${API_PREFIX}`,
		authUrl,
		tokenUrl: `${authUrl}/oauth/token`,
		audience: SANDBOX_AUDIENCE,
		controlUrl: `${origin}${CONTROL_PREFIX}`,
		clients,
		get signingSecret() {
			return currentSecret(MAIN_WORKSPACE);
		},
		get signingSecrets() {
			return {
				main: currentSecret(MAIN_WORKSPACE),
				otherWorkspace: currentSecret(OTHER_WORKSPACE),
			};
		},
		seeded,
		variants: Object.freeze({ ...bank.variants }),
		control,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
			await deliveries.close();
		},
	};
}

/**
 * CUSTOMER_BANKING_SANDBOX_RECORD=<file>: every request the sandbox answers is appended to that file as
 * one JSON line, with the jest test that made it, for scripts/compare-request-logs.mjs.
 */
function recordRequests(file: string | undefined): ((entry: RequestLogEntry) => void) | undefined {
	if (!file) return undefined;
	const jestState = () =>
		(
			globalThis as {
				expect?: { getState?: () => { testPath?: string; currentTestName?: string } };
			}
		).expect?.getState?.();
	return (entry) => {
		const state = jestState();
		// the tests make references unique with the process id
		const test = { file: state?.testPath, name: state?.currentTestName, pid: process.pid };
		appendFileSync(file, `${JSON.stringify({ test, ...entry })}\n`);
	};
}

import type { IDataObject } from 'n8n-workflow';

import { accountView, balanceView } from './accounts/model';
import {
	approvalView,
	approve,
	decline,
	expire,
	expireDue,
	type ApprovalRecord,
	type Policy,
} from './approvals/model';
import type { TokenService } from './auth';
import { badRequest, notFound } from './errors';
import type { FaultRule, Faults } from './faults';
import { toMinor } from './money';
import type { PaymentRequestRecord } from './payments/model';
import type { RequestLogEntry } from './server';
import { type Bank, listOf, type Workspace } from './state';
import { receive, settle, transactionView, type TransactionRecord } from './transactions/model';
import type { DeliveryRecord, WebhookDeliveries } from './webhooks/delivery';
import { rotateSigningSecret, type SubscriptionRecord } from './webhooks/model';

export type Subscription = SubscriptionRecord & { workspaceId: string };
export type { DeliveryRecord, FaultRule, Policy, RequestLogEntry };

export interface LedgerSnapshot {
	workspaceId: string;
	accounts: IDataObject[];
	transactions: IDataObject[];
	approvals: IDataObject[];
	paymentRequests: PaymentRequestRecord[];
	policies: Policy[];
}

/** Drives the bank from outside the API: what the provider's apps, time and the network do. */
export interface SandboxControl {
	approve(ref: string): Promise<IDataObject>;
	decline(ref: string): Promise<IDataObject>;
	expire(ref: string): Promise<IDataObject>;
	settle(xtid: string): Promise<IDataObject>;
	receive(xaid: string, amount: number, reference?: string): Promise<IDataObject>;
	advanceClock(ms: number): Promise<void>;
	setPolicies(workspaceId: string, policies: Policy[]): void;
	/** Defaults to the main workspace. */
	ledger(workspaceId?: string): LedgerSnapshot;
	/** Every workspace's subscriptions unless one is named. */
	subscriptions(workspaceId?: string): Subscription[];
	deliveries(): DeliveryRecord[];
	/** Resolves when every webhook delivery has succeeded or finally failed. */
	waitForDeliveries(): Promise<void>;
	requests(): RequestLogEntry[];
	clearRequests(): void;
	setFaults(rules: FaultRule[]): void;
	clearFaults(): void;
	revokeTokens(): void;
	rotateSigningSecret(workspaceId?: string): { current: string; previous: string };
	seedTransactions(xaid: string, count: number): Promise<void>;
	reset(): void;
}

export interface ControlDeps {
	bank: Bank;
	tokens: TokenService;
	faults: Faults;
	deliveries: WebhookDeliveries;
	requestLog: RequestLogEntry[];
	mainWorkspaceId: string;
	/** Restores the seeded state (bank, clients). */
	reseed(): void;
}

function copy<T>(value: T): T {
	return structuredClone(value);
}

/** The API's views are plain JSON objects; the handle hands them out typed as n8n data. */
function asData(view: object): IDataObject {
	return view as IDataObject;
}

export function createControl(deps: ControlDeps): SandboxControl {
	const { bank } = deps;

	function workspaceById(id: string = deps.mainWorkspaceId): Workspace {
		const workspace = bank.workspaces.get(id);
		if (!workspace) throw notFound(`workspace ${id} not found`);
		return workspace;
	}

	function locate<T>(find: (workspace: Workspace) => T | undefined, what: string): { workspace: Workspace; item: T } {
		for (const workspace of bank.workspaces.values()) {
			const item = find(workspace);
			if (item !== undefined) return { workspace, item };
		}
		throw notFound(`${what} not found`);
	}

	function decideApproval(ref: string, decision: (workspace: Workspace, approval: ApprovalRecord) => void): IDataObject {
		expireDue(bank);
		const { workspace, item } = locate((w) => w.approvals.get(ref), `approval ${ref}`);
		decision(workspace, item);
		return asData(approvalView(item));
	}

	function amountMinor(amount: number): number {
		const minor = toMinor(amount);
		if (minor === undefined || minor <= 0) throw badRequest('amount must be a positive number with at most 2 decimals');
		return minor;
	}

	return {
		approve: async (ref) => decideApproval(ref, (w, a) => approve(bank, w, a)),
		decline: async (ref) => decideApproval(ref, (w, a) => decline(bank, w, a)),
		expire: async (ref) => decideApproval(ref, (w, a) => expire(bank, w, a)),

		settle: async (xtid) => {
			const { workspace, item } = locate<TransactionRecord>((w) => w.transactions.get(xtid), `transaction ${xtid}`);
			return asData(transactionView(settle(bank, workspace, item)));
		},

		receive: async (xaid, amount, reference = 'Incoming payment') => {
			const { workspace, item } = locate((w) => w.accounts.get(xaid), `account ${xaid}`);
			const minor = amountMinor(amount);
			const received = receive(bank, workspace, item, { amountMinor: minor, reference, counterpartyName: 'Sandbox Sender Ltd' });
			return asData(transactionView(received));
		},

		advanceClock: async (ms) => {
			bank.clock.advance(ms);
			expireDue(bank); // spec §States and transitions: expiry under the policy's window
		},

		setPolicies: (workspaceId, policies) => {
			const workspace = workspaceById(workspaceId);
			for (const policy of policies) {
				if (toMinor(policy.minAmount) === undefined || (policy.maxAmount !== null && toMinor(policy.maxAmount) === undefined)) {
					throw badRequest(`policy ${policy.id}: amounts must be numbers with at most 2 decimals`);
				}
				if (!(policy.expiresInSeconds > 0)) throw badRequest(`policy ${policy.id}: expiresInSeconds must be positive`);
			}
			workspace.policies = copy(policies);
		},

		ledger: (workspaceId) => {
			expireDue(bank);
			const workspace = workspaceById(workspaceId);
			return {
				workspaceId: workspace.id,
				accounts: listOf(workspace.accounts).map(
					(account) => asData({ ...accountView(account), ...balanceView(account) }),
				),
				transactions: listOf(workspace.transactions).map((t) => asData(transactionView(t))),
				approvals: listOf(workspace.approvals).map((a) => asData(approvalView(a))),
				paymentRequests: copy(workspace.paymentRequests),
				policies: copy(workspace.policies),
			};
		},

		subscriptions: (workspaceId) =>
			[...bank.workspaces.values()]
				.filter((workspace) => workspaceId === undefined || workspace.id === workspaceId)
				.flatMap((workspace) => listOf(workspace.subscriptions).map((s) => ({ ...s, workspaceId: workspace.id }))),

		deliveries: () => deps.deliveries.list(),
		waitForDeliveries: () => deps.deliveries.idle(),
		requests: () => copy(deps.requestLog),
		clearRequests: () => {
			deps.requestLog.length = 0;
		},
		setFaults: (rules) => deps.faults.set(rules),
		clearFaults: () => deps.faults.clear(),
		revokeTokens: () => deps.tokens.revokeAll(),
		rotateSigningSecret: (workspaceId) => rotateSigningSecret(bank, workspaceById(workspaceId)),

		seedTransactions: async (xaid, count) => {
			if (!Number.isInteger(count) || count < 1) throw badRequest('count must be a positive integer');
			const { workspace, item } = locate((w) => w.accounts.get(xaid), `account ${xaid}`);
			for (let i = 1; i <= count; i++) {
				receive(bank, workspace, item, {
					amountMinor: 100 + (i % 1000),
					reference: `Seeded receipt ${i}`,
					counterpartyName: 'Bulk Sender Ltd',
					silent: true,
				});
			}
		},

		reset: () => {
			deps.deliveries.clear();
			deps.faults.clear();
			deps.requestLog.length = 0;
			deps.reseed();
		},
	};
}

export interface ControlRequest {
	params: Record<string, string>;
	query: URLSearchParams;
	body: unknown;
}

export interface ControlRoute {
	method: 'GET' | 'POST' | 'PUT' | 'DELETE';
	/** Relative to /_sandbox. */
	path: string;
	handle(request: ControlRequest): Promise<{ status: number; body?: unknown }> | { status: number; body?: unknown };
}

function field(body: unknown, name: string): unknown {
	return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}

function numberField(body: unknown, name: string): number {
	const value = field(body, name);
	if (typeof value !== 'number') throw badRequest(`${name} must be a number`);
	return value;
}

/** JSON cannot carry a RegExp: over HTTP a rule may give `pathPattern` (a RegExp source) instead. */
function faultRules(body: unknown): FaultRule[] {
	const rules = field(body, 'rules') ?? body;
	if (!Array.isArray(rules)) throw badRequest('body must be an array of fault rules or { rules: [...] }');
	return rules.map((rule: FaultRule & { pathPattern?: string }) => {
		const { pathPattern, ...rest } = rule;
		return pathPattern === undefined ? rest : { ...rest, path: new RegExp(pathPattern) };
	});
}

const ok = (body: unknown = { ok: true }) => ({ status: 200, body });

/** The same operations over HTTP under /_sandbox (no auth: loopback only, not part of the spec). */
export function controlRoutes(control: SandboxControl): ControlRoute[] {
	const workspaceId = (query: URLSearchParams) => query.get('workspaceId') ?? undefined;
	return [
		{ method: 'POST', path: '/approvals/{ref}/approve', handle: async ({ params }) => ok(await control.approve(params.ref)) },
		{ method: 'POST', path: '/approvals/{ref}/decline', handle: async ({ params }) => ok(await control.decline(params.ref)) },
		{ method: 'POST', path: '/approvals/{ref}/expire', handle: async ({ params }) => ok(await control.expire(params.ref)) },
		{ method: 'POST', path: '/transactions/{xtid}/settle', handle: async ({ params }) => ok(await control.settle(params.xtid)) },
		{
			method: 'POST',
			path: '/accounts/{xaid}/receive',
			handle: async ({ params, body }) => {
				const reference = field(body, 'reference');
				return ok(await control.receive(params.xaid, numberField(body, 'amount'), typeof reference === 'string' ? reference : undefined));
			},
		},
		{
			method: 'POST',
			path: '/accounts/{xaid}/seed-transactions',
			handle: async ({ params, body }) => {
				await control.seedTransactions(params.xaid, numberField(body, 'count'));
				return ok();
			},
		},
		{
			method: 'POST',
			path: '/clock/advance',
			handle: async ({ body }) => {
				await control.advanceClock(numberField(body, 'ms'));
				return ok();
			},
		},
		{
			method: 'PUT',
			path: '/workspaces/{workspaceId}/policies',
			handle: ({ params, body }) => {
				const policies = field(body, 'policies') ?? body;
				if (!Array.isArray(policies)) throw badRequest('body must be an array of policies or { policies: [...] }');
				control.setPolicies(params.workspaceId, policies as Policy[]);
				return ok();
			},
		},
		{ method: 'GET', path: '/ledger', handle: ({ query }) => ok(control.ledger(workspaceId(query))) },
		{ method: 'GET', path: '/subscriptions', handle: ({ query }) => ok(control.subscriptions(workspaceId(query))) },
		{ method: 'GET', path: '/deliveries', handle: () => ok(control.deliveries()) },
		{ method: 'GET', path: '/requests', handle: () => ok(control.requests()) },
		{
			method: 'DELETE',
			path: '/requests',
			handle: () => {
				control.clearRequests();
				return ok();
			},
		},
		{
			method: 'PUT',
			path: '/faults',
			handle: ({ body }) => {
				control.setFaults(faultRules(body));
				return ok();
			},
		},
		{
			method: 'DELETE',
			path: '/faults',
			handle: () => {
				control.clearFaults();
				return ok();
			},
		},
		{
			method: 'POST',
			path: '/tokens/revoke',
			handle: () => {
				control.revokeTokens();
				return ok();
			},
		},
		{
			method: 'POST',
			path: '/signing-secret/rotate',
			handle: ({ query }) => ok(control.rotateSigningSecret(workspaceId(query))),
		},
		{
			method: 'POST',
			path: '/reset',
			handle: () => {
				control.reset();
				return ok();
			},
		},
	];
}

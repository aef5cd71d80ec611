/**
 * The sandbox's controls: what the provider's apps, time and the network do to the bank, driven from
 * outside the API, in process (the handle) and over HTTP under /_sandbox. Each resource registers its
 * own (accounts/control.ts, transactions/control.ts, approvals/control.ts, webhooks/control.ts,
 * faultControl.ts, bankControl.ts); here they are put together.
 */
import type { IDataObject } from 'n8n-workflow';

import { accountControls } from './accounts/control';
import { approvalControls } from './approvals/control';
import type { Policy } from './approvals/model';
import { bankControls } from './bankControl';
import { type ControlDeps, controlContext, type ControlRoute } from './controlKit';
import { faultControls } from './faultControl';
import type { FaultRule } from './faults';
import type { PaymentRequestRecord } from './payments/model';
import type { RequestLogEntry } from './server';
import { transactionControls } from './transactions/control';
import { webhookControls } from './webhooks/control';
import type { DeliveryRecord } from './webhooks/delivery';
import type { SubscriptionRecord } from './webhooks/model';

export type Subscription = SubscriptionRecord & { workspaceId: string };
export type { ControlDeps, ControlRoute, DeliveryRecord, FaultRule, Policy, RequestLogEntry };

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
	/** A sent payment the bank could not pay after all: status failed, its reservation released. */
	fail(xtid: string): Promise<IDataObject>;
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

/** The handle and the routes of every resource's controls, over one bank. */
export function createControl(deps: ControlDeps): {
	control: SandboxControl;
	routes: ControlRoute[];
} {
	const context = controlContext(deps);
	const accounts = accountControls(context);
	const transactions = transactionControls(context);
	const approvals = approvalControls(context);
	const webhooks = webhookControls(context);
	const faults = faultControls(context);
	const bank = bankControls(context);
	return {
		control: {
			...accounts.operations,
			...transactions.operations,
			...approvals.operations,
			...webhooks.operations,
			...faults.operations,
			...bank.operations,
		},
		routes: [accounts, transactions, approvals, webhooks, faults, bank].flatMap(
			(resource) => resource.routes,
		),
	};
}

import type { AccountRecord } from './accounts/model';
import type { ApprovalRecord, Policy } from './approvals/model';
import type { SandboxClock } from './clock';
import type { PayeeRecord } from './payees/model';
import type { IdempotencyRecord, PaymentRequestRecord } from './payments/model';
import type { SeededRandom } from './random';
import type { TransactionRecord } from './transactions/model';
import type { BankVariants } from './variants';
import type { SigningSecrets, SubscriptionRecord, WebhookEvent } from './webhooks/model';

/** One customer's data; nothing in one workspace is reachable from another's credentials. */
export interface Workspace {
	id: string;
	/** The spec's `xid`: owner of the credentials, stamped on payees. */
	ownerXid: string;
	accounts: Map<string, AccountRecord>;
	payees: Map<string, PayeeRecord>;
	transactions: Map<string, TransactionRecord>;
	approvals: Map<string, ApprovalRecord>;
	policies: Policy[];
	paymentRequests: PaymentRequestRecord[];
	idempotency: Map<string, IdempotencyRecord>;
	subscriptions: Map<string, SubscriptionRecord>;
	signing: SigningSecrets;
}

/** Something subscribers hear about (spec §Events). */
export interface BankEvent {
	event: WebhookEvent;
	workspaceId: string;
	xaid: string;
	xtid: string;
	occurredAt: string;
}

/** The whole simulated bank: every model function reads and changes this, synchronously. */
export interface Bank {
	workspaces: Map<string, Workspace>;
	random: SeededRandom;
	clock: SandboxClock;
	/** What this bank does where the spec is silent (variants.ts). */
	variants: BankVariants;
	emit(event: BankEvent): void;
}

/** Orders lists oldest first (insertion order of the maps). */
export function listOf<T>(map: Map<string, T>, keep: (item: T) => boolean = () => true): T[] {
	return [...map.values()].filter(keep);
}

/** A transactions or approvals list in the order this bank serves it (variant `listOrder`). */
export function inListOrder<T>(bank: Bank, items: T[]): T[] {
	return bank.variants.listOrder === 'newestFirst' ? [...items].reverse() : items;
}

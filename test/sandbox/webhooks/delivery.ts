import { setTimeout as sleep } from 'node:timers/promises';

import { Agent, request } from 'undici';

import type { Bank, BankEvent } from '../state';
import type { BankVariants } from '../variants';
import { activeSecrets, signatureHeader } from './model';

export interface DeliveryAttempt {
	attempt: number;
	at: string;
	statusCode?: number;
	error?: string;
	durationMs: number;
}

/** One delivery as the sandbox knows it: its own field names, whichever payload the webhookPayload variant sends. */
export interface DeliveryRecord {
	deliveryId: string;
	workspaceId: string;
	zapId: string;
	subscriptionRef: string;
	event: BankEvent['event'];
	xaid: string;
	xtid: string;
	url: string;
	status: 'pending' | 'delivered' | 'failed';
	attempts: DeliveryAttempt[];
	/** The exact JSON sent (the same bytes on every attempt, the bytes signed). */
	body: string;
}

/**
 * The delivery body (spec §Events rule 3: "not shown"): the sandbox's field names (DECISIONS.md §Webhooks),
 * or with `webhookPayload: 'other'` another bank's names for the same facts.
 */
function payload(
	variant: BankVariants['webhookPayload'],
	deliveryId: string,
	event: BankEvent,
	zapId: string,
): string {
	const body =
		variant === 'other'
			? {
					id: deliveryId,
					type: event.event,
					accountId: event.xaid,
					transactionId: event.xtid,
					createdAt: event.occurredAt,
					subscription: zapId,
				}
			: {
					deliveryId,
					event: event.event,
					xaid: event.xaid,
					xtid: event.xtid,
					zapId,
					occurredAt: event.occurredAt,
				};
	return JSON.stringify(body);
}

export interface DeliveryOptions {
	/** Waits between attempts; attempts = backoffMs.length + 1 (DECISIONS.md §Webhooks). */
	backoffMs: number[];
	/** An attempt without an answer in this time counts as failed. */
	timeoutMs: number;
}

/** Sends webhook deliveries for bank events, with retries; every attempt is recorded. */
export class WebhookDeliveries {
	private records: DeliveryRecord[] = [];
	private running = new Set<Promise<void>>();
	private stop = new AbortController();
	private readonly agent = new Agent({ connections: 16 });

	constructor(
		private readonly bank: Bank,
		private readonly options: DeliveryOptions,
	) {}

	// spec §Events: one delivery per subscription of that account and event
	dispatch(event: BankEvent): void {
		const workspace = this.bank.workspaces.get(event.workspaceId);
		if (!workspace) return;
		for (const subscription of workspace.subscriptions.values()) {
			if (subscription.xaid !== event.xaid || subscription.event !== event.event) continue;
			const deliveryId = this.bank.random.uuid();
			const record: DeliveryRecord = {
				deliveryId,
				workspaceId: workspace.id,
				zapId: subscription.zapId,
				subscriptionRef: subscription.ref,
				event: event.event,
				xaid: event.xaid,
				xtid: event.xtid,
				url: subscription.url,
				status: 'pending',
				attempts: [],
				body: payload(this.bank.variants.webhookPayload, deliveryId, event, subscription.zapId),
			};
			this.records.push(record);
			const run = this.deliver(record, this.stop.signal).finally(() => this.running.delete(run));
			this.running.add(run);
		}
	}

	list(): DeliveryRecord[] {
		return this.records.map((record) => ({
			...record,
			attempts: record.attempts.map((a) => ({ ...a })),
		}));
	}

	/** Resolves once every delivery has succeeded or finally failed. */
	async idle(): Promise<void> {
		while (this.running.size > 0) await Promise.all([...this.running]);
	}

	/** Drops every record and cancels retries still waiting. */
	clear(): void {
		this.stop.abort();
		this.stop = new AbortController();
		this.records = [];
	}

	async close(): Promise<void> {
		this.stop.abort();
		await Promise.allSettled([...this.running]);
		await this.agent.close();
	}

	private async deliver(record: DeliveryRecord, signal: AbortSignal): Promise<void> {
		const attempts = this.options.backoffMs.length + 1;
		for (let attempt = 1; attempt <= attempts && !signal.aborted; attempt++) {
			if (await this.attempt(record, attempt)) {
				record.status = 'delivered';
				return;
			}
			if (attempt === attempts) break;
			try {
				await sleep(this.options.backoffMs[attempt - 1], undefined, { signal });
			} catch {
				break; // reset or close: the record stays as it is
			}
		}
		// spec §Events rule 4: failures are recorded
		record.status = 'failed';
	}

	private async attempt(record: DeliveryRecord, attempt: number): Promise<boolean> {
		const workspace = this.bank.workspaces.get(record.workspaceId);
		if (!workspace) return false;
		// Real Unix time, not the sandbox clock: receivers check it against their own clock.
		const timestamp = Math.floor(Date.now() / 1000);
		const started = Date.now();
		const entry: DeliveryAttempt = { attempt, at: new Date(started).toISOString(), durationMs: 0 };
		record.attempts.push(entry);
		try {
			const response = await request(record.url, {
				method: 'POST',
				dispatcher: this.agent,
				signal: AbortSignal.timeout(this.options.timeoutMs),
				headers: {
					'content-type': 'application/json',
					'x-cb-delivery-id': record.deliveryId,
					'x-cb-timestamp': String(timestamp),
					'x-cb-signature': signatureHeader(
						activeSecrets(this.bank, workspace),
						timestamp,
						record.body,
					),
				},
				body: record.body,
			});
			await response.body.dump();
			entry.statusCode = response.statusCode;
			return response.statusCode >= 200 && response.statusCode < 300;
		} catch (error) {
			entry.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
			return false;
		} finally {
			entry.durationMs = Date.now() - started;
		}
	}
}

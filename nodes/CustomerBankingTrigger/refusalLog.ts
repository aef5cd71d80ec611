import type { IWebhookFunctions } from 'n8n-workflow';

import { TriggerNodeRegistry } from '../shared/triggerNodeRegistry';

/**
 * Deliveries refused for their signature or timestamp are logged in summary, at most once per this
 * interval per trigger node: anybody can send them, and a line each would let a flood fill n8n's log.
 * The first refusal after a quiet interval is logged at once; those after it are counted and reported
 * with the next refusal that comes once the interval has passed.
 */
export const REFUSAL_LOG_INTERVAL_MS = 60_000;
/** Far more trigger nodes than one n8n instance serves; beyond it the oldest entries go. */
const MAX_TALLIES = 1_000;

interface Tally {
	loggedAtMs?: number;
	counts: Map<string, number>;
}

const tallies = new TriggerNodeRegistry<Tally>(() => ({ counts: new Map() }), MAX_TALLIES);

/** Counts one refused delivery, and logs the refusals counted so far when the interval has passed. */
export function noteRefusal(this: IWebhookFunctions, reason: string, nowMs: number): void {
	const tally = tallies.of(this);
	tally.counts.set(reason, (tally.counts.get(reason) ?? 0) + 1);
	const last = tally.loggedAtMs;
	if (last !== undefined && nowMs - last < REFUSAL_LOG_INTERVAL_MS && nowMs >= last) return;
	let total = 0;
	const reasons: string[] = [];
	for (const [name, count] of tally.counts) {
		total += count;
		reasons.push(`${name}: ${count}`);
	}
	const since = last === undefined ? '' : ` in the last ${Math.round((nowMs - last) / 1000)} s`;
	this.logger.warn(
		`Customer Banking Trigger: refused ${total} ${total === 1 ? 'delivery' : 'deliveries'}${since} without a valid signature or timestamp (${reasons.join(', ')})`,
	);
	tally.counts.clear();
	tally.loggedAtMs = nowMs;
}

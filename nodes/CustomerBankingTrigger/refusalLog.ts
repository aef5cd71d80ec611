import type { IWebhookFunctions } from 'n8n-workflow';

import { TriggerNodeRegistry } from '../shared/triggerNodeRegistry';
import type { RefusalCounts } from './refusalReasons';

/**
 * Deliveries refused for their signature or timestamp are logged and reported in summary, at most
 * once per this interval per trigger node: anybody can send them, and a line (or a failed execution)
 * each would let a flood fill n8n's log and execution list. The first refusal after a quiet interval
 * is reported at once; those after it are counted and reported with the next refusal that comes once
 * the interval has passed.
 */
export const REFUSAL_LOG_INTERVAL_MS = 60_000;
/** Far more trigger nodes than one n8n instance serves; beyond it the oldest entries go. */
const MAX_TALLIES = 1_000;

interface Tally {
	loggedAtMs?: number;
	counts: Map<string, number>;
}

const tallies = new TriggerNodeRegistry<Tally>(() => ({ counts: new Map() }), MAX_TALLIES);

/**
 * Counts one refused delivery; when the interval has passed, logs the refusals counted so far and
 * returns them (to be reported), otherwise returns undefined.
 */
export function noteRefusal(
	this: IWebhookFunctions,
	reason: string,
	nowMs: number,
): RefusalCounts | undefined {
	const tally = tallies.of(this);
	tally.counts.set(reason, (tally.counts.get(reason) ?? 0) + 1);
	const last = tally.loggedAtMs;
	// either way: concurrent calls read the clock before they await and note refusals out of order,
	// and a clock set back by more than the interval must not silence reports until it catches up
	if (last !== undefined && Math.abs(nowMs - last) < REFUSAL_LOG_INTERVAL_MS) return undefined;
	let total = 0;
	const reasons: string[] = [];
	for (const [name, count] of tally.counts) {
		total += count;
		reasons.push(`${name}: ${count}`);
	}
	const sinceSeconds = last === undefined ? undefined : Math.round((nowMs - last) / 1000);
	const since = sinceSeconds === undefined ? '' : ` in the last ${sinceSeconds} s`;
	this.logger.warn(
		`Customer Banking Trigger: refused ${total} ${total === 1 ? 'delivery' : 'deliveries'}${since} without a valid signature or timestamp (${reasons.join(', ')})`,
	);
	const counts = new Map(tally.counts);
	tally.counts.clear();
	tally.loggedAtMs = nowMs;
	return { counts, sinceSeconds };
}

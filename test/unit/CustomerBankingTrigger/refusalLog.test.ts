import type { IWebhookFunctions } from 'n8n-workflow';

import {
	noteRefusal,
	REFUSAL_LOG_INTERVAL_MS,
} from '../../../nodes/CustomerBankingTrigger/refusalLog';

let nodes = 0;
/** A webhook call of a trigger node of its own, with a logger that records its warnings. */
function triggerNode(): { call: IWebhookFunctions; warnings: string[] } {
	const warnings: string[] = [];
	const id = `node-${++nodes}`;
	const call = {
		getWorkflow: () => ({ id: 'workflow-1' }),
		getNode: () => ({ id, name: 'Customer Banking Trigger' }),
		logger: { warn: (line: string) => warnings.push(line) },
	} as unknown as IWebhookFunctions;
	return { call, warnings };
}

const T0 = 1_800_000_000_000;

describe('noteRefusal: refused deliveries reported at most once an interval per trigger node', () => {
	it.each<[string, number[], boolean[]]>([
		['the first refusal is reported at once', [T0], [true]],
		[
			'those within the interval are counted, not reported',
			[T0, T0 + 1, T0 + 59_000],
			[true, false, false],
		],
		[
			'the next refusal once the interval has passed reports them all',
			[T0, T0 + 1, T0 + REFUSAL_LOG_INTERVAL_MS],
			[true, false, true],
		],
		[
			// concurrent webhook calls read the clock before they await; they note refusals out of order
			'a call that read the clock a moment before the one reported is within the interval',
			[T0 + 500, T0, T0 + 200],
			[true, false, false],
		],
		[
			'a clock set back by more than the interval reports again',
			[T0, T0 - REFUSAL_LOG_INTERVAL_MS - 1],
			[true, true],
		],
	])('%s', (_name, times, reported) => {
		const { call, warnings } = triggerNode();
		expect(times.map((now) => noteRefusal.call(call, 'badSignature', now) !== undefined)).toEqual(
			reported,
		);
		expect(warnings).toHaveLength(reported.filter(Boolean).length);
	});

	it('a report counts every refusal since the last one, by reason', () => {
		const { call } = triggerNode();
		noteRefusal.call(call, 'badSignature', T0);
		noteRefusal.call(call, 'badSignature', T0 + 1);
		noteRefusal.call(call, 'staleTimestamp', T0 + 2);
		const report = noteRefusal.call(call, 'badSignature', T0 + REFUSAL_LOG_INTERVAL_MS + 5);
		expect(report).toEqual({
			counts: new Map([
				['badSignature', 2],
				['staleTimestamp', 1],
			]),
			sinceSeconds: 60,
		});
	});

	it('trigger nodes are counted apart', () => {
		const first = triggerNode();
		const second = triggerNode();
		expect(noteRefusal.call(first.call, 'badSignature', T0)).toBeDefined();
		expect(noteRefusal.call(second.call, 'badSignature', T0 + 1)).toBeDefined();
	});
});

describe('noteRefusal: what is logged', () => {
	it('one line for the first refusal, a summary with the interval for the next report', () => {
		const { call, warnings } = triggerNode();
		noteRefusal.call(call, 'bad signature', T0);
		noteRefusal.call(call, 'bad signature', T0 + 1_000);
		noteRefusal.call(call, 'stale timestamp', T0 + 2_000);
		noteRefusal.call(call, 'stale timestamp', T0 + REFUSAL_LOG_INTERVAL_MS);
		expect(warnings).toEqual([
			'Customer Banking Trigger: refused 1 delivery without a valid signature or timestamp (bad signature: 1)',
			'Customer Banking Trigger: refused 3 deliveries in the last 60 s without a valid signature or timestamp (bad signature: 1, stale timestamp: 2)',
		]);
	});

	it('counts start again after a report', () => {
		const { call } = triggerNode();
		noteRefusal.call(call, 'a', T0);
		noteRefusal.call(call, 'a', T0 + 10);
		expect(noteRefusal.call(call, 'b', T0 + REFUSAL_LOG_INTERVAL_MS)?.counts).toEqual(
			new Map([
				['a', 1],
				['b', 1],
			]),
		);
		expect(noteRefusal.call(call, 'c', T0 + 2 * REFUSAL_LOG_INTERVAL_MS)?.counts).toEqual(
			new Map([['c', 1]]),
		);
	});
});

/**
 * Numbers for the benchmarks: medians and ranges, percentiles, and a limited-concurrency runner.
 */
export interface Summary {
	median: number;
	min: number;
	max: number;
	runs: number;
}

export function summarise(values: number[]): Summary {
	if (values.length === 0) return { median: NaN, min: NaN, max: NaN, runs: 0 };
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	const median =
		sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	return { median, min: sorted[0], max: sorted[sorted.length - 1], runs: sorted.length };
}

/** Nearest-rank percentile (p in 0..100). */
export function percentile(values: number[], p: number): number {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Calls `task(i)` for i in 0..count-1 with at most `concurrency` in flight. */
export async function runConcurrently(
	count: number,
	concurrency: number,
	task: (i: number) => Promise<void>,
): Promise<void> {
	let next = 0;
	const lanes = Array.from({ length: Math.min(concurrency, count) }, async () => {
		while (next < count) await task(next++);
	});
	await Promise.all(lanes);
}

export const ms = (value: number) => `${value.toFixed(0)} ms`;
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
export const ratio = (ours: number, theirs: number) => `${(ours / theirs).toFixed(2)}×`;
export const range = (s: Summary, format: (v: number) => string) =>
	`${format(s.median)} (${format(s.min)}–${format(s.max)})`;

/**
 * The sandbox clock: starts at `now` (default: the real time at start), runs on with real time,
 * and jumps forward when tests advance it. Token expiry, approval expiry, idempotency-key
 * retention and token rate-limit windows all read this clock.
 */
export class SandboxClock {
	private advancedMs = 0;
	private readonly realStart = Date.now();
	private readonly start: number;

	constructor(start?: Date) {
		this.start = start ? start.getTime() : this.realStart;
	}

	now(): number {
		return this.start + (Date.now() - this.realStart) + this.advancedMs;
	}

	iso(): string {
		return new Date(this.now()).toISOString();
	}

	advance(ms: number): void {
		if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward');
		this.advancedMs += ms;
	}
}

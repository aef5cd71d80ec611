/**
 * The bank's clock as its answers show it: every HTTP answer carries `Date` (RFC 9110 §6.6.1), whole
 * seconds of the bank's time when it answered. An answer to a request sent at n8n's time `sentAt` and
 * received at `receivedAt` was made in between, so the bank's clock is at most `Date + 1 s - sentAt`
 * and at least `Date - receivedAt` ahead of n8n's. Each answer narrows both bounds; nothing is assumed
 * about how far apart the clocks are. Without a readable `Date` nothing is known.
 */
export class BankClock {
	private aheadAtMost?: number;
	private aheadAtLeast?: number;

	observe(date: unknown, sentAt: number, receivedAt: number): void {
		const bankTime = typeof date === 'string' ? Date.parse(date) : Number.NaN;
		if (Number.isNaN(bankTime)) return;
		const atMost = bankTime + 1000 - sentAt;
		const atLeast = bankTime - receivedAt;
		this.aheadAtMost = this.aheadAtMost === undefined ? atMost : Math.min(this.aheadAtMost, atMost);
		this.aheadAtLeast =
			this.aheadAtLeast === undefined ? atLeast : Math.max(this.aheadAtLeast, atLeast);
	}

	/** The latest time the bank's clock can have shown when n8n's showed `at`. */
	latestAt(at: number): number | undefined {
		return this.aheadAtMost === undefined ? undefined : at + this.aheadAtMost;
	}

	/** The earliest time the bank's clock can have shown when n8n's showed `at`. */
	earliestAt(at: number): number | undefined {
		return this.aheadAtLeast === undefined ? undefined : at + this.aheadAtLeast;
	}
}

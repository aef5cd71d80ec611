import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/** The part of a Set the look-up needs: which xtids are already reported for a payment. */
export interface XtidClaims {
	has(xtid: string): boolean;
	add(xtid: string): unknown;
}

interface KeyRecord {
	/** Unix ms of the first attempt sent with this key. */
	firstAttemptAt: number;
	/** xtids the bank answered this key with. */
	xtids: string[];
}

const KEYS = 'paymentKeys';
const CLAIMED = 'claimedXtids';

function objectAt(memory: IDataObject, name: string): IDataObject {
	const value = memory[name];
	if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as IDataObject;
	const fresh: IDataObject = {};
	memory[name] = fresh;
	return fresh;
}

/**
 * What the node remembers about the payments it sent, in its execution context: n8n keeps that
 * context across Retry On Fail, a loop's next run, and its Retry of a failed execution (which reuses
 * the failed execution's data). So a later attempt knows when a key was first sent (a look-up claims
 * only what was made after it), which xtids the bank already answered a key with (an answer repeating
 * one is a replay), and which xtids are already reported for another payment (never claimed twice).
 */
export class PaymentMemory {
	private readonly keys: IDataObject;
	private readonly claimed: IDataObject;

	constructor(memory: IDataObject) {
		this.keys = objectAt(memory, KEYS);
		this.claimed = objectAt(memory, CLAIMED);
	}

	static of(context: IExecuteFunctions): PaymentMemory {
		return new PaymentMemory(context.getContext('node'));
	}

	readonly claimedXtids: XtidClaims = {
		has: (xtid) => this.claimed[xtid] === true,
		add: (xtid) => (this.claimed[xtid] = true),
	};

	private record(key: string): KeyRecord | undefined {
		const record = this.keys[key] as Partial<KeyRecord> | undefined;
		return typeof record?.firstAttemptAt === 'number'
			? { firstAttemptAt: record.firstAttemptAt, xtids: Array.isArray(record.xtids) ? record.xtids : [] }
			: undefined;
	}

	/** When the first attempt with this key was sent; records `now` as that time on the first call. */
	firstAttemptAt(key: string, now: number): number {
		const known = this.record(key);
		if (known) return known.firstAttemptAt;
		this.keys[key] = { firstAttemptAt: now, xtids: [] };
		return now;
	}

	/** Notes the bank's answer to a key; true when it had already answered the key with this xtid. */
	answered(key: string, xtid: string): boolean {
		const known = this.record(key) ?? { firstAttemptAt: Date.now(), xtids: [] };
		if (known.xtids.includes(xtid)) return true;
		this.keys[key] = { firstAttemptAt: known.firstAttemptAt, xtids: [...known.xtids, xtid] };
		return false;
	}
}

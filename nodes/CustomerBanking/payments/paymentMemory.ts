import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { isPlainObject } from '../../shared/records';
import type { Spent } from './spendingLimits';

/** The part of a Set the look-up needs: which xtids are already reported for a payment. */
export interface XtidClaims {
	has(xtid: string): boolean;
	add(xtid: string): unknown;
}

/** What the node remembers of one request it sent, under its key. */
export interface SentRequest {
	/** xtids the bank answered this key with. */
	xtids: string[];
	/** Digest of the request body (paymentIdentity.ts): the key is never sent with another. */
	body?: string;
	/** The identities of the payments of the request, in the order they were sent. */
	members: string[];
	asBatch: boolean;
	/**
	 * Whether an attempt may have been processed: true from the first attempt on, false only once the
	 * bank refused the key's first attempt (an HTTP 4xx that no earlier attempt could have preceded). A
	 * refusal of a later attempt never makes it false: the earlier one may be the one that was paid.
	 */
	possiblyMade: boolean;
}

const KEYS = 'paymentKeys';
const IDENTITIES = 'paymentIdentities';
const CLAIMED = 'claimedXtids';
const SPENT = 'spentPerAccount';

function objectAt(memory: IDataObject, name: string): IDataObject {
	const value = memory[name];
	if (isPlainObject(value)) return value;
	const fresh: IDataObject = {};
	memory[name] = fresh;
	return fresh;
}

/**
 * What the node remembers about the payments it sent, in its execution context: n8n keeps that
 * context across Retry On Fail, a loop's next run, and its Retry of a failed execution (which reuses
 * the failed execution's data). So a later attempt knows every key already sent, with its body and its
 * payments (a payment is sent again only under the key it was first sent with, and a key only with its
 * body), whether it may have been processed, which xtids the bank answered it with (an answer repeating
 * one is a replay, and a look-up claims only those), and which xtids are already reported for another
 * payment (never claimed twice), and what the spending limits count as paid.
 */
export class PaymentMemory {
	private readonly keys: IDataObject;
	private readonly identities: IDataObject;
	private readonly claimed: IDataObject;

	constructor(private readonly memory: IDataObject) {
		this.keys = objectAt(memory, KEYS);
		this.identities = objectAt(memory, IDENTITIES);
		this.claimed = objectAt(memory, CLAIMED);
	}

	static of(context: IExecuteFunctions): PaymentMemory {
		return new PaymentMemory(context.getContext('node'));
	}

	readonly claimedXtids: XtidClaims = {
		has: (xtid) => this.claimed[xtid] === true,
		add: (xtid) => (this.claimed[xtid] = true),
	};

	/** What this execution may already have paid, per account (spendingLimits.ts). */
	get spent(): Spent {
		return objectAt(this.memory, SPENT) as Spent;
	}

	set spent(spent: Spent) {
		this.memory[SPENT] = spent;
	}

	/** The request sent with this key, as remembered (store wrote it whole). */
	request(key: string): SentRequest | undefined {
		const stored = this.keys[key] as SentRequest | undefined;
		return stored === undefined ? undefined : { ...stored };
	}

	/** The key a payment (by identity) was first sent with. */
	keyOfPayment(identity: string): string | undefined {
		const key = this.identities[identity];
		return typeof key === 'string' ? key : undefined;
	}

	// a new object each time: n8n saves the context it handed out, and the record must be whole in it
	private store(key: string, request: SentRequest): void {
		this.keys[key] = { ...request, xtids: [...request.xtids], members: [...request.members] };
	}

	/**
	 * Notes an attempt about to be sent with `key`; the first one records its body and payments, and
	 * binds each payment to this key unless a request that may have made it holds it. Returns the request
	 * as remembered.
	 */
	recordAttempt(
		key: string,
		sent: { body: string; members: string[]; asBatch: boolean },
	): { request: SentRequest; first: boolean } {
		const known = this.request(key);
		if (known) return { request: known, first: false };
		const request: SentRequest = { xtids: [], ...sent, possiblyMade: true };
		this.store(key, request);
		// a payment stays bound to the first request that may have made it; one that made nothing binds it no more
		for (const identity of sent.members) {
			const bound = this.keyOfPayment(identity);
			if (bound === undefined || this.request(bound)?.possiblyMade !== true)
				this.identities[identity] = key;
		}
		return { request, first: true };
	}

	/** The bank refused the key's first attempt: nothing was made with it. */
	markMadeNothing(key: string): void {
		const known = this.request(key);
		if (known?.possiblyMade) this.store(key, { ...known, possiblyMade: false });
	}

	/** Notes the bank's answer to a key; true when it had already answered the key with this xtid. */
	answered(key: string, xtid: string): boolean {
		const known = this.request(key) ?? {
			xtids: [],
			members: [],
			asBatch: false,
			possiblyMade: true,
		};
		if (known.xtids.includes(xtid)) return true;
		this.store(key, { ...known, possiblyMade: true, xtids: [...known.xtids, xtid] });
		return false;
	}
}

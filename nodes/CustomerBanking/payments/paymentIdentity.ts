import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { toMinorUnits } from '../validation/amount';
import type { Payment } from './payment';
import { nonEmptyText } from '../../shared/records';

/**
 * What makes two payments the same one, both ways. The same request: its body, which binds an
 * idempotency key to one body (bodyDigest) and names a payment across runs of the node in one execution
 * (paymentIdentities). The same payment at the bank: its details, which Skip Payments Already Made and
 * the look-up of a lost answer match (repeatsInInput between items, matchesRecord against a record).
 */

type Json = IDataObject | IDataObject[] | IDataObject[keyof IDataObject];

/** JSON with object keys sorted: equal for bodies the bank sees as equal, whatever the field order. */
function canonical(value: Json): string {
	if (Array.isArray(value)) return `[${value.map((entry) => canonical(entry as Json)).join(',')}]`;
	if (typeof value === 'object' && value !== null) {
		const object = value as IDataObject;
		return `{${Object.keys(object)
			.filter((key) => object[key] !== undefined)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${canonical(object[key] as Json)}`)
			.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/** A digest of a request body or payment: what binds a key to one body (spec §Payments rule 1). */
export function bodyDigest(body: IDataObject | IDataObject[]): string {
	return createHash('sha256').update(canonical(body)).digest('base64url');
}

/**
 * What makes a payment the same one across runs of the node in one execution (Retry On Fail, n8n's
 * Retry, also after the workflow was edited): its body, the run of the node it belongs to (a loop's next
 * run pays other payments), and which of the identical bodies of that run it is. Not its position in
 * the input or its batch, which an edit may change.
 */
export function paymentIdentities(
	payments: readonly Payment[],
	runIndex: number,
): Map<Payment, string> {
	const seen = new Map<string, number>();
	const identities = new Map<Payment, string>();
	for (const payment of [...payments].sort((a, b) => a.itemIndex - b.itemIndex)) {
		const digest = bodyDigest(payment.body);
		const occurrence = seen.get(digest) ?? 0;
		seen.set(digest, occurrence + 1);
		identities.set(payment, `${runIndex}:${digest}:${occurrence}`);
	}
	return identities;
}

/**
 * The same payment at the bank (Skip Payments Already Made): the details the bank's records can be
 * matched on (spec §Errors rule 3: matching on reference; amount, payee and account with it).
 */
function detailsOf({ body }: Payment): string {
	return JSON.stringify([
		String(body.xaid),
		String(body.xpid),
		toMinorUnits(Number(body.amount)),
		String(body.reference),
	]);
}

/** Two payments are the same when their details match and their currencies do not differ (an absent one is the account's). */
function sameCurrency(a: Payment, b: Payment): boolean {
	const { currency: first } = a.body;
	const { currency: second } = b.body;
	return first === undefined || second === undefined || first === second;
}

/**
 * The payments of one input that repeat an earlier item of it: each later one mapped to the first item
 * with the same details. With Skip Payments Already Made each is paid once, so the repeats are refused
 * before anything is sent.
 */
export function repeatsInInput(payments: readonly Payment[]): Map<Payment, Payment> {
	const firstOf = new Map<string, Payment[]>();
	const repeats = new Map<Payment, Payment>();
	for (const payment of [...payments].sort((a, b) => a.itemIndex - b.itemIndex)) {
		const details = detailsOf(payment);
		const earlier = (firstOf.get(details) ?? []).find((other) => sameCurrency(other, payment));
		if (earlier !== undefined) repeats.set(payment, earlier);
		else firstOf.set(details, [...(firstOf.get(details) ?? []), payment]);
	}
	return repeats;
}

/** What a record must match to be the payment; a detail left out is not compared. */
export interface Sought {
	xaid: string;
	reference: string;
	xpid?: string;
	amount?: number;
	currency?: string;
}

export function soughtFor({ body }: Payment): Sought {
	return {
		xaid: String(body.xaid),
		xpid: String(body.xpid),
		amount: Number(body.amount),
		reference: String(body.reference),
		currency: typeof body.currency === 'string' ? body.currency : undefined,
	};
}

function sameAmount(value: unknown, amount: number): boolean {
	const number = typeof value === 'string' ? Number(value) : value;
	return typeof number === 'number' && toMinorUnits(number) === toMinorUnits(amount);
}

/**
 * Matching on reference + amount + payee (+ currency when both sides have one). Fields the record
 * does not carry are not held against it: the spec leaves approval and transaction fields "not shown"
 * (docs/bank-assumptions.md#payment-look-up).
 */
export function matchesRecord(payment: Sought, record: IDataObject): boolean {
	if (record.reference !== payment.reference) return false;
	if (payment.amount !== undefined && !sameAmount(record.amount, payment.amount)) return false;
	const xpid = nonEmptyText(record.xpid);
	if (xpid !== undefined && payment.xpid !== undefined && xpid !== payment.xpid) return false;
	const currency = nonEmptyText(record.currency);
	return currency === undefined || payment.currency === undefined || currency === payment.currency;
}

import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { toMinorUnits } from '../validation/amount';
import type { Payment } from './payment';
import { nonEmptyText } from '../../shared/records';

/**
 * What makes two payments the same one, both ways: the same request by its body, which binds a key to it
 * (bodyDigest, paymentIdentities); the same payment at the bank by its details, for Skip Payments Already
 * Made and the look-up of a lost answer (repeatsInInput between items, matchesRecord against a record).
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
function detailsOf(payment: Payment): string {
	const { xaid, xpid, amount, reference } = soughtFor(payment);
	return JSON.stringify([xaid, xpid, toMinorUnits(Number(amount)), reference]);
}

/** A detail one side leaves out is not compared (a payment without a currency pays the account's). */
const agree = (a: unknown, b: unknown): boolean => a === undefined || b === undefined || a === b;

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
		const earlier = (firstOf.get(details) ?? []).find((other) =>
			agree(other.body.currency, payment.body.currency),
		);
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
 * Matching on reference + amount + payee + currency. The reference, and the amount when the payment
 * has one, must be shown and equal: a record without them says nothing of being this payment. The
 * payee and the currency count only where both sides show them, since the spec leaves approval and
 * transaction fields "not shown" (docs/bank-assumptions.md#payment-look-up).
 */
export function matchesRecord(payment: Sought, record: IDataObject): boolean {
	if (record.reference !== payment.reference) return false;
	if (payment.amount !== undefined && !sameAmount(record.amount, payment.amount)) return false;
	const { xpid, currency } = record;
	return agree(nonEmptyText(xpid), payment.xpid) && agree(nonEmptyText(currency), payment.currency);
}

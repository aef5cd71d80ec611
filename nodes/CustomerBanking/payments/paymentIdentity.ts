import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import type { Payment } from './payment';

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

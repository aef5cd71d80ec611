import type { IExecuteFunctions } from 'n8n-workflow';
import { jsonParse, NodeOperationError } from 'n8n-workflow';

import type { Payment } from '../../payments/payment';
import { ownValue, readGroup } from '../../validation/objects';
import { PAYMENT_FIELD_NAMES, PAYMENT_GROUP, paymentField } from '../../validation/payment.fields';
import { formatIssues, type PaymentInput, type PaymentIssue, validatePayment } from '../../validation/payment.schema';
import { textProblem } from '../../validation/text';
import { validateOnlyOption } from './paymentForm';

export type ReadResult =
	| { valid: true; payment: Payment }
	| { valid: false; itemIndex: number; issues: PaymentIssue[]; error: NodeOperationError };

// n8n throws on a parameter that resolves to undefined even when undefined is the fallback, so an
// absent value comes back as null and the schema reports it by name.
function parameter(context: IExecuteFunctions, name: string, itemIndex: number, extractValue = false): unknown {
	return context.getNodeParameter(name, itemIndex, null, extractValue ? { extractValue } : undefined);
}

function invalid(context: IExecuteFunctions, itemIndex: number, issues: PaymentIssue[]): ReadResult {
	return {
		valid: false,
		itemIndex,
		issues,
		error: new NodeOperationError(context.getNode(), `Invalid payment in item ${itemIndex}: ${formatIssues(issues)}`, {
			itemIndex,
			description: `${issues.map(({ field, rule }) => `${field}: ${rule}`).join('\n')}\nThis payment was not sent.`,
		}),
	};
}

/** The on/off options of Submit and Submit Batch. */
const BOOLEAN_OPTIONS: ReadonlyArray<[string, string]> = [
	[validateOnlyOption.name, validateOnlyOption.displayName],
	['resubmitRejected', 'Resubmit Rejected Items'],
];

/** Reads and checks one item's payment; bad input is reported before any request is sent. */
export function readPayment(context: IExecuteFunctions, itemIndex: number): ReadResult {
	let fields: PaymentInput;
	let customKey: unknown;
	const groupIssues: PaymentIssue[] = [];
	try {
		// a collection that resolves to null is an empty one; one that is not a collection, or has a
		// key like "__proto__", is refused by name
		const additionalFields = readGroup(parameter(context, PAYMENT_GROUP.name, itemIndex));
		const options = readGroup(parameter(context, 'options', itemIndex));
		if (!additionalFields.ok) groupIssues.push({ field: PAYMENT_GROUP.label, rule: additionalFields.rule });
		if (!options.ok) groupIssues.push({ field: 'Options', rule: options.rule });
		const additional = additionalFields.ok ? additionalFields.values : {};
		fields = {};
		for (const field of PAYMENT_FIELD_NAMES) {
			const { inGroup, parameter: name, rule } = paymentField(field);
			const value = inGroup ? ownValue(additional, name) : parameter(context, name, itemIndex, rule.kind === 'id');
			// an unparsable string stays a string and is reported as "must be a JSON object"
			fields[field] =
				rule.kind === 'bodyFields' && typeof value === 'string' ? jsonParse(value, { fallbackValue: value }) : value;
		}
		customKey = options.ok ? (ownValue(options.values, 'idempotencyKey') ?? undefined) : undefined;
		if (typeof customKey === 'number') customKey = String(customKey);
		for (const [name, label] of BOOLEAN_OPTIONS) {
			const value = options.ok ? ownValue(options.values, name) : undefined;
			// the operations test `=== true`: a "true" from an expression would quietly mean false
			// (Validate Only off: the payment is sent)
			if (value !== undefined && value !== null && typeof value !== 'boolean') {
				groupIssues.push({ field: label, rule: 'must be true or false' });
			}
		}
	} catch (error) {
		return invalid(context, itemIndex, [{ field: 'Parameters', rule: (error as Error).message }]);
	}

	const checked = validatePayment(fields);
	const issues = [...groupIssues, ...(checked.valid ? [] : checked.issues)];
	if (customKey !== undefined) {
		// silently falling back to a derived key would lose the protection the user asked for; the key
		// is shown in the output and the user's records, so it must be text like every other value
		const rule =
			typeof customKey !== 'string' || customKey.trim() === ''
				? 'is empty for this item'
				: textProblem(customKey.trim());
		if (rule !== undefined) issues.push({ field: 'Custom Idempotency Key', rule });
	}
	if (!checked.valid || issues.length) return invalid(context, itemIndex, issues);
	return {
		valid: true,
		payment: {
			itemIndex,
			body: checked.body,
			...(typeof customKey === 'string' && { customKey: customKey.trim() }),
		},
	};
}

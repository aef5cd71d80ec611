import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { jsonParse, NodeOperationError } from 'n8n-workflow';

import { ownValue, readGroup } from '../../validation/objects';
import { referenceLength } from '../../validation/payee.fields';
import {
	formatIssues,
	PAYMENT_DESCRIPTION_MAX,
	type PaymentInput,
	type PaymentIssue,
	validatePayment,
} from '../../validation/payment.schema';
import { textProblem } from '../../validation/text';
import { accountLocator, payeeLocator } from '../common.descriptions';

const gbpReference = referenceLength('GBP');
const otherReference = referenceLength(undefined);

/** The payment object's fields, shared by Submit and Submit Batch (one payment per input item). */
export const paymentFields: INodeProperties[] = [
	{
		...accountLocator,
		displayName: 'Source Account',
		description: 'The account the payment is paid from',
	},
	{
		...payeeLocator,
		description: 'Who is paid: a payee of the source account',
	},
	{
		displayName: 'Amount',
		name: 'amount',
		type: 'number',
		required: true,
		default: 0,
		typeOptions: { minValue: 0.01, numberPrecision: 2 },
		description:
			'In the currency of the account, e.g. 125.50. More than 2 decimals is refused, never rounded.',
	},
	{
		displayName: 'Reference',
		name: 'reference',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. INV-2024-0117',
		description: `Shown to the payee: ${gbpReference.min}-${gbpReference.max} characters for GBP, ${otherReference.min}-${otherReference.max} for other currencies, not blank. Keep it unique per payment (an invoice number): after a lost answer the payment is looked up by reference, amount and payee.`,
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Additional Body Fields',
				name: 'additionalBodyFields',
				type: 'json',
				default: '{}',
				description:
					'More fields of the payment object as JSON, sent as they are; they cannot replace the fields above',
			},
			{
				displayName: 'Currency',
				name: 'currency',
				type: 'string',
				default: '',
				placeholder: 'e.g. GBP',
				description: `Currency code; when set it must be the currency of the account and payee, and GBP applies the ${gbpReference.max}-character reference limit before sending`,
			},
			{
				displayName: 'Description',
				name: 'description',
				type: 'string',
				default: '',
				description: `A note on the payment, at most ${PAYMENT_DESCRIPTION_MAX} characters`,
			},
		],
	},
];

export const customKeyOption: INodeProperties = {
	displayName: 'Custom Idempotency Key',
	name: 'idempotencyKey',
	type: 'string',
	default: '',
	placeholder: 'e.g. {{ $json.invoiceId }}',
	description:
		'Without it, the key is derived from the workflow, the execution, this node and the item: Retry On Fail and n8n\'s Retry of a failed execution never pay twice, but running the workflow again (a new execution) pays again. With it (e.g. an invoice ID) the key stays the same across executions; a value that is not a UUID v4 is hashed into one together with the workflow and node IDs.',
};

export const validateOnlyOption: INodeProperties = {
	displayName: 'Validate Only',
	name: 'validateOnly',
	type: 'boolean',
	default: false,
	description:
		'Whether to only check every item and show what would be sent (body and idempotency key), sending nothing',
};

export interface PaymentInputItem {
	itemIndex: number;
	body: IDataObject;
	/** Set when "Custom Idempotency Key" is used. */
	customKey?: string;
}

export type ReadResult =
	| { valid: true; payment: PaymentInputItem }
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
		const additionalFields = readGroup(parameter(context, 'additionalFields', itemIndex));
		const options = readGroup(parameter(context, 'options', itemIndex));
		if (!additionalFields.ok) groupIssues.push({ field: 'Additional Fields', rule: additionalFields.rule });
		if (!options.ok) groupIssues.push({ field: 'Options', rule: options.rule });
		const additional = additionalFields.ok ? additionalFields.values : {};
		const extra = ownValue(additional, 'additionalBodyFields');
		fields = {
			xaid: parameter(context, 'account', itemIndex, true),
			xpid: parameter(context, 'payee', itemIndex, true),
			amount: parameter(context, 'amount', itemIndex),
			reference: parameter(context, 'reference', itemIndex),
			currency: ownValue(additional, 'currency'),
			description: ownValue(additional, 'description'),
			// an unparsable string stays a string and is reported as "must be a JSON object"
			additionalBodyFields: typeof extra === 'string' ? jsonParse(extra, { fallbackValue: extra }) : extra,
		};
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

import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { jsonParse, NodeOperationError } from 'n8n-workflow';

import {
	formatIssues,
	type PaymentInput,
	type PaymentIssue,
	validatePayment,
} from '../../validation/payment.schema';
import { accountLocator, payeeLocator } from '../common.descriptions';

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
		description:
			'Shown to the payee: 6-18 characters for GBP, 6-140 for other currencies. Keep it unique per payment (an invoice number): after a lost answer the payment is looked up by reference, amount and payee.',
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
				description:
					'Currency code; when set it must be the currency of the account and payee, and GBP applies the 18-character reference limit before sending',
			},
			{
				displayName: 'Description',
				name: 'description',
				type: 'string',
				default: '',
				description: 'A note on the payment',
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

/** Reads and checks one item's payment; bad input is reported before any request is sent. */
export function readPayment(context: IExecuteFunctions, itemIndex: number): ReadResult {
	let fields: PaymentInput;
	let customKey: unknown;
	try {
		const additional = (parameter(context, 'additionalFields', itemIndex) ?? {}) as IDataObject;
		const extra = additional.additionalBodyFields;
		fields = {
			xaid: parameter(context, 'account', itemIndex, true),
			xpid: parameter(context, 'payee', itemIndex, true),
			amount: parameter(context, 'amount', itemIndex),
			reference: parameter(context, 'reference', itemIndex),
			currency: additional.currency,
			description: additional.description,
			// an unparsable string stays a string and is reported as "must be a JSON object"
			additionalBodyFields: typeof extra === 'string' ? jsonParse(extra, { fallbackValue: extra }) : extra,
		};
		customKey = parameter(context, 'options.idempotencyKey', itemIndex) ?? undefined;
		if (typeof customKey === 'number') customKey = String(customKey);
	} catch (error) {
		return invalid(context, itemIndex, [{ field: 'Parameters', rule: (error as Error).message }]);
	}

	const checked = validatePayment(fields);
	const issues = checked.valid ? [] : [...checked.issues];
	if (customKey !== undefined && (typeof customKey !== 'string' || customKey.trim() === '')) {
		// silently falling back to a derived key would lose the protection the user asked for
		issues.push({ field: 'Custom Idempotency Key', rule: 'is empty for this item' });
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

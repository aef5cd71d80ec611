import type { IExecuteFunctions } from 'n8n-workflow';
import { jsonParse, NodeOperationError } from 'n8n-workflow';

import { repeatsInInput } from '../../payments/paymentIdentity';
import type { Payment } from '../../payments/payment';
import { ownValue } from '../../../shared/records';
import { readGroup } from '../../validation/inputObjects';
import {
	INPUT_FIELD_NAMES,
	MAPPING,
	PAYMENT_FIELD_NAMES,
	PAYMENT_GROUP,
	paymentField,
	type PaymentField,
} from '../../validation/payment.fields';
import {
	formatIssues,
	type PaymentInput,
	type PaymentIssue,
	validatePayment,
} from '../../validation/payment.schema';
import { textProblem } from '../../../shared/validation/text';
import {
	AUTO_MAPPED_FIELDS,
	lookBackOption,
	MAX_LOOK_BACK_DAYS,
	SEND_AGAIN_IF_REFUSED,
	sendAgainOption,
	SKIP_ALREADY_MADE,
	validateOnlyOption,
} from './paymentForm';

/** One input item as read from the form: its payment, or what is wrong with it. */
export type ReadItem =
	| { valid: true; payment: Payment }
	| { valid: false; itemIndex: number; issues: PaymentIssue[]; error: NodeOperationError };

// n8n throws on a parameter that resolves to undefined even when undefined is the fallback, so an
// absent value comes back as null and the schema reports it by name.
function parameter(
	this: IExecuteFunctions,
	name: string,
	itemIndex: number,
	extractValue = false,
): unknown {
	return this.getNodeParameter(name, itemIndex, null, extractValue ? { extractValue } : undefined);
}

function invalid(this: IExecuteFunctions, itemIndex: number, issues: PaymentIssue[]): ReadItem {
	return {
		valid: false,
		itemIndex,
		issues,
		error: new NodeOperationError(
			this.getNode(),
			`Invalid payment in item ${itemIndex}: ${formatIssues(issues)}`,
			{
				itemIndex,
				description: `${issues.map(({ field, rule }) => `${field}: ${rule}`).join('\n')}\nThis payment was not sent.`,
			},
		),
	};
}

/** The on/off options of Submit and Submit Batch. */
const BOOLEAN_OPTIONS: ReadonlyArray<[string, string]> = [
	[validateOnlyOption.name, validateOnlyOption.displayName],
	['resubmitRejected', 'Resubmit Rejected Items'],
	[sendAgainOption.name, sendAgainOption.displayName],
];

const AUTO_MAPPED = Object.entries(INPUT_FIELD_NAMES) as Array<[PaymentField, string]>;

/**
 * "Map Automatically": the payment fields from the input item's fields of the same names; a missing
 * required one is reported by the schema, an input field that is not a payment field here.
 */
function autoMappedFields(
	this: IExecuteFunctions,
	itemIndex: number,
	issues: PaymentIssue[],
): PaymentInput {
	const json = this.getInputData()[itemIndex]?.json ?? {};
	const fields: PaymentInput = {};
	// a missing required field comes as null, as from the form, so the schema names it
	for (const [field, name] of AUTO_MAPPED)
		fields[field] = ownValue(json, name) ?? (paymentField(field).inGroup ? undefined : null);
	const known = new Set<string>(AUTO_MAPPED.map(([, name]) => name));
	const extra = Object.keys(json).filter((name) => !known.has(name));
	if (extra.length > 0) {
		issues.push({
			field: `Input field${extra.length > 1 ? 's' : ''} ${extra.map((name) => `'${name}'`).join(', ')}`,
			rule: `${extra.length > 1 ? 'are' : 'is'} not a payment field: with Map Automatically each item has ${AUTO_MAPPED_FIELDS} (remove the others before this node, e.g. with an Edit Fields node, or use Map Each Field Below)`,
		});
	}
	return fields;
}

/** The payment fields as set in the form, per item (Map Each Field Below). */
function formFields(
	this: IExecuteFunctions,
	itemIndex: number,
	issues: PaymentIssue[],
): PaymentInput {
	// a collection that resolves to null is an empty one; one that is not a collection, or has a
	// key like "__proto__", is refused by name
	const additionalFields = readGroup(parameter.call(this, PAYMENT_GROUP.name, itemIndex));
	if (!additionalFields.ok)
		issues.push({ field: PAYMENT_GROUP.label, rule: additionalFields.rule });
	const additional = additionalFields.ok ? additionalFields.values : {};
	const fields: PaymentInput = {};
	for (const field of PAYMENT_FIELD_NAMES) {
		const { inGroup, parameter: name, rule } = paymentField(field);
		const value = inGroup
			? ownValue(additional, name)
			: parameter.call(this, name, itemIndex, rule.kind === 'id');
		// an unparsable string stays a string and is reported as "must be a JSON object"
		fields[field] =
			rule.kind === 'bodyFields' && typeof value === 'string'
				? jsonParse(value, { fallbackValue: value })
				: value;
	}
	return fields;
}

/** With Map Automatically, issues name the input field (e.g. 'amount') the user put in the item. */
function namedAsInput(issues: PaymentIssue[]): PaymentIssue[] {
	const byLabel = new Map(AUTO_MAPPED.map(([field, name]) => [paymentField(field).label, name]));
	return issues.map((issue) => {
		const name = byLabel.get(issue.field);
		return name === undefined ? issue : { ...issue, field: `Input field '${name}'` };
	});
}

/** What one item's parameters say, before the payment fields are checked. */
interface ItemParameters {
	automatic: boolean;
	fields: PaymentInput;
	customKey: unknown;
	sendAgainIfRefused: boolean;
	/** Problems of the groups (Options) themselves. */
	groupIssues: PaymentIssue[];
}

/** Reads the item's parameters; throws what n8n throws for one it cannot resolve. */
function readParameters(this: IExecuteFunctions, itemIndex: number): ItemParameters {
	const groupIssues: PaymentIssue[] = [];
	const automatic =
		this.getNodeParameter(MAPPING.parameter, itemIndex, MAPPING.perField) === MAPPING.automatic;
	const options = readGroup(parameter.call(this, 'options', itemIndex));
	if (!options.ok) groupIssues.push({ field: 'Options', rule: options.rule });
	const fields = automatic
		? autoMappedFields.call(this, itemIndex, groupIssues)
		: formFields.call(this, itemIndex, groupIssues);
	let customKey = options.ok
		? (ownValue(options.values, 'idempotencyKey') ?? undefined)
		: undefined;
	if (typeof customKey === 'number') customKey = String(customKey);
	for (const [name, label] of BOOLEAN_OPTIONS) {
		const value = options.ok ? ownValue(options.values, name) : undefined;
		// the operations test `=== true`: a "true" from an expression would quietly mean false
		// (Validate Only off: the payment is sent)
		if (value !== undefined && value !== null && typeof value !== 'boolean') {
			groupIssues.push({ field: label, rule: 'must be true or false' });
		}
	}
	const sendAgainIfRefused = options.ok && ownValue(options.values, SEND_AGAIN_IF_REFUSED) === true;
	return { automatic, fields, customKey, sendAgainIfRefused, groupIssues };
}

/**
 * Silently falling back to a derived key would lose the protection the user asked for; the key is
 * shown in the output and the user's records, so it must be text like every other value.
 */
function customKeyIssue(customKey: unknown): PaymentIssue | undefined {
	if (customKey === undefined) return undefined;
	const rule =
		typeof customKey !== 'string' || customKey.trim() === ''
			? 'is empty for this item'
			: textProblem(customKey.trim());
	return rule === undefined ? undefined : { field: 'Custom Idempotency Key', rule };
}

/** Reads and checks one item's payment; bad input is reported before any request is sent. */
export function readPayment(this: IExecuteFunctions, itemIndex: number): ReadItem {
	let read: ItemParameters;
	try {
		read = readParameters.call(this, itemIndex);
	} catch (error) {
		return invalid.call(this, itemIndex, [{ field: 'Parameters', rule: (error as Error).message }]);
	}
	const { automatic, fields, customKey, sendAgainIfRefused, groupIssues } = read;
	const checked = validatePayment(fields);
	const fieldIssues = checked.valid
		? []
		: automatic
			? namedAsInput(checked.issues)
			: checked.issues;
	const issues = [...groupIssues, ...fieldIssues];
	const keyIssue = customKeyIssue(customKey);
	if (keyIssue) issues.push(keyIssue);
	if (!checked.valid || issues.length) return invalid.call(this, itemIndex, issues);
	return {
		valid: true,
		payment: {
			itemIndex,
			body: checked.body,
			...(typeof customKey === 'string' && { customKey: customKey.trim() }),
			...(sendAgainIfRefused && { sendAgainIfRefused: true as const }),
		},
	};
}

/** Skip Payments Already Made, as set for the whole run (the parameter takes no expression). */
export function skipsAlreadyMade(this: IExecuteFunctions, itemIndex: number): boolean {
	return this.getNodeParameter(SKIP_ALREADY_MADE, itemIndex, true) !== false;
}

/** Look Back (Days), as set for the run: 0 reads every record; checked before anything is sent. */
export function lookBackDaysOf(this: IExecuteFunctions, itemIndex: number): number {
	const days = this.getNodeParameter(`options.${lookBackOption.name}`, itemIndex, 0);
	if (
		typeof days !== 'number' ||
		!Number.isInteger(days) ||
		days < 0 ||
		days > MAX_LOOK_BACK_DAYS
	) {
		throw new NodeOperationError(
			this.getNode(),
			`${lookBackOption.displayName} must be a whole number from 0 to ${MAX_LOOK_BACK_DAYS}`,
			{ itemIndex, description: `Got ${String(days)}. Nothing was sent.` },
		);
	}
	return days;
}

/**
 * Reads and checks every item's payment. With Skip Payments Already Made a payment is paid once, so an
 * item that repeats an earlier item of this input (same account, payee, amount, currency and reference)
 * is refused before anything is sent.
 */
export function readPayments(
	this: IExecuteFunctions,
	itemIndexes: number[],
	skipAlreadyMade: boolean,
): ReadItem[] {
	const read = itemIndexes.map((itemIndex) => readPayment.call(this, itemIndex));
	if (!skipAlreadyMade) return read;
	const repeats = repeatsInInput(read.flatMap((entry) => (entry.valid ? [entry.payment] : [])));
	return read.map((entry) => {
		const first = entry.valid ? repeats.get(entry.payment) : undefined;
		if (!entry.valid || first === undefined) return entry;
		return invalid.call(this, entry.payment.itemIndex, [
			{
				field: 'Payment',
				rule: `repeats item ${first.itemIndex} (same account, payee, amount, currency and reference): with Skip Payments Already Made on, each payment is paid once; to pay both, give each a reference of its own`,
			},
		]);
	});
}

import type { INodeProperties } from 'n8n-workflow';

import {
	INPUT_FIELD_NAMES,
	MAPPING,
	PAYMENT_FIELD_NAMES,
	PAYMENT_GROUP,
	paymentField,
	type PaymentField,
} from '../../validation/payment.fields';
import { accountLocator, byDisplayName, payeeLocator } from '../common.descriptions';

/** The parameters that pick a resource from a list. */
const LOCATORS: Record<string, INodeProperties> = { account: accountLocator, payee: payeeLocator };

function property(field: PaymentField): INodeProperties {
	const { label, parameter, rule, description, placeholder } = paymentField(field);
	const shown = {
		displayName: label,
		name: parameter,
		description,
		...(placeholder !== undefined && { placeholder }),
	};
	switch (rule.kind) {
		case 'id':
			return { ...LOCATORS[parameter], ...shown };
		case 'amount':
			// text, not a number field: n8n's editor rounds and clamps number fields before the node sees them
			return { ...shown, type: 'string', required: true, default: '' };
		case 'reference':
			return { ...shown, type: 'string', required: true, default: '' };
		case 'bodyFields':
			return { ...shown, type: 'json', default: '{}' };
		default:
			return { ...shown, type: 'string', default: '' };
	}
}

const inputNames = (required: boolean) =>
	PAYMENT_FIELD_NAMES.filter(
		(field) => field in INPUT_FIELD_NAMES && !paymentField(field).inGroup === required,
	)
		.map((field) => `'${INPUT_FIELD_NAMES[field as keyof typeof INPUT_FIELD_NAMES]}'`)
		.join(', ');

/** The input fields "Map Automatically" reads, as the form and the errors list them. */
export const AUTO_MAPPED_FIELDS = `${inputNames(true)}, and optionally ${inputNames(false)}`;

const perField = { show: { [MAPPING.parameter]: [MAPPING.perField] } };

/**
 * The payment object's fields, generated from the field table (validation/payment.fields.ts) and
 * shared by Submit and Submit Batch (one payment per input item): mapped automatically from the input
 * item's fields of the same names, or each set below (with an expression where it differs per item).
 */
export const paymentFields: INodeProperties[] = [
	{
		displayName: 'Mapping',
		name: MAPPING.parameter,
		type: 'options',
		default: 'defineBelow',
		noDataExpression: true,
		options: [
			{
				name: 'Map Automatically',
				value: MAPPING.automatic,
				description: `Take each payment from the input item's fields ${AUTO_MAPPED_FIELDS}; '${INPUT_FIELD_NAMES.xaid}' and '${INPUT_FIELD_NAMES.xpid}' hold IDs, not names (Account → Get Many and Payee → Get Many list them)`,
			},
			{
				name: 'Map Each Field Below',
				value: MAPPING.perField,
				description: 'Set each payment field, with an expression where it differs per item',
			},
		],
	},
	{
		displayName: `Each input item must have the fields ${AUTO_MAPPED_FIELDS}, and no others. '${INPUT_FIELD_NAMES.xaid}' and '${INPUT_FIELD_NAMES.xpid}' take IDs, not names: Account → Get Many and Payee → Get Many list them, or pick one in the ${paymentField('xaid').label} or ${paymentField('xpid').label} list of Map Each Field Below and switch it to By ID to see its ID.`,
		name: 'autoMapNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { [MAPPING.parameter]: [MAPPING.automatic] } },
	},
	...PAYMENT_FIELD_NAMES.filter((field) => !paymentField(field).inGroup).map((field) => ({
		...property(field),
		displayOptions: perField,
	})),
	{
		displayName: PAYMENT_GROUP.label,
		name: PAYMENT_GROUP.name,
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: perField,
		options: byDisplayName(
			PAYMENT_FIELD_NAMES.filter((field) => paymentField(field).inGroup).map(property),
		),
	},
];

export const customKeyOption: INodeProperties = {
	displayName: 'Custom Idempotency Key',
	name: 'idempotencyKey',
	type: 'string',
	default: '',
	placeholder: 'e.g. {{ $json.invoiceId }}',
	description:
		"With it (e.g. an invoice ID) the payment's key stays the same across executions, so the bank pays that key once, also with Skip Payments Already Made off; a value that is not a UUID v4 is hashed into one together with the workflow and node IDs. Without it, the key comes from the payment's details (Skip Payments Already Made on) or from this execution, node and item (off: running the workflow again pays again).",
};

export const SEND_AGAIN_IF_REFUSED = 'sendAgainIfRefused';

/**
 * The one way to send a refused payment again with Skip Payments Already Made on: per item, so every
 * other item stays protected, and only while every payment the bank shows with its details is refused.
 */
export const sendAgainOption: INodeProperties = {
	displayName: 'Send Again If Refused',
	name: SEND_AGAIN_IF_REFUSED,
	type: 'boolean',
	default: false,
	description:
		"Whether to send this item's payment again when the bank shows an earlier payment with the same details that was refused (declined, expired or failed). Set it per item with an expression that is true only for the invoices to send again. A payment the bank holds with these details (sent, on its way, waiting for approval, or a state the node cannot read) is never sent again. Needs Skip Payments Already Made on.",
};

/** The longest Look Back the form takes: a century of days. */
export const MAX_LOOK_BACK_DAYS = 36500;

/**
 * Look Back: Skip Payments Already Made reads an account's whole history unless the user chooses a
 * shorter reach, which is faster for long histories but lets an older identical payment be paid again
 * once the bank has forgotten its key (payments/paymentLookUp.ts).
 */
export const lookBackOption: INodeProperties = {
	displayName: 'Look Back (Days)',
	name: 'lookBackDays',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: MAX_LOOK_BACK_DAYS },
	default: 0,
	description:
		"How far back Skip Payments Already Made looks for an earlier payment with the same details. 0 (the default): the account's whole history, so a payment of any age is found. A number of days (e.g. 90) reads only that far back where the bank's lists show when their records were made and keep them in order: much faster for an account with a long history, but a payment with the same details made before then is paid again once the bank has forgotten its key.",
};

export const validateOnlyOption: INodeProperties = {
	displayName: 'Validate Only',
	name: 'validateOnly',
	type: 'boolean',
	default: false,
	description:
		'Whether to only check every item and show what would be sent (body and idempotency key), sending nothing',
};

export const SKIP_ALREADY_MADE = 'skipAlreadyMade';

/**
 * Duplicate protection, on by default: the user's first re-run of a workflow must not pay again
 * (payments/paymentIdentity.ts, paymentLookUp.ts paymentsAlreadyAtBank). A notice stays in the form
 * while it is off.
 */
export const skipAlreadyMadeFields: INodeProperties[] = [
	{
		displayName: 'Skip Payments Already Made',
		name: SKIP_ALREADY_MADE,
		type: 'boolean',
		default: true,
		noDataExpression: true,
		description:
			"Whether to leave out every payment the bank already holds with the same account, payee, amount, currency and reference (sent, on its way or waiting for approval), so running the workflow again never pays again. Such items say 'already_made' with the earlier payment. Turn it off only for payments that really repeat with the same reference, such as rent.",
	},
	{
		displayName:
			'Running this workflow again pays every payment again: payments are not checked against the ones the bank already holds. Keep this off only for payments that really repeat (rent, payroll). A Custom Idempotency Key (e.g. the invoice number) still pays each key only once.',
		name: 'skipAlreadyMadeOffNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { [SKIP_ALREADY_MADE]: [false] } },
	},
];

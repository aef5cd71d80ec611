import { AMOUNT_DECIMALS } from './amount';
import { ACCOUNT_ID_RULE, type IdFormat } from '../../shared/validation/ids';
import { referenceLength } from './payee.fields';

/**
 * The payment object's fields (spec §Payments; docs/bank-assumptions.md#payment-fields), each defined
 * once with its label, the parameter that holds it, its rule and the form's words for it. The
 * schema (payment.schema.ts) and the form (actions/payment/paymentForm.ts) are generated from here.
 */

/** Description: optional, at most 140 characters (docs/bank-assumptions.md#payment-fields). */
export const PAYMENT_DESCRIPTION_MAX = 140;

/** The group of the optional fields, as the form and the errors name it. */
export const PAYMENT_GROUP = { name: 'additionalFields', label: 'Additional Fields' } as const;

export type PaymentRule =
	| { kind: 'id'; format: IdFormat; uuidRule?: string }
	| { kind: 'amount' }
	| { kind: 'currency' }
	| { kind: 'reference' }
	| { kind: 'note'; max: number }
	| { kind: 'bodyFields' };

export interface PaymentFieldDefinition {
	label: string;
	/** The parameter that holds it: a top-level one, or a field of the Additional Fields group. */
	parameter: string;
	inGroup?: true;
	rule: PaymentRule;
	description: string;
	placeholder?: string;
}

const gbpReference = referenceLength('GBP');
const otherReference = referenceLength(undefined);

/** In the order errors list them and the body is built. */
const PAYMENT_FIELDS = {
	xaid: {
		label: 'Source Account',
		parameter: 'account',
		rule: { kind: 'id', format: 'uuid', uuidRule: ACCOUNT_ID_RULE },
		description: 'The account the payment is paid from',
	},
	xpid: {
		label: 'Payee',
		parameter: 'payee',
		rule: { kind: 'id', format: 'text' },
		description: 'Who is paid: a payee of the source account',
	},
	amount: {
		label: 'Amount',
		parameter: 'amount',
		rule: { kind: 'amount' },
		description: `In the currency of the account, written as digits with a dot for decimals, e.g. 125.50 or 1000. Taken exactly as typed: more than ${AMOUNT_DECIMALS} decimals, thousands separators, 0 or a negative amount are refused, never rounded or changed.`,
		placeholder: 'e.g. 125.50',
	},
	currency: {
		label: 'Currency',
		parameter: 'currency',
		inGroup: true,
		rule: { kind: 'currency' },
		description: `Currency code; when set it must be the currency of the account and payee, and GBP applies the ${gbpReference.max}-character reference limit before sending`,
		placeholder: 'e.g. GBP',
	},
	reference: {
		label: 'Reference',
		parameter: 'reference',
		rule: { kind: 'reference' },
		description: `Shown to the payee: ${gbpReference.min}-${gbpReference.max} characters for GBP, ${otherReference.min}-${otherReference.max} for other currencies, not blank. Keep it unique per payment (an invoice number): after a lost answer the payment is looked up by reference, amount and payee.`,
		placeholder: 'e.g. INV-2024-0117',
	},
	description: {
		label: 'Description',
		parameter: 'description',
		inGroup: true,
		rule: { kind: 'note', max: PAYMENT_DESCRIPTION_MAX },
		description: `A note on the payment, at most ${PAYMENT_DESCRIPTION_MAX} characters`,
	},
	additionalBodyFields: {
		label: 'Additional Body Fields',
		parameter: 'additionalBodyFields',
		inGroup: true,
		rule: { kind: 'bodyFields' },
		description:
			'More fields of the payment object as JSON, sent as they are; they cannot replace the fields above',
	},
} as const satisfies Record<string, PaymentFieldDefinition>;

export type PaymentField = keyof typeof PAYMENT_FIELDS;

export const PAYMENT_FIELD_NAMES = Object.keys(PAYMENT_FIELDS) as PaymentField[];

export function paymentField(field: PaymentField): PaymentFieldDefinition {
	return PAYMENT_FIELDS[field];
}

/**
 * "Map Automatically": the input field each payment field is read from, named as a spreadsheet of
 * invoices would name its columns. Additional Body Fields are not mapped automatically.
 */
export const INPUT_FIELD_NAMES = {
	xaid: 'accountId',
	xpid: 'payeeId',
	amount: 'amount',
	currency: 'currency',
	reference: 'reference',
	description: 'description',
} as const satisfies Partial<Record<PaymentField, string>>;

export const MAPPING = {
	parameter: 'mappingMode',
	automatic: 'autoMapInputData',
	perField: 'defineBelow',
} as const;

/** Body fields the node sets itself; "Additional Body Fields" may not override them. */
export const FIELDS_THE_NODE_SETS = PAYMENT_FIELD_NAMES.filter(
	(field) => paymentField(field).rule.kind !== 'bodyFields',
);

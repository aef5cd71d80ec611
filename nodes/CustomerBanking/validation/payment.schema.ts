import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { UUID_PATTERN } from '../actions/common.descriptions';
import { referenceLength } from './payee.schema';

// spec §Identifiers: xaid is a UUID
const UUID = new RegExp(UUID_PATTERN);
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Body fields the node sets itself; "Additional Body Fields" may not override them. */
export const PAYMENT_FIELDS = ['xaid', 'xpid', 'amount', 'currency', 'reference', 'description'];

/** Parameter names shown to the user for each body field, so errors name what they can fix. */
const FIELD_LABELS: Record<string, string> = {
	xaid: 'Source Account',
	xpid: 'Payee',
	amount: 'Amount',
	currency: 'Currency',
	reference: 'Reference',
	description: 'Description',
	additionalBodyFields: 'Additional Body Fields',
};

/**
 * Amounts are major units with at most 2 decimals (test/sandbox/DECISIONS.md). Float noise such
 * as 0.1 + 0.2 is rounded to the cent it means; 10.005 is refused, never rounded.
 */
const amountSchema = z.unknown().transform((value, ctx) => {
	const fail = (message: string) => {
		ctx.addIssue({ code: z.ZodIssueCode.custom, message });
		return z.NEVER;
	};
	if (value === undefined || value === null || value === '') return fail('is required');
	// expressions can hand over numeric strings
	const amount =
		typeof value === 'number'
			? value
			: typeof value === 'string' && DECIMAL.test(value.trim())
				? Number(value.trim())
				: Number.NaN;
	const cents = Math.round(amount * 100);
	if (!Number.isFinite(amount) || !Number.isSafeInteger(cents)) return fail('must be a number');
	if (Math.abs(amount * 100 - cents) > 1e-6) return fail('must have at most 2 decimal places');
	if (cents <= 0) return fail('must be greater than 0');
	return cents / 100;
});

const text = { required_error: 'is required', invalid_type_error: 'must be text' };

const optionalText = z
	.string(text)
	.optional()
	.transform((value) => (value === undefined || value.trim() === '' ? undefined : value));

// ISO 4217 code; optional (the account's currency applies when omitted)
const currencySchema = optionalText
	.refine((value) => value === undefined || /^[a-z]{3}$/i.test(value.trim()), {
		message: 'must be a 3-letter currency code such as GBP',
	})
	.transform((value) => value?.trim().toUpperCase());

function referenceSchema(currency: string | undefined) {
	// spec §Payee validation rules: the payee reference rule, one definition in payee.schema.ts
	const { min, max } = referenceLength(currency);
	return z.string(text).superRefine((reference, ctx) => {
		if (reference.length === 0) {
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'is required' });
		} else if (reference.length < min || reference.length > max) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				message: `must be ${min}-${max} characters${currency === 'GBP' ? ' for GBP' : ''} (has ${reference.length})`,
			});
		}
	});
}

/** The payment schema; the reference rule depends on the currency when it is known. */
export function paymentInputSchema(currency: string | undefined) {
	return z.object({
		xaid: z.string(text).trim().regex(UUID, 'must be an account ID (xaid, a UUID)'),
		xpid: z.string(text).trim().min(1, 'is required'),
		amount: amountSchema,
		currency: currencySchema,
		reference: referenceSchema(currency),
		description: optionalText,
		additionalBodyFields: z
			.record(z.unknown(), { invalid_type_error: 'must be a JSON object' })
			.default({})
			.superRefine((extra, ctx) => {
				for (const field of Object.keys(extra).filter((key) => PAYMENT_FIELDS.includes(key))) {
					ctx.addIssue({
						code: z.ZodIssueCode.custom,
						message: `must not set "${field}"; use the ${FIELD_LABELS[field]} field`,
					});
				}
			}),
	});
}

export interface PaymentInput {
	xaid: unknown;
	xpid: unknown;
	amount: unknown;
	reference: unknown;
	currency?: unknown;
	description?: unknown;
	additionalBodyFields?: unknown;
}

export interface PaymentIssue {
	/** The parameter as the user sees it, e.g. "Amount". */
	field: string;
	rule: string;
}

export type PaymentValidation =
	| { valid: true; body: IDataObject }
	| { valid: false; issues: PaymentIssue[] };

/** Checks one payment and builds the request body (spec §Payments; fields per DECISIONS.md). */
export function validatePayment(input: PaymentInput): PaymentValidation {
	const knownCurrency = currencySchema.safeParse(input.currency);
	const parsed = paymentInputSchema(knownCurrency.success ? knownCurrency.data : undefined).safeParse(input);
	if (!parsed.success) {
		return {
			valid: false,
			issues: parsed.error.issues.map((issue) => {
				const key = String(issue.path[0] ?? '');
				return {
					field: FIELD_LABELS[key] ?? (key || 'Payment'),
					rule: issue.message,
				};
			}),
		};
	}
	const { xaid, xpid, amount, currency, reference, description, additionalBodyFields } = parsed.data;
	const body: IDataObject = { ...(additionalBodyFields as IDataObject), xaid, xpid, amount };
	if (currency !== undefined) body.currency = currency;
	body.reference = reference;
	if (description !== undefined) body.description = description;
	return { valid: true, body };
}

export function formatIssues(issues: PaymentIssue[]): string {
	return issues.map(({ field, rule }) => `${field} ${rule}`).join('; ');
}

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { z } from 'zod';

import { BANK_DETAIL_FIELDS, PAYEE_FIELD_LABELS } from '../validation/payee.fields';
import {
	describeIssues,
	payeeAccountRules,
	type PayeeBody,
	payeeCreateSchema,
	payeeUpdateSchema,
	payeeUpsertSchema,
} from '../validation/payee.schema';
import { getAccountCurrency } from './accountCurrency';
import { findExistingPayee, getPayee } from './existingPayee';

/**
 * The body of a payee write. Each value is judged once, before any request, by the rules that need
 * no account (so a bad item sends nothing); the rules that need the account's currency or the stored
 * payee are applied once, after those are read.
 */

/** Checks with one of the payee schemas; the error names the field, the rule and the item. */
function checked<Schema extends z.ZodTypeAny>(
	this: IExecuteFunctions,
	itemIndex: number,
	schema: Schema,
	body: unknown,
): z.infer<Schema> {
	const result = schema.safeParse(body);
	if (result.success) return result.data;
	const issues = describeIssues(result.error);
	const [first] = issues;
	const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
	throw new NodeOperationError(
		this.getNode(),
		`Invalid payee in item ${itemIndex}: ${first.label} (${first.field}) ${first.rule}${more}`,
		{
			itemIndex,
			description: issues
				.map((issue) => `${issue.label} (${issue.field}) ${issue.rule}`)
				.join('\n'),
		},
	);
}

const changesBankDetails = (payee: PayeeBody) =>
	BANK_DETAIL_FIELDS.some((field) => payee[field] !== undefined);

/** spec §Create: the payee inherits the account's currency, whose rules it must meet. */
export async function prepareCreate(
	this: IExecuteFunctions,
	itemIndex: number,
	xaid: string,
	input: IDataObject,
): Promise<PayeeBody> {
	const payee = checked.call(this, itemIndex, payeeCreateSchema(), input);
	const currency = await getAccountCurrency.call(this, xaid, itemIndex);
	return checked.call(this, itemIndex, payeeAccountRules('create', { currency }), payee);
}

/** spec §Update: every field optional; changed bank details are re-validated with the stored ones. */
export async function prepareUpdate(
	this: IExecuteFunctions,
	itemIndex: number,
	target: { xaid: string; xpid: string },
	input: IDataObject,
): Promise<PayeeBody> {
	if (Object.keys(input).length === 0) {
		throw new NodeOperationError(this.getNode(), `Nothing to update in item ${itemIndex}`, {
			itemIndex,
			description: 'Add at least one payee field with a value',
		});
	}
	const payee = checked.call(this, itemIndex, payeeUpdateSchema(), input);
	const currency = await getAccountCurrency.call(this, target.xaid, itemIndex);
	const existing = changesBankDetails(payee)
		? await getPayee.call(this, target.xpid, itemIndex)
		: undefined;
	return checked.call(this, itemIndex, payeeAccountRules('update', { currency, existing }), payee);
}

export interface UpsertTarget {
	xaid: string;
	/** The Payee ID given; empty for none. */
	xpid: string;
	/** Whether to look the payee up by name and bank details when no xpid is given. */
	lookUp: boolean;
}

/**
 * spec §Upsert: without xpid the payee is created, with it updated; spec §Errors rule 6: the payee
 * is looked up first and its xpid passed if it exists.
 */
export async function prepareUpsert(
	this: IExecuteFunctions,
	itemIndex: number,
	target: UpsertTarget,
	input: IDataObject,
): Promise<PayeeBody> {
	const lookUp = target.xpid === '' && target.lookUp;
	const mayUpdate = target.xpid !== '' || lookUp;
	// before any request: every rule that holds whether the payee is created or updated
	const payee = checked.call(
		this,
		itemIndex,
		mayUpdate ? payeeUpdateSchema() : payeeUpsertSchema(),
		input,
	);
	if (lookUp && payee.name === undefined) {
		throw new NodeOperationError(
			this.getNode(),
			`Invalid payee in item ${itemIndex}: ${PAYEE_FIELD_LABELS.name} (name) is required to look up an existing payee`,
			{ itemIndex },
		);
	}
	const currency = await getAccountCurrency.call(this, target.xaid, itemIndex);
	const found = lookUp
		? await findExistingPayee.call(this, target.xaid, payee, itemIndex)
		: undefined;
	const xpid = target.xpid || (found?.xpid as string | undefined);
	const existing =
		xpid && changesBankDetails(payee)
			? (found ?? (await getPayee.call(this, xpid, itemIndex)))
			: undefined;
	return checked.call(
		this,
		itemIndex,
		payeeAccountRules('create', { currency, existing }),
		xpid ? { ...payee, xpid } : payee,
	);
}

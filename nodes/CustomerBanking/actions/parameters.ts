import type { IExecuteFunctions, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { AccountScope } from '../../shared/transport';
import { ACCOUNT_ID_RULE, requireId } from '../../shared/validation/ids';
import { describeType } from '../../shared/validation/text';
import { listScope } from './common.descriptions';

/** spec §Identifiers: xaid, xtid and ref are UUIDs; checked before any request is sent. */
export function requireUuid(
	this: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): string {
	return requireId(this, value, field, itemIndex, 'uuid');
}

export function getAccountId(this: IExecuteFunctions, itemIndex: number): string {
	const xaid = this.getNodeParameter('account', itemIndex, '', { extractValue: true });
	return requireId(this, xaid, 'Account', itemIndex, 'uuid', ACCOUNT_ID_RULE);
}

// spec §Identifiers: xpid is a string (no UUID in the spec)
export function getPayeeId(this: IExecuteFunctions, itemIndex: number): string {
	const xpid = this.getNodeParameter('payee', itemIndex, '', { extractValue: true });
	return requireId(this, xpid, 'Payee', itemIndex, 'text');
}

function invalidParameter(
	this: IExecuteFunctions,
	itemIndex: number,
	message: string,
	description: string,
) {
	return new NodeOperationError(this.getNode(), `${message} (item ${itemIndex})`, {
		itemIndex,
		description: `${description}. Nothing was sent.`,
	});
}

/**
 * An options parameter: one of the values the form offers. An expression can hand over anything,
 * and a value used as a lookup key must never find an inherited member ("constructor", "__proto__").
 */
export function getOption<Value extends string>(
	this: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback: Value,
	allowed: readonly Value[],
	label: string,
): Value {
	const value: unknown = this.getNodeParameter(name, itemIndex, fallback);
	if (typeof value === 'string' && (allowed as readonly string[]).includes(value))
		return value as Value;
	throw invalidParameter.call(
		this,
		itemIndex,
		`${label}: must be one of ${allowed.join(', ')}`,
		typeof value === 'string' ? `Got "${value}"` : `Got ${describeType(value)}`,
	);
}

/** A boolean parameter: true or false, never a string that merely looks true ("false" is truthy). */
export function getBoolean(
	this: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback: boolean,
	label: string,
): boolean {
	const value: unknown = this.getNodeParameter(name, itemIndex, fallback);
	if (value === true || value === false) return value;
	throw invalidParameter.call(
		this,
		itemIndex,
		`${label}: must be true or false`,
		`Got ${describeType(value)}`,
	);
}

/** Return All / Limit of the list operations (the transport checks the limit's value). */
export function getListOptions(
	this: IExecuteFunctions,
	itemIndex: number,
): { returnAll: boolean; limit?: number; ifShrinking: 'warn' } {
	const returnAll = getBoolean.call(this, 'returnAll', itemIndex, false, 'Return All');
	// Get Many: a list that lost records while read twice is output with a warning over the output
	const ifShrinking = 'warn';
	if (returnAll) return { returnAll, ifShrinking };
	return {
		returnAll,
		limit: this.getNodeParameter('limit', itemIndex, 50) as number,
		ifShrinking,
	};
}

// the values the Scope parameter offers, read from its definition
const SCOPES = ((listScope('')[0].options ?? []) as INodePropertyOptions[]).map((option) =>
	String(option.value),
);

/** Which records a list reads: every account's, or (scope "One Account") one account's. */
export function getScope(this: IExecuteFunctions, itemIndex: number): AccountScope {
	const scope = getOption.call(this, 'scope', itemIndex, 'all', SCOPES, 'Scope');
	return scope === 'account' ? { xaid: getAccountId.call(this, itemIndex) } : {};
}

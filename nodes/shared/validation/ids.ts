import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { describeType, TEXT_RULES, textProblem } from './text';

// spec §Identifiers: xaid, xtid and ref are UUIDs
export const UUID_PATTERN =
	'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const UUID = new RegExp(UUID_PATTERN);

/** 'uuid': spec §Identifiers types it as a UUID (xaid, xtid, ref); 'text': a string (xpid). */
export type IdFormat = 'uuid' | 'text';

export const ID_RULES = {
	required: 'is required',
	uuid: 'must be a UUID',
	// URL parsing resolves these segments, so the request would reach another endpoint
	dotSegment: 'must not be "." or ".."',
} as const;

/**
 * An account field given something other than an account ID, often the account's name: says where
 * the IDs are (what a newcomer types first is the name they see in the bank's app).
 */
export const ACCOUNT_ID_RULE =
	"must be an account ID (a UUID), not a name: Account → Get Many lists each account's ID, and the form's account list picks one by name";

export type IdCheck =
	| { valid: true; id: string }
	| { valid: false; rule: string; description: string };

/**
 * Checks an ID before it goes into a request path or body. Surrounding spaces are dropped; the ID
 * must be text, valid text (encodeURIComponent throws a URIError on a lone surrogate), free of
 * control characters, not a dot segment, and a UUID where the spec says so.
 */
export function checkId(value: unknown, format: IdFormat): IdCheck {
	if (value === undefined || value === null || value === '') {
		return { valid: false, rule: ID_RULES.required, description: 'The ID is empty' };
	}
	if (typeof value !== 'string') {
		return {
			valid: false,
			rule: 'must be text',
			description: `Got ${describeType(value)} instead of an ID`,
		};
	}
	const id = value.trim();
	if (id === '') return { valid: false, rule: ID_RULES.required, description: 'The ID is blank' };
	const problem = textProblem(id);
	if (problem !== undefined) {
		const description =
			problem === TEXT_RULES.notValidText
				? 'It has half of a UTF-16 surrogate pair (a broken emoji or symbol), which cannot be sent; check the expression that produces it'
				: 'Check the expression that produces it';
		return { valid: false, rule: problem, description };
	}
	if (id === '.' || id === '..')
		return { valid: false, rule: ID_RULES.dotSegment, description: `Got "${id}"` };
	if (format === 'uuid' && !UUID.test(id)) {
		return { valid: false, rule: ID_RULES.uuid, description: `"${id}" is not a UUID` };
	}
	return { valid: true, id };
}

/**
 * The checked ID, or a NodeOperationError naming the field and the rule: "Transaction ID: must be a
 * UUID (item 0)". `uuidRule` replaces the UUID rule's words where the field can say more (an
 * account). Every operation that puts an ID into a request reads it through here first.
 */
export function requireId(
	context: { getNode(): INode },
	value: unknown,
	field: string,
	itemIndex: number,
	format: IdFormat,
	uuidRule?: string,
): string {
	const checked = checkId(value, format);
	if (checked.valid) return checked.id;
	const rule = checked.rule === ID_RULES.uuid && uuidRule ? uuidRule : checked.rule;
	throw new NodeOperationError(context.getNode(), `${field}: ${rule} (item ${itemIndex})`, {
		itemIndex,
		description: `${checked.description}. Nothing was sent.`,
	});
}

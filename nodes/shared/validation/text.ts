/**
 * What every text value the node sends must be, whatever its field: real text. The spec gives JSON
 * bodies and path parameters as strings; a string that is no sequence of Unicode characters cannot
 * be encoded as UTF-8 (encodeURIComponent throws on it, JSON carries it as an escape the bank cannot
 * store), and control characters have no place in names, addresses, codes or references.
 */

// One half of a UTF-16 surrogate pair without the other half: not a character, so not valid text
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const CONTROL_CHARACTER = /\p{Cc}/u;
// multi-line notes keep their tabs and line breaks
const CONTROL_CHARACTER_BUT_LINE_BREAKS = /[^\P{Cc}\t\n\r]/u;

export const TEXT_RULES = {
	notValidText: 'contains characters that are not valid text',
	controlCharacters: 'must not contain control characters (such as line breaks or tabs)',
	controlCharactersButLineBreaks:
		'must not contain control characters other than tabs and line breaks',
	blank: 'must not be blank',
} as const;

export function hasLoneSurrogate(value: string): boolean {
	return LONE_SURROGATE.test(value);
}

/** True for a value that has characters but only white space ("   "): given, yet no value. */
export function isBlank(value: string): boolean {
	return value !== '' && value.trim() === '';
}

/**
 * The first rule a text value breaks, or undefined: lone surrogates always, control characters
 * unless `multiLine` (then tabs and line breaks are fine).
 */
export function textProblem(
	value: string,
	{ multiLine = false }: { multiLine?: boolean } = {},
): string | undefined {
	if (hasLoneSurrogate(value)) return TEXT_RULES.notValidText;
	if (multiLine) {
		return CONTROL_CHARACTER_BUT_LINE_BREAKS.test(value)
			? TEXT_RULES.controlCharactersButLineBreaks
			: undefined;
	}
	return CONTROL_CHARACTER.test(value) ? TEXT_RULES.controlCharacters : undefined;
}

/** How a value that is not text is described in an error: "a number", "a list", "an object" … */
export function describeType(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'undefined') return 'nothing';
	return `a ${typeof value}`;
}

/** A multi-options value, or a comma-separated text from an expression: its distinct, trimmed entries. */
export function textList(value: unknown): string[] {
	const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
	const trimmed = items
		.filter((item): item is string => typeof item === 'string')
		.map((item) => item.trim())
		.filter(Boolean);
	return [...new Set(trimmed)];
}

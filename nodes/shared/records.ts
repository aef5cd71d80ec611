import type { IDataObject } from 'n8n-workflow';

/**
 * Reading values of unknown shape (the bank's answers, n8n's stored data, input items): one definition
 * of each check for the whole package.
 */

/** An object that is not an array (and not null): a record whose fields can be read. */
export function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as a record, or an empty record when it is none. */
export function objectOf(value: unknown): IDataObject {
	return isPlainObject(value) ? value : {};
}

/** A key only the value itself has, never one it inherits (`in` and `obj[key]` see those too). */
export function ownValue(record: object, key: string): unknown {
	return Object.hasOwn(record, key) ? (record as Record<string, unknown>)[key] : undefined;
}

/** The value when it is text with at least one character, else undefined. */
export function nonEmptyText(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? value : undefined;
}

import type { IDataObject } from 'n8n-workflow';

import { describeType } from '../../shared/validation/text';
import { isPlainObject } from '../../shared/records';

/**
 * Keys that name an object's prototype machinery rather than data. Written into a plain object
 * (`body[key] = value`) "__proto__" replaces the prototype, and "constructor" or "prototype" shadow
 * what the code reads; a lookup by such a key finds inherited members instead of nothing. In a
 * request body they are an attack on whatever parses it. None is a field of the API (spec §Payee,
 * docs/bank-assumptions.md#payment-fields), so they are refused wherever user input supplies keys.
 */
export const FORBIDDEN_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

export function isForbiddenKey(key: string): boolean {
	return FORBIDDEN_KEYS.includes(key);
}

/**
 * The first forbidden key anywhere inside a JSON-like value, as a path ("meta.__proto__"), or
 * undefined. Walks with its own stack, so a deeply nested value cannot overflow the call stack.
 */
export function findForbiddenKey(value: unknown): string | undefined {
	const pending: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
	while (pending.length > 0) {
		const { value: current, path } = pending.pop() as { value: unknown; path: string };
		if (typeof current !== 'object' || current === null) continue;
		for (const key of Object.keys(current)) {
			const keyPath = path === '' ? key : `${path}.${key}`;
			if (isForbiddenKey(key)) return keyPath;
			pending.push({ value: (current as Record<string, unknown>)[key], path: keyPath });
		}
	}
	return undefined;
}

/** Every string anywhere inside a JSON-like value (keys included), for text checks. */
export function* stringsIn(value: unknown): Generator<string> {
	const pending: unknown[] = [value];
	while (pending.length > 0) {
		const current = pending.pop();
		if (typeof current === 'string') yield current;
		else if (typeof current === 'object' && current !== null) {
			for (const [key, entry] of Object.entries(current)) {
				yield key;
				pending.push(entry);
			}
		}
	}
}

export type GroupReading = { ok: true; values: IDataObject } | { ok: false; rule: string };

/**
 * A group of fields (an n8n collection): absent or null is an empty group; anything but an object
 * of fields, or one with a forbidden key, is refused with the rule it breaks.
 */
export function readGroup(value: unknown): GroupReading {
	if (value === undefined || value === null) return { ok: true, values: {} };
	if (!isPlainObject(value)) {
		return { ok: false, rule: `must be a group of fields, not ${describeType(value)}` };
	}
	const forbidden = Object.keys(value).find(isForbiddenKey);
	if (forbidden !== undefined)
		return { ok: false, rule: `must not contain the key "${forbidden}"` };
	return { ok: true, values: value };
}

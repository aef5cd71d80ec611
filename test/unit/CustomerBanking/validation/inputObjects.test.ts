import {
	findForbiddenKey,
	readGroup,
} from '../../../../nodes/CustomerBanking/validation/inputObjects';

describe('keys and groups (validation/inputObjects.ts)', () => {
	it('finds a prototype key at any depth, without recursion', () => {
		expect(findForbiddenKey(JSON.parse('{"a": {"b": [{"__proto__": 1}]}}'))).toBe(
			'a.b.0.__proto__',
		);
		expect(findForbiddenKey({ constructor: 1 })).toBe('constructor');
		expect(findForbiddenKey({ a: { b: 'prototype' } })).toBeUndefined();
		let deep: unknown = { prototype: true };
		for (let depth = 0; depth < 100_000; depth++) deep = [deep];
		expect(findForbiddenKey(deep)).toMatch(/\.prototype$/);
	});

	it('a group: null is empty, other non-objects and prototype keys are refused', () => {
		expect(readGroup(null)).toEqual({ ok: true, values: {} });
		expect(readGroup('x')).toEqual({ ok: false, rule: 'must be a group of fields, not a string' });
		expect(readGroup(JSON.parse('{"__proto__": {}}'))).toEqual({
			ok: false,
			rule: 'must not contain the key "__proto__"',
		});
	});
});

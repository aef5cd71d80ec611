import { checkId } from '../../nodes/shared/validation/ids';
import { findForbiddenKey, readGroup } from '../../nodes/CustomerBanking/validation/inputObjects';
import { validatePayment } from '../../nodes/CustomerBanking/validation/payment.schema';
import {
	describeIssues,
	payeeUpdateSchema,
} from '../../nodes/CustomerBanking/validation/payee.schema';
import { hasLoneSurrogate, isBlank, textProblem } from '../../nodes/shared/validation/text';

const UUID = '3f1c2a9e-6d1b-4c8e-9a57-0c1d2e3f4a5b';

describe('text rules (validation/text.ts)', () => {
	it.each([
		['\uD800', true],
		['abc\uDFFF', true],
		['\uDFFF\uD800', true],
		['💸', false],
		['💸'.slice(0, 1), true],
		['plain', false],
	])('lone surrogate in %j: %p', (value, expected) => {
		expect(hasLoneSurrogate(value)).toBe(expected);
	});

	it('control characters: refused, except tabs and line breaks in multi-line text', () => {
		expect(textProblem('a\u0000b')).toBe(
			'must not contain control characters (such as line breaks or tabs)',
		);
		expect(textProblem('a\nb')).toBe(
			'must not contain control characters (such as line breaks or tabs)',
		);
		expect(textProblem('a\nb\tc\r', { multiLine: true })).toBeUndefined();
		expect(textProblem('a\u001b[31m', { multiLine: true })).toBe(
			'must not contain control characters other than tabs and line breaks',
		);
		// right-to-left marks, combining characters and emoji are text
		expect(textProblem('Acme\u200F Ltd A\u030A 💸')).toBeUndefined();
	});

	it('blank: characters, but only white space', () => {
		expect([isBlank('   '), isBlank('\u3000'), isBlank(''), isBlank(' a ')]).toEqual([
			true,
			true,
			false,
			false,
		]);
	});
});

describe('IDs (validation/ids.ts)', () => {
	it.each([
		[undefined, 'uuid', 'is required'],
		['  ', 'text', 'is required'],
		[5, 'text', 'must be text'],
		[{ id: 'x' }, 'text', 'must be text'],
		['\uD800', 'text', 'contains characters that are not valid text'],
		['pye\n1', 'text', 'must not contain control characters (such as line breaks or tabs)'],
		['..', 'text', 'must not be "." or ".."'],
		['.', 'text', 'must not be "." or ".."'],
		['../payments', 'uuid', 'must be a UUID'],
	] as const)('%j (%s): %s', (value, format, rule) => {
		expect(checkId(value, format)).toEqual({ valid: false, rule, description: expect.any(String) });
	});

	it('a payee ID is any other text (the spec types it as a string), trimmed; path characters are left to encoding', () => {
		expect(checkId(' pye_8f2k1q ', 'text')).toEqual({ valid: true, id: 'pye_8f2k1q' });
		expect(checkId('a/b?x=1#', 'text')).toEqual({ valid: true, id: 'a/b?x=1#' });
		expect(checkId(UUID, 'uuid')).toEqual({ valid: true, id: UUID });
	});
});

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

describe('schemas', () => {
	const payment = { xaid: UUID, xpid: 'pye_1', amount: 1, reference: 'INV-000001' };

	it('payment: blank reference, text problems, prototype keys and blank JSON', () => {
		const issues = (input: object) => {
			const result = validatePayment({ ...payment, ...input });
			return result.valid ? [] : result.issues;
		};
		expect(issues({ reference: '      ' })).toEqual([
			{ field: 'Reference', rule: 'must not be blank' },
		]);
		expect(issues({ reference: 'INV-00\u0000' })).toEqual([
			{
				field: 'Reference',
				rule: 'must not contain control characters (such as line breaks or tabs)',
			},
		]);
		expect(issues({ additionalBodyFields: { note: 'x\uD800' } })).toEqual([
			{ field: 'Additional Body Fields', rule: 'contains characters that are not valid text' },
		]);
		expect(issues({ additionalBodyFields: '  ', description: 'two\nlines' })).toEqual([]);
	});

	it('payee: a key such as "constructor" is not a field, and is named as given', () => {
		const result = payeeUpdateSchema().safeParse({ constructor: 'x' });
		expect(result.success).toBe(false);
		// the label lookup must not find Object.prototype.constructor
		expect(!result.success && describeIssues(result.error)).toEqual([
			{ field: 'constructor', label: 'constructor', rule: 'is not a payee field' },
		]);
	});
});

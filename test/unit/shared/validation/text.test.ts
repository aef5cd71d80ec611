import { hasLoneSurrogate, isBlank, textProblem } from '../../../../nodes/shared/validation/text';

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

/**
 * scrubSecrets reads each string of an answer with a quick look first (its length, the characters an
 * encoding needs, the secrets' plain forms) and leaves the encoding-aware patterns to the strings that
 * may need them. These are the forms at the edges of that look: each must still be removed, wherever
 * in the answer it stands, with several secrets of different lengths at once.
 */
import { scrubSecrets } from '../../../../nodes/shared/transport/redaction';
import { secretsFoundIn } from '../../../helpers/secretEncodings';

const LONG = 'tok_9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const SHORT = 'Sh0rt-key';
const SPACED = 'pass phrase 42';
const SECRETS = [LONG, SHORT, SPACED];

const mixedCase = (hex: string) =>
	[...hex].map((digit, at) => (at % 2 ? digit.toUpperCase() : digit)).join('');

const CASES: Array<[string, string]> = [
	['the shortest secret, filling the string exactly', SHORT],
	['the secret at the end of a longer text', `note: ${LONG}`],
	['hex in mixed case', mixedCase(Buffer.from(SHORT).toString('hex'))],
	['hex in upper case inside text', `id=${Buffer.from(LONG).toString('hex').toUpperCase()}.`],
	['a space form-encoded as "+" and nothing else escaped', 'q=pass+phrase+42'],
	['base64url inside text', `t ${Buffer.from(LONG).toString('base64url')} t`],
	['base64 of the secret after other bytes', Buffer.from(`client:${LONG}`).toString('base64')],
	['percent-encoded', encodeURIComponent(SPACED)],
	['a JSON escape', `\\u0053h0rt-key`],
	['an HTML character reference', `&#83;h0rt-key`],
];

describe('the quick look of scrubSecrets lets no form through', () => {
	it.each(CASES)('%s: removed from a value', (_name, echoed) => {
		const answer = {
			results: [
				{ id: 'a', note: 'plain' },
				{ id: 'b', note: echoed },
			],
		};
		const scrubbed = scrubSecrets(answer, SECRETS);
		expect(scrubbed).not.toBe(answer);
		expect(secretsFoundIn(JSON.stringify(scrubbed), SECRETS)).toEqual([]);
	});

	it.each(CASES)('%s: removed from a key', (_name, echoed) => {
		const answer = { results: [{ 'an ordinary key, long enough': 1 }, { [echoed]: 1 }] };
		expect(secretsFoundIn(JSON.stringify(scrubSecrets(answer, SECRETS)), SECRETS)).toEqual([]);
	});

	it('an answer whose strings are shorter than every secret, or hold none, is returned as it is', () => {
		const answer = {
			total: 2,
			results: [
				{ xtid: 'a1', amount: 1.5, reference: 'Invoice 7', note: 'Smith & Sons 100% paid' },
				{ xtid: 'b2', amount: 2, reference: null, tags: ['x', 'y'], path: 'C:\\files' },
			],
		};
		expect(scrubSecrets(answer, SECRETS)).toBe(answer);
	});

	// where the answer holds it: every place a string can stand in parsed JSON
	const PLACES: Array<[string, (echoed: string) => unknown]> = [
		['the whole answer', (echoed) => echoed],
		['an entry of an array', (echoed) => ['plain', echoed]],
		['an entry of an array inside an array', (echoed) => [['plain'], ['plain', echoed]]],
		['a value of an object inside an array', (echoed) => [{ id: 'a' }, { note: echoed }]],
		['an entry of an array inside an object', (echoed) => ({ results: { tags: ['x', echoed] } })],
		['a value two objects deep', (echoed) => ({ a: { b: { c: echoed } }, d: 'plain' })],
		['a key two objects deep', (echoed) => ({ a: { b: { [echoed]: true } } })],
	];

	it.each(PLACES)('a secret in %s is removed', (_name, answerOf) => {
		for (const [, echoed] of CASES) {
			const scrubbed = scrubSecrets(answerOf(echoed), SECRETS);
			expect(secretsFoundIn(JSON.stringify(scrubbed), SECRETS)).toEqual([]);
		}
	});
});

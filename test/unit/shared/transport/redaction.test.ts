/**
 * Every encoding of random secrets (fast-check) is removed by the redaction itself, wherever in a text
 * it stands: errors, descriptions and log lines are redacted with redact(), answers with scrubSecrets().
 * Checked by a search that decodes the text on its own (test/helpers/secretEncodings.ts).
 */
import fc from 'fast-check';

import { redact, scrubSecrets } from '../../../../nodes/shared/transport/redaction';
import {
	ENCODING_NAMES,
	ENCODINGS,
	secretsFoundIn,
	type EncodingName,
} from '../../../helpers/secretEncodings';
import { secretArbitrary } from '../../../helpers/randomSecrets';

/** Text around an echoed secret: prose, JSON-ish punctuation, and characters encodings use. */
const surrounding = fc.string({
	unit: fc.constantFrom(...'abc XYZ 019 :;,."{}[]=&%#+/\\_-'.split('')),
	maxLength: 40,
});

const encodingArbitrary = fc.constantFrom(...ENCODING_NAMES);

describe('redaction of secrets in any encoding', () => {
	it.each(ENCODING_NAMES)(
		'%s: a known secret is found by the search (the check is not empty)',
		(name) => {
			const secret = 'Zk9/q+Lm=Tz8w_Qv3.rP';
			expect(secretsFoundIn(`said: ${ENCODINGS[name](secret)}.`, [secret])).not.toEqual([]);
		},
	);

	it.each([' /AAAAAAAA/AA', 'AAAAAAAA/AA\t', '  token with spaces  '])(
		'a secret with whitespace around it (%j) is removed also as a service echoes it trimmed',
		(secret) => {
			const echoed = `Retry-After: ${secret.trim()}; client_secret=${secret.trim()}`;
			for (const text of [
				redact(echoed, [secret]),
				JSON.stringify(scrubSecrets({ echoed }, [secret])),
			])
				expect(text).not.toContain(secret.trim());
		},
	);

	it('removes every encoding of random secrets from a text, wherever it stands', () => {
		fc.assert(
			fc.property(
				fc.array(secretArbitrary, { minLength: 1, maxLength: 4 }),
				fc.nat(),
				encodingArbitrary,
				surrounding,
				surrounding,
				(secrets, pick, encoding: EncodingName, before, after) => {
					const secret = secrets[pick % secrets.length];
					const text = `${before}${ENCODINGS[encoding](secret)}${after}`;
					const redacted = redact(text, secrets);
					expect(secretsFoundIn(redacted, secrets)).toEqual([]);
				},
			),
			{ numRuns: 3000 },
		);
	});

	it('removes every encoding of random secrets from an answer: in strings, keys and nested values', () => {
		fc.assert(
			fc.property(
				secretArbitrary,
				encodingArbitrary,
				surrounding,
				(secret, encoding: EncodingName, before) => {
					const echoed = `${before}${ENCODINGS[encoding](secret)}`;
					const answer = { id: 7, note: echoed, [echoed]: true, items: [{ deep: [echoed] }] };
					const scrubbed = scrubSecrets(answer, [secret]);
					expect(secretsFoundIn(JSON.stringify(scrubbed), [secret])).toEqual([]);
					expect(scrubbed.id).toBe(7);
				},
			),
			{ numRuns: 1500 },
		);
	});

	it('leaves text without a secret as it is, and an answer without one uncopied', () => {
		fc.assert(
			fc.property(secretArbitrary, surrounding, (secret, text) => {
				fc.pre(!text.includes(secret));
				expect(redact(text, [secret])).toBe(text);
				const answer = { text };
				expect(scrubSecrets(answer, [secret])).toBe(answer);
			}),
			{ numRuns: 500 },
		);
	});
});

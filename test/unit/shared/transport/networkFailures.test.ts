/**
 * The network failures table: words for a code (none for a code not in it, or an inherited member),
 * transient only where the request may have reached the bank, and n8n's own words read back to a code.
 */
import {
	NETWORK_FAILURES,
	networkCodeOfN8nWords,
	networkFailureWords,
} from '../../../../nodes/shared/transport/networkFailures';

describe('networkFailureWords', () => {
	it.each<[string | undefined, string | undefined]>([
		['ECONNRESET', 'the connection was closed unexpectedly'],
		['ECONNABORTED', 'the request timed out'],
		['ENOTFOUND', 'the host name could not be resolved'],
		['EWHATEVER', undefined],
		['constructor', undefined],
		['__proto__', undefined],
		[undefined, undefined],
	])('%s → %s', (code, words) => {
		expect(networkFailureWords(code)).toBe(words);
	});
});

describe('NETWORK_FAILURES', () => {
	it('a dropped or refused connection is transient; an unknown host or a bad certificate is not', () => {
		const transient = Object.entries(NETWORK_FAILURES)
			.filter(([, failure]) => failure.transient)
			.map(([code]) => code);
		expect(transient).toEqual(
			expect.arrayContaining(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE']),
		);
		for (const code of ['ENOTFOUND', 'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT'])
			expect(NETWORK_FAILURES[code].transient).toBe(false);
	});
});

describe('networkCodeOfN8nWords', () => {
	it.each<[unknown, string | undefined]>([
		['The connection to the server was closed unexpectedly, perhaps it is offline.', 'ECONNRESET'],
		['The service refused the connection - perhaps it is offline', 'ECONNREFUSED'],
		['The connection timed out, consider setting the Retry on Fail option', 'ETIMEDOUT'],
		['The DNS server returned an error, perhaps the server is offline', 'EAI_AGAIN'],
		[
			'The connection cannot be established, this usually occurs due to an incorrect host',
			'ENOTFOUND',
		],
		// only at the start: a message quoting the words is not that failure
		['Bank said: The connection timed out', undefined],
		['Something else', undefined],
		[undefined, undefined],
		[42, undefined],
	])('%j → %s', (message, code) => {
		expect(networkCodeOfN8nWords(message)).toBe(code);
	});
});

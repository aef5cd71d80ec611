import crypto, { createHmac } from 'crypto';

import type { INodeProperties } from 'n8n-workflow';

import { triggerProperties } from '../../../nodes/CustomerBankingTrigger/description';
import { schemeProblems } from '../../../nodes/CustomerBankingTrigger/triggerParameters';
import {
	DEFAULT_SIGNATURE_SCHEME,
	MAX_TOLERANCE_SECONDS,
	parseSignatures,
	parseTimestamp,
	signingKey,
	NAMED_SCHEMES,
	verifyDelivery,
} from '../../../nodes/CustomerBankingTrigger/signature';
import type {
	SignatureScheme,
	VerifyDeliveryInput,
} from '../../../nodes/CustomerBankingTrigger/signature';

const SECRET = 'whsec_current_0123456789abcdef';
const PREVIOUS = 'whsec_previous_fedcba9876543210';
const NOW = 1_800_000_000;
// Spacing and key order as a sender might produce them: re-serialising this would change the bytes.
const RAW = Buffer.from(
	'{"deliveryId":"d-1", "event":"TransactionReceived","xaid":"a-1","xtid":"t-1","note":"café"}',
);

/** What the sandbox sends (DECISIONS.md §Webhooks), computed independently of the node code. */
function sandboxSignature(secret: string, timestamp: number | string, body: Buffer): string {
	return `v1=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`;
}

function input(overrides: Partial<VerifyDeliveryInput> = {}): VerifyDeliveryInput {
	return {
		rawBody: RAW,
		headers: {
			'x-cb-timestamp': String(NOW),
			'x-cb-signature': sandboxSignature(SECRET, NOW, RAW),
		},
		secrets: [SECRET],
		scheme: { ...DEFAULT_SIGNATURE_SCHEME },
		nowSeconds: NOW,
		...overrides,
	};
}

describe('verifyDelivery with the sandbox scheme (default)', () => {
	it('accepts the sandbox signature over "<timestamp>.<raw body>"', () => {
		expect(verifyDelivery(input())).toEqual({ valid: true, timestampSeconds: NOW });
	});

	it('verifies the raw bytes: the same JSON re-serialised does not verify', () => {
		const reserialised = Buffer.from(JSON.stringify(JSON.parse(RAW.toString('utf8'))));
		expect(reserialised.equals(RAW)).toBe(false);
		expect(verifyDelivery(input({ rawBody: reserialised }))).toEqual({
			valid: false,
			reason: 'badSignature',
		});
	});

	it('refuses a body changed by one byte', () => {
		const tampered = Buffer.from(RAW);
		tampered[tampered.indexOf('t-1') + 2] = '2'.charCodeAt(0);
		expect(verifyDelivery(input({ rawBody: tampered }))).toEqual({
			valid: false,
			reason: 'badSignature',
		});
	});

	it('refuses a delivery without a signature header', () => {
		expect(verifyDelivery(input({ headers: { 'x-cb-timestamp': String(NOW) } }))).toEqual({
			valid: false,
			reason: 'missingSignature',
		});
	});

	it('refuses a signature made with another secret', () => {
		const headers = {
			'x-cb-timestamp': String(NOW),
			'x-cb-signature': sandboxSignature('whsec_other', NOW, RAW),
		};
		expect(verifyDelivery(input({ headers }))).toEqual({ valid: false, reason: 'badSignature' });
	});

	it('refuses a signature for another timestamp (the timestamp is signed)', () => {
		const headers = {
			'x-cb-timestamp': String(NOW),
			'x-cb-signature': sandboxSignature(SECRET, NOW - 1, RAW),
		};
		expect(verifyDelivery(input({ headers }))).toEqual({ valid: false, reason: 'badSignature' });
	});

	it('accepts a comma-separated list when one entry matches (rotation: the sandbox sends both)', () => {
		const headers = {
			'x-cb-timestamp': String(NOW),
			'x-cb-signature': `${sandboxSignature('whsec_other', NOW, RAW)}, ${sandboxSignature(SECRET, NOW, RAW)}`,
		};
		expect(verifyDelivery(input({ headers })).valid).toBe(true);
	});

	it('accepts the previous secret while it is configured, and only then', () => {
		const headers = {
			'x-cb-timestamp': String(NOW),
			'x-cb-signature': sandboxSignature(PREVIOUS, NOW, RAW),
		};
		expect(verifyDelivery(input({ headers, secrets: [SECRET, PREVIOUS] })).valid).toBe(true);
		expect(verifyDelivery(input({ headers, secrets: [SECRET, ''] }))).toEqual({
			valid: false,
			reason: 'badSignature',
		});
	});

	it('ignores entries without the scheme prefix', () => {
		const bare = sandboxSignature(SECRET, NOW, RAW).slice('v1='.length);
		const headers = { 'x-cb-timestamp': String(NOW), 'x-cb-signature': `v0=${bare},${bare}` };
		expect(verifyDelivery(input({ headers }))).toEqual({
			valid: false,
			reason: 'missingSignature',
		});
	});

	it('refuses hex with trailing garbage that Buffer.from would silently drop', () => {
		const headers = {
			'x-cb-timestamp': String(NOW),
			'x-cb-signature': `${sandboxSignature(SECRET, NOW, RAW)}zz`,
		};
		expect(verifyDelivery(input({ headers }))).toEqual({ valid: false, reason: 'badSignature' });
	});

	it('accepts upper-case hex and header names in any case', () => {
		const headers = {
			'X-CB-Timestamp': String(NOW),
			'X-Cb-Signature': `v1=${sandboxSignature(SECRET, NOW, RAW).slice(3).toUpperCase()}`,
		};
		expect(verifyDelivery(input({ headers })).valid).toBe(true);
	});

	it('compares digests with crypto.timingSafeEqual', () => {
		const spy = jest.spyOn(crypto, 'timingSafeEqual');
		try {
			expect(verifyDelivery(input()).valid).toBe(true);
			expect(spy).toHaveBeenCalled();
			for (const [a, b] of spy.mock.calls) expect((a as Buffer).length).toBe((b as Buffer).length);
		} finally {
			spy.mockRestore();
		}
	});
});

describe('timestamp tolerance maximum', () => {
	const option = (name: string) =>
		(
			(triggerProperties.find((p) => p.name === 'signature')?.options ?? []) as INodeProperties[]
		).find((o) => o.name === name);

	it('is 15 minutes: enough for clock differences, and keys of a day at most 30 minutes old fit the ledger', () => {
		expect(MAX_TOLERANCE_SECONDS).toBe(900);
	});

	it.each([
		[900, []],
		[901, ['Timestamp Tolerance (Seconds) must be a whole number from 1 to 900']],
		[7 * 24 * 3600, ['Timestamp Tolerance (Seconds) must be a whole number from 1 to 900']],
		[0.5, ['Timestamp Tolerance (Seconds) must be a whole number from 1 to 900']],
	])('tolerance %d → %j', (toleranceSeconds, problems) => {
		expect(
			schemeProblems({ ...DEFAULT_SIGNATURE_SCHEME, name: 'custom', toleranceSeconds }),
		).toEqual(problems);
	});

	it('the form offers no more than the maximum and says so', () => {
		const tolerance = option('toleranceSeconds');
		expect(tolerance?.typeOptions).toMatchObject({ minValue: 1, maxValue: MAX_TOLERANCE_SECONDS });
		expect(tolerance?.description).toContain('900');
	});

	it('the form does not call an unsigned timestamp a replay defence', () => {
		expect(option('toleranceSeconds')?.description).toMatch(/only when .*signed/i);
		expect(option('signedContent')?.description).toMatch(/replay/i);
		expect(option('timestampHeader')?.description).toMatch(/not .*replay/i);
	});
});

describe('verifyDelivery replay window', () => {
	it.each([
		[NOW - 300, true],
		[NOW - 301, false],
		[NOW + 300, true],
		[NOW + 301, false],
	])('timestamp %i (now = 1800000000) → valid %s', (timestamp, valid) => {
		const headers = {
			'x-cb-timestamp': String(timestamp),
			'x-cb-signature': sandboxSignature(SECRET, timestamp, RAW),
		};
		const result = verifyDelivery(input({ headers }));
		expect(result.valid).toBe(valid);
		if (!result.valid) expect(result.reason).toBe('staleTimestamp');
	});

	it('uses the configured tolerance', () => {
		const headers = {
			'x-cb-timestamp': String(NOW - 100),
			'x-cb-signature': sandboxSignature(SECRET, NOW - 100, RAW),
		};
		const scheme = { ...DEFAULT_SIGNATURE_SCHEME, toleranceSeconds: 60 };
		expect(verifyDelivery(input({ headers, scheme }))).toEqual({
			valid: false,
			reason: 'staleTimestamp',
		});
	});

	it('refuses a missing, non-numeric or repeated timestamp', () => {
		const signature = sandboxSignature(SECRET, NOW, RAW);
		expect(verifyDelivery(input({ headers: { 'x-cb-signature': signature } }))).toEqual({
			valid: false,
			reason: 'missingTimestamp',
		});
		expect(
			verifyDelivery(
				input({ headers: { 'x-cb-signature': signature, 'x-cb-timestamp': `${NOW}abc` } }),
			),
		).toEqual({ valid: false, reason: 'invalidTimestamp' });
		expect(
			verifyDelivery(
				input({
					headers: { 'x-cb-signature': signature, 'x-cb-timestamp': [String(NOW), String(NOW)] },
				}),
			),
		).toEqual({ valid: false, reason: 'invalidTimestamp' });
	});

	it('reads millisecond timestamps as seconds for the window, and signs the header text as sent', () => {
		const millis = String(NOW * 1000 + 123);
		const headers = {
			'x-cb-timestamp': millis,
			'x-cb-signature': sandboxSignature(SECRET, millis, RAW),
		};
		expect(verifyDelivery(input({ headers }))).toEqual({ valid: true, timestampSeconds: NOW });
	});
});

describe('verifyDelivery fails closed', () => {
	it('refuses everything when no secret is configured', () => {
		expect(verifyDelivery(input({ secrets: [] }))).toEqual({ valid: false, reason: 'noSecret' });
		expect(verifyDelivery(input({ secrets: [undefined, '   '] }))).toEqual({
			valid: false,
			reason: 'noSecret',
		});
	});

	it('refuses when the raw body is not available (never falls back to parsed JSON)', () => {
		expect(verifyDelivery(input({ rawBody: undefined }))).toEqual({
			valid: false,
			reason: 'noRawBody',
		});
		expect(verifyDelivery(input({ rawBody: JSON.parse(RAW.toString('utf8')) }))).toEqual({
			valid: false,
			reason: 'noRawBody',
		});
	});

	it('refuses a timestamp-signing scheme whose timestamp header is empty', () => {
		const scheme = { ...DEFAULT_SIGNATURE_SCHEME, timestampHeader: '' };
		expect(verifyDelivery(input({ scheme }))).toEqual({ valid: false, reason: 'missingTimestamp' });
	});
});

describe('verifyDelivery with other configured schemes', () => {
	const bodyOnlySha512Base64: SignatureScheme = {
		name: 'custom',
		layout: 'separateHeaders',
		secretFormat: 'text',
		signatureHeader: 'x-hub-signature',
		signaturePrefix: 'sha512=',
		timestampHeader: '',
		algorithm: 'sha512',
		encoding: 'base64',
		signedContent: 'body',
		toleranceSeconds: 300,
	};

	it('HMAC-SHA512, base64, raw body only, no timestamp', () => {
		const signature = createHmac('sha512', SECRET).update(RAW).digest('base64');
		const headers = { 'x-hub-signature': `sha512=${signature}` };
		expect(verifyDelivery(input({ headers, scheme: bodyOnlySha512Base64 }))).toEqual({
			valid: true,
			timestampSeconds: undefined,
		});
	});

	it('refuses a SHA-256 digest where SHA-512 is configured', () => {
		const signature = createHmac('sha256', SECRET).update(RAW).digest('base64');
		const headers = { 'x-hub-signature': `sha512=${signature}` };
		expect(verifyDelivery(input({ headers, scheme: bodyOnlySha512Base64 }))).toEqual({
			valid: false,
			reason: 'badSignature',
		});
	});

	it('refuses non-canonical base64', () => {
		const signature = createHmac('sha512', SECRET).update(RAW).digest('base64');
		const headers = { 'x-hub-signature': `sha512=${signature.replace(/=*$/, '')}` };
		expect(verifyDelivery(input({ headers, scheme: bodyOnlySha512Base64 })).valid).toBe(false);
	});

	it('checks the timestamp window when a timestamp header is set, even if only the body is signed', () => {
		const scheme = { ...bodyOnlySha512Base64, timestampHeader: 'x-timestamp' };
		const signature = createHmac('sha512', SECRET).update(RAW).digest('base64');
		const fresh = { 'x-hub-signature': `sha512=${signature}`, 'x-timestamp': String(NOW) };
		const stale = { 'x-hub-signature': `sha512=${signature}`, 'x-timestamp': String(NOW - 1000) };
		expect(verifyDelivery(input({ headers: fresh, scheme })).valid).toBe(true);
		expect(verifyDelivery(input({ headers: stale, scheme }))).toEqual({
			valid: false,
			reason: 'staleTimestamp',
		});
	});

	it('bare signatures when the prefix is empty', () => {
		const scheme = { ...DEFAULT_SIGNATURE_SCHEME, signaturePrefix: '' };
		const bare = sandboxSignature(SECRET, NOW, RAW).slice(3);
		expect(
			verifyDelivery(
				input({ scheme, headers: { 'x-cb-timestamp': String(NOW), 'x-cb-signature': bare } }),
			).valid,
		).toBe(true);
	});
});

describe('header parsing', () => {
	it('splits comma-separated and repeated headers, keeping prefixed entries only', () => {
		expect(parseSignatures(['v1=a, v1=b', 'v0=c,v1=d'], 'v1=')).toEqual(['a', 'b', 'd']);
		expect(parseSignatures([' a ,b'], '')).toEqual(['a', 'b']);
	});

	it('parses Unix seconds and milliseconds only', () => {
		expect(parseTimestamp('1800000000')).toBe(1_800_000_000);
		expect(parseTimestamp('1800000000123')).toBe(1_800_000_000);
		expect(parseTimestamp('-5')).toBeUndefined();
		expect(parseTimestamp('1.5')).toBeUndefined();
		expect(parseTimestamp('')).toBeUndefined();
	});
});

describe('schemes chosen by name, against vectors made by their reference libraries', () => {
	// Each vector was printed by the library named (test/helpers/referenceSigners.mjs), never by our code.
	const NOW_SW = 1_800_000_000;
	const BODY = Buffer.from('{}');
	const WHSEC = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

	it('Standard Webhooks (standardwebhooks 1.1.1): v1,<base64> over "<id>.<t>.<body>" with the decoded key; the ID comes back', () => {
		const headers = {
			'webhook-id': 'msg_1',
			'webhook-timestamp': String(NOW_SW),
			'webhook-signature': 'v1,0I45uTTHPN6CNk2+t5OQj8lp5e/6GGLRKHA62O+djPE=',
		};
		const scheme = { ...NAMED_SCHEMES.standardWebhooks };
		const check = (overrides: Partial<VerifyDeliveryInput>) =>
			verifyDelivery({
				rawBody: BODY,
				headers,
				secrets: [WHSEC],
				scheme,
				nowSeconds: NOW_SW,
				...overrides,
			});
		expect(check({})).toEqual({ valid: true, timestampSeconds: NOW_SW, messageId: 'msg_1' });
		// Svix sends the same three headers as svix-*
		const svix = Object.fromEntries(
			Object.entries(headers).map(([name, value]) => [name.replace('webhook', 'svix'), value]),
		);
		expect(check({ headers: svix })).toMatchObject({ valid: true, messageId: 'msg_1' });
		// the key is the base64 without whsec_, as the libraries also accept it
		expect(check({ secrets: [WHSEC.slice('whsec_'.length)] })).toMatchObject({ valid: true });
		expect(check({ headers: { ...headers, 'webhook-id': 'msg_2' } })).toEqual({
			valid: false,
			reason: 'badSignature',
		});
		const withoutId = { ...headers, 'webhook-id': undefined };
		expect(check({ headers: withoutId })).toEqual({ valid: false, reason: 'missingMessageId' });
		expect(check({ nowSeconds: NOW_SW + 301 })).toEqual({ valid: false, reason: 'staleTimestamp' });
		expect(check({ secrets: ['whsec_not base64!'] })).toEqual({
			valid: false,
			reason: 'unusableSecret',
		});
	});

	it('Stripe-style (stripe 23.1.0 generateTestHeaderString): t=…,v1=<hex> over "<t>.<body>", the whsec_ text as the key', () => {
		const header =
			't=1800000000,v1=51e5e42bcc84109c5e180813c1ee066db05b382b041fd0fd817d502eec19cd81';
		const check = (value: string, nowSeconds = NOW_SW) =>
			verifyDelivery({
				rawBody: BODY,
				headers: { 'Stripe-Signature': value },
				secrets: ['whsec_abc'],
				scheme: { ...NAMED_SCHEMES.stripe },
				nowSeconds,
			});
		expect(check(header)).toEqual({ valid: true, timestampSeconds: NOW_SW });
		expect(check(`${header},v0=00`)).toMatchObject({ valid: true });
		expect(check(header.replace('t=1800000000', 't=1800000001'))).toEqual({
			valid: false,
			reason: 'badSignature',
		});
		expect(check(`t=1800000000,${header}`)).toEqual({ valid: false, reason: 'invalidTimestamp' });
		expect(check(header.replace('t=1800000000,', ''))).toEqual({
			valid: false,
			reason: 'missingTimestamp',
		});
		expect(check(header, NOW_SW - 301)).toEqual({ valid: false, reason: 'staleTimestamp' });
	});

	it('GitHub-style (@octokit/webhooks-methods 6.0.0): sha256=<hex> of the body alone, no timestamp', () => {
		const check = (value: string) =>
			verifyDelivery({
				rawBody: BODY,
				headers: { 'X-Hub-Signature-256': value },
				secrets: ['s'],
				scheme: { ...NAMED_SCHEMES.github },
				nowSeconds: NOW_SW,
			});
		const signature = 'sha256=143ca8d517ba1b181025d732b1cf275d90104fca57bb02a565542978aa18c4b6';
		expect(check(signature)).toEqual({ valid: true, timestampSeconds: undefined });
		expect(check(signature.replace('sha256=', 'sha1='))).toEqual({
			valid: false,
			reason: 'missingSignature',
		});
	});
});

describe('signingKey', () => {
	it.each([
		['text', 'whsec_abc', Buffer.from('whsec_abc')],
		['whsecBase64', 'whsec_AAEC', Buffer.from([0, 1, 2])],
		['whsecBase64', 'AAEC', Buffer.from([0, 1, 2])],
		['whsecBase64', 'whsec_AAECAw==', Buffer.from([0, 1, 2, 3])],
		['whsecBase64', 'whsec_AAECAw', Buffer.from([0, 1, 2, 3])],
		['whsecBase64', 'whsec_', undefined],
		['whsecBase64', 'whsec_AA EC', undefined],
		['whsecBase64', 'whsec_AAEC*', undefined],
		['whsecBase64', 'whsec_A', undefined],
	] as const)('%s %j → %j', (format, secret, key) => {
		expect(signingKey(secret, format)).toEqual(key);
	});
});

import { createHmac, timingSafeEqual } from 'crypto';

// spec §Events rule 1: every delivery is signed and must be verified; the scheme itself is "not shown",
// so the default below is the sandbox's (test/sandbox/DECISIONS.md §Webhooks) and every part is configurable.

export type SignatureAlgorithm = 'sha256' | 'sha512';
export type SignatureEncoding = 'hex' | 'base64';
/** What the HMAC covers: `<timestamp>.<raw body>` or the raw body alone. */
export type SignedContent = 'timestampAndBody' | 'body';

export interface SignatureScheme {
	signatureHeader: string;
	/** Prefix of each signature in the header list, e.g. `v1=`; empty when signatures are bare. */
	signaturePrefix: string;
	/** Empty when the sender sends no timestamp (only allowed when the body alone is signed). */
	timestampHeader: string;
	algorithm: SignatureAlgorithm;
	encoding: SignatureEncoding;
	signedContent: SignedContent;
	/** Replay window: a delivery whose timestamp is further than this from now is refused. */
	toleranceSeconds: number;
}

/**
 * The largest replay window allowed. A signed timestamp only needs to cover clock differences and
 * transit; a larger window lengthens how long keys must be kept (twice the window), and with it how
 * few deliveries a trigger can take before the ledger is full (deliveryLedger.ts: 50,000 keys kept
 * 30 minutes at this maximum, about 27 deliveries a second).
 */
export const MAX_TOLERANCE_SECONDS = 900;

export const DEFAULT_SIGNATURE_SCHEME: Readonly<SignatureScheme> = {
	signatureHeader: 'x-cb-signature',
	signaturePrefix: 'v1=',
	timestampHeader: 'x-cb-timestamp',
	algorithm: 'sha256',
	encoding: 'hex',
	signedContent: 'timestampAndBody',
	toleranceSeconds: 300,
};

const DIGEST_BYTES: Record<SignatureAlgorithm, number> = { sha256: 32, sha512: 64 };

export type VerificationFailure =
	| 'noSecret'
	| 'noRawBody'
	| 'missingSignature'
	| 'missingTimestamp'
	| 'invalidTimestamp'
	| 'staleTimestamp'
	| 'badSignature';

export type VerificationResult =
	| { valid: true; timestampSeconds?: number }
	| { valid: false; reason: VerificationFailure };

export type HeaderBag = Record<string, string | string[] | undefined>;

export interface VerifyDeliveryInput {
	/** The exact bytes received (req.rawBody): never re-serialised JSON. */
	rawBody: unknown;
	headers: HeaderBag;
	/** Current secret first, then the previous one while it is being rotated. */
	secrets: Array<string | undefined>;
	scheme: SignatureScheme;
	nowSeconds: number;
}

/** Header names are case-insensitive; repeated headers come as arrays. */
export function readHeader(headers: HeaderBag, name: string): string[] {
	const wanted = name.trim().toLowerCase();
	if (!wanted) return [];
	const values: string[] = [];
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() !== wanted || value === undefined) continue;
		values.push(...(Array.isArray(value) ? value : [value]));
	}
	return values;
}

export function usableSecrets(secrets: Array<string | undefined>): string[] {
	const seen = new Set<string>();
	for (const secret of secrets) {
		const trimmed = typeof secret === 'string' ? secret.trim() : '';
		if (trimmed) seen.add(trimmed);
	}
	return [...seen];
}

/** Whole seconds, or milliseconds (13 digits) converted to seconds; anything else is invalid. */
export function parseTimestamp(value: string): number | undefined {
	const trimmed = value.trim();
	if (!/^\d{1,13}$/.test(trimmed)) return undefined;
	const parsed = Number(trimmed);
	return parsed > 1e10 ? Math.floor(parsed / 1000) : parsed;
}

/** The signatures offered in the header: a comma-separated list, each with the scheme's prefix. */
export function parseSignatures(headerValues: string[], prefix: string): string[] {
	const signatures: string[] = [];
	for (const entry of headerValues.join(',').split(',')) {
		const trimmed = entry.trim();
		if (!trimmed) continue;
		if (prefix) {
			if (trimmed.startsWith(prefix)) signatures.push(trimmed.slice(prefix.length).trim());
		} else {
			signatures.push(trimmed);
		}
	}
	return signatures;
}

/**
 * Decodes an offered signature, refusing anything that is not exactly a well-formed digest of the
 * expected length (Buffer.from would otherwise silently drop trailing garbage from hex or base64).
 */
function decodeSignature(signature: string, scheme: SignatureScheme): Buffer | undefined {
	const bytes = DIGEST_BYTES[scheme.algorithm];
	if (scheme.encoding === 'hex') {
		if (signature.length !== bytes * 2 || !/^[0-9a-fA-F]+$/.test(signature)) return undefined;
		return Buffer.from(signature, 'hex');
	}
	const decoded = Buffer.from(signature, 'base64');
	if (decoded.length !== bytes || decoded.toString('base64') !== signature) return undefined;
	return decoded;
}

export function signedPayload(rawBody: Buffer, scheme: SignatureScheme, timestamp: string): Buffer {
	if (scheme.signedContent === 'body') return rawBody;
	return Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), rawBody]);
}

export function computeSignature(
	secret: string,
	payload: Buffer,
	algorithm: SignatureAlgorithm,
): Buffer {
	return createHmac(algorithm, secret).update(payload).digest();
}

function toBuffer(rawBody: unknown): Buffer | undefined {
	if (Buffer.isBuffer(rawBody)) return rawBody;
	if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
	return undefined;
}

type TimestampCheck = { text: string; seconds?: number } | { failure: VerificationFailure };

/** The attempt's timestamp, checked against the replay window when the scheme has one. */
function checkedTimestamp(input: VerifyDeliveryInput): TimestampCheck {
	const { scheme } = input;
	const usesTimestamp =
		scheme.signedContent === 'timestampAndBody' || scheme.timestampHeader.trim() !== '';
	if (!usesTimestamp) return { text: '' };
	const values = readHeader(input.headers, scheme.timestampHeader);
	if (values.length === 0) return { failure: 'missingTimestamp' };
	if (values.length > 1) return { failure: 'invalidTimestamp' };
	const text = values[0].trim();
	const seconds = parseTimestamp(text);
	if (seconds === undefined) return { failure: 'invalidTimestamp' };
	// Replay window, both ways: a timestamp far in the future is as suspect as an old one.
	if (Math.abs(input.nowSeconds - seconds) > scheme.toleranceSeconds)
		return { failure: 'staleTimestamp' };
	return { text, seconds };
}

/** Whether one offered signature equals one expected digest (compared in constant time). */
function anySignatureMatches(
	signatures: string[],
	expected: Buffer[],
	scheme: SignatureScheme,
): boolean {
	for (const signature of signatures) {
		const offered = decodeSignature(signature, scheme);
		if (!offered) continue;
		for (const digest of expected) {
			if (offered.length === digest.length && timingSafeEqual(offered, digest)) return true;
		}
	}
	return false;
}

/**
 * Fail-closed verification: valid only when a timestamp inside the replay window (when the scheme has
 * one) and one offered signature match an HMAC of the raw bytes under one of the secrets.
 */
export function verifyDelivery(input: VerifyDeliveryInput): VerificationResult {
	const { scheme } = input;
	const secrets = usableSecrets(input.secrets);
	if (secrets.length === 0) return { valid: false, reason: 'noSecret' };

	const rawBody = toBuffer(input.rawBody);
	if (!rawBody) return { valid: false, reason: 'noRawBody' };

	const signatures = parseSignatures(
		readHeader(input.headers, scheme.signatureHeader),
		scheme.signaturePrefix,
	);
	if (signatures.length === 0) return { valid: false, reason: 'missingSignature' };

	const timestamp = checkedTimestamp(input);
	if ('failure' in timestamp) return { valid: false, reason: timestamp.failure };

	const payload = signedPayload(rawBody, scheme, timestamp.text);
	const expected = secrets.map((secret) => computeSignature(secret, payload, scheme.algorithm));
	if (anySignatureMatches(signatures, expected, scheme))
		return { valid: true, timestampSeconds: timestamp.seconds };
	return { valid: false, reason: 'badSignature' };
}

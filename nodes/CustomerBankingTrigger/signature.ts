import { createHmac, timingSafeEqual } from 'crypto';

// spec §Events rule 1: every delivery is signed and must be verified; the scheme itself is "not shown",
// so the default below is assumed (docs/bank-assumptions.md#signature-scheme), the schemes banks use are
// offered by name, and every part of a custom one is configurable.

export type SignatureAlgorithm = 'sha256' | 'sha512';
export type SignatureEncoding = 'hex' | 'base64';
/**
 * What the HMAC covers: `<timestamp>.<raw body>`, the raw body alone, or (Standard Webhooks)
 * `<message id>.<timestamp>.<raw body>`.
 */
export type SignedContent = 'timestampAndBody' | 'body' | 'idTimestampAndBody';

/** The schemes the trigger's form offers by name; `custom` is the one set field by field. */
export const SCHEME_NAMES = [
	'customerBanking',
	'standardWebhooks',
	'stripe',
	'github',
	'custom',
] as const;
export type SchemeName = (typeof SCHEME_NAMES)[number];

/**
 * Where the signatures, the timestamp and the message ID travel:
 * - `separateHeaders`: a signature header (a comma-separated list, each with the prefix) and a timestamp
 *   header;
 * - `standardWebhooks`: `webhook-id`, `webhook-timestamp` and `webhook-signature` (a space-separated
 *   list of `v1,<base64>`), or the same three as `svix-*` (standardwebhooks.com, Svix);
 * - `stripe`: one header `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`.
 */
export type HeaderLayout = 'separateHeaders' | 'standardWebhooks' | 'stripe';

/**
 * How the secret becomes the HMAC key: its text as UTF-8, or (Standard Webhooks) `whsec_` followed by
 * the base64 of the key bytes, the key being the decoded bytes.
 */
export type SecretFormat = 'text' | 'whsecBase64';

export interface SignatureScheme {
	name: SchemeName;
	layout: HeaderLayout;
	signatureHeader: string;
	/** Prefix of each signature in the header list, e.g. `v1=`; empty when signatures are bare. */
	signaturePrefix: string;
	/** Empty when the sender sends no timestamp in a header of its own. */
	timestampHeader: string;
	algorithm: SignatureAlgorithm;
	encoding: SignatureEncoding;
	signedContent: SignedContent;
	secretFormat: SecretFormat;
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

/** The Customer Banking scheme, the form's default (docs/bank-assumptions.md#signature-scheme). */
export const DEFAULT_SIGNATURE_SCHEME: Readonly<SignatureScheme> = {
	name: 'customerBanking',
	layout: 'separateHeaders',
	signatureHeader: 'x-cb-signature',
	signaturePrefix: 'v1=',
	timestampHeader: 'x-cb-timestamp',
	algorithm: 'sha256',
	encoding: 'hex',
	signedContent: 'timestampAndBody',
	secretFormat: 'text',
	toleranceSeconds: 300,
};

/**
 * The schemes chosen by name, each as its reference library verifies it: `standardwebhooks` and `svix`
 * (5-minute window, whsec_ key material), `stripe` (`t=…,v1=…`, 300 s default tolerance, the secret as
 * text), `@octokit/webhooks-methods` (`sha256=<hex>` of the body, no timestamp).
 */
export const NAMED_SCHEMES: Readonly<
	Record<Exclude<SchemeName, 'custom'>, Readonly<SignatureScheme>>
> = {
	customerBanking: DEFAULT_SIGNATURE_SCHEME,
	standardWebhooks: {
		name: 'standardWebhooks',
		layout: 'standardWebhooks',
		signatureHeader: 'webhook-signature',
		signaturePrefix: 'v1,',
		timestampHeader: 'webhook-timestamp',
		algorithm: 'sha256',
		encoding: 'base64',
		signedContent: 'idTimestampAndBody',
		secretFormat: 'whsecBase64',
		toleranceSeconds: 300,
	},
	stripe: {
		name: 'stripe',
		layout: 'stripe',
		signatureHeader: 'stripe-signature',
		signaturePrefix: 'v1=',
		timestampHeader: '',
		algorithm: 'sha256',
		encoding: 'hex',
		signedContent: 'timestampAndBody',
		secretFormat: 'text',
		toleranceSeconds: 300,
	},
	github: {
		name: 'github',
		layout: 'separateHeaders',
		signatureHeader: 'x-hub-signature-256',
		signaturePrefix: 'sha256=',
		timestampHeader: '',
		algorithm: 'sha256',
		encoding: 'hex',
		signedContent: 'body',
		secretFormat: 'text',
		toleranceSeconds: 300,
	},
};

const DIGEST_BYTES: Record<SignatureAlgorithm, number> = { sha256: 32, sha512: 64 };

export type VerificationFailure =
	| 'noSecret'
	| 'unusableSecret'
	| 'noRawBody'
	| 'missingSignature'
	| 'missingMessageId'
	| 'missingTimestamp'
	| 'invalidTimestamp'
	| 'staleTimestamp'
	| 'badSignature';

export type VerificationResult =
	| {
			valid: true;
			timestampSeconds?: number;
			/** The signed message ID (Standard Webhooks, Svix): the sender keeps it across retries. */
			messageId?: string;
	  }
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

const WHSEC_PREFIX = 'whsec_';

/**
 * The HMAC key a secret stands for: its UTF-8 text, or for `whsecBase64` the bytes its base64 (after
 * an optional `whsec_`) decodes to, as the standardwebhooks and svix libraries read it. Undefined when
 * the text is not base64 of at least one byte.
 */
export function signingKey(secret: string, format: SecretFormat): Buffer | undefined {
	if (format === 'text') return Buffer.from(secret, 'utf8');
	const encoded = secret.startsWith(WHSEC_PREFIX) ? secret.slice(WHSEC_PREFIX.length) : secret;
	if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined;
	const key = Buffer.from(encoded, 'base64');
	const unpadded = (text: string) => text.replace(/=+$/, '');
	if (key.length === 0 || unpadded(key.toString('base64')) !== unpadded(encoded)) return undefined;
	return key;
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
	return prefixed(headerValues.join(',').split(','), prefix);
}

/** The entries that carry `prefix`, without it (every non-empty entry when there is no prefix). */
function prefixed(entries: string[], prefix: string): string[] {
	const signatures: string[] = [];
	for (const entry of entries) {
		const trimmed = entry.trim();
		if (!trimmed) continue;
		if (!prefix) signatures.push(trimmed);
		else if (trimmed.startsWith(prefix)) signatures.push(trimmed.slice(prefix.length).trim());
	}
	return signatures;
}

/** What a delivery's headers offer: signatures, the timestamp's text (if sent), the message ID. */
export interface OfferedSignatures {
	signatures: string[];
	/** Every timestamp value sent (none, one, or several, which is invalid). */
	timestamps: string[];
	messageIds: string[];
}

/**
 * Standard Webhooks headers under either name: `webhook-*`, or Svix's `svix-*` when no
 * `webhook-signature` came. One family is read whole, never a mix.
 */
function standardWebhooksHeaders(headers: HeaderBag): OfferedSignatures {
	const family = readHeader(headers, 'webhook-signature').length > 0 ? 'webhook' : 'svix';
	const entries = readHeader(headers, `${family}-signature`).join(' ').split(/\s+/);
	return {
		signatures: prefixed(entries, 'v1,'),
		timestamps: readHeader(headers, `${family}-timestamp`),
		messageIds: readHeader(headers, `${family}-id`),
	};
}

/** `t=<seconds>,v1=<hex>,v1=<hex>…` in one header; entries of other schemes (v0=…) are ignored. */
function stripeHeader(headers: HeaderBag, scheme: SignatureScheme): OfferedSignatures {
	const entries = readHeader(headers, scheme.signatureHeader).join(',').split(',');
	return {
		signatures: prefixed(entries, scheme.signaturePrefix),
		timestamps: prefixed(entries, 't='),
		messageIds: [],
	};
}

export function offeredSignatures(headers: HeaderBag, scheme: SignatureScheme): OfferedSignatures {
	if (scheme.layout === 'standardWebhooks') return standardWebhooksHeaders(headers);
	if (scheme.layout === 'stripe') return stripeHeader(headers, scheme);
	return {
		signatures: parseSignatures(
			readHeader(headers, scheme.signatureHeader),
			scheme.signaturePrefix,
		),
		timestamps: scheme.timestampHeader.trim() ? readHeader(headers, scheme.timestampHeader) : [],
		messageIds: [],
	};
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

export function signedPayload(
	rawBody: Buffer,
	scheme: SignatureScheme,
	timestamp: string,
	messageId = '',
): Buffer {
	if (scheme.signedContent === 'body') return rawBody;
	const prefix =
		scheme.signedContent === 'idTimestampAndBody' ? `${messageId}.${timestamp}.` : `${timestamp}.`;
	return Buffer.concat([Buffer.from(prefix, 'utf8'), rawBody]);
}

export function computeSignature(
	key: string | Buffer,
	payload: Buffer,
	algorithm: SignatureAlgorithm,
): Buffer {
	return createHmac(algorithm, key).update(payload).digest();
}

function toBuffer(rawBody: unknown): Buffer | undefined {
	if (Buffer.isBuffer(rawBody)) return rawBody;
	if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
	return undefined;
}

/** Whether the scheme reads a timestamp: the named layouts always, a custom one when it names a header. */
function usesTimestamp(scheme: SignatureScheme): boolean {
	if (scheme.layout !== 'separateHeaders') return true;
	return scheme.signedContent !== 'body' || scheme.timestampHeader.trim() !== '';
}

type TimestampCheck = { text: string; seconds?: number } | { failure: VerificationFailure };

/** The attempt's timestamp, checked against the replay window when the scheme has one. */
function checkedTimestamp(
	offered: OfferedSignatures,
	scheme: SignatureScheme,
	nowSeconds: number,
): TimestampCheck {
	if (!usesTimestamp(scheme)) return { text: '' };
	const values = offered.timestamps;
	if (values.length === 0) return { failure: 'missingTimestamp' };
	if (values.length > 1) return { failure: 'invalidTimestamp' };
	const text = values[0].trim();
	const seconds = parseTimestamp(text);
	if (seconds === undefined) return { failure: 'invalidTimestamp' };
	// Replay window, both ways: a timestamp far in the future is as suspect as an old one.
	if (Math.abs(nowSeconds - seconds) > scheme.toleranceSeconds)
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
 * one) and one offered signature match an HMAC of the raw bytes (with the message ID, when the scheme
 * signs one) under one of the secrets.
 */
export function verifyDelivery(input: VerifyDeliveryInput): VerificationResult {
	const { scheme } = input;
	const secrets = usableSecrets(input.secrets);
	if (secrets.length === 0) return { valid: false, reason: 'noSecret' };
	const keys = secrets
		.map((secret) => signingKey(secret, scheme.secretFormat))
		.filter((key): key is Buffer => key !== undefined);
	if (keys.length === 0) return { valid: false, reason: 'unusableSecret' };

	const rawBody = toBuffer(input.rawBody);
	if (!rawBody) return { valid: false, reason: 'noRawBody' };

	const offered = offeredSignatures(input.headers, scheme);
	if (offered.signatures.length === 0) return { valid: false, reason: 'missingSignature' };

	let messageId: string | undefined;
	if (scheme.signedContent === 'idTimestampAndBody') {
		if (offered.messageIds.length !== 1 || offered.messageIds[0].trim() === '')
			return { valid: false, reason: 'missingMessageId' };
		messageId = offered.messageIds[0].trim();
	}

	const timestamp = checkedTimestamp(offered, scheme, input.nowSeconds);
	if ('failure' in timestamp) return { valid: false, reason: timestamp.failure };

	const payload = signedPayload(rawBody, scheme, timestamp.text, messageId);
	const expected = keys.map((key) => computeSignature(key, payload, scheme.algorithm));
	if (!anySignatureMatches(offered.signatures, expected, scheme))
		return { valid: false, reason: 'badSignature' };
	return messageId === undefined
		? { valid: true, timestampSeconds: timestamp.seconds }
		: { valid: true, timestampSeconds: timestamp.seconds, messageId };
}

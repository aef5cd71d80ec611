import type { HeaderBag, SchemeName, SignatureScheme, VerificationFailure } from './signature';
import { readHeader } from './signature';

/** Why a delivery was refused: a verification failure, or signature settings that cannot be used. */
export type RefusalReason = VerificationFailure | 'misconfiguredScheme';

/** The scheme names as the form shows them. */
export const SCHEME_TITLES: Readonly<Record<SchemeName, string>> = {
	customerBanking: 'Customer Banking',
	standardWebhooks: 'Standard Webhooks (Svix)',
	stripe: 'Stripe-Style',
	github: 'GitHub-Style',
	custom: 'Custom',
};

/** What each reason means, in the words a refusal report uses (one place for them). */
export const REASON_WORDS: Readonly<Record<RefusalReason, string>> = {
	noSecret: 'the credential has no Webhook Signing Secret',
	unusableSecret:
		'the Webhook Signing Secret is not whsec_ followed by base64, as Standard Webhooks issues it',
	noRawBody: 'the delivery had no body',
	missingSignature: 'no signature in the header the Signature Scheme reads',
	missingMessageId: 'no message ID (webhook-id or svix-id header)',
	missingTimestamp: 'no timestamp in the header the Signature Scheme reads',
	invalidTimestamp: 'the timestamp is not Unix seconds, or came more than once',
	staleTimestamp:
		"the timestamp is further from this machine's clock than the scheme allows (an old delivery sent again, or a clock that is wrong)",
	badSignature: 'the signature matches neither Webhook Signing Secret of the credential',
	misconfiguredScheme: 'the Custom signature settings of the trigger cannot be used',
};

/**
 * The header each named scheme signs with, by which a delivery shows its scheme. Only these fixed
 * names are ever repeated in a report: header names and values a sender chose are not.
 */
const SIGNATURE_HEADERS: ReadonlyArray<[Exclude<SchemeName, 'custom'>, string[]]> = [
	['customerBanking', ['x-cb-signature']],
	['standardWebhooks', ['webhook-signature', 'svix-signature']],
	['stripe', ['stripe-signature']],
	['github', ['x-hub-signature-256']],
];

/** The named schemes whose signature header the delivery carried, with the header names. */
export function schemesInHeaders(
	headers: HeaderBag,
): Array<{ scheme: SchemeName; headers: string[] }> {
	const found: Array<{ scheme: SchemeName; headers: string[] }> = [];
	for (const [scheme, names] of SIGNATURE_HEADERS) {
		const present = names.filter((name) => readHeader(headers, name).length > 0);
		if (present.length > 0) found.push({ scheme, headers: present });
	}
	return found;
}

/** The headers a scheme reads, as a report names them. */
function headersRead(scheme: SignatureScheme): string {
	if (scheme.layout === 'standardWebhooks')
		return 'webhook-id, webhook-timestamp and webhook-signature (or svix-*)';
	const names = [scheme.signatureHeader, scheme.timestampHeader].filter((name) => name !== '');
	return names.join(' and ');
}

export interface RefusalCounts {
	/** Reason → deliveries refused for it, in the order first seen. */
	counts: ReadonlyMap<string, number>;
	/** Seconds since the last report, when there was one. */
	sinceSeconds?: number;
}

/**
 * The report of refused deliveries: a message with the count and each reason in words, and a
 * description naming the scheme chosen, the headers it reads and, when the last refused delivery
 * carried another named scheme's signature header, that scheme.
 */
export function refusalReport(
	{ counts, sinceSeconds }: RefusalCounts,
	scheme: SignatureScheme,
	lastHeaders: HeaderBag,
): { message: string; description: string } {
	let total = 0;
	const reasons: string[] = [];
	for (const [reason, count] of counts) {
		total += count;
		const words = REASON_WORDS[reason as RefusalReason] ?? reason;
		reasons.push(`${words} (${count})`);
	}
	const since = sinceSeconds === undefined ? '' : ` in the last ${sinceSeconds} s`;
	const message = `Customer Banking Trigger refused ${total} ${total === 1 ? 'delivery' : 'deliveries'}${since}: ${reasons.join('; ')}`;
	const title = SCHEME_TITLES[scheme.name] ?? String(scheme.name);
	const parts = [
		`Nothing was started for ${total === 1 ? 'it' : 'them'}. Signature Scheme "${title}" reads ${headersRead(scheme)}.`,
	];
	const others = schemesInHeaders(lastHeaders).filter((found) => found.scheme !== scheme.name);
	if (others.length > 0) {
		const named = others
			.map((found) => `${SCHEME_TITLES[found.scheme]} (${found.headers.join(', ')})`)
			.join(' or ');
		parts.push(
			`The last refused delivery carried the signature header of ${named}: if the bank's webhook documentation names that scheme, choose it in Signature Scheme.`,
		);
	}
	parts.push(
		'Anybody who knows the webhook address can send deliveries, and they are refused the same way: this report comes at most once a minute per trigger (the others are answered 401 and counted), and every time while listening for a test event.',
	);
	return { message, description: parts.join(' ') };
}

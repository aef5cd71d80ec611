import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { usableSecrets } from './signature';

import { CREDENTIAL_TYPE as CREDENTIAL } from '../CustomerBanking/transport/credentialRules';

/**
 * How long a trigger reuses the signing secrets it read. Every credential read makes n8n load and
 * decrypt the credential and set up an expression sandbox for it: in n8n 2.41.1 that was 100 ms of a
 * delivery's 220 ms answer time (docs/benchmark-results.md). A secret removed from the credential is
 * refused at the latest this long after.
 */
export const SECRET_REUSE_MS = 15_000;
/**
 * A delivery the remembered secrets do not verify makes the trigger read the credential again, so a
 * secret set in it since works at once; but at most once per this interval per trigger node, so
 * forged deliveries, which anybody can send, cannot make n8n decrypt the credential on every request.
 * A new secret is therefore used at the latest this long after it was saved (the bank's retry of a
 * delivery refused meanwhile is accepted).
 */
export const REREAD_INTERVAL_MS = 5_000;
/** Far more trigger nodes than one n8n instance serves; beyond it the oldest entries go. */
const MAX_REMEMBERED = 1_000;

interface Remembered {
	secrets?: string[];
	secretsReadAtMs: number;
	/** When the last read for a delivery the remembered secrets did not verify started. */
	rereadAtMs?: number;
	/** A read under way: concurrent deliveries share it instead of each reading the credential. */
	reading?: Promise<string[]>;
}

/** Per trigger node and credential, in this n8n instance's memory only (never in static data). */
const remembered = new Map<string, Remembered>();

function keyOf(this: IHookFunctions | IWebhookFunctions): string {
	const node = this.getNode();
	const credentialId = node.credentials?.[CREDENTIAL]?.id ?? '';
	return [this.getWorkflow().id ?? '', node.id || node.name, credentialId].join('\u0000');
}

function entryFor(key: string): Remembered {
	let entry = remembered.get(key);
	if (!entry) {
		if (remembered.size >= MAX_REMEMBERED) {
			const oldest = remembered.keys().next();
			if (!oldest.done) remembered.delete(oldest.value);
		}
		entry = { secretsReadAtMs: 0 };
		remembered.set(key, entry);
	}
	return entry;
}

/**
 * Reads the secrets from the credential (current first, then the previous one) and remembers them;
 * a read already under way for this node is shared.
 */
export async function readSigningSecrets(
	this: IHookFunctions | IWebhookFunctions,
	nowMs: number,
): Promise<string[]> {
	const key = keyOf.call(this);
	const entry = entryFor(key);
	if (entry.reading) return await entry.reading;
	const reading = this.getCredentials(CREDENTIAL).then((credentials) =>
		usableSecrets([
			credentials.webhookSigningSecret as string | undefined,
			credentials.webhookSigningSecretPrevious as string | undefined,
		]),
	);
	entry.reading = reading;
	try {
		const secrets = await reading;
		entry.secrets = secrets;
		entry.secretsReadAtMs = nowMs;
		return secrets;
	} finally {
		if (entry.reading === reading) entry.reading = undefined;
	}
}

/** The secrets read less than SECRET_REUSE_MS ago, or undefined. */
export function recentSigningSecrets(this: IWebhookFunctions, nowMs: number): string[] | undefined {
	const entry = remembered.get(keyOf.call(this));
	if (
		!entry?.secrets ||
		nowMs - entry.secretsReadAtMs >= SECRET_REUSE_MS ||
		nowMs < entry.secretsReadAtMs
	) {
		return undefined;
	}
	return entry.secrets;
}

/**
 * Reads the secrets again for a delivery the remembered ones did not verify, unless such a read
 * started less than REREAD_INTERVAL_MS ago: then undefined, and the delivery is judged on what is
 * remembered.
 */
export async function rereadSigningSecrets(
	this: IWebhookFunctions,
	nowMs: number,
): Promise<string[] | undefined> {
	const entry = entryFor(keyOf.call(this));
	if (entry.reading) return await entry.reading;
	const last = entry.rereadAtMs;
	if (last !== undefined && nowMs - last < REREAD_INTERVAL_MS && nowMs >= last) return undefined;
	entry.rereadAtMs = nowMs;
	return await readSigningSecrets.call(this, nowMs);
}

export function forgetSigningSecrets(this: IHookFunctions): void {
	remembered.delete(keyOf.call(this));
}

import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { TriggerNodeRegistry, type TriggerNodeCall } from '../shared/triggerNodeRegistry';
import { usableSecrets } from './signature';

import { CREDENTIAL_TYPE as CREDENTIAL } from '../shared/transport/credentialRules';

/**
 * How long a trigger reuses the signing secrets it read. Every credential read makes n8n load and
 * decrypt the credential and set up an expression sandbox for it: in n8n 2.41.1 that was 100 ms of a
 * delivery's 220 ms answer time (shared/n8nInternals.ts 6.). A secret removed from the credential is
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
	/** The credential the secrets were read from: another one's are never used. */
	credentialId: string;
	secrets?: string[];
	secretsReadAtMs: number;
	/** When the last read for a delivery the remembered secrets did not verify started. */
	rereadAtMs?: number;
	/** A read under way: concurrent deliveries share it instead of each reading the credential. */
	reading?: Promise<string[]>;
}

type TriggerCall = IHookFunctions | IWebhookFunctions;

function credentialIdOf(call: TriggerNodeCall): string {
	return call.getNode().credentials?.[CREDENTIAL]?.id ?? '';
}

const remembered = new TriggerNodeRegistry<Remembered>(
	(call) => ({ credentialId: credentialIdOf(call), secretsReadAtMs: 0 }),
	MAX_REMEMBERED,
);

/** What is remembered for this node and its current credential, if anything. */
function rememberedFor(this: TriggerCall): Remembered | undefined {
	const entry = remembered.peek(this);
	return entry?.credentialId === credentialIdOf(this) ? entry : undefined;
}

function entryFor(this: TriggerCall): Remembered {
	const entry = remembered.of(this);
	if (entry.credentialId === credentialIdOf(this)) return entry;
	return remembered.set(this, { credentialId: credentialIdOf(this), secretsReadAtMs: 0 });
}

/**
 * Reads the secrets from the credential (current first, then the previous one) and remembers them;
 * a read already under way for this node is shared.
 */
export async function readSigningSecrets(this: TriggerCall, nowMs: number): Promise<string[]> {
	const entry = entryFor.call(this);
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
	const entry = rememberedFor.call(this);
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
	const entry = entryFor.call(this);
	if (entry.reading) return await entry.reading;
	const last = entry.rereadAtMs;
	if (last !== undefined && nowMs - last < REREAD_INTERVAL_MS && nowMs >= last) return undefined;
	entry.rereadAtMs = nowMs;
	return await readSigningSecrets.call(this, nowMs);
}

export function forgetSigningSecrets(this: IHookFunctions): void {
	remembered.forget(this);
}

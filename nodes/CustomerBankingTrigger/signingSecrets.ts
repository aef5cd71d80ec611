import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { usableSecrets } from './signature';

const CREDENTIAL = 'customerBankingApi';

/**
 * How long a trigger reuses the signing secrets it read. Every credential read makes n8n load and
 * decrypt the credential and set up an expression sandbox for it: in n8n 2.41.1 that was 100 ms of a
 * delivery's 220 ms answer time (docs/benchmark-results.md). A delivery the remembered secrets do not
 * verify makes the trigger read the credential again at once, so a new secret works immediately; a
 * secret removed from the credential is refused at the latest this long after.
 */
export const SECRET_REUSE_MS = 15_000;
/** Far more trigger nodes than one n8n instance serves; beyond it the oldest entries go. */
const MAX_REMEMBERED = 1_000;

interface Remembered {
	secrets: string[];
	readAtMs: number;
}

/** Per trigger node and credential, in this n8n instance's memory only (never in static data). */
const remembered = new Map<string, Remembered>();

function keyOf(context: IHookFunctions | IWebhookFunctions): string {
	const node = context.getNode();
	const credentialId = node.credentials?.[CREDENTIAL]?.id ?? '';
	return [context.getWorkflow().id ?? '', node.id || node.name, credentialId].join('\u0000');
}

/** Reads the secrets from the credential (current first, then the previous one) and remembers them. */
export async function readSigningSecrets(
	this: IHookFunctions | IWebhookFunctions,
	nowMs: number,
): Promise<string[]> {
	const credentials = await this.getCredentials(CREDENTIAL);
	const secrets = usableSecrets([
		credentials.webhookSigningSecret as string | undefined,
		credentials.webhookSigningSecretPrevious as string | undefined,
	]);
	const key = keyOf(this);
	remembered.delete(key);
	if (remembered.size >= MAX_REMEMBERED) {
		const oldest = remembered.keys().next();
		if (!oldest.done) remembered.delete(oldest.value);
	}
	remembered.set(key, { secrets, readAtMs: nowMs });
	return secrets;
}

/** The secrets read less than SECRET_REUSE_MS ago, or undefined. */
export function recentSigningSecrets(this: IWebhookFunctions, nowMs: number): string[] | undefined {
	const entry = remembered.get(keyOf(this));
	if (!entry || nowMs - entry.readAtMs >= SECRET_REUSE_MS || nowMs < entry.readAtMs) return undefined;
	return entry.secrets;
}

export function forgetSigningSecrets(this: IHookFunctions): void {
	remembered.delete(keyOf(this));
}

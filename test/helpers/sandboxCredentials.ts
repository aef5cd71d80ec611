import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/** The parts of the sandbox (test/sandbox/index.ts `Sandbox`) a credential needs. */
export interface SandboxAddresses {
	baseUrl: string;
	/** {auth_url}: the credential's Token URL; the exchange goes to `${authUrl}/oauth/token`. */
	authUrl: string;
	audience: string;
	/** Signing secret of the main workspace (the sandbox's getter follows rotation). */
	signingSecret: string;
	signingSecrets?: { main: string; otherWorkspace: string };
	clients: Record<SandboxClientName, { clientId: string; clientSecret: string }>;
}

export type SandboxClientName = 'full' | 'readOnly' | 'noUpdatePayee' | 'otherWorkspace';

/**
 * A fresh `customerBankingApi` credential (as n8n decrypts it) for one of the sandbox's seeded clients.
 * The object is the credential store of the test contexts: pass the same object to several contexts to
 * reuse its token, as n8n does across executions.
 */
export function credentialsFor(
	sandbox: SandboxAddresses,
	client: SandboxClientName = 'full',
): ICredentialDataDecryptedObject {
	const { clientId, clientSecret } = sandbox.clients[client];
	return {
		environment: 'sandbox',
		baseUrl: sandbox.baseUrl,
		tokenUrl: sandbox.authUrl,
		audience: sandbox.audience,
		clientId,
		clientSecret,
		// Every client but otherWorkspace belongs to the main workspace. Read now: rotation later is not followed.
		webhookSigningSecret:
			client === 'otherWorkspace'
				? (sandbox.signingSecrets?.otherWorkspace ?? '')
				: sandbox.signingSecret,
		webhookSigningSecretPrevious: '',
		accessToken: '',
	};
}

/**
 * Node and axios codes of a request that got no HTTP answer, in words a user reads, shared by the API
 * requests and the credential's token request. `transient`: the connection failed or dropped, so the
 * request may have reached the bank and is worth another attempt (spec §Errors rule 1); the others
 * (an unknown host, a bad certificate) fail the same way again.
 */
export const NETWORK_FAILURES: Readonly<Record<string, { words: string; transient: boolean }>> = {
	ECONNRESET: { words: 'the connection was closed unexpectedly', transient: true },
	ECONNREFUSED: { words: 'the connection was refused', transient: true },
	ECONNABORTED: { words: 'the request timed out', transient: true },
	ETIMEDOUT: { words: 'the connection timed out', transient: true },
	ESOCKETTIMEDOUT: { words: 'the connection timed out', transient: true },
	ERR_SOCKET_CONNECTION_TIMEOUT: { words: 'the connection timed out', transient: true },
	EPIPE: { words: 'the connection was closed while sending', transient: true },
	EAI_AGAIN: { words: 'the host name could not be resolved', transient: true },
	EHOSTUNREACH: { words: 'the host is unreachable', transient: true },
	ENETUNREACH: { words: 'the network is unreachable', transient: true },
	ENOTFOUND: { words: 'the host name could not be resolved', transient: false },
	CERT_HAS_EXPIRED: { words: 'its TLS certificate has expired', transient: false },
	DEPTH_ZERO_SELF_SIGNED_CERT: { words: 'its TLS certificate is self-signed', transient: false },
};

/** The words for a network code, or undefined for a code not in the table. */
export function networkFailureWords(code: string | undefined): string | undefined {
	return code !== undefined && Object.hasOwn(NETWORK_FAILURES, code)
		? NETWORK_FAILURES[code].words
		: undefined;
}

/**
 * n8n 1.x hands the node an error that has lost the network code, worded by n8n-workflow's own table
 * (NodeError COMMON_ERRORS, the same words in n8n 2.x): the code those words stand for.
 */
const N8N_WORDS: ReadonlyArray<[string, string]> = [
	['The connection to the server was closed unexpectedly', 'ECONNRESET'],
	['The service refused the connection', 'ECONNREFUSED'],
	['The connection timed out', 'ETIMEDOUT'],
	['The connection was aborted', 'ECONNABORTED'],
	['The host is unreachable', 'EHOSTUNREACH'],
	['The DNS server returned an error', 'EAI_AGAIN'],
	['The connection cannot be established', 'ENOTFOUND'],
];

/** The network code n8n's words for a failure stand for, when a message starts with them. */
export function networkCodeOfN8nWords(message: unknown): string | undefined {
	if (typeof message !== 'string') return undefined;
	return N8N_WORDS.find(([words]) => message.startsWith(words))?.[1];
}

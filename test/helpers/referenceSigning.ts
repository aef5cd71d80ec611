import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

/** The senders' libraries (dev dependencies), each signing as that sender does. */
export type ReferenceLibrary = 'standardwebhooks' | 'svix' | 'stripe' | 'octokit';

export interface SigningRequest {
	library: ReferenceLibrary;
	secret: string;
	/** The message ID (Standard Webhooks, Svix); ignored by the others. */
	id?: string;
	timestampSeconds?: number;
	/** The exact body, as UTF-8 text (the libraries take text). */
	body: string;
}

/**
 * The headers each request's library sends, all signed in one child process (referenceSigners.mjs:
 * svix and @octokit/webhooks-methods are ES modules only, which jest's CommonJS runtime cannot load).
 */
export function signWithReferenceLibraries(
	requests: SigningRequest[],
): Array<Record<string, string>> {
	const output = execFileSync(process.execPath, [path.join(__dirname, 'referenceSigners.mjs')], {
		input: JSON.stringify(
			requests.map((request) => ({
				timestampSeconds: Math.floor(Date.now() / 1000),
				...request,
			})),
		),
		cwd: path.join(__dirname, '..', '..'),
	});
	return JSON.parse(output.toString('utf8')) as Array<Record<string, string>>;
}

/**
 * The echoCredentials variant (variants.ts): a careless bank, gateway or proxy that echoes what the
 * caller sent, in every form such software writes it (test/helpers/secretEncodings.ts): for canary
 * tests, nothing echoed may reach n8n's output, errors or logs.
 */
import { ENCODING_NAMES, ENCODINGS } from '../helpers/secretEncodings';

/** `value` in every encoding, by encoding name. */
export function echoedForms(value: string): Record<string, string> {
	return Object.fromEntries(ENCODING_NAMES.map((name) => [name, ENCODINGS[name](value)]));
}

/** The same, as one line of text. */
export function echoedText(value: string): string {
	return Object.entries(echoedForms(value))
		.map(([name, form]) => `${name}=${form}`)
		.join(' ');
}

/** The bearer token of an Authorization header, or the header as it is. */
export function tokenOf(authorization: string | undefined): string {
	return (authorization ?? '').replace(/^Bearer\s+/i, '');
}

/**
 * An error page as a gateway in front of the bank writes one: text, longer than an error message is
 * shown, the caller's token standing across the 500th character, then in every other form.
 */
export function echoingErrorPage(message: string, authorization: string | undefined): string {
	const token = tokenOf(authorization);
	const lead = `${message}. Request authorized with `.padEnd(
		500 - Math.ceil(token.length / 2),
		'.',
	);
	return `${lead}${token} (${echoedText(token)})`;
}

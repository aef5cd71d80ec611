import type { IDataObject } from 'n8n-workflow';

const REDACTED = '[redacted]';

/**
 * Every form a secret can take when a service echoes it back: as is, URL- and form-encoded (as it
 * travelled in the token request), base64 and base64url (as in a Basic header or a token), and escaped
 * inside a JSON string. Longest first, so a longer form is replaced before a shorter one inside it.
 */
export function secretForms(secrets: Iterable<string | undefined>): string[] {
	const forms = new Set<string>();
	for (const secret of secrets) {
		if (typeof secret !== 'string' || secret.length < 4) continue;
		const bytes = Buffer.from(secret, 'utf8');
		for (const form of [
			secret,
			encodeURIComponent(secret),
			new URLSearchParams({ s: secret }).toString().slice(2),
			bytes.toString('base64'),
			bytes.toString('base64').replace(/=+$/, ''),
			bytes.toString('base64url'),
			JSON.stringify(secret).slice(1, -1),
		]) {
			if (form.length >= 4) forms.add(form);
		}
	}
	return [...forms].sort((a, b) => b.length - a.length);
}

/** Removes every form of the given secrets, and anything that looks like a bearer token. */
export function redact(text: string, secrets: Iterable<string | undefined>): string {
	let safe = text;
	for (const form of secretForms(secrets)) safe = safe.split(form).join(REDACTED);
	return safe.replace(/\b(Bearer)\s+[A-Za-z0-9\-._~+/]+=*/gi, `$1 ${REDACTED}`);
}

/**
 * The API's answer with every form of the secrets removed from its strings (keys included): a bank
 * that echoes a token or secret into a field must not put it into n8n's output. The answer is
 * returned untouched, without a copy, when no secret occurs in it.
 */
export function scrubSecrets<T>(value: T, secrets: Iterable<string | undefined>): T {
	const forms = secretForms(secrets);
	if (forms.length === 0) return value;
	const serialised = JSON.stringify(value);
	if (serialised === undefined || !forms.some((form) => serialised.includes(form))) return value;
	const clean = (text: string) =>
		forms.reduce((safe, form) => safe.split(form).join(REDACTED), text);
	const walk = (node: unknown): unknown => {
		if (typeof node === 'string') return clean(node);
		if (Array.isArray(node)) return node.map(walk);
		if (typeof node === 'object' && node !== null) {
			const copy: IDataObject = {};
			for (const [key, entry] of Object.entries(node as IDataObject))
				copy[clean(key)] = walk(entry) as IDataObject[string];
			return copy;
		}
		return node;
	};
	return walk(value) as T;
}

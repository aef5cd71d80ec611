/**
 * Secrets as a bank, a gateway or a proxy may echo them, and a search for them in any of those forms.
 * The search decodes the text (percent-encoding, HTML character references, JSON escapes, form
 * encoding, in any order, a few levels deep; base64, base64url and hex runs at every alignment) and
 * looks for the secrets in what comes out: it shares nothing with the nodes' redaction, so it finds
 * what that misses.
 */

const hex2 = (byte: number) => byte.toString(16).padStart(2, '0');
const everyByte = (secret: string, upper = true) =>
	[...Buffer.from(secret, 'utf8')]
		.map((b) => `%${upper ? hex2(b).toUpperCase() : hex2(b)}`)
		.join('');
const everyChar = (secret: string, ref: (codePoint: number) => string) =>
	[...secret].map((char) => ref(char.codePointAt(0) as number)).join('');
const lowerPercent = (text: string) => text.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
const isAlphanumeric = (char: string) => /^[A-Za-z0-9]$/.test(char);

/** HTML5 names of the characters a secret may hold (the characters an encoder names). */
export const HTML_NAMES: Readonly<Record<string, string>> = {
	'!': 'excl',
	'"': 'quot',
	'#': 'num',
	$: 'dollar',
	'%': 'percnt',
	'&': 'amp',
	"'": 'apos',
	'(': 'lpar',
	')': 'rpar',
	'*': 'ast',
	'+': 'plus',
	',': 'comma',
	'.': 'period',
	'/': 'sol',
	':': 'colon',
	';': 'semi',
	'<': 'lt',
	'=': 'equals',
	'>': 'gt',
	'?': 'quest',
	'@': 'commat',
	'[': 'lsqb',
	'\\': 'bsol',
	']': 'rsqb',
	'^': 'Hat',
	_: 'lowbar',
	'`': 'grave',
	'{': 'lcub',
	'|': 'vert',
	'}': 'rcub',
	'\u00a0': 'nbsp',
};

const unicodeEscape = (secret: string) =>
	[...secret]
		.flatMap((char) =>
			char.length === 2 ? [char.charCodeAt(0), char.charCodeAt(1)] : [char.charCodeAt(0)],
		)
		.map((unit) => `\\u${unit.toString(16).padStart(4, '0')}`)
		.join('');

/** Every form the tests echo a secret in. */
export const ENCODINGS = {
	raw: (s: string) => s,
	percentUpper: (s: string) => encodeURIComponent(s),
	percentLower: (s: string) => lowerPercent(encodeURIComponent(s)),
	percentEveryByte: (s: string) => everyByte(s),
	percentEveryByteLower: (s: string) => everyByte(s, false),
	percentTwice: (s: string) => encodeURIComponent(encodeURIComponent(s)),
	percentTwiceLower: (s: string) => lowerPercent(encodeURIComponent(encodeURIComponent(s))),
	percentEveryByteTwice: (s: string) => encodeURIComponent(everyByte(s)),
	form: (s: string) => new URLSearchParams({ s }).toString().slice(2),
	base64: (s: string) => Buffer.from(s, 'utf8').toString('base64'),
	base64Unpadded: (s: string) => Buffer.from(s, 'utf8').toString('base64').replace(/=+$/, ''),
	base64url: (s: string) => Buffer.from(s, 'utf8').toString('base64url'),
	/** inside a longer base64 text, as in a Basic header of "client:secret" */
	base64Inside: (s: string) => Buffer.from(`client-77:${s}`, 'utf8').toString('base64'),
	/** the same, percent-encoded as in a query string */
	base64InsidePercent: (s: string) =>
		encodeURIComponent(Buffer.from(`abcd:${s}`, 'utf8').toString('base64')),
	hexLower: (s: string) => Buffer.from(s, 'utf8').toString('hex'),
	hexUpper: (s: string) => Buffer.from(s, 'utf8').toString('hex').toUpperCase(),
	htmlDecimal: (s: string) => everyChar(s, (cp) => `&#${cp};`),
	htmlHexLower: (s: string) => everyChar(s, (cp) => `&#x${cp.toString(16)};`),
	htmlHexUpper: (s: string) => everyChar(s, (cp) => `&#X${cp.toString(16).toUpperCase()};`),
	htmlSpecialsHex: (s: string) =>
		[...s]
			.map((c) =>
				isAlphanumeric(c) ? c : `&#x${(c.codePointAt(0) as number).toString(16).toUpperCase()};`,
			)
			.join(''),
	htmlNamed: (s: string) => [...s].map((c) => (HTML_NAMES[c] ? `&${HTML_NAMES[c]};` : c)).join(''),
	htmlNamedTwice: (s: string) =>
		[...s].map((c) => (HTML_NAMES[c] ? `&amp;${HTML_NAMES[c]};` : c)).join(''),
	json: (s: string) => JSON.stringify(s).slice(1, -1),
	jsonSlashes: (s: string) => JSON.stringify(s).slice(1, -1).replace(/\//g, '\\/'),
	jsonUnicode: (s: string) => unicodeEscape(s),
	jsonTwice: (s: string) => JSON.stringify(JSON.stringify(s)).slice(1, -1),
} as const;

export type EncodingName = keyof typeof ENCODINGS;
export const ENCODING_NAMES = Object.keys(ENCODINGS) as EncodingName[];

/** Every encoding of every secret. */
export function everyEncoding(secrets: string[]): string[] {
	return secrets.flatMap((secret) => ENCODING_NAMES.map((name) => ENCODINGS[name](secret)));
}

// ---------------------------------------------------------------------------------------------
// The search

const NAMED = new Map(Object.entries(HTML_NAMES).map(([char, name]) => [name, char]));

const DECODERS: Array<(text: string) => string> = [
	(text) =>
		text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) =>
			Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'),
		),
	(text) =>
		text.replace(/&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z]+);/g, (whole, ref: string) => {
			if (ref.startsWith('#')) {
				const codePoint = /^#[xX]/.test(ref)
					? parseInt(ref.slice(2), 16)
					: parseInt(ref.slice(1), 10);
				return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : whole;
			}
			return NAMED.get(ref) ?? whole;
		}),
	(text) =>
		text.replace(/\\(u[0-9a-fA-F]{4}|["\\/bfnrt])/g, (_whole, escape: string) => {
			if (escape.startsWith('u')) return String.fromCharCode(parseInt(escape.slice(1), 16));
			return (
				({ b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' } as Record<string, string | undefined>)[
					escape
				] ?? escape
			);
		}),
	(text) => text.replace(/\+/g, ' '),
];

/** The text and what decoding it in any order, up to `depth` steps, makes of it. */
function decodedViews(text: string, depth = 3): string[] {
	const views = new Set([text]);
	let frontier = [text];
	for (let level = 0; level < depth; level++) {
		const next: string[] = [];
		for (const view of frontier) {
			for (const decode of DECODERS) {
				const decoded = decode(view);
				if (!views.has(decoded)) {
					views.add(decoded);
					next.push(decoded);
				}
			}
		}
		frontier = next;
	}
	return [...views];
}

/** The bytes of every base64 (either alphabet) and hex run in the text, decoded at every alignment. */
function decodedRuns(view: string): Buffer[] {
	const decoded: Buffer[] = [];
	for (const [run] of view.matchAll(/[A-Za-z0-9+/_-]{8,}={0,2}/g)) {
		const standard = run.replace(/-/g, '+').replace(/_/g, '/');
		for (let offset = 0; offset < 4; offset++)
			decoded.push(Buffer.from(standard.slice(offset), 'base64'));
	}
	for (const [run] of view.matchAll(/[0-9a-fA-F]{16,}/g)) {
		for (let offset = 0; offset < 2; offset++)
			decoded.push(Buffer.from(run.slice(offset, offset + ((run.length - offset) & ~1)), 'hex'));
	}
	return decoded;
}

export interface Found {
	secret: string;
	/** 'whole', 'part' (at least `minPart` characters of it), or 'bytes' (inside a base64 or hex run) */
	how: 'whole' | 'part' | 'bytes';
}

/**
 * The secrets found in the text in any form: whole, a part of at least `minPart` characters, or
 * inside base64 or hex. Secrets shorter than `minPart` are searched whole only.
 */
export function secretsFoundIn(text: string, secrets: string[], minPart = 12): Found[] {
	const found: Found[] = [];
	const views = decodedViews(text);
	const runs = views.flatMap(decodedRuns);
	for (const secret of new Set(secrets.filter((s) => s.length > 0))) {
		const parts =
			secret.length <= minPart
				? []
				: Array.from({ length: secret.length - minPart + 1 }, (_, i) =>
						secret.slice(i, i + minPart),
					);
		const bytes = Buffer.from(secret, 'utf8');
		if (views.some((view) => view.includes(secret))) found.push({ secret, how: 'whole' });
		else if (views.some((view) => parts.some((part) => view.includes(part))))
			found.push({ secret, how: 'part' });
		else if (runs.some((run) => run.includes(bytes))) found.push({ secret, how: 'bytes' });
	}
	return found;
}

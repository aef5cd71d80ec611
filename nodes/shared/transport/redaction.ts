import type { IDataObject } from 'n8n-workflow';

const REDACTED = '[redacted]';

/** Shorter values are not treated as secrets: they would match ordinary text. */
const MIN_SECRET_LENGTH = 4;

/**
 * A secret's base64 or hex form inside a longer encoded text only shows in part (the characters it
 * shares with its neighbours differ): such a part is searched for from this length, so that it cannot
 * match ordinary text by chance.
 */
const MIN_EMBEDDED_LENGTH = 12;

/** The HTML5 names of the characters that have one (e.g. `&sol;` for "/", `&plus;` for "+"). */
const HTML_NAMES: Readonly<Record<string, readonly string[]>> = {
	'!': ['excl'],
	'"': ['quot', 'QUOT'],
	'#': ['num'],
	$: ['dollar'],
	'%': ['percnt'],
	'&': ['amp', 'AMP'],
	"'": ['apos'],
	'(': ['lpar'],
	')': ['rpar'],
	'*': ['ast', 'midast'],
	'+': ['plus'],
	',': ['comma'],
	'.': ['period'],
	'/': ['sol'],
	':': ['colon'],
	';': ['semi'],
	'<': ['lt', 'LT'],
	'=': ['equals'],
	'>': ['gt', 'GT'],
	'?': ['quest'],
	'@': ['commat'],
	'[': ['lsqb', 'lbrack'],
	'\\': ['bsol'],
	']': ['rsqb', 'rbrack'],
	'^': ['Hat'],
	_: ['lowbar', 'UnderBar'],
	'`': ['grave', 'DiacriticalGrave'],
	'{': ['lcub', 'lbrace'],
	'|': ['vert', 'verbar', 'VerticalLine'],
	'}': ['rcub', 'rbrace'],
	'\u00a0': ['nbsp', 'NonBreakingSpace'],
};

/** JSON's short escapes. */
const JSON_ESCAPES: Readonly<Record<string, string>> = {
	'"': '"',
	'\\': '\\\\',
	'/': '/',
	'\b': 'b',
	'\f': 'f',
	'\n': 'n',
	'\r': 'r',
	'\t': 't',
};

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A number in hex, either case: 0x2f → `2[fF]`. */
function hexPattern(value: number, width = 1): string {
	return value
		.toString(16)
		.padStart(width, '0')
		.replace(/[a-f]/g, (digit) => `[${digit}${digit.toUpperCase()}]`);
}

/**
 * Every way one character of a secret may be written by whatever echoes it: as is; percent-encoded
 * (its UTF-8 bytes, hex in either case, encoded again any number of times: "%" becomes "%25"); "+" for
 * a space (form encoding); as an HTML character reference (decimal, hex, or its name, the "&" itself
 * escaped again any number of times); as a JSON escape (`\u002f`, `\/`, with any number of
 * backslashes: JSON inside JSON). `full` false: as is or percent-encoded only, for the letters and
 * digits of a base64 or hex form, which nobody escapes otherwise.
 */
function characterPattern(char: string, full: boolean, first = false): string {
	if (!full && /^[A-Za-z0-9]$/.test(char)) return char;
	const bytes = [...Buffer.from(char, 'utf8')];
	const alternatives = [
		escapeRegExp(char),
		bytes.map((byte) => `%(?:25)*${hexPattern(byte, 2)}`).join(''),
	];
	if (!full) return `(?:${alternatives.join('|')})`;
	const codePoint = char.codePointAt(0) as number;
	if (char === ' ') alternatives.push('\\+');
	alternatives.push(`&(?:amp;)*#0*${codePoint};`, `&(?:amp;)*#[xX]0*${hexPattern(codePoint)};`);
	for (const name of HTML_NAMES[char] ?? []) alternatives.push(`&(?:amp;)*${name};`);
	// a secret's first character is looked for at every position: its escapes start where a run of
	// backslashes starts, so a long run costs one look, not one per backslash
	const backslashes = first ? '(?<!\\\\)\\\\+' : '\\\\+';
	const units = Array.from({ length: char.length }, (_, i) => char.charCodeAt(i));
	alternatives.push(units.map((unit) => `${backslashes}u${hexPattern(unit, 4)}`).join(''));
	if (JSON_ESCAPES[char]) alternatives.push(`${backslashes}${JSON_ESCAPES[char]}`);
	return `(?:${alternatives.join('|')})`;
}

function textPattern(text: string, full: boolean): string {
	return [...text].map((char, index) => characterPattern(char, full, index === 0)).join('');
}

/**
 * The characters of base64 that encode nothing but the secret's own bits when it starts `shift`
 * bytes into the encoded text: what shows of it inside a longer base64 text (a Basic header of
 * "client:secret", a token), whatever stands before and after it.
 */
function base64Core(bytes: Buffer, shift: number): string {
	const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
	const first = Math.ceil((8 * shift) / 6);
	const end = Math.floor((8 * (shift + bytes.length)) / 6);
	return encoded.slice(first, end);
}

/** The base64, base64url and hex forms of a secret, as patterns (hex in either case). */
function encodedForms(secret: string): string[] {
	const bytes = Buffer.from(secret, 'utf8');
	const texts = new Set<string>();
	for (let shift = 0; shift < 3; shift++) {
		const core = base64Core(bytes, shift);
		if (shift === 0 || core.length >= MIN_EMBEDDED_LENGTH) {
			texts.add(core);
			texts.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
		}
	}
	const forms = [...texts]
		.filter((text) => text.length > 0)
		.map((text) => textPattern(text, false));
	forms.push([...bytes].map((byte) => hexPattern(byte, 2)).join(''));
	return forms;
}

/**
 * Compiled patterns of the last secrets seen (compiling one takes milliseconds, and the same few come
 * with every request): one per secret, so a renewed token does not compile the others again.
 */
const PATTERNS_KEPT = 64;
const patterns = new Map<string, RegExp>();

/** Every form of one secret: each character in any of its encodings, and its base64, base64url and hex forms. */
function patternOf(secret: string): RegExp {
	let pattern = patterns.get(secret);
	if (!pattern) {
		pattern = new RegExp([textPattern(secret, true), ...encodedForms(secret)].join('|'), 'g');
		if (patterns.size >= PATTERNS_KEPT) patterns.delete(patterns.keys().next().value as string);
		patterns.set(secret, pattern);
	}
	return pattern;
}

/** The patterns of the usable secrets, longest secret first, so a secret containing another is removed whole. */
function patternsFor(secrets: Iterable<string | undefined>): RegExp[] {
	const usable = new Set<string>();
	for (const secret of secrets)
		if (typeof secret === 'string' && secret.length >= MIN_SECRET_LENGTH) usable.add(secret);
	return [...usable].sort((a, b) => b.length - a.length).map(patternOf);
}

function removeAll(text: string, patterns: RegExp[]): string {
	return patterns.reduce((safe, pattern) => safe.replace(pattern, REDACTED), text);
}

/** Removes every form of the given secrets, and anything that looks like a bearer token. */
export function redact(text: string, secrets: Iterable<string | undefined>): string {
	return removeAll(text, patternsFor(secrets)).replace(
		/\b(Bearer)\s+[A-Za-z0-9\-._~+/]+=*/gi,
		`$1 ${REDACTED}`,
	);
}

/**
 * The API's answer with every form of the secrets removed from its strings (keys included): a bank
 * that echoes a token or secret into a field must not put it into n8n's output. The answer is
 * returned untouched, without a copy, when no secret occurs in it.
 */
export function scrubSecrets<T>(value: T, secrets: Iterable<string | undefined>): T {
	const found = patternsFor(secrets);
	if (found.length === 0) return value;
	// JSON escapes of the answer's strings are among the forms searched for
	const serialised = JSON.stringify(value);
	const occurs = (pattern: RegExp) => {
		pattern.lastIndex = 0;
		return pattern.test(serialised);
	};
	if (serialised === undefined || !found.some(occurs)) return value;
	const clean = (text: string) => removeAll(text, found);
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

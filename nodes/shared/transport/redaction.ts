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

/**
 * The base64 and base64url texts that show of a secret inside an encoded text (base64Core), as they
 * stand when nothing escapes them again.
 */
function base64Texts(bytes: Buffer): string[] {
	const texts = new Set<string>();
	for (let shift = 0; shift < 3; shift++) {
		const core = base64Core(bytes, shift);
		if (shift === 0 || core.length >= MIN_EMBEDDED_LENGTH) {
			texts.add(core);
			texts.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
		}
	}
	return [...texts].filter((text) => text.length > 0);
}

/** A secret's hex form, as a pattern (either case). */
function hexForm(bytes: Buffer): string {
	return [...bytes].map((byte) => hexPattern(byte, 2)).join('');
}

/** The base64, base64url and hex forms of a secret, as patterns (hex in either case). */
function encodedForms(secret: string): string[] {
	const bytes = Buffer.from(secret, 'utf8');
	return [...base64Texts(bytes).map((text) => textPattern(text, false)), hexForm(bytes)];
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
	return usableSecrets(secrets).map(patternOf);
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
 * The quick look at one string of an answer: whether it may hold a secret (the full patterns then
 * decide), false only when it cannot. Every character of a secret may be percent-encoded ("%"), an
 * HTML character reference ("&") or a JSON escape (a backslash), a space also "+"; the base64 and hex
 * forms contain none of these unless percent-encoded. So a string without them can hold a secret only
 * as the secret itself, its base64 or base64url text or its hex form (either case): plain comparisons.
 * And no form of a secret is shorter than the secret (an encoded character is at least as long as the
 * character; base64 and hex are longer than the bytes), nor than its own text: a shorter string is
 * skipped.
 */
interface QuickLook {
	shortest: number;
	escapes: RegExp;
	/** The plain forms, shortest first, each with the pattern that finds it (hex in either case). */
	forms: ReadonlyArray<{ length: number; text?: string; pattern?: RegExp }>;
}

const QUICK_LOOKS_KEPT = 16;
const quickLooks = new Map<string, QuickLook>();

function quickLookFor(secrets: readonly string[]): QuickLook {
	const id = secrets.join('\u0000');
	let look = quickLooks.get(id);
	if (!look) {
		const forms = secrets.flatMap((secret) => {
			const bytes = Buffer.from(secret, 'utf8');
			const hex = bytes.toString('hex');
			return [
				...[secret, ...base64Texts(bytes)].map((text) => ({ length: text.length, text })),
				{ length: hex.length, pattern: new RegExp(hex, 'i') },
			];
		});
		look = {
			shortest: Math.min(...secrets.map((secret) => secret.length)),
			escapes: secrets.some((secret) => secret.includes(' ')) ? /[%&\\+]/ : /[%&\\]/,
			forms: forms.sort((a, b) => a.length - b.length),
		};
		if (quickLooks.size >= QUICK_LOOKS_KEPT)
			quickLooks.delete(quickLooks.keys().next().value as string);
		quickLooks.set(id, look);
	}
	return look;
}

function mayHoldSecret(text: string, look: QuickLook): boolean {
	if (text.length < look.shortest) return false;
	if (look.escapes.test(text)) return true;
	for (const form of look.forms) {
		if (form.length > text.length) return false;
		if (form.text !== undefined ? text.includes(form.text) : form.pattern?.test(text)) return true;
	}
	return false;
}

/** The secrets that are searched for, longest first, so a secret containing another is removed whole. */
function usableSecrets(secrets: Iterable<string | undefined>): string[] {
	const usable = new Set<string>();
	for (const secret of secrets) {
		if (typeof secret !== 'string') continue;
		// HTTP trims header values, and services often trim what they echo: the trimmed form goes too
		for (const form of [secret, secret.trim()])
			if (form.length >= MIN_SECRET_LENGTH) usable.add(form);
	}
	return [...usable].sort((a, b) => b.length - a.length);
}

/** Whether a string of the answer (a value or a key) holds a form of one of `secrets`. */
function holdsSecret(text: string, look: QuickLook, secrets: readonly string[]): boolean {
	if (!mayHoldSecret(text, look)) return false;
	// compiled only here: most answers never need the full patterns
	return secrets.map(patternOf).some((pattern) => {
		pattern.lastIndex = 0;
		return pattern.test(text);
	});
}

/**
 * Whether `test` holds for a string of the answer (a value or a key, inherited keys too: looking at more
 * strings never lets a secret through) that is long enough to hold a secret, stopping at the first. A
 * string among an object's values or an array's entries is taken where it stands.
 */
function someString(node: object, shortest: number, test: (text: string) => boolean): boolean {
	if (Array.isArray(node)) {
		for (let index = 0; index < node.length; index++) {
			const entry: unknown = node[index];
			if (typeof entry === 'string') {
				if (entry.length >= shortest && test(entry)) return true;
			} else if (typeof entry === 'object' && entry !== null && someString(entry, shortest, test))
				return true;
		}
		return false;
	}
	for (const key in node) {
		if (key.length >= shortest && test(key)) return true;
		const entry: unknown = (node as IDataObject)[key];
		if (typeof entry === 'string') {
			if (entry.length >= shortest && test(entry)) return true;
		} else if (typeof entry === 'object' && entry !== null && someString(entry, shortest, test))
			return true;
	}
	return false;
}

/**
 * Whether any string of the answer holds a form of a secret: the quick look at each string on its own
 * first, and only when one may, the full patterns on each. On its own, a string shorter than a form of
 * a secret is not searched for that form (a record's IDs and dates are shorter than most forms), so most
 * strings cost a length comparison.
 */
function answerHoldsSecret(value: unknown, look: QuickLook, secrets: readonly string[]): boolean {
	if (typeof value === 'string') return holdsSecret(value, look, secrets);
	if (typeof value !== 'object' || value === null) return false;
	if (!someString(value, look.shortest, (text) => mayHoldSecret(text, look))) return false;
	return someString(value, look.shortest, (text) => holdsSecret(text, look, secrets));
}

/**
 * The API's answer with every form of the secrets removed from its strings (keys included): a bank
 * that echoes a token or secret into a field must not put it into n8n's output. The answer is
 * returned untouched, without a copy, when no secret occurs in it. Its strings are read as they are,
 * not serialised again: a cheap look at each (its length, the characters an encoding needs, the
 * secrets' plain forms) leaves the encoding-aware patterns to the few strings that may need them.
 */
export function scrubSecrets<T>(value: T, secrets: Iterable<string | undefined>): T {
	const usable = usableSecrets(secrets);
	if (usable.length === 0) return value;
	if (!answerHoldsSecret(value, quickLookFor(usable), usable)) return value;
	const found = usable.map(patternOf);
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

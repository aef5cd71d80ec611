/**
 * Bank details as banks check them, so a typing mistake is caught before a payee is stored and paid:
 * an IBAN by ISO 13616 (the length of its country in the SWIFT IBAN registry, mod-97 check digits), a
 * BIC by its ISO 9362 structure, a UK sort code as 6 digits. People copy them as printed on invoices
 * (in groups, in lower case, sort codes with dashes), so those separators are removed and letters
 * upper-cased first; the value returned is the one the bank is sent. The field table
 * (payee.fields.ts) says which field is checked how.
 */

export type BankCodeResult = { ok: true; value: string } | { ok: false; message: string };

/** Checks one typed value: the value to send, or a message that quotes what was typed. */
export type BankCodeCheck = (typed: string) => BankCodeResult;

/**
 * The SWIFT IBAN registry: each country's IBAN length, and the country's name for errors. Countries
 * whose territories use the country's code (the French overseas departments, Åland, Jersey …) have
 * no line of their own.
 */
export const IBAN_LENGTHS: Readonly<Record<string, { length: number; country: string }>> = {
	AD: { length: 24, country: 'Andorra' },
	AE: { length: 23, country: 'the United Arab Emirates' },
	AL: { length: 28, country: 'Albania' },
	AT: { length: 20, country: 'Austria' },
	AZ: { length: 28, country: 'Azerbaijan' },
	BA: { length: 20, country: 'Bosnia and Herzegovina' },
	BE: { length: 16, country: 'Belgium' },
	BG: { length: 22, country: 'Bulgaria' },
	BH: { length: 22, country: 'Bahrain' },
	BI: { length: 27, country: 'Burundi' },
	BR: { length: 29, country: 'Brazil' },
	BY: { length: 28, country: 'Belarus' },
	CH: { length: 21, country: 'Switzerland' },
	CR: { length: 22, country: 'Costa Rica' },
	CY: { length: 28, country: 'Cyprus' },
	CZ: { length: 24, country: 'Czechia' },
	DE: { length: 22, country: 'Germany' },
	DJ: { length: 27, country: 'Djibouti' },
	DK: { length: 18, country: 'Denmark' },
	DO: { length: 28, country: 'the Dominican Republic' },
	EE: { length: 20, country: 'Estonia' },
	EG: { length: 29, country: 'Egypt' },
	ES: { length: 24, country: 'Spain' },
	FI: { length: 18, country: 'Finland' },
	FK: { length: 18, country: 'the Falkland Islands' },
	FO: { length: 18, country: 'the Faroe Islands' },
	FR: { length: 27, country: 'France' },
	GB: { length: 22, country: 'the United Kingdom' },
	GE: { length: 22, country: 'Georgia' },
	GI: { length: 23, country: 'Gibraltar' },
	GL: { length: 18, country: 'Greenland' },
	GR: { length: 27, country: 'Greece' },
	GT: { length: 28, country: 'Guatemala' },
	HN: { length: 28, country: 'Honduras' },
	HR: { length: 21, country: 'Croatia' },
	HU: { length: 28, country: 'Hungary' },
	IE: { length: 22, country: 'Ireland' },
	IL: { length: 23, country: 'Israel' },
	IQ: { length: 23, country: 'Iraq' },
	IS: { length: 26, country: 'Iceland' },
	IT: { length: 27, country: 'Italy' },
	JO: { length: 30, country: 'Jordan' },
	KW: { length: 30, country: 'Kuwait' },
	KZ: { length: 20, country: 'Kazakhstan' },
	LB: { length: 28, country: 'Lebanon' },
	LC: { length: 32, country: 'Saint Lucia' },
	LI: { length: 21, country: 'Liechtenstein' },
	LT: { length: 20, country: 'Lithuania' },
	LU: { length: 20, country: 'Luxembourg' },
	LV: { length: 21, country: 'Latvia' },
	LY: { length: 25, country: 'Libya' },
	MC: { length: 27, country: 'Monaco' },
	MD: { length: 24, country: 'Moldova' },
	ME: { length: 22, country: 'Montenegro' },
	MK: { length: 19, country: 'North Macedonia' },
	MN: { length: 20, country: 'Mongolia' },
	MR: { length: 27, country: 'Mauritania' },
	MT: { length: 31, country: 'Malta' },
	MU: { length: 30, country: 'Mauritius' },
	NI: { length: 28, country: 'Nicaragua' },
	NL: { length: 18, country: 'the Netherlands' },
	NO: { length: 15, country: 'Norway' },
	OM: { length: 23, country: 'Oman' },
	PK: { length: 24, country: 'Pakistan' },
	PL: { length: 28, country: 'Poland' },
	PS: { length: 29, country: 'Palestine' },
	PT: { length: 25, country: 'Portugal' },
	QA: { length: 29, country: 'Qatar' },
	RO: { length: 24, country: 'Romania' },
	RS: { length: 22, country: 'Serbia' },
	RU: { length: 33, country: 'Russia' },
	SA: { length: 24, country: 'Saudi Arabia' },
	SC: { length: 31, country: 'Seychelles' },
	SD: { length: 18, country: 'Sudan' },
	SE: { length: 24, country: 'Sweden' },
	SI: { length: 19, country: 'Slovenia' },
	SK: { length: 24, country: 'Slovakia' },
	SM: { length: 27, country: 'San Marino' },
	SO: { length: 23, country: 'Somalia' },
	ST: { length: 25, country: 'São Tomé and Príncipe' },
	SV: { length: 28, country: 'El Salvador' },
	TL: { length: 23, country: 'Timor-Leste' },
	TN: { length: 24, country: 'Tunisia' },
	TR: { length: 26, country: 'Türkiye' },
	UA: { length: 29, country: 'Ukraine' },
	VA: { length: 22, country: 'Vatican City' },
	VG: { length: 24, country: 'the British Virgin Islands' },
	XK: { length: 20, country: 'Kosovo' },
	YE: { length: 30, country: 'Yemen' },
};

// spaces as copied from invoices and PDFs: ordinary, non-breaking and narrow ones, tabs
const SPACES = /\s/g;
// sort codes are also written 04-00-04, sometimes with the en dash a word processor puts in
const SPACES_AND_DASHES = /[\s\p{Pd}]/gu;
// checked before upper-casing: "ß".toUpperCase() is "SS", which would pass as letters
const LETTERS_AND_DIGITS = /^[A-Za-z0-9]+$/;

// a pasted paragraph is shown by its start
const SHOWN_LENGTH = 40;

/** What was typed, quoted as the error shows it: trimmed, escaped, a long value shortened. */
function shown(typed: string): string {
	const characters = [...typed.trim()];
	const text =
		characters.length > SHOWN_LENGTH
			? `${characters.slice(0, SHOWN_LENGTH).join('')}…`
			: characters.join('');
	return JSON.stringify(text);
}

const refused = (typed: string, rule: string): BankCodeResult => ({
	ok: false,
	message: `${shown(typed)}: ${rule}`,
});

/** "this one has 21", and "without spaces" when the count is not what the eye counts. */
function counted(typed: string, compact: string, removed: string): string {
	return `this one has ${compact.length}${compact.length === typed.trim().length ? '' : ` without ${removed}`}`;
}

/**
 * ISO 7064 mod 97-10 over the IBAN with its first four characters moved to the end, letters as
 * 10-35; digit by digit, so no number grows past what a double holds exactly.
 */
function ibanRemainder(iban: string): number {
	const moved = iban.slice(4) + iban.slice(0, 4);
	let remainder = 0;
	for (const character of moved) {
		const value = parseInt(character, 36);
		remainder = (remainder * (value < 10 ? 10 : 100) + value) % 97;
	}
	return remainder;
}

// 98 minus a remainder is never 00, 01 or 99, though 00 and 97 (01 and 98, 99 and 02) pass mod-97 alike
const NEVER_ISSUED_CHECK_DIGITS = ['00', '01', '99'];

/** The IBAN check; `bounds` is the length of an IBAN of a country the registry table lacks. */
export function ibanCheck(bounds: { min: number; max: number }): BankCodeCheck {
	return (typed) => {
		const compact = typed.replace(SPACES, '');
		if (!LETTERS_AND_DIGITS.test(compact)) {
			return refused(
				typed,
				'an IBAN has only letters and digits (spaces are fine and are removed)',
			);
		}
		const iban = compact.toUpperCase();
		if (!/^[A-Z]{2}\d{2}/.test(iban)) {
			return refused(
				typed,
				'an IBAN starts with its 2-letter country code and 2 check digits (e.g. DE89)',
			);
		}
		const code = iban.slice(0, 2);
		const registered = Object.hasOwn(IBAN_LENGTHS, code) ? IBAN_LENGTHS[code] : undefined;
		const has = counted(typed, compact, 'spaces');
		if (registered !== undefined && iban.length !== registered.length) {
			return refused(
				typed,
				`an IBAN from ${registered.country} (${code}) has ${registered.length} characters, ${has}`,
			);
		}
		if (registered === undefined && (iban.length < bounds.min || iban.length > bounds.max)) {
			return refused(typed, `an IBAN has ${bounds.min}-${bounds.max} characters, ${has}`);
		}
		if (NEVER_ISSUED_CHECK_DIGITS.includes(iban.slice(2, 4)) || ibanRemainder(iban) !== 1) {
			return refused(
				typed,
				'the check digits are wrong (ISO 13616 mod-97); check for a typing mistake',
			);
		}
		return { ok: true, value: iban };
	};
}

/** ISO 9362: bank code (4 letters), country code (2 letters), location (2), branch (3, optional). */
export const checkBic: BankCodeCheck = (typed) => {
	const compact = typed.replace(SPACES, '');
	if (!LETTERS_AND_DIGITS.test(compact)) {
		return refused(typed, 'a BIC has only letters and digits (spaces are fine and are removed)');
	}
	if (compact.length !== 8 && compact.length !== 11) {
		return refused(typed, `a BIC has 8 or 11 characters, ${counted(typed, compact, 'spaces')}`);
	}
	const bic = compact.toUpperCase();
	if (!/^[A-Z]{4}/.test(bic)) return refused(typed, 'a BIC starts with a 4-letter bank code');
	if (!/^.{4}[A-Z]{2}/.test(bic)) {
		return refused(typed, 'characters 5 and 6 of a BIC are its 2-letter country code');
	}
	return { ok: true, value: bic };
};

/** A UK sort code: 6 digits, often written 04-00-04. */
export const checkSortCode: BankCodeCheck = (typed) => {
	const digits = typed.replace(SPACES_AND_DASHES, '');
	if (!/^\d+$/.test(digits)) {
		return refused(
			typed,
			'a sort code has only digits (dashes and spaces are fine and are removed)',
		);
	}
	if (digits.length !== 6) {
		return refused(
			typed,
			`a sort code has 6 digits, ${counted(typed, digits, 'dashes and spaces')}`,
		);
	}
	return { ok: true, value: digits };
};

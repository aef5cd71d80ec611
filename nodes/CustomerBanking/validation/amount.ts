/**
 * How the node reads an amount of money: Amount, Maximum Amount and Maximum Total, typed in the form
 * (text, as typed: the form never rounds or clamps money) or given by an expression or an input item
 * (a number, or text as spreadsheets give it). Major units with at most AMOUNT_DECIMALS decimals
 * (docs/bank-assumptions.md#amount-format). A value is taken exactly as written or refused with the rule:
 * never rounded, never read with a guess about separators.
 */
export const AMOUNT_DECIMALS = 2;

const MINOR_UNITS = 10 ** AMOUNT_DECIMALS;

/** Digits, optionally a dot and more digits: "125", "125.5", "125.50". */
const PLAIN_DECIMAL = /^\d+(?:\.\d+)?$/;

export const AMOUNT_RULES = {
	required: 'is required',
	notANumber: 'must be a number written with digits and a dot for decimals, e.g. 125.50',
	separators: 'must be written without thousands separators or spaces, e.g. 1000.50 (not 1,000.50)',
	decimals: `must have at most ${AMOUNT_DECIMALS} decimal places (it is never rounded)`,
	positive: 'must be greater than 0',
} as const;

export type AmountReading = { amount: number } | { problem: string };

/** The amount in minor units (cents): the one place amounts become whole numbers for comparing and adding. */
export function toMinorUnits(amount: number): number {
	return Math.round(amount * MINOR_UNITS);
}

function fromNumber(amount: number): AmountReading {
	const minor = toMinorUnits(amount);
	if (!Number.isFinite(amount) || !Number.isSafeInteger(minor))
		return { problem: AMOUNT_RULES.notANumber };
	// float noise from an expression (0.1 + 0.2) is the cent it means; a further decimal is refused
	if (Math.abs(amount * MINOR_UNITS - minor) > 1e-6) return { problem: AMOUNT_RULES.decimals };
	if (minor <= 0) return { problem: AMOUNT_RULES.positive };
	return { amount: minor / MINOR_UNITS };
}

function fromText(value: string): AmountReading {
	const text = value.trim();
	if (text === '') return { problem: AMOUNT_RULES.required };
	const unsigned = text.startsWith('-') || text.startsWith('+') ? text.slice(1).trim() : text;
	if (PLAIN_DECIMAL.test(unsigned)) {
		if (text.startsWith('-')) return { problem: AMOUNT_RULES.positive };
		// "10.120" is 10.12 exactly; "10.123" would need rounding
		const decimals = (unsigned.split('.')[1] ?? '').replace(/0+$/, '');
		if (decimals.length > AMOUNT_DECIMALS) return { problem: AMOUNT_RULES.decimals };
		return fromNumber(Number(unsigned));
	}
	// "1,000.50", "1.000,50", "1 000.50", "1'000.50": which mark is the decimal one is a guess, never made
	if (/^-?[\d.,' \u00a0\u202f]+$/.test(text) && /\d/.test(text))
		return { problem: AMOUNT_RULES.separators };
	return { problem: AMOUNT_RULES.notANumber };
}

/** An amount as given, or the rule it breaks. */
export function readAmount(value: unknown): AmountReading {
	if (value === undefined || value === null) return { problem: AMOUNT_RULES.required };
	if (typeof value === 'number') return fromNumber(value);
	if (typeof value === 'string') return fromText(value);
	return { problem: AMOUNT_RULES.notANumber };
}

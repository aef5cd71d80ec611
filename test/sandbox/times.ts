import type { BankVariants } from './variants';

/**
 * A time as this bank writes it (variant `recordTimes`): ISO 8601 in UTC, or as the spec writes times,
 * `YYYY-MM-DD HH:MM:SS` with no zone, in the bank's own zone (`bankUtcOffsetMinutes` from UTC).
 */
export function bankTime(variants: BankVariants, iso: string): string {
	if (variants.recordTimes === 'iso') return iso;
	const local = new Date(Date.parse(iso) + variants.bankUtcOffsetMinutes * 60_000);
	return local.toISOString().slice(0, 19).replace('T', ' ');
}

/** Amounts travel in major units (numbers, at most 2 decimals) and live in integer minor units. */
export function toMinor(amount: unknown): number | undefined {
	if (typeof amount !== 'number' || !Number.isFinite(amount)) return undefined;
	const minor = Math.round(amount * 100);
	// reject 10.001 but accept float noise such as 0.1 + 0.2
	if (Math.abs(minor - amount * 100) > 1e-6 || !Number.isSafeInteger(minor)) return undefined;
	return minor;
}

export function toMajor(minor: number): number {
	return minor / 100;
}

/** Random secrets for property tests (fast-check). */
import fc from 'fast-check';

/** Secrets as a bank issues them: base64-ish with "/", "+" and "=", now and then other characters. */
export const secretArbitrary = fc.string({
	unit: fc.oneof(
		{
			weight: 20,
			arbitrary: fc.constantFrom(
				...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
			),
		},
		{ weight: 4, arbitrary: fc.constantFrom('/', '+', '=', '-', '_', '.') },
		{ weight: 1, arbitrary: fc.constantFrom('&', '%', '"', '\\', ' ', '<', ':', 'é', '€', '😀') },
	),
	minLength: 12,
	maxLength: 48,
});

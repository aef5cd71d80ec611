import { isPlainObject, nonEmptyText, objectOf, ownValue } from '../../../nodes/shared/records';

describe('records: reading values of unknown shape', () => {
	it.each<[string, unknown, boolean]>([
		['a record', { a: 1 }, true],
		['an empty record', {}, true],
		['an array', [1], false],
		['null', null, false],
		['text', 'x', false],
		['a number', 1, false],
		['undefined', undefined, false],
	])('isPlainObject: %s → %p', (_name, value, expected) => {
		expect(isPlainObject(value)).toBe(expected);
		expect(objectOf(value)).toEqual(expected ? value : {});
	});

	it('ownValue reads only the value’s own keys, never inherited members', () => {
		const record = { amount: 10, missing: undefined };
		expect(ownValue(record, 'amount')).toBe(10);
		expect(ownValue(record, 'missing')).toBeUndefined();
		expect(ownValue(record, 'constructor')).toBeUndefined();
		expect(ownValue(record, 'toString')).toBeUndefined();
		expect(ownValue(Object.create({ inherited: 1 }) as object, 'inherited')).toBeUndefined();
	});

	it.each<[unknown, string | undefined]>([
		['INV-1', 'INV-1'],
		[' ', ' '],
		['', undefined],
		[0, undefined],
		[null, undefined],
		[['x'], undefined],
	])('nonEmptyText(%p) → %p', (value, expected) => {
		expect(nonEmptyText(value)).toBe(expected);
	});
});

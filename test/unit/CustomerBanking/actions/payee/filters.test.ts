/** The Filters of Payee › Get Many, with a fake context: Name Contains in the name or display name, checked before any request. */
import type { IExecuteFunctions } from 'n8n-workflow';

import { readPayeeFilters } from '../../../../../nodes/CustomerBanking/actions/payee/filters';

const contextWith = (filters: unknown) =>
	({
		getNode: () => ({ name: 'Customer Banking' }),
		getNodeParameter: () => filters,
	}) as unknown as IExecuteFunctions;

describe('readPayeeFilters', () => {
	it('no filter: no test', () => {
		expect(readPayeeFilters.call(contextWith({}), 0)).toBeUndefined();
	});

	it('Name Contains: in the name or display name, case aside; a payee without either is left out', () => {
		const test = readPayeeFilters.call(contextWith({ nameContains: ' TIMBER ' }), 0);
		const payees = [
			{ xpid: 'a', name: 'Acme Timber Ltd' },
			{ xpid: 'b', name: 'Acme', displayName: 'timber yard' },
			{ xpid: 'c', name: 'Other' },
			{ xpid: 'd' },
			{ xpid: 'e', name: 42 },
		];
		expect(payees.filter((payee) => test?.(payee)).map((payee) => payee.xpid)).toEqual(['a', 'b']);
	});

	it.each<[unknown, RegExp]>([
		['text', /^Filters › must be a set of filters \(item 3\)$/],
		[null, /must be a set of filters/],
		[{ nameContains: '  ' }, /^Filters › Name Contains: enter some text or remove the filter/],
		[{ nameContains: 7 }, /Name Contains: enter some text/],
	])('%j is refused before any request', (filters, message) => {
		expect(() => readPayeeFilters.call(contextWith(filters), 3)).toThrow(message);
	});
});

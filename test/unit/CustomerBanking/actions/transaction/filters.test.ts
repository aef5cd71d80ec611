/**
 * The Filters of Transaction › Get Many as one test of a record, with a fake context: checked before
 * any request, a record without the filtered field left out, creation times read as UTC when they
 * carry no zone, the user's times in the workflow's time zone.
 */
import { DateTime } from 'luxon';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	createdTimeOf,
	readTransactionFilters,
} from '../../../../../nodes/CustomerBanking/actions/transaction/filters';

function contextWith(filters: unknown, timezone = 'UTC'): IExecuteFunctions {
	return {
		getNode: () => ({ name: 'Customer Banking' }),
		getNodeParameter: () => filters,
		getTimezone: () => timezone,
	} as unknown as IExecuteFunctions;
}

const keep = (filters: IDataObject, records: IDataObject[], timezone?: string) => {
	const test = readTransactionFilters.call(contextWith(filters, timezone), 0);
	if (!test) throw new Error('expected a filter');
	return records.filter(test).map((record) => record.xtid);
};

describe('readTransactionFilters', () => {
	it('no filter set: no test', () => {
		expect(readTransactionFilters.call(contextWith({}), 0)).toBeUndefined();
	});

	it('direction: as written, upper and lower case alike; without one, left out', () => {
		expect(
			keep({ direction: 'incoming' }, [
				{ xtid: 'a', direction: 'INCOMING' },
				{ xtid: 'b', direction: 'outgoing' },
				{ xtid: 'c' },
			]),
		).toEqual(['a']);
	});

	it('status: several separated by commas', () => {
		expect(
			keep({ status: ' Settled, failed ' }, [
				{ xtid: 'a', status: 'SETTLED' },
				{ xtid: 'b', status: 'failed' },
				{ xtid: 'c', status: 'pending' },
				{ xtid: 'd' },
			]),
		).toEqual(['a', 'b']);
	});

	it('created: at or after, and before; a record without a readable time is left out', () => {
		const records = [
			{ xtid: 'a', created: '2026-01-01T00:00:00Z' },
			{ xtid: 'b', created: '2026-01-15 12:00:00' },
			{ xtid: 'c', created: '2026-02-01T00:00:00Z' },
			{ xtid: 'd', created: 'yesterday' },
			{ xtid: 'e' },
		];
		expect(
			keep({ createdAfter: '2026-01-01T00:00:00', createdBefore: '2026-02-01T00:00:00' }, records),
		).toEqual(['a', 'b']);
	});

	it("the user's time is in the workflow's time zone unless it names one; a date object is taken as it is", () => {
		const records = [{ xtid: 'a', created: '2026-01-01T09:30:00Z' }];
		// 10:00 in Berlin is 09:00 UTC
		expect(keep({ createdAfter: '2026-01-01T10:00:00' }, records, 'Europe/Berlin')).toEqual(['a']);
		expect(keep({ createdAfter: '2026-01-01T10:00:00' }, records, 'UTC')).toEqual([]);
		expect(keep({ createdAfter: DateTime.fromISO('2026-01-01T09:00:00Z') }, records)).toEqual([
			'a',
		]);
		expect(keep({ createdAfter: new Date('2026-01-01T10:00:00Z') }, records)).toEqual([]);
	});

	it.each<[unknown, RegExp]>([
		['not a set', /^Filters: must be a set of filters \(item 0\)$/],
		[[], /^Filters: must be a set of filters/],
		[{ direction: 'sideways' }, /^Filters › Direction: must be one of incoming, outgoing/],
		[{ status: ' , ' }, /^Filters › Status: enter a status or remove the filter/],
		[{ createdAfter: 'soon' }, /^Filters › Created After: must be a date and time/],
		[
			{ createdAfter: '2026-02-01T00:00:00', createdBefore: '2026-01-01T00:00:00' },
			/^Filters › Created After: must be earlier than Created Before/,
		],
		[
			{ createdAfter: '2026-01-01T00:00:00', createdBefore: '2026-01-01T00:00:00' },
			/must be earlier than Created Before/,
		],
	])('%j is refused before any request', (filters, message) => {
		expect(() => readTransactionFilters.call(contextWith(filters), 0)).toThrow(message);
	});
});

describe('createdTimeOf', () => {
	it.each<[unknown, number | undefined]>([
		['2026-01-01T00:00:00Z', Date.UTC(2026, 0, 1)],
		['2026-01-01T01:00:00+01:00', Date.UTC(2026, 0, 1)],
		// without a zone: UTC
		['2026-01-01T00:00:00', Date.UTC(2026, 0, 1)],
		['2026-01-01 00:00:00', Date.UTC(2026, 0, 1)],
		['01/01/2026', undefined],
		[1767225600000, undefined],
		[undefined, undefined],
	])('%j → %s', (created, time) => {
		expect(createdTimeOf({ created } as IDataObject)).toBe(time);
	});
});

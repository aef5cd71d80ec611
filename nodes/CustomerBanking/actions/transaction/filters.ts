import { DateTime } from 'luxon';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { byDisplayName } from '../common.descriptions';

// spec §Endpoints: lists take only page and limit, so these filters are applied by the node to each
// page it reads; spec §Transaction: the fields are not shown, so a record without the filtered field
// is left out, as the descriptions say
const DIRECTIONS = ['incoming', 'outgoing'] as const;

export const transactionFilters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: byDisplayName([
		{
			displayName: 'Direction',
			name: 'direction',
			type: 'options',
			default: 'incoming',
			options: [
				{ name: 'Incoming', value: 'incoming', description: 'Money received' },
				{ name: 'Outgoing', value: 'outgoing', description: 'Money sent' },
			],
			description:
				'Only transactions in this direction. A transaction the bank shows without a direction is left out.',
		},
		{
			displayName: 'Status',
			name: 'status',
			type: 'string',
			default: '',
			placeholder: 'e.g. settled',
			description:
				'Only transactions with this status as the bank writes it (upper and lower case alike); several separated by commas. A transaction the bank shows without a status is left out.',
		},
		{
			displayName: 'Created After',
			name: 'createdAfter',
			type: 'dateTime',
			default: '',
			description:
				'Only transactions created at or after this time. A transaction the bank shows without a creation time (not every bank does) is left out; a creation time without a time zone is read as UTC.',
		},
		{
			displayName: 'Created Before',
			name: 'createdBefore',
			type: 'dateTime',
			default: '',
			description:
				'Only transactions created before this time. A transaction the bank shows without a creation time (not every bank does) is left out; a creation time without a time zone is read as UTC.',
		},
	]),
};

const LABELS = {
	direction: 'Direction',
	status: 'Status',
	createdAfter: 'Created After',
	createdBefore: 'Created Before',
} as const;

function invalidFilter(
	this: IExecuteFunctions,
	itemIndex: number,
	field: keyof typeof LABELS,
	rule: string,
	got: unknown,
) {
	return new NodeOperationError(
		this.getNode(),
		`Filters › ${LABELS[field]}: ${rule} (item ${itemIndex})`,
		{
			itemIndex,
			description: `Got ${JSON.stringify(got) ?? String(got)}. Nothing was sent.`,
		},
	);
}

/** A time the user gave: text in n8n's date and time format (the workflow's time zone unless it names one), or a date object. */
function userTime(
	this: IExecuteFunctions,
	itemIndex: number,
	field: 'createdAfter' | 'createdBefore',
	value: unknown,
): number {
	let time: DateTime | undefined;
	if (DateTime.isDateTime(value)) time = value;
	else if (value instanceof Date) time = DateTime.fromJSDate(value);
	else if (typeof value === 'string' && value.trim() !== '') {
		time = DateTime.fromISO(value.trim(), { zone: this.getTimezone() });
	}
	if (!time?.isValid) {
		throw invalidFilter.call(
			this,
			itemIndex,
			field,
			'must be a date and time, e.g. 2026-01-31T17:00:00',
			value,
		);
	}
	return time.toMillis();
}

/** The record's creation time, when it has one the node can read (ISO 8601, or "YYYY-MM-DD HH:MM:SS"). */
export function createdTimeOf(record: IDataObject): number | undefined {
	const created = record.created;
	if (typeof created !== 'string') return undefined;
	const iso = DateTime.fromISO(created, { zone: 'utc' });
	const time = iso.isValid ? iso : DateTime.fromSQL(created, { zone: 'utc' });
	return time.isValid ? time.toMillis() : undefined;
}

function lowerCased(value: unknown): string | undefined {
	return typeof value === 'string' ? value.trim().toLowerCase() : undefined;
}

type RecordTest = (record: IDataObject) => boolean;

function readFiltersObject(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const raw: unknown = this.getNodeParameter('filters', itemIndex, {});
	if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
		throw new NodeOperationError(
			this.getNode(),
			`Filters: must be a set of filters (item ${itemIndex})`,
			{ itemIndex },
		);
	}
	return raw as IDataObject;
}

function directionTest(this: IExecuteFunctions, itemIndex: number, direction: unknown): RecordTest {
	if (!DIRECTIONS.includes(direction as (typeof DIRECTIONS)[number])) {
		throw invalidFilter.call(
			this,
			itemIndex,
			'direction',
			`must be one of ${DIRECTIONS.join(', ')}`,
			direction,
		);
	}
	return (record) => lowerCased(record.direction) === direction;
}

function statusTest(this: IExecuteFunctions, itemIndex: number, status: unknown): RecordTest {
	const statuses =
		typeof status === 'string'
			? status
					.split(',')
					.map((one) => one.trim().toLowerCase())
					.filter(Boolean)
			: [];
	if (statuses.length === 0)
		throw invalidFilter.call(
			this,
			itemIndex,
			'status',
			'enter a status or remove the filter',
			status,
		);
	return (record) => statuses.includes(lowerCased(record.status) ?? '');
}

/** Created After and Created Before, checked together: the window must not be empty. */
function createdTests(
	this: IExecuteFunctions,
	itemIndex: number,
	filters: IDataObject,
): RecordTest[] {
	const after =
		filters.createdAfter !== undefined
			? userTime.call(this, itemIndex, 'createdAfter', filters.createdAfter)
			: undefined;
	const before =
		filters.createdBefore !== undefined
			? userTime.call(this, itemIndex, 'createdBefore', filters.createdBefore)
			: undefined;
	if (after !== undefined && before !== undefined && after >= before) {
		throw invalidFilter.call(
			this,
			itemIndex,
			'createdAfter',
			'must be earlier than Created Before',
			filters.createdAfter,
		);
	}
	const tests: RecordTest[] = [];
	if (after !== undefined) tests.push((record) => (createdTimeOf(record) ?? -Infinity) >= after);
	if (before !== undefined) tests.push((record) => (createdTimeOf(record) ?? Infinity) < before);
	return tests;
}

/**
 * The Filters of Transaction › Get Many as one test of a record, checked before any request; undefined
 * when no filter is set.
 */
export function readTransactionFilters(
	this: IExecuteFunctions,
	itemIndex: number,
): RecordTest | undefined {
	const filters = readFiltersObject.call(this, itemIndex);
	const tests: RecordTest[] = [];
	if (filters.direction !== undefined) {
		tests.push(directionTest.call(this, itemIndex, filters.direction));
	}
	if (filters.status !== undefined) tests.push(statusTest.call(this, itemIndex, filters.status));
	tests.push(...createdTests.call(this, itemIndex, filters));

	if (tests.length === 0) return undefined;
	return (record) => tests.every((test) => test(record));
}

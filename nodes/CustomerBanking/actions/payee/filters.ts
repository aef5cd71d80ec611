import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

// spec §Endpoints: payee lists take only page and limit, so the node applies the filter to each page it reads
export const payeeFilters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{
			displayName: 'Name Contains',
			name: 'nameContains',
			type: 'string',
			default: '',
			placeholder: 'e.g. timber',
			description:
				'Only payees whose name or display name contains this text (upper and lower case alike). A payee the bank shows without either is left out.',
		},
	],
};

function invalidFilter(this: IExecuteFunctions, itemIndex: number, rule: string, got: unknown) {
	return new NodeOperationError(this.getNode(), `Filters › ${rule} (item ${itemIndex})`, {
		itemIndex,
		description: `Got ${JSON.stringify(got) ?? String(got)}. Nothing was sent.`,
	});
}

function contains(value: unknown, text: string): boolean {
	return typeof value === 'string' && value.toLowerCase().includes(text);
}

/** The Filters of Payee › Get Many as one test of a record, checked before any request; undefined when none is set. */
export function readPayeeFilters(
	this: IExecuteFunctions,
	itemIndex: number,
): ((payee: IDataObject) => boolean) | undefined {
	const raw: unknown = this.getNodeParameter('filters', itemIndex, {});
	if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
		throw invalidFilter.call(this, itemIndex, 'must be a set of filters', raw);
	}
	const filters = raw as IDataObject;
	if (filters.nameContains === undefined) return undefined;
	const text =
		typeof filters.nameContains === 'string' ? filters.nameContains.trim().toLowerCase() : '';
	if (text === '')
		throw invalidFilter.call(
			this,
			itemIndex,
			'Name Contains: enter some text or remove the filter',
			filters.nameContains,
		);
	return (payee) => contains(payee.name, text) || contains(payee.displayName, text);
}

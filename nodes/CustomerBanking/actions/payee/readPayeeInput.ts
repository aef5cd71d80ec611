import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readGroup } from '../../validation/inputObjects';
import {
	BANK_DETAILS_FORMAT_NAMES,
	bankDetailsFormat,
	REQUIRED_ON_CREATE,
} from '../../validation/payee.fields';
import { getOption } from '../parameters';
import { PAYEE_COLLECTIONS, payeeCollectionLabel } from './payeeForm';

// the error lists them alphabetically
const FORMATS = [...BANK_DETAILS_FORMAT_NAMES].sort();

/** Empty fields are left out (never sent as ""), so an update leaves them as stored. */
function addField(body: IDataObject, field: string, value: unknown): void {
	if (value === undefined || value === null || value === '') return;
	// expressions may hand over numbers (e.g. an account number from a sheet); the rules judge the text
	body[field] = typeof value === 'number' ? String(value) : (value as IDataObject[string]);
}

/** The payee body as the user filled in the form: top-level fields (create, upsert) and the groups. */
export function readPayeeInput(
	this: IExecuteFunctions,
	itemIndex: number,
	form: 'create' | 'update',
): IDataObject {
	const body: IDataObject = {};
	if (form === 'create') {
		const format = (getOption<(typeof FORMATS)[number]>).call(
			this,
			'bankDetailsFormat',
			itemIndex,
			'gbp',
			FORMATS,
			'Bank Details Format',
		);
		const topLevel = [...REQUIRED_ON_CREATE, ...bankDetailsFormat(format).required];
		for (const field of topLevel)
			addField(body, field, this.getNodeParameter(field, itemIndex, ''));
	}
	for (const collection of PAYEE_COLLECTIONS) {
		// null is an empty group; anything else that is not a group of fields, or a key such as
		// "__proto__" (which would replace the body's prototype), is refused before any request
		const group = readGroup(this.getNodeParameter(collection, itemIndex, {}));
		if (!group.ok) {
			const label = payeeCollectionLabel(collection, form);
			throw new NodeOperationError(
				this.getNode(),
				`Invalid payee in item ${itemIndex}: ${label} (${collection}) ${group.rule}`,
				{ itemIndex, description: `${label} (${collection}) ${group.rule}. Nothing was sent.` },
			);
		}
		for (const [field, value] of Object.entries(group.values)) {
			// a top-level value wins over the same field left in a group
			if (!Object.hasOwn(body, field)) addField(body, field, value);
		}
	}
	return body;
}

import type { INodeProperties } from 'n8n-workflow';

import * as create from '../../../../../nodes/CustomerBanking/actions/payee/create.operation';
import * as update from '../../../../../nodes/CustomerBanking/actions/payee/update.operation';
import * as upsert from '../../../../../nodes/CustomerBanking/actions/payee/upsert.operation';
import {
	PAYEE_FIELD_LABELS,
	type PayeeField,
} from '../../../../../nodes/CustomerBanking/validation/payee.fields';

const BODY_FIELDS = Object.keys(PAYEE_FIELD_LABELS).filter(
	(field) => field !== 'xpid',
) as PayeeField[];
const COLLECTIONS = ['identity', 'contact', 'address', 'bankDetails', 'intermediaryBank'];

/** Every payee body field the form of an operation offers: top level and inside its groups. */
function formFields(description: INodeProperties[]): INodeProperties[] {
	return description.flatMap((property) =>
		COLLECTIONS.includes(property.name)
			? ((property.options ?? []) as INodeProperties[])
			: BODY_FIELDS.includes(property.name as PayeeField)
				? [property]
				: [],
	);
}

describe('payee forms', () => {
	it.each([
		['create', create.description],
		['update', update.description],
		['upsert', upsert.description],
	])(
		'%s offers every payee field of the spec, labelled as the errors name it',
		(_operation, description) => {
			const fields = formFields(description);
			expect([...new Set(fields.map((field) => field.name))].sort()).toEqual(
				[...BODY_FIELDS].sort(),
			);
			for (const field of fields) {
				expect([field.name, field.displayName]).toEqual([
					field.name,
					PAYEE_FIELD_LABELS[field.name as PayeeField],
				]);
			}
		},
	);

	it('create: the fields required for create are required top-level parameters; upsert shows them but leaves them optional', () => {
		const required = [
			'name',
			'reference',
			'purpose',
			'purposeCategory',
			'addressLine1',
			'townCity',
			'postCode',
			'countryCode',
		];
		const topLevel = (description: INodeProperties[]) =>
			description.filter((property) => required.includes(property.name));
		expect(
			topLevel(create.description).map((property) => [property.name, property.required]),
		).toEqual(required.map((name) => [name, true]));
		expect(
			topLevel(upsert.description).map((property) => [property.name, property.required]),
		).toEqual(required.map((name) => [name, false]));
	});

	it.each(['iban', 'bic', 'intermediaryBic', 'sortCode'])(
		'%s: the form says it may be typed with spaces, which are removed',
		(name) => {
			for (const description of [create.description, update.description, upsert.description]) {
				for (const field of formFields(description).filter((field) => field.name === name)) {
					expect(field.description).toMatch(/spaces are fine and are removed|spaces are removed/);
				}
			}
		},
	);

	it('iban: the form says it is checked as banks check it', () => {
		const [iban] = formFields(create.description).filter((field) => field.name === 'iban');
		expect(iban.description).toContain(
			'checked as banks check them: the length for its country and the check digits',
		);
	});

	it('create: the bank fields a currency needs are shown top level for the chosen format', () => {
		const shownFor = (format: string) =>
			create.description
				.filter((property) =>
					(property.displayOptions?.show?.bankDetailsFormat as string[] | undefined)?.includes(
						format,
					),
				)
				.map((property) => property.name)
				.sort();
		expect(shownFor('gbp')).toEqual(['accountNumber', 'sortCode']);
		expect(shownFor('iban')).toEqual(['bic', 'iban']);
		expect(shownFor('usd')).toEqual(['aba', 'accountNumber']);
		expect(shownFor('cad')).toEqual(['accountNumber', 'institutionNumber', 'transitNumber']);
	});
});

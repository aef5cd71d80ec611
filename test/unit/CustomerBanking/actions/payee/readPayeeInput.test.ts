/**
 * The payee body as the form gives it, with a fake context: empty fields left out, numbers as text, a
 * top-level value winning over the same field in a group, and a group that is not a group of fields
 * (or holds "__proto__") refused before any request.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readPayeeInput } from '../../../../../nodes/CustomerBanking/actions/payee/readPayeeInput';
import { PAYEE_COLLECTIONS } from '../../../../../nodes/CustomerBanking/actions/payee/payeeForm';

function contextWith(parameters: Record<string, unknown>): IExecuteFunctions {
	return {
		getNode: () => ({ name: 'Customer Banking' }),
		getNodeParameter: (name: string, _itemIndex: number, fallback: unknown) =>
			Object.hasOwn(parameters, name) ? parameters[name] : fallback,
	} as unknown as IExecuteFunctions;
}

const [firstGroup] = PAYEE_COLLECTIONS;

describe('readPayeeInput', () => {
	it('create: the top-level fields of the format chosen, empty ones left out, numbers as text', () => {
		const body = readPayeeInput.call(
			contextWith({
				bankDetailsFormat: 'gbp',
				name: 'Acme Ltd',
				sortCode: '040004',
				accountNumber: 12345678,
				reference: '',
			}),
			0,
			'create',
		);
		expect(body).toMatchObject({ name: 'Acme Ltd', sortCode: '040004', accountNumber: '12345678' });
		expect(body).not.toHaveProperty('reference');
	});

	it('a top-level value wins over the same field left in a group', () => {
		const body = readPayeeInput.call(
			contextWith({
				bankDetailsFormat: 'gbp',
				name: 'Top',
				[firstGroup]: { name: 'In group', townCity: 'London' },
			}),
			0,
			'create',
		);
		expect(body).toMatchObject({ name: 'Top', townCity: 'London' });
	});

	it('update: only the groups are read', () => {
		const body = readPayeeInput.call(
			contextWith({ name: 'Ignored', [firstGroup]: { townCity: 'Leeds', postCode: null } }),
			0,
			'update',
		);
		expect(body).toEqual({ townCity: 'Leeds' });
	});

	it.each<[string, unknown]>([
		['a text', 'name=Acme'],
		['a list', [{ name: 'Acme' }]],
		['a "__proto__" key', JSON.parse('{"__proto__": {"polluted": true}}') as unknown],
	])('a group that is %s is refused, naming the item and the group', (_case, group) => {
		expect(() => readPayeeInput.call(contextWith({ [firstGroup]: group }), 5, 'update')).toThrow(
			new RegExp(`^Invalid payee in item 5: .*\\(${firstGroup}\\)`),
		);
		expect(({} as IDataObject).polluted).toBeUndefined();
	});

	it('a Bank Details Format not offered is refused', () => {
		expect(() =>
			readPayeeInput.call(contextWith({ bankDetailsFormat: 'constructor' }), 0, 'create'),
		).toThrow(/Bank Details Format: must be one of/);
	});
});

/**
 * The payee and payment forms are generated from the field tables (validation/payee.fields.ts,
 * validation/payment.fields.ts). The editor and saved workflows depend on every parameter's name,
 * display name, displayOptions and order, so the generated properties must equal the reviewed form
 * in fixtures/payeePaymentProperties.json, but for the wording listed here.
 */
import type { INodeProperties } from 'n8n-workflow';

import { CustomerBanking } from '../../../nodes/CustomerBanking/CustomerBanking.node';
import before from './fixtures/payeePaymentProperties.json';

const PAYMENT_FIELDS = ['account', 'payee', 'amount', 'reference', 'additionalFields'];

const properties = new CustomerBanking().description.properties;
const ofResource = (resource: string) =>
	properties.filter((property) =>
		(property.displayOptions?.show?.resource as string[] | undefined)?.includes(resource),
	);

/** The descriptions whose wording now comes from the rule they state (the meaning is the same). */
const REWORDED: Record<string, [string, string]> = {
	// the schema's words for the IBAN rules of spec §Bank details required by currency
	accountNumber: ['and whenever no IBAN is given.', 'and when no IBAN is given.'],
	bic: ['Required with an IBAN.', 'Required when an IBAN is given.'],
};

function reworded(list: INodeProperties[]): INodeProperties[] {
	return list.map((property) => {
		const options = property.options?.every((option) => 'displayName' in option)
			? { options: reworded(property.options as INodeProperties[]) }
			: {};
		const change = REWORDED[property.name];
		const description =
			change && property.description !== undefined
				? { description: property.description.replace(...change) }
				: {};
		return { ...property, ...options, ...description };
	});
}

/**
 * Parameters added after the form was reviewed (issue 22: Simplify and Filters; issue 38: Simplify on
 * every operation that returns a payee), by operation.
 */
const ADDED: Record<string, string[]> = {
	create: ['simplify'],
	get: ['simplify'],
	getMany: ['simplify', 'filters'],
	update: ['simplify'],
	upsert: ['simplify'],
};
const isAdded = (property: INodeProperties) =>
	((property.displayOptions?.show?.operation as string[] | undefined) ?? []).some((operation) =>
		ADDED[operation]?.includes(property.name),
	);

describe('generated forms equal the hand-written ones', () => {
	it('payee: every operation, parameter by parameter', () => {
		expect(ofResource('payee').filter((property) => !isAdded(property))).toEqual(
			reworded(before.payee as INodeProperties[]),
		);
	});

	it('payee: the added parameters are the last ones of their operation, in the order listed', () => {
		for (const [operation, names] of Object.entries(ADDED)) {
			const ofOperation = ofResource('payee').filter((property) =>
				(property.displayOptions?.show?.operation as string[] | undefined)?.includes(operation),
			);
			expect(ofOperation.slice(-names.length).map((property) => property.name)).toEqual(names);
			expect(ofOperation.filter(isAdded)).toHaveLength(names.length);
		}
	});

	it('payment: the payment fields of Submit and Submit Batch, shown when they are mapped one by one', () => {
		const paysOut = (operations: unknown) =>
			Array.isArray(operations) && !operations.includes('getStatus');
		const fields = ofResource('payment').filter(
			(property) =>
				paysOut(property.displayOptions?.show?.operation) && PAYMENT_FIELDS.includes(property.name),
		);
		// "Mapping" (issue 22) adds one condition; its default shows the fields, so saved workflows keep them
		const withoutMapping = fields.map((property) => {
			const { mappingMode, ...show } = property.displayOptions?.show ?? {};
			expect(mappingMode).toEqual(['defineBelow']);
			return { ...property, displayOptions: { ...property.displayOptions, show } };
		});
		expect(withoutMapping).toEqual(before.payment);
		expect(ofResource('payment').find((property) => property.name === 'mappingMode')?.default).toBe(
			'defineBelow',
		);
	});

	it('the rewording changes only the descriptions listed', () => {
		const changed =
			JSON.stringify(reworded(before.payee as INodeProperties[])) !== JSON.stringify(before.payee);
		expect(changed).toBe(true);
		for (const [field, [from]] of Object.entries(REWORDED)) {
			expect(JSON.stringify(before.payee)).toContain(from);
			expect(
				JSON.stringify(ofResource('payee').filter((property) => property.name === field)),
			).not.toContain(from);
		}
	});
});

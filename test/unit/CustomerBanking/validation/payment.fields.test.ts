/**
 * The payment field table: which fields the node sets itself (Additional Body Fields may not override
 * them), which input fields Map Automatically reads, and the parameter each field is read from.
 */
import {
	FIELDS_THE_NODE_SETS,
	INPUT_FIELD_NAMES,
	PAYMENT_FIELD_NAMES,
	PAYMENT_GROUP,
	paymentField,
} from '../../../../nodes/CustomerBanking/validation/payment.fields';

describe('the payment fields', () => {
	it('the node sets every body field but the Additional Body Fields', () => {
		expect(FIELDS_THE_NODE_SETS).toEqual(
			expect.arrayContaining(['xaid', 'xpid', 'amount', 'currency', 'reference', 'description']),
		);
		expect(FIELDS_THE_NODE_SETS).toHaveLength(PAYMENT_FIELD_NAMES.length - 1);
		const [bodyFields] = PAYMENT_FIELD_NAMES.filter(
			(field) => !FIELDS_THE_NODE_SETS.includes(field),
		);
		expect(paymentField(bodyFields).rule.kind).toBe('bodyFields');
	});

	it('Map Automatically reads every field the node sets, under a name of its own', () => {
		expect(Object.keys(INPUT_FIELD_NAMES).sort()).toEqual([...FIELDS_THE_NODE_SETS].sort());
		expect(new Set(Object.values(INPUT_FIELD_NAMES)).size).toBe(FIELDS_THE_NODE_SETS.length);
	});

	it('account and payee are read from their pickers; optional fields sit in the Additional Fields group', () => {
		expect(paymentField('xaid')).toMatchObject({ parameter: 'account' });
		expect(paymentField('xaid').inGroup).toBeUndefined();
		expect(paymentField('xpid')).toMatchObject({ parameter: 'payee' });
		expect(paymentField('xpid').inGroup).toBeUndefined();
		expect(paymentField('amount').inGroup).toBeUndefined();
		expect(paymentField('description').inGroup).toBe(true);
		expect(PAYMENT_GROUP).toEqual({ name: 'additionalFields', label: 'Additional Fields' });
	});
});

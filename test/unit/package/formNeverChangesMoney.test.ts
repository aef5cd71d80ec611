/**
 * n8n's editor rounds a number field to its `numberPrecision` and clamps it to `minValue`/`maxValue`
 * before the node sees it (../shared/notes/editor-and-verification.md): typed 10.123 became 10.12, -50
 * became 50.00, and that was paid. So no field that holds money may be a number field, and every number
 * field left is listed here with why its coercion cannot change what is paid.
 */
import type { INodeProperties } from 'n8n-workflow';

import { CustomerBanking } from '../../../nodes/CustomerBanking/CustomerBanking.node';
import { CustomerBankingApprovalTrigger } from '../../../nodes/CustomerBankingApprovalTrigger/CustomerBankingApprovalTrigger.node';
import { CustomerBankingTrigger } from '../../../nodes/CustomerBankingTrigger/CustomerBankingTrigger.node';

/** Every parameter, also those inside collections, with the node it belongs to. */
function parametersOf(list: INodeProperties[], node: string): Array<[string, INodeProperties]> {
	return list.flatMap((property) => [
		[node, property] as [string, INodeProperties],
		...(property.options?.every((option) => 'type' in option)
			? parametersOf(property.options as INodeProperties[], node)
			: []),
	]);
}

const all = [
	...parametersOf(new CustomerBanking().description.properties, 'Customer Banking'),
	...parametersOf(new CustomerBankingTrigger().description.properties, 'Trigger'),
	...parametersOf(new CustomerBankingApprovalTrigger().description.properties, 'Approval Trigger'),
];

const MONEY = ['amount', 'maxAmount', 'maxTotal'];

/** Number fields whose rounding or clamping by the editor cannot change any amount paid. */
const NUMBER_FIELDS_REVIEWED: Record<string, string> = {
	// clamped to 1-100: only changes how payments are grouped; the node also refuses a fraction
	batchSize: 'grouping only',
	// clamped to at least 1: how many records a read returns
	limit: 'records read',
	// clamped to 1-1000: how many executions the webhook trigger runs at once
	maxRunningExecutions: 'concurrency',
	// clamped to 1-900: a tighter or the spec-safe widest replay window
	toleranceSeconds: 'replay window',
	// clamped to 0-36500: how far back Skip Payments Already Made reads; the node refuses a fraction
	lookBackDays: 'look-up reach',
};

describe('the form never changes money', () => {
	it.each(MONEY)('%s is a text field read as typed (no rounding, no clamping)', (name) => {
		const fields = all.filter(([, property]) => property.name === name);
		expect(fields.length).toBeGreaterThan(0);
		for (const [, property] of fields) {
			expect(property.type).toBe('string');
			expect(property.typeOptions).toBeUndefined();
		}
	});

	it('every number field is one whose coercion cannot change an amount', () => {
		const numberFields = all
			.filter(([, property]) => property.type === 'number')
			.map(([, property]) => property.name);
		expect(numberFields.length).toBeGreaterThan(0);
		for (const name of numberFields) expect(Object.keys(NUMBER_FIELDS_REVIEWED)).toContain(name);
		for (const name of numberFields) expect(MONEY).not.toContain(name);
	});
});

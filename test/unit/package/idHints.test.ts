/**
 * Fields that take IDs say so, and where the IDs are: a newcomer's first payment from a spreadsheet
 * usually has account and payee names in it.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { CustomerBanking } from '../../../nodes/CustomerBanking/CustomerBanking.node';
import {
	formatIssues,
	validatePayment,
} from '../../../nodes/CustomerBanking/validation/payment.schema';

const properties = new CustomerBanking().description.properties;
const named = (name: string) =>
	properties.find((property) => property.name === name) as INodeProperties;

const WHERE_IDS_ARE = /Account → Get Many and Payee → Get Many list them/;

describe('Map Automatically says which fields take IDs and where to find them', () => {
	it('the notice under Mapping', () => {
		const notice = named('autoMapNotice').displayName;
		expect(notice).toContain(
			"Each input item must have the fields 'accountId', 'payeeId', 'amount', 'reference'",
		);
		expect(notice).toContain("'accountId' and 'payeeId' take IDs, not names");
		expect(notice).toMatch(WHERE_IDS_ARE);
		expect(notice).toContain(
			'pick one in the Source Account or Payee list of Map Each Field Below and switch it to By ID',
		);
	});

	it('the Map Automatically option', () => {
		const option = (named('mappingMode').options as INodePropertyOptions[]).find(
			(entry) => entry.name === 'Map Automatically',
		);
		expect(option?.description).toContain("'accountId' and 'payeeId' hold IDs, not names");
		expect(option?.description).toMatch(/Account → Get Many and Payee → Get Many list them/);
	});
});

describe('an account name where an account ID belongs', () => {
	it('the payment error says an ID is needed, not a name, and where the IDs are', () => {
		const result = validatePayment({
			xaid: 'Main account',
			xpid: 'pye_8f2k1q',
			amount: '10.00',
			reference: 'INV-0001',
		});
		expect(result.valid).toBe(false);
		expect(result.valid ? '' : formatIssues(result.issues)).toBe(
			"Source Account must be an account ID (a UUID), not a name: Account → Get Many lists each account's ID, and the form's account list picks one by name",
		);
	});
});

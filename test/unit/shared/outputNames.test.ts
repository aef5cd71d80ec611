import { PLAIN_NAMES, withPlainNames } from '../../../nodes/shared/outputNames';

describe("outputs name the bank's identifiers plainly (spec §Identifiers)", () => {
	it('renames each identifier at the top level and keeps every other key and value', () => {
		const nested = { xaid: 'inner' };
		expect(
			withPlainNames({
				xaid: 'a1',
				xpid: 'p1',
				xtid: 't1',
				xtids: ['t1', 't2'],
				approvalRef: 'apr_1',
				requestId: 'req_1',
				amount: '10.00',
				account: nested,
			}),
		).toEqual({
			accountId: 'a1',
			payeeId: 'p1',
			transactionId: 't1',
			transactionIds: ['t1', 't2'],
			approvalId: 'apr_1',
			bankRequestId: 'req_1',
			amount: '10.00',
			account: { xaid: 'inner' },
		});
	});

	it('leaves the record it was given as it was', () => {
		const record = { xaid: 'a1' };
		withPlainNames(record);
		expect(record).toEqual({ xaid: 'a1' });
	});

	it('a key of Object.prototype is not taken for an identifier', () => {
		expect(withPlainNames(JSON.parse('{"constructor": 1, "toString": 2}'))).toEqual(
			JSON.parse('{"constructor": 1, "toString": 2}'),
		);
	});

	it("an approval's ref and parent_xaid are its approval ID and account ID", () => {
		expect(withPlainNames({ ref: 'r1', parent_xaid: 'a1', xtid: 't1', status: 'pending' })).toEqual(
			{ approvalId: 'r1', accountId: 'a1', transactionId: 't1', status: 'pending' },
		);
	});

	it('no plain name is one of the bank names, and each identifier has one plain name', () => {
		const plain = Object.values(PLAIN_NAMES);
		expect(plain.filter((name) => Object.hasOwn(PLAIN_NAMES, name))).toEqual([]);
		expect([...new Set(plain)].sort()).toEqual([
			'accountId',
			'approvalId',
			'bankRequestId',
			'payeeId',
			'transactionId',
			'transactionIds',
		]);
	});
});

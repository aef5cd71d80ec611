/** Money arriving on an account from outside, one payment or many at once. */
import { badRequest } from '../errors';
import {
	answersOk,
	asData,
	type ControlContext,
	field,
	numberField,
	ok,
	type ResourceControls,
} from '../controlKit';
import { toMinor } from '../money';
import { receive, transactionView } from '../transactions/model';

type Names = 'receive' | 'seedTransactions';

export function accountControls({ bank, locate }: ControlContext): ResourceControls<Names> {
	function amountMinor(amount: number): number {
		const minor = toMinor(amount);
		if (minor === undefined || minor <= 0)
			throw badRequest('amount must be a positive number with at most 2 decimals');
		return minor;
	}

	const operations: ResourceControls<Names>['operations'] = {
		receive: async (xaid, amount, reference = 'Incoming payment') => {
			const { workspace, item } = locate((w) => w.accounts.get(xaid), `account ${xaid}`);
			const minor = amountMinor(amount);
			const received = receive(bank, workspace, item, {
				amountMinor: minor,
				reference,
				counterpartyName: 'Sandbox Sender Ltd',
			});
			return asData(transactionView(received));
		},
		seedTransactions: async (xaid, count) => {
			if (!Number.isInteger(count) || count < 1)
				throw badRequest('count must be a positive integer');
			const { workspace, item } = locate((w) => w.accounts.get(xaid), `account ${xaid}`);
			for (let i = 1; i <= count; i++) {
				receive(bank, workspace, item, {
					amountMinor: 100 + (i % 1000),
					reference: `Seeded receipt ${i}`,
					counterpartyName: 'Bulk Sender Ltd',
					silent: true,
				});
			}
		},
	};

	return {
		operations,
		routes: [
			{
				method: 'POST',
				path: '/accounts/{xaid}/receive',
				handle: async ({ params, body }) => {
					const reference = field(body, 'reference');
					return ok(
						await operations.receive(
							params.xaid,
							numberField(body, 'amount'),
							typeof reference === 'string' ? reference : undefined,
						),
					);
				},
			},
			{
				method: 'POST',
				path: '/accounts/{xaid}/seed-transactions',
				handle: answersOk(({ params, body }) =>
					operations.seedTransactions(params.xaid, numberField(body, 'count')),
				),
			},
		],
	};
}

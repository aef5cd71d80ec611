/** A sent payment settling at the bank. */
import { asData, type ControlContext, ok, type ResourceControls } from '../controlKit';
import { fail, settle, transactionView, type TransactionRecord } from './model';

export function transactionControls({
	bank,
	locate,
}: ControlContext): ResourceControls<'settle' | 'fail'> {
	const at = (xtid: string) =>
		locate<TransactionRecord>((w) => w.transactions.get(xtid), `transaction ${xtid}`);
	const operations: ResourceControls<'settle' | 'fail'>['operations'] = {
		settle: async (xtid) => {
			const { workspace, item } = at(xtid);
			return asData(transactionView(settle(bank, workspace, item)));
		},
		fail: async (xtid) => {
			const { workspace, item } = at(xtid);
			return asData(transactionView(fail(bank, workspace, item)));
		},
	};

	return {
		operations,
		routes: [
			{
				method: 'POST',
				path: '/transactions/{xtid}/settle',
				handle: async ({ params }) => ok(await operations.settle(params.xtid)),
			},
			{
				method: 'POST',
				path: '/transactions/{xtid}/fail',
				handle: async ({ params }) => ok(await operations.fail(params.xtid)),
			},
		],
	};
}

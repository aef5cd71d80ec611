/** A sent payment settling at the bank. */
import { asData, type ControlContext, ok, type ResourceControls } from '../controlKit';
import { settle, transactionView, type TransactionRecord } from './model';

export function transactionControls({ bank, locate }: ControlContext): ResourceControls<'settle'> {
	const operations: ResourceControls<'settle'>['operations'] = {
		settle: async (xtid) => {
			const { workspace, item } = locate<TransactionRecord>(
				(w) => w.transactions.get(xtid),
				`transaction ${xtid}`,
			);
			return asData(transactionView(settle(bank, workspace, item)));
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
		],
	};
}

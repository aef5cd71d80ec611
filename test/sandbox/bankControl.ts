/** The bank as a whole: its clock, a snapshot of everything it holds, and a fresh start. */
import { accountView, balanceView } from './accounts/model';
import { approvalView, expireDue } from './approvals/model';
import {
	answersOk,
	asData,
	type ControlContext,
	copy,
	numberField,
	ok,
	type ResourceControls,
	workspaceIdOf,
} from './controlKit';
import { listOf } from './state';
import { transactionView } from './transactions/model';

type Names = 'advanceClock' | 'ledger' | 'reset';

export function bankControls({
	bank,
	deps,
	workspaceById,
}: ControlContext): ResourceControls<Names> {
	const operations: ResourceControls<Names>['operations'] = {
		advanceClock: async (ms) => {
			bank.clock.advance(ms);
			expireDue(bank); // spec §States and transitions: expiry under the policy's window
		},
		ledger: (workspaceId) => {
			expireDue(bank);
			const workspace = workspaceById(workspaceId);
			return {
				workspaceId: workspace.id,
				accounts: listOf(workspace.accounts).map((account) =>
					asData({ ...accountView(account), ...balanceView(account) }),
				),
				transactions: listOf(workspace.transactions).map((t) => asData(transactionView(t))),
				approvals: listOf(workspace.approvals).map((a) => asData(approvalView(a))),
				paymentRequests: copy(workspace.paymentRequests),
				policies: copy(workspace.policies),
			};
		},
		reset: () => {
			deps.deliveries.clear();
			deps.faults.clear();
			deps.requestLog.length = 0;
			deps.reseed();
		},
	};

	return {
		operations,
		routes: [
			{
				method: 'POST',
				path: '/clock/advance',
				handle: answersOk(({ body }) => operations.advanceClock(numberField(body, 'ms'))),
			},
			{
				method: 'GET',
				path: '/ledger',
				handle: ({ query }) => ok(operations.ledger(workspaceIdOf(query))),
			},
			{ method: 'POST', path: '/reset', handle: answersOk(() => operations.reset()) },
		],
	};
}

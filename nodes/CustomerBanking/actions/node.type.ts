import type { AllEntities } from 'n8n-workflow';

import type * as account from './account/Account.resource';
import type * as approval from './approval/Approval.resource';
import type * as payee from './payee/Payee.resource';
import type * as payment from './payment/Payment.resource';
import type * as transaction from './transaction/Transaction.resource';
import type { OperationModule } from './types';

/** The operation names of a resource: the members of its Resource.ts that are operation modules. */
type OperationsOf<ResourceModule> = {
	[Name in keyof ResourceModule]: ResourceModule[Name] extends OperationModule ? Name : never;
}[keyof ResourceModule] &
	string;

type NodeMap = {
	account: OperationsOf<typeof account>;
	approval: OperationsOf<typeof approval>;
	payee: OperationsOf<typeof payee>;
	payment: OperationsOf<typeof payment>;
	transaction: OperationsOf<typeof transaction>;
};

export type CustomerBankingType = AllEntities<NodeMap>;

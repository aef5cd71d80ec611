import { type Account, type AccountRecord, reserve } from './accounts/model';
import type { Policy } from './approvals/model';
import { ALL_SCOPES, READ_SCOPES, SCOPES, type SandboxClient } from './auth';
import { createPayee } from './payees/model';
import { recordSentPayment, receive, settle } from './transactions/model';
import type { Bank, Workspace } from './state';
import { newSigningSecret } from './webhooks/model';

export interface SeededIds {
	accounts: {
		gbp: string;
		eur: string;
		usd: string;
		cad: string;
		suspended: string;
		otherWorkspace: string;
	};
	payees: { gbp: string; eur: string; usd: string; cad: string; otherWorkspace: string };
}

export interface SeededClients {
	full: SandboxClient;
	readOnly: SandboxClient;
	noUpdatePayee: SandboxClient;
	otherWorkspace: SandboxClient;
}

export const MAIN_WORKSPACE = 'workspace-1';
export const OTHER_WORKSPACE = 'workspace-2';

/** Opening balance of every seeded ACTIVE account, in minor units: 50,000.00. */
const OPENING_MINOR = 5_000_000;

// issue 2 "Seeded data": one policy covering API payments from 1000.00
const SEEDED_POLICY: Policy = {
	id: 'policy-api-1000',
	name: 'API payments of 1000.00 or more',
	minAmount: 1000,
	maxAmount: null,
	currency: null,
	approvers: ['Alex Approver', 'Sam Signer'],
	coversApiPayments: true,
	expiresInSeconds: 24 * 60 * 60,
};

function newWorkspace(bank: Bank, id: string): Workspace {
	return {
		id,
		ownerXid: bank.random.uuid(),
		accounts: new Map(),
		payees: new Map(),
		transactions: new Map(),
		approvals: new Map(),
		policies: [],
		paymentRequests: [],
		idempotency: new Map(),
		subscriptions: new Map(),
		signing: { current: newSigningSecret(bank) },
	};
}

const COMPANY_1 = {
	fullName: 'Northwind Trading Ltd',
	companyName: 'Northwind Trading Ltd',
	companyReg: '09876543',
	legalEntity: 'GB',
	isBusiness: true,
	customerType: 'BUSINESS',
	externalReference: '',
};

type AccountSeed = Pick<
	Account,
	'status' | 'type' | 'currency' | 'name' | 'accountNumber' | 'sortCode' | 'iban' | 'bic'
> &
	Partial<Account>;

function addAccount(
	bank: Bank,
	workspace: Workspace,
	seed: AccountSeed,
	openingMinor: number,
): AccountRecord {
	const account: AccountRecord = {
		xaid: bank.random.uuid(),
		...COMPANY_1,
		displayName: `${seed.name} (${seed.currency})`,
		defaultAccount: false,
		createdDate: '2024-01-15 09:30:00',
		...seed,
		ledgerMinor: 0,
		pendingMinor: 0,
	};
	workspace.accounts.set(account.xaid, account);
	receive(bank, workspace, account, {
		amountMinor: openingMinor,
		reference: 'Opening balance',
		counterpartyName: 'Capital injection',
	});
	return account;
}

const PAYEE_ADDRESS = {
	addressLine1: '1 Market Street',
	townCity: 'London',
	postCode: 'EC1A 1BB',
	countryCode: 'GB',
};

function addPayee(
	bank: Bank,
	workspace: Workspace,
	account: AccountRecord,
	fields: Record<string, unknown>,
): string {
	const payee = createPayee(bank, workspace, account, {
		purpose: 'Supplier payment',
		purposeCategory: 'SUPPLIER',
		isBusiness: true,
		...PAYEE_ADDRESS,
		...fields,
	});
	// A little settled history both ways; the ledger stays at the opening balance.
	receive(bank, workspace, account, {
		amountMinor: 25_000,
		reference: 'Customer receipt 1001',
		counterpartyName: 'Fabrikam Retail',
	});
	const xtid = bank.random.uuid();
	reserve(account, 25_000);
	const sent = recordSentPayment(bank, workspace, {
		xtid,
		account,
		xpid: payee.xpid,
		payeeName: payee.name,
		amountMinor: 25_000,
		reference: fields.reference as string,
		requestId: bank.random.uuid(),
	});
	settle(bank, workspace, sent);
	return payee.xpid;
}

/** Builds the seeded bank: the same seed gives the same ids, secrets and data every time. */
export function seedBank(bank: Bank): { clients: SeededClients; seeded: SeededIds } {
	bank.workspaces.clear();
	const main = newWorkspace(bank, MAIN_WORKSPACE);
	const other = newWorkspace(bank, OTHER_WORKSPACE);
	bank.workspaces.set(main.id, main).set(other.id, other);

	const client = (name: string, workspaceId: string, scopes: string[]): SandboxClient => ({
		clientId: `cb-sandbox-${name}`,
		clientSecret: `cs_${bank.random.hex(16)}`,
		scopes,
		workspaceId,
	});
	const clients: SeededClients = {
		full: client('full', main.id, ALL_SCOPES),
		readOnly: client('read-only', main.id, READ_SCOPES),
		noUpdatePayee: client(
			'no-update-payee',
			main.id,
			ALL_SCOPES.filter((s) => s !== SCOPES.updatePayee),
		),
		otherWorkspace: client('other-workspace', other.id, ALL_SCOPES),
	};

	// spec §Account: SCAN accounts carry sort code and number; IBAN accounts have them empty
	const gbp = addAccount(
		bank,
		main,
		{
			status: 'ACTIVE',
			type: 'SCAN',
			currency: 'GBP',
			name: 'Operating account',
			defaultAccount: true,
			sortCode: '601613',
			accountNumber: '31926819',
			iban: 'GB29NWBK60161331926819',
			bic: 'NWBKGB2L',
		},
		OPENING_MINOR,
	);
	const eur = addAccount(
		bank,
		main,
		{
			status: 'ACTIVE',
			type: 'IBAN',
			currency: 'EUR',
			name: 'Euro account',
			sortCode: '',
			accountNumber: '',
			iban: 'DE89370400440532013000',
			bic: 'COBADEFFXXX',
		},
		OPENING_MINOR,
	);
	const usd = addAccount(
		bank,
		main,
		{
			status: 'ACTIVE',
			type: 'IBAN',
			currency: 'USD',
			name: 'Dollar account',
			sortCode: '',
			accountNumber: '',
			iban: 'LT121000011101001000',
			bic: 'CBSBLT26XXX',
		},
		OPENING_MINOR,
	);
	const cad = addAccount(
		bank,
		main,
		{
			status: 'ACTIVE',
			type: 'IBAN',
			currency: 'CAD',
			name: 'Canadian dollar account',
			sortCode: '',
			accountNumber: '',
			iban: 'LT601010012345678901',
			bic: 'CBSBLT26XXX',
		},
		OPENING_MINOR,
	);
	const suspended = addAccount(
		bank,
		main,
		{
			status: 'SUSPENDED',
			type: 'SCAN',
			currency: 'GBP',
			name: 'Dormant account',
			sortCode: '601613',
			accountNumber: '31926820',
			iban: 'GB02NWBK60161331926820',
			bic: 'NWBKGB2L',
		},
		100_000,
	);
	const foreign = addAccount(
		bank,
		other,
		{
			status: 'ACTIVE',
			type: 'IBAN',
			currency: 'EUR',
			name: 'Contoso main account',
			defaultAccount: true,
			sortCode: '',
			accountNumber: '',
			iban: 'FR1420041010050500013M02606',
			bic: 'PSSTFRPPPAR',
			fullName: 'Contoso Foods SARL',
			companyName: 'Contoso Foods SARL',
			companyReg: '552100554',
			legalEntity: 'FR',
		},
		OPENING_MINOR,
	);

	const payees = {
		gbp: addPayee(bank, main, gbp, {
			name: 'Acme Supplies Ltd',
			reference: 'ACME-GBP-0001',
			sortCode: '200000',
			accountNumber: '55779911',
		}),
		eur: addPayee(bank, main, eur, {
			name: 'Berlin Parts GmbH',
			reference: 'BERLIN-EUR-0001',
			iban: 'DE75512108001245126199',
			bic: 'SOGEDEFFXXX',
			townCity: 'Berlin',
			postCode: '10115',
			countryCode: 'DE',
		}),
		usd: addPayee(bank, main, usd, {
			name: 'Hudson Freight Inc',
			reference: 'HUDSON-USD-0001',
			accountNumber: '123456789',
			aba: '026009593',
			townCity: 'New York',
			postCode: '10001',
			countryCode: 'US',
		}),
		cad: addPayee(bank, main, cad, {
			name: 'Maple Logistics Ltd',
			reference: 'MAPLE-CAD-0001',
			institutionNumber: '003',
			transitNumber: '12345',
			accountNumber: '1234567',
			townCity: 'Toronto',
			postCode: 'M5H 2N2',
			countryCode: 'CA',
		}),
		otherWorkspace: addPayee(bank, other, foreign, {
			name: 'Lyon Produce SA',
			reference: 'LYON-EUR-0001',
			iban: 'FR7630006000011234567890189',
			bic: 'AGRIFRPPXXX',
			townCity: 'Lyon',
			postCode: '69001',
			countryCode: 'FR',
		}),
	};
	main.policies = [{ ...SEEDED_POLICY, approvers: [...SEEDED_POLICY.approvers] }];

	return {
		clients,
		seeded: {
			accounts: {
				gbp: gbp.xaid,
				eur: eur.xaid,
				usd: usd.xaid,
				cad: cad.xaid,
				suspended: suspended.xaid,
				otherWorkspace: foreign.xaid,
			},
			payees,
		},
	};
}

import type { IHttpRequestMethods } from 'n8n-workflow';

import { DEFAULT_PAGE_LIMIT } from './paginate';
import type { RetryMode, TooManyRequestsMeaning } from './retryPolicy';

/**
 * Every endpoint the nodes call, and what the transport must know of it that a path does not say.
 * Callers name the endpoint and give its IDs; they never write a path or a meaning of a 429.
 */
export interface Endpoint<Params extends object = object> {
	method: IHttpRequestMethods;
	/** The path relative to the Base URL, every ID in it encoded. */
	path: (params: Params) => string;
	/** What a 429 means here (spec §Errors): a rate limit, or, on payee endpoints, an inactive account. */
	tooManyRequests: TooManyRequestsMeaning;
	/**
	 * Whether it may be sent again after a 5xx, a rate limit or a lost connection (spec §Errors rules
	 * 1-2): reads may; a write only when the bank acts on it once per key.
	 */
	retry: RetryMode;
	/** The largest page a list serves (spec §Limits). */
	pageLimit: number;
	/** Of a list: what identifies its records and where they show when they were made. */
	records?: ListRecords;
	/** What the error tells the user to do when a write failed in a way that may have processed it (spec §Errors rule 3). */
	whenOutcomeUnknown?: string;
	/** What a 404 may mean here besides a wrong ID, and where to look instead. */
	whenNotFound?: string;
	/** The endpoint for these IDs: what `request` and `requestAll` (index.ts) take. */
	at: (params: Params) => EndpointCall;
}

/**
 * The records of a list: the field that identifies one (spec §Identifiers), so that a record read twice
 * while the list moves is returned once; and where a record shows its creation time (the spec shows no
 * field of a transaction or approval beyond its IDs, so a hint: docs/bank-assumptions.md#record-times), so that a
 * look-up can read the newest records only (recentPages.ts).
 */
export interface ListRecords {
	id: string;
	created?: readonly string[];
}

/** One endpoint with its IDs filled in. */
export type EndpointCall = Omit<Endpoint, 'path' | 'at'> & { path: string };

/** Lists of every account's records, or (given `xaid`) of one account's. */
export type AccountScope = { xaid?: string };

/** A path whose every interpolated ID is encoded (IDs come from users and expressions). */
function encoded(strings: TemplateStringsArray, ...ids: string[]): string {
	return strings.reduce((path, text, at) => `${path}${encodeURIComponent(ids[at - 1])}${text}`);
}

function at<Params extends object>(this: Endpoint<Params>, params: Params): EndpointCall {
	const { method, tooManyRequests, retry, pageLimit, records, whenOutcomeUnknown, whenNotFound } =
		this;
	return {
		method,
		path: this.path(params),
		tooManyRequests,
		retry,
		pageLimit,
		records,
		whenOutcomeUnknown,
		whenNotFound,
	};
}

const read = <Params extends object>(path: (params: Params) => string): Endpoint<Params> => ({
	method: 'GET',
	path,
	tooManyRequests: 'rateLimited',
	retry: 'safe',
	pageLimit: DEFAULT_PAGE_LIMIT,
	at,
});

/** A list endpoint: a read whose records are identified by `records.id`. */
const list = <Params extends object>(
	path: (params: Params) => string,
	records: ListRecords,
): Endpoint<Params> => ({ ...read(path), records });

/** spec §Identifiers: a record of each list by its ID; its creation time where this package reads one. */
const LIST_RECORDS = {
	transactions: { id: 'xtid', created: ['created'] },
	approvals: { id: 'ref', created: ['meta', 'created'] },
	payees: { id: 'xpid' },
} as const satisfies Record<string, ListRecords>;

/** A list of every account's records, or of one account's. */
const scopedList = (collection: 'approvals' | 'payees' | 'transactions') =>
	list<AccountScope>(
		({ xaid }) => (xaid === undefined ? `/${collection}` : encoded`/account/${xaid}/${collection}`),
		LIST_RECORDS[collection],
	);

/**
 * spec §Errors: on every payee endpoint a 429 says the account is not active, never retried; payee
 * lists serve at most 100 a page (spec §Limits).
 */
const payeeEndpoint = <Params extends object>(endpoint: Endpoint<Params>): Endpoint<Params> => ({
	...endpoint,
	tooManyRequests: 'accountNotActive',
	pageLimit: 100,
});

const payeeWrite = <Params extends object>(
	method: IHttpRequestMethods,
	path: (params: Params) => string,
) => payeeEndpoint<Params>({ ...read(path), method, retry: 'never' });

/** spec §Errors rule 3, as the error of a payment request that may have been processed says it. */
const LOOK_PAYMENT_UP =
	'The payment may have been processed: look it up (approvals for payments awaiting approval, transactions otherwise, matching on reference) before sending it again.';

export const ENDPOINTS = {
	// spec §Accounts
	accounts: list<object>(() => '/accounts', { id: 'xaid' }),
	account: read<{ xaid: string }>(({ xaid }) => encoded`/account/${xaid}`),
	// spec §Balance
	balance: read<{ xaid: string }>(({ xaid }) => encoded`/account/${xaid}/balance`),
	// spec §Transactions
	transactions: scopedList('transactions'),
	// spec §States and transitions: a payment held for approval has an ID before it has a transaction
	// record, and may never get one (declined, expired)
	transaction: {
		...read<{ xtid: string }>(({ xtid }) => encoded`/transaction/${xtid}`),
		whenNotFound:
			'A payment that is waiting for approval, or whose approval was declined or expired, has no transaction record: Approval → Get by Payment with the same ID says where it is. Do not pay it again before checking.',
	},
	// spec §Approvals
	approvals: scopedList('approvals'),
	approval: read<{ ref: string }>(({ ref }) => encoded`/approval/${ref}`),
	// spec §Payees, §Create, §Update, §Upsert
	payees: payeeEndpoint(scopedList('payees')),
	payee: payeeEndpoint(read<{ xpid: string }>(({ xpid }) => encoded`/payee/${xpid}`)),
	createPayee: payeeWrite<{ xaid: string }>('POST', ({ xaid }) => encoded`/account/${xaid}/payees`),
	updatePayee: payeeWrite<{ xaid: string; xpid: string }>(
		'PUT',
		({ xaid, xpid }) => encoded`/account/${xaid}/payees/${xpid}`,
	),
	upsertPayee: payeeWrite<{ xaid: string }>('POST', ({ xaid }) => encoded`/account/${xaid}/payee`),
	// spec §Payments rule 2: resent with the same x-idempotent-key and body, the bank acts once
	payments: {
		...read<object>(() => '/payments'),
		method: 'POST' as const,
		retry: 'safe' as const,
		whenOutcomeUnknown: LOOK_PAYMENT_UP,
	},
	// spec §Webhook subscriptions: writes the bank does not promise to act on once, so never resent
	subscribeWebhook: {
		...read<object>(() => '/webhooks/subscribe'),
		method: 'POST' as const,
		retry: 'never' as const,
	},
	unsubscribeWebhook: {
		...read<object>(() => '/webhooks/unsubscribe'),
		method: 'DELETE' as const,
		retry: 'never' as const,
	},
};

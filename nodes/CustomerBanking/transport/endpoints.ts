import type { EndpointIntent } from './index';

/**
 * What every payee endpoint (/payees, /payee/{xpid}, /account/{xaid}/payees[/{xpid}],
 * /account/{xaid}/payee) declares: a 429 says the account is not active, never retried (spec §Errors),
 * and lists serve at most 100 a page (spec §Limits).
 */
export const PAYEE_ENDPOINT: Readonly<EndpointIntent> = { tooManyRequests: 'accountNotActive', pageLimit: 100 };

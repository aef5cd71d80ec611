import type { IHttpRequestMethods } from 'n8n-workflow';

import type { EndpointCall } from '../../nodes/shared/transport';
import { DEFAULT_PAGE_LIMIT } from '../../nodes/shared/transport/paginate';

/**
 * A call of any path, for tests of the transport itself: unless said otherwise a GET, sent again
 * after a failure when it is a GET (other methods only when `retry` is 'safe'), a 429 read as a rate
 * limit, pages of at most 500. Tests of a real endpoint use ENDPOINTS.x.at(…) instead.
 */
export function endpointCall(
	call: Partial<Omit<EndpointCall, 'path'>> & { path: string },
): EndpointCall {
	const method: IHttpRequestMethods = call.method ?? 'GET';
	return {
		tooManyRequests: 'rateLimited',
		pageLimit: DEFAULT_PAGE_LIMIT,
		...call,
		method,
		// as spec §Errors rules 1-2 say of a path nobody declared: a GET may be sent again, a write may not
		retry: call.retry ?? (method === 'GET' ? 'safe' : 'never'),
	};
}

/**
 * n8n 1.x hands the node a failed request's error without the network code, only n8n's words for it
 * (real n8n 1.123.81: a payment whose connection dropped after the bank made it was reported "not
 * sent"). The transport reads those words back into the code, so the outcome stays unknown.
 */
import { NodeApiError } from 'n8n-workflow';

import { readFailure } from '../../../../nodes/shared/transport/errors';
import { ruleFor } from '../../../../nodes/shared/transport/retryPolicy';

const node = {
	id: 'n',
	name: 'Pay',
	type: 'x',
	typeVersion: 1,
	position: [0, 0] as [number, number],
	parameters: {},
};

describe("n8n 1.x's words for a network failure", () => {
	it.each([
		[
			'The connection to the server was closed unexpectedly, perhaps it is offline. You can retry the request immediately or wait and retry later.',
			'ECONNRESET',
		],
		[
			"The connection timed out, consider setting the 'Retry on Fail' option in the node settings",
			'ETIMEDOUT',
		],
		['The service refused the connection - perhaps it is offline', 'ECONNREFUSED'],
		['The connection was aborted, perhaps the server is offline', 'ECONNABORTED'],
	])('"%s" is read as %s, a failure whose outcome is unknown for a write', (message, code) => {
		const error = new NodeApiError(node, { message: 'lost' }, { message });
		const failure = readFailure(error);
		expect(failure.networkCode).toBe(code);
		expect(failure.status).toBeUndefined();
		expect(ruleFor(failure).outcomeUnknown).toBe(true);
	});

	it('other words name no code', () => {
		expect(
			readFailure(
				new NodeApiError(node, { message: 'x' }, { message: 'Something else went wrong' }),
			).networkCode,
		).toBeUndefined();
	});
});

import { sleep } from 'n8n-workflow';

import { replaceRetryWait } from '../../nodes/shared/transport/retryPolicy';

/**
 * In-process tests never sleep through the transport's backoff (1 s, 2 s, 4 s, 4 s, or a Retry-After):
 * from the moment a test file imports this module (n8nContext.ts does, so every suite that runs a node),
 * the waits the transport asks for are recorded here instead, in order, and the next attempt is sent
 * at once. The attempts, their number and the delays asked for are unchanged. Empty it with
 * `retryWaits.length = 0` before a test that reads it.
 *
 * A suite that replaced n8n-workflow's `sleep` with a jest mock to see the waits keeps seeing them
 * there: the mock is called instead.
 */
export const retryWaits: number[] = [];

replaceRetryWait(async (ms) => {
	if (typeof jest !== 'undefined' && jest.isMockFunction(sleep)) {
		await sleep(ms);
		return;
	}
	retryWaits.push(ms);
});

import { replaceRetryWait } from '../../nodes/CustomerBanking/transport/retryPolicy';

/**
 * For the suite that calls it (at the top level of a test file): the transport's waits between
 * attempts are recorded instead of slept through, so a test of a request failing five times takes
 * milliseconds, not the 11 s of the real backoff. The attempts, their number and the delays asked for
 * are unchanged; the returned list holds those delays, in order, emptied before each test.
 */
export function recordRetryWaits(): number[] {
	const waits: number[] = [];
	let restore = (): void => {};
	beforeAll(() => {
		restore = replaceRetryWait(async (ms) => {
			waits.push(ms);
		});
	});
	beforeEach(() => {
		waits.length = 0;
	});
	afterAll(() => restore());
	return waits;
}

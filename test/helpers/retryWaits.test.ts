import { ENDPOINTS, request } from '../../nodes/shared/transport';
import { startSandbox, type Sandbox } from '../sandbox';
import { createExecuteContext, retryWaits } from './n8nContext';
import { credentialsFor } from './sandboxCredentials';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: 7 });
});
afterAll(async () => {
	await sandbox.close();
});

describe("in-process suites and the transport's backoff", () => {
	it('a GET failing four times is sent five times at once, its waits recorded instead of slept', async () => {
		sandbox.control.setFaults([
			{ kind: 'status', status: 503, method: 'GET', path: '/accounts', times: 4 },
		]);
		retryWaits.length = 0;
		const { context } = createExecuteContext({
			parameters: {},
			credentials: credentialsFor(sandbox),
		});
		const started = Date.now();
		await request.call(context, ENDPOINTS.accounts.at({}));
		const statuses = sandbox.control
			.requests()
			.filter((entry) => entry.area === 'api')
			.map((entry) => entry.status);
		expect(statuses).toEqual([503, 503, 503, 503, 200]);
		expect(retryWaits).toEqual([1000, 2000, 4000, 4000]);
		expect(Date.now() - started).toBeLessThan(5_000);
	});
});

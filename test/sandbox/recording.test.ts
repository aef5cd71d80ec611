import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startSandbox } from './index';
import { apiAs } from './testing';

describe('request recording (CUSTOMER_BANKING_SANDBOX_RECORD, for scripts/compare-request-logs.mjs)', () => {
	const saved = process.env.CUSTOMER_BANKING_SANDBOX_RECORD;
	afterEach(() => {
		if (saved === undefined) delete process.env.CUSTOMER_BANKING_SANDBOX_RECORD;
		else process.env.CUSTOMER_BANKING_SANDBOX_RECORD = saved;
	});

	it('appends every answered request to the file, with the test that sent it and no token', async () => {
		const file = join(mkdtempSync(join(tmpdir(), 'sandbox-record-')), 'requests.jsonl');
		process.env.CUSTOMER_BANKING_SANDBOX_RECORD = file;
		const sandbox = await startSandbox({ port: 0 });
		try {
			const api = await apiAs(sandbox);
			await api.get(`/account/${sandbox.seeded.accounts.gbp}/balance`);
		} finally {
			await sandbox.close();
		}
		const lines = readFileSync(file, 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line));
		expect(lines.map((entry) => [entry.area, entry.method, entry.path, entry.status])).toEqual([
			['auth', 'POST', '/oauth/token', 200],
			['api', 'GET', `/account/${sandbox.seeded.accounts.gbp}/balance`, 200],
		]);
		expect(lines[1].test).toMatchObject({
			file: expect.stringContaining('recording.test.ts'),
			name: expect.stringContaining('appends every'),
		});
		expect(JSON.stringify(lines)).not.toMatch(/authorization|bearer/i);
	});
});

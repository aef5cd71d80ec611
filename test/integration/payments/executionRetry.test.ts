/**
 * n8n's Retry of a failed execution never pays twice. The retry is a new execution (new id,
 * mode 'retry') that gets the failed execution's context data back (n8n 2.41.1 / 1.123.81
 * execution.service.js retry()): the node keeps its keys there. When that context is gone, payments are
 * looked up before anything is sent (spec §Errors rule 3).
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { credentialsFor } from '../../helpers/sandboxCredentials';
import { type Sandbox, startSandbox } from '../../sandbox';
import type { FaultRule } from '../../sandbox/faults';
import { byId, runPayments, sentWithReference } from './paymentNode';

// the transport's waits between attempts are not slept through: outcomes, not timing, are under test
jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

let sandbox: Sandbox;
let credentials: ICredentialDataDecryptedObject;
let gbp: { xaid: string; xpid: string };
let run = 0;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: 23 });
	credentials = credentialsFor(sandbox);
	gbp = { xaid: sandbox.seeded.accounts.gbp, xpid: sandbox.seeded.payees.gbp };
});
afterAll(async () => await sandbox.close());
afterEach(() => sandbox.control.clearFaults());

/** The bank stops answering after `after` payment requests: every later one is rate limited. */
const downAfter = (after: number): FaultRule[] => [
	{ method: 'POST', path: '/payments', kind: 'status', status: 429, retryAfterSeconds: 0, after },
];

function payments(count: number, prefix: string) {
	return Array.from({ length: count }, (_, index) => ({
		amount: 10 + index,
		reference: `${prefix}-${index}`.slice(0, 18),
	}));
}

async function execute(
	operation: 'submit' | 'submitBatch',
	items: IDataObject[],
	execution: { id: string; mode?: 'retry'; contextData: Record<string, IDataObject> },
) {
	return await runPayments(sandbox, credentials, {
		executionId: execution.id,
		mode: execution.mode,
		contextData: execution.contextData,
		workflowId: 'wf-retry',
		parameters: {
			operation,
			account: byId(gbp.xaid),
			payee: byId(gbp.xpid),
			...(operation === 'submitBatch' && { batchSize: 10 }),
		},
		itemParameters: items,
	});
}

const timesPaid = (items: IDataObject[]) =>
	items.map((item) => sentWithReference(sandbox, String(item.reference)).length);

describe.each([
	['submit', 10],
	['submitBatch', 1],
] as const)('%s fails mid-way, then n8n retries the execution', (operation, madeBeforeFailure) => {
	it("with the failed execution's context (both retry modes hand it back): every payment made exactly once", async () => {
		const items = payments(
			operation === 'submit' ? 20 : 30,
			`RTY-${operation === 'submit' ? 'S' : 'B'}${++run}`,
		);
		const contextData: Record<string, IDataObject> = {};
		sandbox.control.setFaults(downAfter(madeBeforeFailure));
		const failed = await execute(operation, items, { id: `exec-${run}-a`, contextData });
		expect(failed.error).toBeDefined();
		const paidBefore = timesPaid(items);
		expect(paidBefore.filter((n) => n === 1).length).toBe(operation === 'submit' ? 10 : 10);

		sandbox.control.clearFaults();
		const retried = await execute(operation, items, {
			id: `exec-${run}-b`,
			mode: 'retry',
			contextData,
		});
		expect(retried.error).toBeUndefined();
		expect(timesPaid(items)).toEqual(items.map(() => 1));
		const outputs = (retried.output?.[0] ?? []).map((item) => item.json);
		expect(outputs).toHaveLength(items.length);
		// the bank's ledger and the outputs agree on every payment
		for (const output of outputs) {
			expect(output.transactionId).toBe(
				sentWithReference(sandbox, String(output.reference))[0].xtid,
			);
		}
	});

	it('when the context is lost (a Retry holding no keys): payments made before are looked up and not sent again', async () => {
		const items = payments(
			operation === 'submit' ? 20 : 30,
			`RTL-${operation === 'submit' ? 'S' : 'B'}${++run}`,
		);
		sandbox.control.setFaults(downAfter(madeBeforeFailure));
		await execute(operation, items, { id: `exec-${run}-a`, contextData: {} });
		const paidBefore = timesPaid(items);

		sandbox.control.clearFaults();
		const retried = await runPayments(sandbox, credentials, {
			executionId: `exec-${run}-b`,
			mode: 'retry',
			contextData: {},
			workflowId: 'wf-retry',
			continueOnFail: true,
			parameters: {
				operation,
				account: byId(gbp.xaid),
				payee: byId(gbp.xpid),
				...(operation === 'submitBatch' && { batchSize: 10 }),
			},
			itemParameters: items,
		});
		expect(timesPaid(items)).toEqual(items.map(() => 1));
		const outputs = (retried.output?.[0] ?? []).map((item) => item.json);
		// the ones paid before are not claimed (their first attempt's time is unknown): state unknown, not sent
		const unknown = outputs.filter((output) =>
			String(output.error ?? '').includes('Payment state unknown'),
		);
		expect(unknown).toHaveLength(paidBefore.filter((n) => n === 1).length);
		expect(outputs.filter((output) => output.status === 'sent')).toHaveLength(
			paidBefore.filter((n) => n === 0).length,
		);
	});
});

/**
 * Reliability check: over 1,000 payments (Submit and Submit Batch, custom and derived keys)
 * through a bank that fails at random (500s, 429s, dropped connections, payments committed whose answer
 * is lost, failing look-ups), recovered the way a user recovers: n8n's Retry On Fail (the node again,
 * same execution), then n8n's Retry of the failed execution (a new execution that gets the failed one's
 * context data back), until it succeeds. The bank's ledger must hold every payment exactly once, and
 * every item's final output must agree with it.
 *
 * The transport's waits between attempts are skipped (n8n-workflow's sleep): the outcomes, not the
 * timing, are under test, and the run stays bounded.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { credentialsFor } from '../helpers/sandboxCredentials';
import { byId, runPayments } from '../integration/payments/paymentNode';
import { type Sandbox, startSandbox } from '../sandbox';
import type { FaultRule } from '../sandbox/faults';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: async () => undefined,
}));

const PAYMENTS = 1040;
const ITEMS_PER_EXECUTION = 40;
const RETRY_ON_FAIL_TRIES = 2;
const MAX_EXECUTION_RETRIES = 20;

// About half of the payment requests fail, so the transport's five attempts sometimes all fail and the node does.
const FAULTS: FaultRule[] = [
	{ method: 'POST', path: '/payments', kind: 'status', status: 500, probability: 0.2 },
	{
		method: 'POST',
		path: '/payments',
		kind: 'status',
		status: 429,
		retryAfterSeconds: 0,
		probability: 0.1,
	},
	{ method: 'POST', path: '/payments', kind: 'reset', probability: 0.1 },
	{ method: 'POST', path: '/payments', kind: 'commitThenDrop', probability: 0.25 },
	{ method: 'GET', kind: 'status', status: 503, probability: 0.15 },
];

type Variant = { operation: 'submit' | 'submitBatch'; customKeys: boolean };
const VARIANTS: Variant[] = [
	{ operation: 'submit', customKeys: false },
	{ operation: 'submit', customKeys: true },
	{ operation: 'submitBatch', customKeys: false },
	{ operation: 'submitBatch', customKeys: true },
];

let sandbox: Sandbox;
let credentials: ICredentialDataDecryptedObject;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: 101 });
	credentials = credentialsFor(sandbox);
});
afterAll(async () => await sandbox.close());

it(`${PAYMENTS} payments under injected faults, with Retry On Fail and n8n's Retry after each node failure: 0 duplicates, 0 lost, every status agrees with the ledger`, async () => {
	const { gbp } = sandbox.seeded.accounts;
	const xpid = sandbox.seeded.payees.gbp;
	const tally = { executions: 0, retryOnFailTries: 0, executionRetries: 0, unfinished: 0 };
	const finalOutputs: IDataObject[] = [];
	const references: string[] = [];

	sandbox.control.setFaults(FAULTS);
	for (let start = 0; start < PAYMENTS; start += ITEMS_PER_EXECUTION) {
		const execution = start / ITEMS_PER_EXECUTION;
		const variant = VARIANTS[execution % VARIANTS.length];
		const items = Array.from(
			{ length: Math.min(ITEMS_PER_EXECUTION, PAYMENTS - start) },
			(_, index) => {
				const n = start + index;
				references.push(`RELIABLE-${n}`);
				return {
					amount: 1 + (n % 900) / 100,
					reference: `RELIABLE-${n}`,
					...(variant.customKeys && { options: { idempotencyKey: `invoice-${n}` } }),
				};
			},
		);
		const contextData: Record<string, IDataObject> = {};
		let outputs: IDataObject[] | undefined;
		let lastError = '';
		for (let retry = 0; retry <= MAX_EXECUTION_RETRIES && !outputs; retry++) {
			if (retry > 0) tally.executionRetries++;
			// Retry On Fail: the node again, in the same execution
			for (let tryNumber = 0; tryNumber < RETRY_ON_FAIL_TRIES && !outputs; tryNumber++) {
				tally.retryOnFailTries++;
				const result = await runPayments(sandbox, credentials, {
					executionId: `rel-${execution}-${retry}`,
					mode: retry > 0 ? 'retry' : 'webhook',
					contextData,
					workflowId: 'wf-reliability',
					parameters: {
						operation: variant.operation,
						account: byId(gbp),
						payee: byId(xpid),
						...(variant.operation === 'submitBatch' && { batchSize: 7 }),
					},
					itemParameters: items,
				});
				if (!result.error) outputs = (result.output?.[0] ?? []).map((item) => item.json);
				else lastError = `${result.error.message} ${result.error.description ?? ''}`;
			}
		}
		tally.executions++;
		if (!outputs) {
			tally.unfinished++;
			console.log(
				`unfinished execution ${execution} (${variant.operation}${variant.customKeys ? ', custom keys' : ''}): ${lastError}`,
			);
		}
		finalOutputs.push(...(outputs ?? []));
	}
	sandbox.control.clearFaults();

	const made = new Map<string, IDataObject[]>();
	for (const transaction of sandbox.control.ledger().transactions) {
		if (
			transaction.direction !== 'outgoing' ||
			!String(transaction.reference).startsWith('RELIABLE-')
		)
			continue;
		made.set(String(transaction.reference), [
			...(made.get(String(transaction.reference)) ?? []),
			transaction,
		]);
	}
	const duplicates = [...made.values()].filter((list) => list.length > 1).length;
	const lost = references.filter((reference) => !made.has(reference)).length;
	const mismatches = finalOutputs.filter((output) => {
		const paid = made.get(String(output.reference)) ?? [];
		const claimsPaid = ['sent', 'replayed', 'pending_approval', 'found_after_error'].includes(
			String(output.status),
		);
		return claimsPaid
			? paid.length !== 1 || paid[0].xtid !== output.transactionId
			: paid.length !== 0;
	}).length;
	console.log(
		`payments: ${references.length} payments in ${tally.executions} executions (${tally.retryOnFailTries} node runs, ${tally.executionRetries} execution retries, ${tally.unfinished} unfinished), ${duplicates} duplicates, ${lost} lost, ${mismatches} statuses disagreeing with the ledger`,
	);
	expect(tally.unfinished).toBe(0);
	expect(finalOutputs).toHaveLength(PAYMENTS);
	expect(duplicates).toBe(0);
	expect(lost).toBe(0);
	expect(mismatches).toBe(0);
	// the faults really forced recoveries, or this proves little
	expect(tally.executionRetries).toBeGreaterThan(5);
}, 300_000);

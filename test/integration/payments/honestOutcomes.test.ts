/**
 * Once an attempt's outcome is unknown, a later refusal never turns it into "nothing was
 * paid": the payment is looked up. The first attempt commits and its answer is lost; every resend is
 * then refused in a way a bank or a gateway may refuse it.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { credentialsFor } from '../../helpers/sandboxCredentials';
import { type Sandbox, startSandbox } from '../../sandbox';
import type { FaultRule } from '../../sandbox/faults';
import { byId, expectStateUnknown, runPayments, sentWithReference } from './paymentNode';

// the transport's waits between attempts are not slept through: outcomes, not timing, are under test
jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

let sandbox: Sandbox;
let credentials: ICredentialDataDecryptedObject;
let gbp: { xaid: string; xpid: string };
let counter = 0;
const newReference = () => `HON-${process.pid % 1000}-${++counter}`.slice(0, 18);

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: 21 });
	credentials = credentialsFor(sandbox);
	gbp = { xaid: sandbox.seeded.accounts.gbp, xpid: sandbox.seeded.payees.gbp };
});
afterAll(async () => await sandbox.close());
afterEach(() => sandbox.control.clearFaults());

function submit(fields: IDataObject, operation: 'submit' | 'submitBatch' = 'submit') {
	return runPayments(sandbox, credentials, {
		executionId: `exec-honest-${++counter}`,
		parameters: { operation, account: byId(gbp.xaid), payee: byId(gbp.xpid), ...fields },
	});
}

const lostThen = (refusal: Omit<FaultRule, 'method' | 'path'>): FaultRule[] => [
	{ method: 'POST', path: '/payments', kind: 'commitThenDrop', times: 1 },
	{ method: 'POST', path: '/payments', ...refusal },
];

describe.each<[string, FaultRule[]]>([
	['409', lostThen({ kind: 'status', status: 409 })],
	['401 twice (a new token, still refused)', lostThen({ kind: 'status', status: 401 })],
	['400 from a gateway', lostThen({ kind: 'status', status: 400 })],
	['404 from a gateway', lostThen({ kind: 'status', status: 404 })],
])('the first attempt is made but its answer lost, the resend gets %s', (_name, faults) => {
	it.each(['submit', 'submitBatch'] as const)(
		'%s: the payment is looked up and named as the candidate, never "nothing was paid"',
		async (operation) => {
			const reference = newReference();
			sandbox.control.setFaults(faults);
			const run = await submit({ amount: 31.5, reference }, operation);
			const made = sentWithReference(sandbox, reference);
			expect(made).toHaveLength(1);
			expect(run.error?.description ?? '').not.toMatch(/nothing was paid/i);
			// the payment made is named as the candidate (nothing proves it is not an earlier identical one),
			// the state stays unknown, nothing resent
			expectStateUnknown(run.error, {
				reference,
				xaid: gbp.xaid,
				candidates: [made[0].xtid as string],
				key: run.posts[0].key,
			});
			expect(new Set(run.posts.map((post) => post.key)).size).toBe(1);
		},
	);
});

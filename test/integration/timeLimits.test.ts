/**
 * Every request has a time limit (the credential's Time Limit per Request): against a bank that
 * accepts the connection and never answers, a read is tried again and then fails naming the endpoint
 * and the time waited; a payment whose answer never came is possibly made, so it is looked up and
 * never sent under another key, and a later run pays it once.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { credentialsFor } from '../helpers/sandboxCredentials';
import { type Sandbox, startSandbox } from '../sandbox';
import { byId, runNode } from './actionNode';
import { expectStateUnknown, jsonOf, runPayments, sentWithReference } from './payments/paymentNode';

// the transport's waits between attempts are not slept through: outcomes, not timing, are under test
jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

let sandbox: Sandbox;
let credentials: ICredentialDataDecryptedObject;
let gbp: { xaid: string; xpid: string };
let counter = 0;
const LIMIT_SECONDS = 2;
const newReference = () => `TL-${process.pid % 1000}-${++counter}`.slice(0, 18);

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	credentials = credentialsFor(sandbox);
	gbp = { xaid: sandbox.seeded.accounts.gbp, xpid: sandbox.seeded.payees.gbp };
	// the token and the first answers (modules loaded on both sides) under the default limit, so that a
	// loaded machine's slow start is not what runs out of time
	const warm = await runNode(sandbox, credentials, {
		parameters: { resource: 'account', operation: 'get', account: byId(gbp.xaid) },
	});
	expect(warm.error).toBeUndefined();
	// then two seconds: the tests wait out real time limits, never a stub
	credentials.requestTimeLimit = LIMIT_SECONDS;
});
afterAll(async () => await sandbox.close());
afterEach(() => sandbox.control.clearFaults());

function submit(reference: string, executionId: string) {
	return runPayments(sandbox, credentials, {
		executionId,
		parameters: {
			operation: 'submit',
			account: byId(gbp.xaid),
			payee: byId(gbp.xpid),
			amount: '21.50',
			reference,
		},
	});
}

describe('a bank that accepts the connection and never answers', () => {
	it('a read is tried again, then fails naming the endpoint, the attempts and the time waited', async () => {
		sandbox.control.setFaults([{ method: 'GET', path: '/account/{xaid}', kind: 'hang' }]);
		const run = await runNode(sandbox, credentials, {
			parameters: { resource: 'account', operation: 'get', account: byId(gbp.xaid) },
		});
		expect(run.calls.filter((call) => call === `GET /account/${gbp.xaid}`)).toHaveLength(5);
		expect(run.error?.message).toBe(
			`Could not reach the Customer Banking API: no answer within ${LIMIT_SECONDS} s after 5 attempts`,
		);
		expect(run.error?.description).toContain(`(GET /account/${gbp.xaid})`);
		expect(run.error?.description).toContain('Time Limit per Request');
	}, 30_000);

	it('a payment the bank made but never answered is looked up, not sent under another key; the next run pays nothing new', async () => {
		const reference = newReference();
		sandbox.control.setFaults([{ method: 'POST', path: '/payments', kind: 'commitThenHang' }]);
		const first = await submit(reference, 'exec-hang-committed');
		const made = sentWithReference(sandbox, reference);
		expect(made).toHaveLength(1);
		expect(new Set(first.posts.map((post) => post.key)).size).toBe(1);
		expectStateUnknown(first.error, {
			reference,
			xaid: gbp.xaid,
			candidates: [made[0].xtid as string],
			key: first.posts[0].key,
		});
		expect(first.error?.description).toContain(`no answer within ${LIMIT_SECONDS} s`);

		// Retry On Fail, the bank answering again: the same key, the payment made before
		sandbox.control.clearFaults();
		const second = await submit(reference, 'exec-hang-committed');
		expect(second.posts.map((post) => post.key)).toEqual([first.posts[0].key]);
		expect(jsonOf(second)[0]).toMatchObject({ transactionId: made[0].xtid });
		expect(sentWithReference(sandbox, reference)).toHaveLength(1);
	}, 60_000);

	it('a payment the bank never processed is reported as possibly made, never as not paid; the retry pays it once', async () => {
		const reference = newReference();
		sandbox.control.setFaults([{ method: 'POST', path: '/payments', kind: 'hang' }]);
		const first = await submit(reference, 'exec-hang-nothing');
		expect(sentWithReference(sandbox, reference)).toHaveLength(0);
		expectStateUnknown(first.error, {
			reference,
			xaid: gbp.xaid,
			candidates: [],
			key: first.posts[0].key,
		});

		sandbox.control.clearFaults();
		const second = await submit(reference, 'exec-hang-nothing');
		expect(second.posts.map((post) => post.key)).toEqual([first.posts[0].key]);
		expect(sentWithReference(sandbox, reference)).toHaveLength(1);
	}, 60_000);

	it('the look-up after a hanging payment is bounded too: the item says the state is unknown', async () => {
		const reference = newReference();
		sandbox.control.setFaults([
			{ method: 'POST', path: '/payments', kind: 'commitThenHang' },
			{ method: 'GET', kind: 'hang' },
		]);
		const run = await submit(reference, 'exec-hang-lookup');
		expect(sentWithReference(sandbox, reference)).toHaveLength(1);
		expect(run.error?.message ?? '').not.toMatch(/not paid|nothing was paid/i);
		expect(run.error?.description ?? '').not.toMatch(/nothing was paid/i);
		expect(run.error?.description).toContain(`no answer within ${LIMIT_SECONDS} s`);
	}, 60_000);
});

describe('a token service that accepts the connection and never answers', () => {
	it('the run fails within the limit, naming the Token URL and the time waited', async () => {
		sandbox.control.setFaults([{ method: 'POST', path: '/oauth/token', kind: 'hang' }]);
		const run = await runNode(
			sandbox,
			{ ...credentials, accessToken: '' },
			{
				parameters: { resource: 'account', operation: 'get', account: byId(gbp.xaid) },
			},
		);
		expect(run.error?.message).toContain(`Could not reach the Token URL`);
		expect(run.error?.message).toContain(`no answer within ${LIMIT_SECONDS} s`);
		expect(run.calls).toEqual([]);
	}, 30_000);
});

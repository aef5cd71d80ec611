/**
 * Canary: recognisable secrets (client secret, access token, signing secret) never appear in any
 * output, error or log line, in any encoding (as is, percent-encoded in either case or byte by byte or
 * twice, form-encoded, base64 and base64url, hex, HTML character references, JSON escapes), nor in part,
 * even with a bank that echoes them back in all those forms and in text error pages longer than an
 * error shows (the sandbox's echoCredentials variant), and never in the sandbox's own request log,
 * whatever the Token URL path; and never at any host but the configured ones, even when the token
 * service or the API redirects elsewhere (a loopback "other host" records all that reaches it). Found
 * by a search that decodes what it reads on its own (test/helpers/secretEncodings.ts).
 */
import { createHmac, randomUUID } from 'node:crypto';

import type { ICredentialDataDecryptedObject, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { CustomerBanking } from '../../nodes/CustomerBanking/CustomerBanking.node';
import { createExecuteContext } from '../helpers/n8nContext';
import { startOtherHost } from '../helpers/otherHost';
import { credentialsFor } from '../helpers/sandboxCredentials';
import { everyEncoding, secretsFoundIn } from '../helpers/secretEncodings';
import { byId } from '../integration/actionNode';
import { newStaticData, trigger, webhookContext } from '../integration/triggerFixtures';
import { type Sandbox, startSandbox } from '../sandbox';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: 77, variants: { echoCredentials: true } });
});
afterAll(async () => await sandbox.close());

/** Everything a user or an operator could see from one run, as one text. */
const seen: string[] = [];

interface Run {
	output?: INodeExecutionData[][];
	error?: Error & { description?: string | null };
}

/** The action node's `execute` as n8n runs it; what it outputs, throws and logs is recorded. */
async function runNode(
	credentials: ICredentialDataDecryptedObject,
	options: {
		executionId: string;
		parameters: Record<string, unknown>;
		itemParameters?: Array<Record<string, unknown>>;
	},
): Promise<Run> {
	const nodeType = new CustomerBanking();
	const items = options.itemParameters?.map((_, index) => ({ json: { index } }));
	const { context, logs } = createExecuteContext({ ...options, items, credentials, nodeType });
	const run: Run = {};
	try {
		run.output = await nodeType.execute.call(context);
	} catch (error) {
		run.error = error as Run['error'];
	}
	record(run.output);
	record(run.error);
	record(logs);
	return run;
}

/** A payment run, with the parameters the payment suites use (payments/paymentNode.ts runPayments). */
const runPayments = (
	_sandbox: Sandbox,
	credentials: ICredentialDataDecryptedObject,
	options: Parameters<typeof runNode>[1],
) =>
	runNode(credentials, {
		...options,
		parameters: { resource: 'payment', skipAlreadyMade: false, ...options.parameters },
	});

function record(value: unknown): void {
	seen.push(
		JSON.stringify(value, (_key, entry: unknown) =>
			entry instanceof Error
				? {
						...entry,
						message: entry.message,
						description: (entry as { description?: unknown }).description,
						stack: entry.stack,
					}
				: entry,
		) ?? '',
	);
}

it('no secret, token or signing secret reaches outputs, errors, logs or the request log, even when the bank echoes them', async () => {
	const { gbp } = sandbox.seeded.accounts;
	const canaries: string[] = [];

	// 1. a client secret the bank refuses and echoes (URL-encoded and base64) in its error
	const wrongSecret = `cs_canary_${randomUUID()}/+=&`;
	canaries.push(wrongSecret);
	const refused = await runPayments(
		sandbox,
		{ ...credentialsFor(sandbox), clientSecret: wrongSecret },
		{
			executionId: 'canary-1',
			parameters: {
				operation: 'submit',
				account: byId(gbp),
				payee: byId(sandbox.seeded.payees.gbp),
				amount: 1,
				reference: 'CANARY-1',
			},
		},
	);
	expect(refused.error).toBeDefined();
	record(refused.error);
	record({ message: refused.error?.message, description: refused.error?.description });

	// 2. a token the bank echoes into accepted items and rejection reasons
	const credentials: ICredentialDataDecryptedObject = credentialsFor(sandbox);
	canaries.push(String(credentials.clientSecret), String(credentials.webhookSigningSecret));
	const paid = await runPayments(sandbox, credentials, {
		executionId: 'canary-2',
		parameters: { operation: 'submitBatch', account: byId(gbp), routeRejected: true },
		itemParameters: [
			{ payee: byId(sandbox.seeded.payees.gbp), amount: 2, reference: 'CANARY-2' },
			// a payee of another account: the bank rejects the item, echoing the token in the reason
			{ payee: byId(sandbox.seeded.payees.eur), amount: 3, reference: 'CANARY-3' },
		],
	});
	expect(paid.error).toBeUndefined();
	const token = String(credentials.accessToken);
	expect(token).toMatch(/^sbx_/);
	canaries.push(token);
	record(paid.output);
	expect(sandbox.control.requests().some((r) => r.path === '/payments' && r.status === 202)).toBe(
		true,
	);

	// 3. the trigger: a signed delivery, with the transaction fetched
	const transaction = await sandbox.control.receive(gbp, 4, 'CANARY-4');
	const body = Buffer.from(
		JSON.stringify({
			deliveryId: randomUUID(),
			event: 'TransactionReceived',
			xaid: gbp,
			xtid: transaction.xtid,
		}),
	);
	const timestamp = Math.floor(Date.now() / 1000);
	const signature = createHmac('sha256', sandbox.signingSecret)
		.update(`${timestamp}.`)
		.update(body)
		.digest('hex');
	const delivered = webhookContext(
		credentials,
		{ accounts: [gbp], events: ['transactionReceived'] },
		{
			path: '/webhook',
			rawBody: body,
			headers: { 'x-cb-timestamp': String(timestamp), 'x-cb-signature': `v1=${signature}` },
		},
		{
			staticData: newStaticData(),
			node: { name: 'Customer Banking Trigger', id: 'canary-trigger' },
		},
	);
	record(await trigger.webhook.call(delivered.context));
	record(delivered.response);
	record(delivered.logs);

	// 4. a Token URL that points into the API: the token request lands where the sandbox logs bodies
	const misdirected = await runPayments(
		sandbox,
		{ ...credentialsFor(sandbox), tokenUrl: sandbox.baseUrl },
		{
			executionId: 'canary-3',
			parameters: {
				operation: 'submit',
				account: byId(gbp),
				payee: byId(sandbox.seeded.payees.gbp),
				amount: 5,
				reference: 'CANARY-5',
			},
		},
	);
	record(misdirected.error);

	// 5. redirects to another host: of the token request, of a read, of a payment
	const other = await startOtherHost();
	try {
		const redirected = { ...credentialsFor(sandbox) };
		const submit = (reference: string) =>
			runPayments(sandbox, redirected, {
				executionId: `canary-${reference}`,
				parameters: {
					operation: 'submit',
					account: byId(gbp),
					payee: byId(sandbox.seeded.payees.gbp),
					amount: 6,
					reference,
				},
			});
		sandbox.control.setFaults([
			{
				path: '/oauth/token',
				kind: 'redirect',
				status: 307,
				location: `${other.origin}/oauth/token`,
				times: 1,
			},
		]);
		const tokenRedirected = await submit('CANARY-6');
		expect(tokenRedirected.error?.message).toMatch(
			/token service answered with a redirect \(HTTP 307\)/,
		);
		record(tokenRedirected.error);
		sandbox.control.setFaults([
			{
				method: 'POST',
				path: '/payments',
				kind: 'redirect',
				status: 307,
				location: `${other.origin}/payments`,
				times: 1,
			},
			{
				method: 'GET',
				kind: 'redirect',
				status: 302,
				location: `${other.origin}/elsewhere`,
				times: 1,
			},
		]);
		const paymentRedirected = await submit('CANARY-7');
		expect(paymentRedirected.error?.message).toMatch(/^Payment state unknown/);
		record(paymentRedirected.error);
		canaries.push(String(redirected.accessToken));
		sandbox.control.clearFaults();
		const atOtherHost = other.occurrences(everyEncoding(canaries));
		console.log(
			`canary: ${other.arrived.length} requests reached the other host, ${atOtherHost} occurrences of the secrets there`,
		);
		expect(other.arrived).toHaveLength(0);
		expect(atOtherHost).toBe(0);
	} finally {
		await other.close();
	}
	// 6. a read the bank answers with an error page (text, longer than an error shows) that echoes the
	// token across its 500th character and in every other form
	const tokenBefore = String(credentials.accessToken);
	const missing = await runNode(credentials, {
		executionId: 'canary-8',
		parameters: { resource: 'transaction', operation: 'get', transactionId: randomUUID() },
	});
	expect(missing.error?.message).toMatch(/^Not found: /);
	expect(credentials.accessToken).toBe(tokenBefore);
	const bankSaid = sandbox.control.requests().at(-1);
	expect(bankSaid?.status).toBe(404);

	record(sandbox.control.requests());
	record(sandbox.control.deliveries().map((d) => d.attempts));

	const text = seen.join('\n');
	const found = secretsFoundIn(text, canaries);
	console.log(
		`canary: ${canaries.length} secrets searched for in any encoding, and in part, over ${text.length} characters of outputs, errors, log lines and the request log: ${found.length} found`,
	);
	expect(found).toEqual([]);
	// the bank did echo them, in every form, so the check is not empty
	const paidItems = JSON.stringify(
		(paid.output ?? []).flat().map((item) => item.json as IDataObject),
	);
	expect(paidItems).toContain('[redacted]');
	expect(paidItems).toContain('"tokenSeen":{"raw":"[redacted]","percentUpper":"[redacted]"');
	expect(missing.error?.message).toContain('[redacted]');
});

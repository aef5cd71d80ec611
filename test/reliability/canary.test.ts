/**
 * Issue 11 canary: recognisable secrets (client secret, access token, signing secret) never appear in
 * any output, error or log, in any form (as is, URL/form-encoded, base64, JSON-escaped), even with a
 * bank that echoes them back (the sandbox's echoCredentials variant), and never in the sandbox's own
 * request log, whatever the Token URL path; and never at any host but the configured ones, even when the
 * token service or the API redirects elsewhere (a loopback "other host" records all that reaches it).
 */
import { createHmac, randomUUID } from 'node:crypto';

import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { secretForms } from '../../nodes/CustomerBanking/transport/redaction';
import { startOtherHost } from '../helpers/otherHost';
import { credentialsFor } from '../helpers/sandboxCredentials';
import { byId, runPayments } from '../integration/payments/paymentNode';
import { newStaticData, trigger, webhookContext } from '../integration/triggerFixtures';
import { type Sandbox, startSandbox } from '../sandbox';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: 77, variants: { echoCredentials: true } });
});
afterAll(async () => await sandbox.close());

/** Everything a user or an operator could see from one run, as one text. */
const seen: string[] = [];
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
		{ accounts: [gbp], events: ['TransactionReceived'] },
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
		const atOtherHost = secretForms(canaries).reduce(
			(count, form) => count + other.occurrences([form]),
			0,
		);
		console.log(
			`canary: ${other.arrived.length} requests reached the other host, ${atOtherHost} occurrences of the secrets there`,
		);
		expect(other.arrived).toHaveLength(0);
		expect(atOtherHost).toBe(0);
	} finally {
		await other.close();
	}
	record(sandbox.control.requests());
	record(sandbox.control.deliveries().map((d) => d.attempts));

	const text = seen.join('\n');
	const forms = secretForms(canaries);
	const occurrences = forms.filter((form) => text.includes(form));
	console.log(
		`canary: ${canaries.length} secrets in ${forms.length} forms checked over ${text.length} characters of outputs, errors, logs and the request log: ${occurrences.length} occurrences`,
	);
	expect(occurrences).toEqual([]);
	// the bank did echo them, so the check is not empty
	expect(
		JSON.stringify((paid.output ?? []).flat().map((item) => item.json as IDataObject)),
	).toContain('[redacted]');
});

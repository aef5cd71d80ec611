/**
 * Random secrets (fast-check), each echoed in one of its encodings by a bank, a token service or a
 * gateway, through every place text leaves the nodes: an error's message and description (and all
 * n8n keeps of it), a text error body cut to length, the node's output, a token exchange's error, and
 * n8n's log. Found by a search that decodes on its own (test/helpers/secretEncodings.ts): none.
 */
import { inspect } from 'node:util';

import fc from 'fast-check';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { CustomerBankingApi } from '../../../credentials/CustomerBankingApi.credentials';
import { ENDPOINTS, request } from '../../../nodes/shared/transport';
import { CustomerBankingTrigger } from '../../../nodes/CustomerBankingTrigger/CustomerBankingTrigger.node';
import { createExecuteContext, createHookContext, n8nHttpRequest } from '../../helpers/n8nContext';
import { scriptedCredentials, startScriptedApi, type ScriptedApi } from '../../helpers/scriptedApi';
import { ENCODING_NAMES, ENCODINGS, secretsFoundIn } from '../../helpers/secretEncodings';
import { secretArbitrary } from '../../helpers/randomSecrets';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

let api: ScriptedApi;
beforeAll(async () => {
	api = await startScriptedApi();
});
afterAll(async () => await api.close());

interface Secrets {
	clientSecret: string;
	token: string;
	signing: string;
}

const secretsArbitrary = fc.record({
	clientSecret: secretArbitrary,
	token: secretArbitrary,
	signing: secretArbitrary,
});
const whichArbitrary = fc.constantFrom<keyof Secrets>('clientSecret', 'token', 'signing');
const encodingArbitrary = fc.constantFrom(...ENCODING_NAMES);

function credentialsWith(secrets: Secrets): ICredentialDataDecryptedObject {
	api.setToken(() => ({
		status: 200,
		body: { access_token: secrets.token, token_type: 'Bearer', expires_in: 3600 },
	}));
	return scriptedCredentials(api, {
		clientSecret: secrets.clientSecret,
		webhookSigningSecret: secrets.signing,
		webhookSigningSecretPrevious: '',
	});
}

/** Everything n8n keeps or shows of a thrown error. */
function exposed(error: unknown): string {
	const e = error as {
		message?: string;
		description?: string;
		messages?: unknown;
		context?: unknown;
	};
	return [
		JSON.stringify(error),
		inspect(error, { depth: 20, showHidden: true }),
		e.message,
		String(e.description),
		JSON.stringify(e.messages),
		JSON.stringify(e.context),
	].join('\n');
}

async function outcomeOf(credentials: ICredentialDataDecryptedObject): Promise<string> {
	const { context, logs } = createExecuteContext({ parameters: {}, credentials });
	const result = await request.call(context, ENDPOINTS.accounts.at({})).then(
		(answer) => JSON.stringify(answer),
		(error: unknown) => exposed(error),
	);
	return `${result}\n${JSON.stringify(logs)}`;
}

const found = (text: string, secrets: Secrets) =>
	secretsFoundIn(text, [secrets.clientSecret, secrets.token, secrets.signing]);

describe('a secret echoed in any encoding leaves the nodes nowhere', () => {
	it("in an error's message and description (the API's JSON message)", async () => {
		await fc.assert(
			fc.asyncProperty(
				secretsArbitrary,
				whichArbitrary,
				encodingArbitrary,
				async (secrets, which, encoding) => {
					const credentials = credentialsWith(secrets);
					const echoed = ENCODINGS[encoding](secrets[which]);
					api.setApi(() => ({
						status: 400,
						body: { statusCode: 400, message: `${echoed} is not valid (${echoed})` },
					}));
					expect(found(await outcomeOf(credentials), secrets)).toEqual([]);
				},
			),
			{ numRuns: 80 },
		);
	});

	it('in a text answer cut to length, the secret anywhere around the cut', async () => {
		await fc.assert(
			fc.asyncProperty(
				secretsArbitrary,
				whichArbitrary,
				encodingArbitrary,
				fc.integer({ min: 380, max: 520 }),
				async (secrets, which, encoding, at) => {
					const credentials = credentialsWith(secrets);
					const echoed = ENCODINGS[encoding](secrets[which]);
					api.setApi(() => ({ status: 502, text: `${'.'.repeat(at)}${echoed}${'.'.repeat(300)}` }));
					expect(found(await outcomeOf(credentials), secrets)).toEqual([]);
				},
			),
			{ numRuns: 80 },
		);
	});

	it("in the node's output (strings, keys, nested values of an answer)", async () => {
		await fc.assert(
			fc.asyncProperty(
				secretsArbitrary,
				whichArbitrary,
				encodingArbitrary,
				async (secrets, which, encoding) => {
					const credentials = credentialsWith(secrets);
					const echoed = ENCODINGS[encoding](secrets[which]);
					api.setApi(() => ({
						status: 200,
						body: { total: 1, results: [{ name: `from ${echoed}`, [echoed]: [echoed] }] },
					}));
					const output = await outcomeOf(credentials);
					expect(output).toContain('[redacted]');
					expect(found(output, secrets)).toEqual([]);
				},
			),
			{ numRuns: 80 },
		);
	});

	it('in the error of a refused token exchange (its message, description and error code)', async () => {
		await fc.assert(
			fc.asyncProperty(secretsArbitrary, encodingArbitrary, async (secrets, encoding) => {
				const credentials = credentialsWith(secrets);
				const echoed = ENCODINGS[encoding](secrets.clientSecret);
				api.setToken(() => ({
					status: 400,
					body: { error: echoed, error_description: `client_secret=${echoed} refused` },
				}));
				expect(found(await outcomeOf(credentials), secrets)).toEqual([]);
			}),
			{ numRuns: 80 },
		);
	});

	it("in the error of the credential's own token exchange (what n8n's credential test shows)", async () => {
		const credential = new CustomerBankingApi();
		const helpers = { httpRequest: async (options: never) => await n8nHttpRequest(options, []) };
		await fc.assert(
			fc.asyncProperty(
				secretsArbitrary,
				encodingArbitrary,
				fc.constantFrom(400, 401, 429, 503),
				async (secrets, encoding, status) => {
					const credentials = credentialsWith(secrets);
					const echoed = ENCODINGS[encoding](secrets.clientSecret);
					api.setToken(() => ({
						status,
						// a header carries printable ASCII only
						headers: (/^[\x20-\x7e]*$/.test(echoed) ? { 'retry-after': echoed } : {}) as Record<
							string,
							string
						>,
						body: { error: echoed, message: `client_secret=${echoed} refused` },
					}));
					const error = await credential.preAuthentication
						.call({ helpers } as never, credentials)
						.then(
							() => undefined,
							(thrown: unknown) => thrown,
						);
					expect(error).toBeDefined();
					expect(found(exposed(error), secrets)).toEqual([]);
				},
			),
			{ numRuns: 80 },
		);
	});

	it('in the error of a token exchange answered 429, a client secret that starts with a space (found by the property above)', async () => {
		const credential = new CustomerBankingApi();
		const helpers = { httpRequest: async (options: never) => await n8nHttpRequest(options, []) };
		const secrets = {
			clientSecret: ' /AAAAAAAA/AA',
			token: '/AA//AA/&/AA',
			signing: 'AAAAAAAAA/AA',
		};
		const credentials = credentialsWith(secrets);
		api.setToken(() => ({
			status: 429,
			headers: { 'retry-after': secrets.clientSecret },
			body: {
				error: secrets.clientSecret,
				message: `client_secret=${secrets.clientSecret} refused`,
			},
		}));
		const error = await credential.preAuthentication.call({ helpers } as never, credentials).then(
			() => undefined,
			(thrown: unknown) => thrown,
		);
		expect(error).toBeDefined();
		expect(found(exposed(error), secrets)).toEqual([]);
		// a Retry-After that is not a number of seconds or a date is not shown at all
		expect((error as { description?: string }).description).toMatch(/^Wait and try again\./);
	});

	it("in n8n's log (the trigger's warning when an outdated subscription cannot be removed)", async () => {
		await fc.assert(
			fc.asyncProperty(
				secretsArbitrary,
				whichArbitrary,
				encodingArbitrary,
				async (secrets, which, encoding) => {
					const credentials = credentialsWith(secrets);
					const echoed = ENCODINGS[encoding](secrets[which]);
					api.setApi((request) =>
						request.path === '/webhooks/unsubscribe'
							? { status: 400, body: { statusCode: 400, message: `cannot remove (${echoed})` } }
							: { status: 201, body: { ref: 'r-1' } },
					);
					const { context, logs } = createHookContext({
						credentials,
						nodeType: new CustomerBankingTrigger(),
						parameters: { accounts: ['acc-1'], events: ['transactionReceived'] },
						staticData: { node: { subscribedZapIds: ['n8n-prod-outdated'] }, global: {} },
					});
					await new CustomerBankingTrigger().webhookMethods.default.create.call(context);
					const warned = logs.filter((entry) => entry.message.includes('outdated'));
					expect(warned).toHaveLength(1);
					expect(found(JSON.stringify(logs), secrets)).toEqual([]);
				},
			),
			{ numRuns: 60 },
		);
	});
});

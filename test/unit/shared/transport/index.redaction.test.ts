/**
 * Secrets never leave the transport in an error (GUIDE: "Secrets never appear in node output, errors or
 * logs"): a canary token, client secret and signing secrets are searched for in everything a thrown error
 * exposes — its JSON (what n8n stores with the execution), util.inspect (what a log line prints), its
 * message, description and messages.
 */
import { inspect } from 'node:util';

import { NodeApiError, sleep } from 'n8n-workflow';

import { request } from '../../../../nodes/shared/transport';
import { endpointCall } from '../../../helpers/endpointCall';
import { createExecuteContext } from '../../../helpers/n8nContext';
import {
	scriptedCredentials,
	startScriptedApi,
	type ScriptedApi,
} from '../../../helpers/scriptedApi';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

const CANARY_TOKEN = 'CANARY-access-token-9d2e71';
const credentials = (api: ScriptedApi) => scriptedCredentials(api);
const canaries = (api: ScriptedApi) => {
	const { clientSecret, webhookSigningSecret, webhookSigningSecretPrevious } = credentials(api);
	return [
		CANARY_TOKEN,
		clientSecret,
		webhookSigningSecret,
		webhookSigningSecretPrevious,
	] as string[];
};

function everythingExposed(error: NodeApiError): string[] {
	return [
		JSON.stringify(error),
		inspect(error, { depth: 20, showHidden: true }),
		error.message,
		String(error.description),
		JSON.stringify(error.messages),
		JSON.stringify(error.context),
		String(error.stack),
	];
}

let api: ScriptedApi;
beforeEach(async () => {
	api = await startScriptedApi();
	api.setToken(() => ({
		status: 200,
		body: { access_token: CANARY_TOKEN, token_type: 'Bearer', expires_in: 3600 },
	}));
	(sleep as jest.Mock).mockClear();
});
afterEach(async () => {
	await api.close();
});

async function thrownBy(path: string, method: 'GET' | 'POST' = 'GET', creds = credentials(api)) {
	const { context } = createExecuteContext({ parameters: {}, credentials: creds });
	const error = await request
		.call(context, endpointCall({ method, path }), {
			body: method === 'POST' ? { name: 'x' } : undefined,
		})
		.then(
			() => undefined,
			(thrown: unknown) => thrown,
		);
	expect(error).toBeInstanceOf(NodeApiError);
	return error as NodeApiError;
}

function echo(status: number) {
	// A careless API that echoes the request's Authorization header and more in its message.
	api.setApi((request) => ({
		status,
		body: {
			statusCode: status,
			message: `rejected ${String(request.headers.authorization)} token=${CANARY_TOKEN} secret=${credentials(api).clientSecret} whsec=${credentials(api).webhookSigningSecret}`,
		},
	}));
}

it('the raw error n8n hands to the transport does carry the token (so the canary is meaningful)', async () => {
	api.setApi(() => ({ status: 500, body: { statusCode: 500, message: 'boom' } }));
	const { context } = createExecuteContext({ parameters: {}, credentials: credentials(api) });
	const raw = await context.helpers.httpRequestWithAuthentication
		.call(context, 'customerBankingApi', { method: 'GET', url: `${api.baseUrl}/accounts` })
		.then(
			() => undefined,
			(thrown: unknown) => thrown as NodeApiError,
		);
	expect(inspect(raw?.cause, { depth: 20 })).toContain(CANARY_TOKEN);
});

it.each([400, 403, 404, 409, 429, 500])(
	'a %i whose message echoes the secrets is redacted',
	async (status) => {
		echo(status);
		const error = await thrownBy('/accounts');
		for (const text of everythingExposed(error)) {
			for (const canary of canaries(api)) expect(text).not.toContain(canary);
		}
		expect(`${error.message} ${error.description}`).toContain('[redacted]');
	},
);

it('a 401 that survives the refresh is redacted', async () => {
	echo(401);
	const error = await thrownBy('/account/a1');
	for (const text of everythingExposed(error)) {
		for (const canary of canaries(api)) expect(text).not.toContain(canary);
	}
});

it('a network failure is redacted (axios keeps the Authorization header in its config)', async () => {
	api.setApi(() => 'reset');
	const error = await thrownBy('/accounts');
	for (const text of everythingExposed(error)) {
		for (const canary of canaries(api)) expect(text).not.toContain(canary);
	}
});

it('a failed token exchange is redacted', async () => {
	api.setToken((request) => ({
		status: 400,
		body: { statusCode: 400, error: 'invalid_request', message: `${JSON.stringify(request.body)}` },
	}));
	const error = await thrownBy('/accounts', 'POST');
	for (const text of everythingExposed(error)) {
		for (const canary of canaries(api)) expect(text).not.toContain(canary);
	}
});

it.each([400, 409])(
	'a %i whose message puts a secret where a field name goes does not leak it as the field',
	async (status) => {
		// fieldNamedIn reads "<word> is not valid" as the field: it must read the redacted message
		api.setApi(() => ({
			status,
			body: { statusCode: status, message: `${CANARY_TOKEN} is not valid` },
		}));
		const error = await thrownBy('/accounts');
		for (const text of everythingExposed(error)) expect(text).not.toContain(CANARY_TOKEN);
	},
);

it.each([480, 490, 500, 510])(
	'a text answer longer than 500 characters with the token at character %i: no part of it reaches the error',
	async (at) => {
		api.setApi(() => ({
			status: 400,
			text: `${'x'.repeat(at)}${CANARY_TOKEN} ${'y'.repeat(600)}`,
		}));
		const error = await thrownBy('/accounts');
		// any 8 characters of the token, as a cut across it would leave
		const pieces = Array.from({ length: CANARY_TOKEN.length - 7 }, (_, i) =>
			CANARY_TOKEN.slice(i, i + 8),
		);
		for (const text of everythingExposed(error))
			expect(pieces.filter((piece) => text.includes(piece))).toEqual([]);
		// the text is shown, shortened
		expect(error.message).toContain('x'.repeat(400));
		expect(error.message).not.toContain('y'.repeat(100));
	},
);

/**
 * Deliveries signed by the senders' own libraries (standardwebhooks, svix, stripe's test header,
 * @octokit/webhooks-methods), never by the project's signer, fed to the trigger's webhook() through
 * n8n-core's real webhook context, the scheme chosen by name in the form. Each valid delivery is
 * emitted once; each tampered, stale or re-signed-with-another-key one is refused (401) and starts
 * nothing.
 */
import { randomBytes, randomUUID } from 'node:crypto';

import fc from 'fast-check';
import type { IDataObject, IWebhookResponseData } from 'n8n-workflow';

import { NAMED_SCHEMES, verifyDelivery } from '../../nodes/CustomerBankingTrigger/signature';
import type { SignatureScheme } from '../../nodes/CustomerBankingTrigger/signature';

import { signWithReferenceLibraries } from '../helpers/referenceSigning';
import type { ReferenceLibrary, SigningRequest } from '../helpers/referenceSigning';
import { newStaticData, trigger, webhookContext } from './triggerFixtures';

const ACCOUNT = 'acc-schemes-1';
/** A Standard Webhooks secret as Svix and Standard Webhooks senders issue it: whsec_ + base64 key. */
const whsec = () => `whsec_${randomBytes(24).toString('base64')}`;
const now = () => Math.floor(Date.now() / 1000);

interface Delivery {
	rawBody: Buffer;
	headers: Record<string, string>;
}

interface Outcome {
	result?: IWebhookResponseData;
	status: number;
	error?: unknown;
}

let nodeCounter = 0;

function bodyText(fields: IDataObject = {}): string {
	return JSON.stringify({
		event: 'TransactionReceived',
		xaid: ACCOUNT,
		xtid: `txn-${randomUUID()}`,
		occurredAt: new Date().toISOString(),
		...fields,
	});
}

function signed(requests: SigningRequest[]): Delivery[] {
	return signWithReferenceLibraries(requests).map((headers, index) => ({
		rawBody: Buffer.from(requests[index].body, 'utf8'),
		headers,
	}));
}

function signedOne(request: SigningRequest): Delivery {
	return signed([request])[0];
}

/** A trigger node of its own (its own ledger), with the scheme chosen by name and the given secrets. */
function triggerNode(scheme: string, secret: string, previous = '', extra: IDataObject = {}) {
	const node = { name: 'Customer Banking Trigger', id: `schemes-node-${++nodeCounter}` };
	const credentials = { webhookSigningSecret: secret, webhookSigningSecretPrevious: previous };
	const parameters: IDataObject = {
		accounts: [ACCOUNT],
		events: ['transactionReceived', 'transactionConfirmed'],
		fetchTransaction: false,
		signatureScheme: scheme,
		...extra,
	};
	return async (delivery: Delivery): Promise<Outcome> => {
		const { context, response } = webhookContext(
			credentials,
			parameters,
			{ ...delivery, path: '/webhook' },
			{ node, staticData: newStaticData() },
		);
		try {
			const result = await trigger.webhook.call(context);
			return result.noWebhookResponse
				? { result, status: response.statusCode }
				: { result, status: 200 };
		} catch (error) {
			return { status: 500, error };
		}
	};
}

const emitted = (outcome: Outcome) => outcome.result?.workflowData !== undefined;
const output = (outcome: Outcome) => outcome.result?.workflowData?.[0]?.[0]?.json;

/** The refused outcomes: 401, nothing emitted (or n8n's failed execution reporting it, nothing emitted). */
function expectRefused(outcome: Outcome) {
	expect(emitted(outcome)).toBe(false);
	expect([401, 500]).toContain(outcome.status);
}

interface SchemeCase {
	scheme: string;
	library: ReferenceLibrary;
	secret: () => string;
	/** Whether the scheme signs a timestamp (stale deliveries refused). */
	timed: boolean;
}

const CASES: SchemeCase[] = [
	{ scheme: 'standardWebhooks', library: 'standardwebhooks', secret: whsec, timed: true },
	{ scheme: 'standardWebhooks', library: 'svix', secret: whsec, timed: true },
	{ scheme: 'stripe', library: 'stripe', secret: whsec, timed: true },
	{
		scheme: 'github',
		library: 'octokit',
		secret: () => randomBytes(20).toString('hex'),
		timed: false,
	},
];

describe.each(CASES)('$scheme, signed by $library', ({ scheme, library, secret, timed }) => {
	it('a valid delivery is emitted once; its copy is not', async () => {
		const key = secret();
		const receive = triggerNode(scheme, key);
		const delivery = signedOne({
			library,
			secret: key,
			id: `msg_${randomUUID()}`,
			body: bodyText(),
		});
		const first = await receive(delivery);
		expect(first.status).toBe(200);
		expect(emitted(first)).toBe(true);
		expect(output(first)).toMatchObject({ event: 'transactionReceived', accountId: ACCOUNT });
		const copy = await receive(delivery);
		expect(emitted(copy)).toBe(false);
		expect(copy.status).toBe(200);
	});

	it('a delivery whose body was changed after signing is refused', async () => {
		const key = secret();
		const receive = triggerNode(scheme, key);
		const delivery = signedOne({
			library,
			secret: key,
			id: `msg_${randomUUID()}`,
			body: bodyText(),
		});
		const tampered = Buffer.from(
			delivery.rawBody.toString('utf8').replace('TransactionReceived', 'TransactionConfirmed'),
		);
		expectRefused(await receive({ ...delivery, rawBody: tampered }));
	});

	it('a delivery signed with another key is refused', async () => {
		const receive = triggerNode(scheme, secret());
		const delivery = signedOne({
			library,
			secret: secret(),
			id: `msg_${randomUUID()}`,
			body: bodyText(),
		});
		expectRefused(await receive(delivery));
	});

	it("a delivery signed with the credential's previous secret is accepted during a rotation", async () => {
		const previous = secret();
		const receive = triggerNode(scheme, secret(), previous);
		const delivery = signedOne({
			library,
			secret: previous,
			id: `msg_${randomUUID()}`,
			body: bodyText(),
		});
		expect(emitted(await receive(delivery))).toBe(true);
	});

	it('an unsigned delivery and one whose signature header is empty are refused', async () => {
		const key = secret();
		const receive = triggerNode(scheme, key);
		const delivery = signedOne({
			library,
			secret: key,
			id: `msg_${randomUUID()}`,
			body: bodyText(),
		});
		expectRefused(await receive({ rawBody: delivery.rawBody, headers: {} }));
		const emptied = Object.fromEntries(
			Object.entries(delivery.headers).map(([name, value]) => [
				name,
				/signature/.test(name) ? '' : value,
			]),
		);
		expectRefused(await receive({ rawBody: delivery.rawBody, headers: emptied }));
	});

	if (timed) {
		it('a delivery signed 10 minutes ago (outside the 5-minute window) is refused, also one from the future', async () => {
			const key = secret();
			const receive = triggerNode(scheme, key);
			const [stale, future] = signed([
				{
					library,
					secret: key,
					id: `msg_${randomUUID()}`,
					body: bodyText(),
					timestampSeconds: now() - 600,
				},
				{
					library,
					secret: key,
					id: `msg_${randomUUID()}`,
					body: bodyText(),
					timestampSeconds: now() + 600,
				},
			]);
			expectRefused(await receive(stale));
			expectRefused(await receive(future));
		});

		it('a delivery whose timestamp was changed after signing is refused', async () => {
			const key = secret();
			const receive = triggerNode(scheme, key);
			const delivery = signedOne({
				library,
				secret: key,
				id: `msg_${randomUUID()}`,
				body: bodyText(),
				timestampSeconds: now() - 60,
			});
			const moved = Object.fromEntries(
				Object.entries(delivery.headers).map(([name, value]) => [
					name,
					name.endsWith('timestamp') ? String(now()) : value.replace(/t=\d+/, `t=${now()}`),
				]),
			);
			expectRefused(await receive({ ...delivery, headers: moved }));
		});
	} else {
		it('has no timestamp: a captured delivery sent again later is recognised only by the ledger (a duplicate, not emitted)', async () => {
			const key = secret();
			const receive = triggerNode(scheme, key);
			const delivery = signedOne({ library, secret: key, body: bodyText() });
			expect(emitted(await receive(delivery))).toBe(true);
			const replay = await receive(delivery);
			expect(emitted(replay)).toBe(false);
		});
	}
});

describe('Standard Webhooks and Svix specifics', () => {
	it('several signatures in one header (a key rotation at the sender): the one made with our key verifies', async () => {
		const ours = whsec();
		const receive = triggerNode('standardWebhooks', ours);
		const id = `msg_${randomUUID()}`;
		const body = bodyText();
		const timestampSeconds = now();
		const [theirs, mine] = signed([
			{ library: 'standardwebhooks', secret: whsec(), id, body, timestampSeconds },
			{ library: 'standardwebhooks', secret: ours, id, body, timestampSeconds },
		]);
		const header = `${theirs.headers['webhook-signature']} ${mine.headers['webhook-signature']}`;
		expect(
			emitted(
				await receive({ ...mine, headers: { ...mine.headers, 'webhook-signature': header } }),
			),
		).toBe(true);
	});

	it('the message ID is signed: a delivery whose webhook-id was changed is refused', async () => {
		const key = whsec();
		const receive = triggerNode('standardWebhooks', key);
		const delivery = signedOne({
			library: 'standardwebhooks',
			secret: key,
			id: `msg_${randomUUID()}`,
			body: bodyText(),
		});
		expectRefused(
			await receive({ ...delivery, headers: { ...delivery.headers, 'webhook-id': 'msg_other' } }),
		);
	});

	it("the sender's retry (same message ID and body, signed again later) is not emitted again: the message ID is the delivery ID", async () => {
		const key = whsec();
		const receive = triggerNode('standardWebhooks', key);
		const id = `msg_${randomUUID()}`;
		const body = bodyText();
		const [first, retry] = signed([
			{ library: 'svix', secret: key, id, body, timestampSeconds: now() - 30 },
			{ library: 'svix', secret: key, id, body, timestampSeconds: now() },
		]);
		const outcome = await receive(first);
		expect(emitted(outcome)).toBe(true);
		expect(output(outcome)).toMatchObject({ deliveryId: id });
		const again = await receive(retry);
		expect(again.status).toBe(200);
		expect(emitted(again)).toBe(false);
	});

	it('a delivery ID in the payload wins over the message ID', async () => {
		const key = whsec();
		const receive = triggerNode('standardWebhooks', key);
		const delivery = signedOne({
			library: 'standardwebhooks',
			secret: key,
			id: `msg_${randomUUID()}`,
			body: bodyText({ deliveryId: 'payload-delivery-7' }),
		});
		expect(output(await receive(delivery))).toMatchObject({ deliveryId: 'payload-delivery-7' });
	});

	it('two different messages with the same body are two deliveries', async () => {
		const key = whsec();
		const receive = triggerNode('standardWebhooks', key);
		const body = bodyText();
		const [a, b] = signed([
			{ library: 'standardwebhooks', secret: key, id: `msg_${randomUUID()}`, body },
			{ library: 'standardwebhooks', secret: key, id: `msg_${randomUUID()}`, body },
		]);
		expect(emitted(await receive(a))).toBe(true);
		expect(emitted(await receive(b))).toBe(true);
	});

	it('the whsec_ secret is key material: the same text used as a plain HMAC key does not verify', async () => {
		// Stripe uses its whsec_ secret as text; a Standard Webhooks delivery signed that way is refused
		const key = whsec();
		const receive = triggerNode('standardWebhooks', key);
		const stripeStyle = signedOne({ library: 'stripe', secret: key, body: bodyText() });
		const t = /t=(\d+)/.exec(stripeStyle.headers['stripe-signature'])?.[1] ?? '';
		const hex = /v1=([0-9a-f]+)/.exec(stripeStyle.headers['stripe-signature'])?.[1] ?? '';
		expectRefused(
			await receive({
				rawBody: stripeStyle.rawBody,
				headers: {
					'webhook-id': 'msg_x',
					'webhook-timestamp': t,
					'webhook-signature': `v1,${Buffer.from(hex, 'hex').toString('base64')}`,
				},
			}),
		);
	});
});

describe('Stripe-style specifics', () => {
	it('several v1 signatures in the header: the one made with our secret verifies', async () => {
		const ours = whsec();
		const receive = triggerNode('stripe', ours);
		const body = bodyText();
		const timestampSeconds = now();
		const [theirs, mine] = signed([
			{ library: 'stripe', secret: whsec(), body, timestampSeconds },
			{ library: 'stripe', secret: ours, body, timestampSeconds },
		]);
		const other = /v1=([0-9a-f]+)/.exec(theirs.headers['stripe-signature'])?.[1];
		const header = `${mine.headers['stripe-signature']},v1=${other}`.replace(
			/^(t=\d+),/,
			`$1,v1=${other},`,
		);
		expect(emitted(await receive({ ...mine, headers: { 'stripe-signature': header } }))).toBe(true);
	});
});

describe('the scheme must be the one the sender uses', () => {
	it.each([
		['customerBanking', 'standardwebhooks'],
		['github', 'stripe'],
		['stripe', 'octokit'],
		['standardWebhooks', 'stripe'],
	] as const)('a trigger set to %s refuses a delivery signed by %s', async (scheme, library) => {
		const key = whsec();
		const receive = triggerNode(scheme, key);
		const delivery = signedOne({
			library,
			secret: key,
			id: `msg_${randomUUID()}`,
			body: bodyText(),
		});
		expectRefused(await receive(delivery));
	});
});

describe('any body, message ID, timestamp and key the senders may use (fast-check, signed by the libraries)', () => {
	const secretBytes = fc.uint8Array({ minLength: 1, maxLength: 64 });
	const cases = fc.sample(
		fc.record({
			body: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 300 }),
			id: fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
			key: secretBytes,
			offset: fc.integer({ min: -290, max: 290 }),
			library: fc.constantFrom<ReferenceLibrary>('standardwebhooks', 'svix', 'stripe', 'octokit'),
		}),
		{ numRuns: 200, seed: 40 },
	);
	const schemeOf: Record<ReferenceLibrary, SignatureScheme> = {
		standardwebhooks: NAMED_SCHEMES.standardWebhooks,
		svix: NAMED_SCHEMES.standardWebhooks,
		stripe: NAMED_SCHEMES.stripe,
		octokit: NAMED_SCHEMES.github,
	};
	const secretOf = (library: ReferenceLibrary, key: Uint8Array) =>
		library === 'standardwebhooks' || library === 'svix'
			? `whsec_${Buffer.from(key).toString('base64')}`
			: Buffer.from(key).toString('hex');

	it('every delivery verifies; with one byte of the body changed, none does', () => {
		const nowSeconds = now();
		const requests = cases.map(({ body, id, key, offset, library }) => ({
			library,
			secret: secretOf(library, key),
			id,
			body,
			timestampSeconds: nowSeconds + offset,
		}));
		const headers = signWithReferenceLibraries(requests);
		let verified = 0;
		let tamperedRefused = 0;
		requests.forEach((request, index) => {
			const scheme = schemeOf[request.library];
			const rawBody = Buffer.from(request.body, 'utf8');
			const check = (bytes: Buffer) =>
				verifyDelivery({
					rawBody: bytes,
					headers: headers[index],
					secrets: [request.secret],
					scheme,
					nowSeconds,
				});
			const verdict = check(rawBody);
			if (verdict.valid) verified++;
			if (verdict.valid && scheme.signedContent === 'idTimestampAndBody')
				expect(verdict.messageId).toBe(request.id);
			const changed = Buffer.concat([rawBody, Buffer.from(' ')]);
			if (rawBody.length > 0) changed[index % rawBody.length] ^= 0x01;
			if (!check(changed).valid) tamperedRefused++;
		});
		expect({ verified, tamperedRefused }).toEqual({
			verified: cases.length,
			tamperedRefused: cases.length,
		});
	});
});

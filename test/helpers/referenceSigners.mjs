/**
 * Signs webhook deliveries with the senders' own libraries (code no one here wrote), never with the
 * trigger's verifier. ESM because `svix` and `@octokit/webhooks-methods` ship as ES modules only;
 * the jest suites call it as a child process (referenceSigners.ts).
 *
 * stdin: JSON array of { library, secret, id?, timestampSeconds?, body }; stdout: JSON array of the
 * header objects each library's sender would send.
 */
import { sign as githubSign } from '@octokit/webhooks-methods';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { Webhook as SvixWebhook } from 'svix';

const stripe = new Stripe('sk_test_reference_signer_only');

async function headersFor({ library, secret, id, timestampSeconds, body }) {
	const at = new Date(timestampSeconds * 1000);
	switch (library) {
		case 'standardwebhooks':
			return {
				'webhook-id': id,
				'webhook-timestamp': String(timestampSeconds),
				'webhook-signature': new StandardWebhook(secret).sign(id, at, body),
			};
		case 'svix':
			return {
				'svix-id': id,
				'svix-timestamp': String(timestampSeconds),
				'svix-signature': new SvixWebhook(secret).sign(id, at, body),
			};
		case 'stripe':
			return {
				'stripe-signature': stripe.webhooks.generateTestHeaderString({
					payload: body,
					secret,
					timestamp: timestampSeconds,
				}),
			};
		case 'octokit':
			return { 'x-hub-signature-256': await githubSign(secret, body) };
		default:
			throw new Error(`unknown library ${library}`);
	}
}

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const requests = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const signed = [];
for (const request of requests) signed.push(await headersFor(request));
process.stdout.write(JSON.stringify(signed));

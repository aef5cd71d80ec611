/**
 * What the bank is told when a delivery goes no further, written on express' response as n8n-core's
 * WebhookContext hands it over: a refusal or a deferral is sent by the node itself (n8n then sends
 * nothing), an acknowledgement is the body n8n sends; none of them says "received" for an event that
 * did not run, and none emits anything.
 */
import {
	acknowledge,
	Answer,
	deferDelivery,
	refuse,
} from '../../../nodes/CustomerBankingTrigger/answers';
import { CustomerBankingTrigger } from '../../../nodes/CustomerBankingTrigger/CustomerBankingTrigger.node';
import { createWebhookContext } from '../../helpers/n8nContext';
import { scriptedBankCredentials } from '../../helpers/scriptedBank';

const trigger = new CustomerBankingTrigger();

function call() {
	return createWebhookContext({
		nodeType: trigger,
		node: { name: 'Customer Banking Trigger', id: 'trigger-1' },
		workflowId: 'answers',
		parameters: { accounts: ['acc-1'], events: ['transactionReceived'] },
		credentials: scriptedBankCredentials(),
	});
}

describe('answers', () => {
	it('acknowledge: 200 received, not emitted, with the reason', () => {
		expect(acknowledge('duplicate delivery').response).toEqual({
			webhookResponse: { received: true, emitted: false, reason: 'duplicate delivery' },
		});
	});

	it('deferDelivery: 503 with Retry-After, never "received"', () => {
		const { context, response } = call();
		expect(deferDelivery.call(context, 30, 'busy')).toEqual(
			new Answer({ noWebhookResponse: true }),
		);
		expect(response).toMatchObject({
			statusCode: 503,
			headers: { 'retry-after': '30' },
			body: { received: false, reason: 'busy' },
			ended: true,
		});
	});

	it.each([400, 401] as const)('refuse %i: that status, no body, the answer sent', (status) => {
		const { context, response } = call();
		expect(refuse.call(context, status)).toEqual(new Answer({ noWebhookResponse: true }));
		expect(response).toMatchObject({ statusCode: status, ended: true, finished: true });
		expect(response.body).toBeUndefined();
		expect(response.headers).toEqual({});
	});
});

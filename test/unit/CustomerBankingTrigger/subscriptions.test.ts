import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { CustomerBankingTrigger } from '../../../nodes/CustomerBankingTrigger/CustomerBankingTrigger.node';
import { triggerProperties } from '../../../nodes/CustomerBankingTrigger/description';
import {
	DEFAULT_SIGNATURE_SCHEME,
	NAMED_SCHEMES,
	SCHEME_NAMES,
} from '../../../nodes/CustomerBankingTrigger/signature';
import type { SchemeName } from '../../../nodes/CustomerBankingTrigger/signature';
import {
	schemeProblems,
	subscriptionProblems,
} from '../../../nodes/CustomerBankingTrigger/triggerParameters';
import {
	deriveZapId,
	planSubscriptions,
	readSubscribedZapIds,
	writeSubscribedZapIds,
} from '../../../nodes/CustomerBankingTrigger/subscriptions';
import type { SubscriptionOwner } from '../../../nodes/CustomerBankingTrigger/subscriptions';

const production: SubscriptionOwner = {
	workflowId: 'wf-1',
	nodeId: 'node-1',
	webhookUrl: 'https://n8n.example.com/webhook/abc/webhook',
	isTest: false,
};
const test: SubscriptionOwner = {
	...production,
	webhookUrl: 'https://n8n.example.com/webhook-test/abc/webhook',
	isTest: true,
};

describe('zapId derivation', () => {
	it('is deterministic and readable as test or production', () => {
		const id = deriveZapId(production, 'acc-1', 'transactionReceived');
		expect(deriveZapId({ ...production }, 'acc-1', 'transactionReceived')).toBe(id);
		expect(id).toMatch(/^n8n-prod-[0-9a-f]{40}$/);
		expect(deriveZapId(test, 'acc-1', 'transactionReceived')).toMatch(/^n8n-test-[0-9a-f]{40}$/);
	});

	it('differs when any identifying part differs', () => {
		const base = deriveZapId(production, 'acc-1', 'transactionReceived');
		const variants = [
			deriveZapId({ ...production, workflowId: 'wf-2' }, 'acc-1', 'transactionReceived'),
			deriveZapId({ ...production, nodeId: 'node-2' }, 'acc-1', 'transactionReceived'),
			deriveZapId({ ...production, webhookUrl: test.webhookUrl }, 'acc-1', 'transactionReceived'),
			deriveZapId({ ...production, isTest: true }, 'acc-1', 'transactionReceived'),
			deriveZapId(production, 'acc-2', 'transactionReceived'),
			deriveZapId(production, 'acc-1', 'transactionConfirmed'),
		];
		expect(new Set([base, ...variants]).size).toBe(variants.length + 1);
	});

	it('cannot be confused by parts that run into each other', () => {
		expect(
			deriveZapId({ ...production, workflowId: 'a', nodeId: 'bc' }, 'x', 'transactionReceived'),
		).not.toBe(
			deriveZapId({ ...production, workflowId: 'ab', nodeId: 'c' }, 'x', 'transactionReceived'),
		);
	});

	it("is derived from the bank's word for the event, what is subscribed", () => {
		expect(deriveZapId(production, 'acc-1', 'transactionReceived')).toBe(
			'n8n-prod-6b2211a22395dba257eb1eeef067a8d850069c37',
		);
		expect(deriveZapId(production, 'acc-1', 'transactionConfirmed')).toBe(
			'n8n-prod-34e972966d16d7f32d0db0c7eb20edd1cb79d2c2',
		);
	});

	it('fits the sandbox limit of 200 characters', () => {
		expect(deriveZapId(production, 'acc-1', 'transactionReceived').length).toBeLessThanOrEqual(200);
	});
});

describe('planSubscriptions', () => {
	it('plans one subscription per account and event, test and production apart', () => {
		const accounts = ['acc-1', 'acc-2'];
		const events = ['transactionReceived', 'transactionConfirmed'] as const;
		const prod = planSubscriptions(production, accounts, [...events]);
		const testPlan = planSubscriptions(test, accounts, [...events]);
		expect(prod.map(({ xaid, event }) => `${xaid}/${event}`)).toEqual([
			'acc-1/transactionReceived',
			'acc-1/transactionConfirmed',
			'acc-2/transactionReceived',
			'acc-2/transactionConfirmed',
		]);
		expect(new Set(prod.map((t) => t.zapId)).size).toBe(4);
		const prodIds = new Set(prod.map((t) => t.zapId));
		expect(testPlan.some((t) => prodIds.has(t.zapId))).toBe(false);
	});
});

describe('recorded subscriptions (static data)', () => {
	it('stores unique ids and forgets everything when none are left', () => {
		const staticData: IDataObject = {};
		writeSubscribedZapIds(staticData, ['a', 'b', 'a']);
		expect(readSubscribedZapIds(staticData)).toEqual(['a', 'b']);
		writeSubscribedZapIds(staticData, []);
		expect(staticData).toEqual({});
		expect(readSubscribedZapIds({ subscribedZapIds: 'not-a-list' })).toEqual([]);
	});
});

describe('parameter validation', () => {
	it('names the field and the rule', () => {
		expect(subscriptionProblems([], [])).toEqual([
			'Accounts must contain at least one account',
			'Events must contain at least one event',
		]);
		expect(subscriptionProblems(['acc-1'], ['PaymentApproved'])).toEqual([
			'Events must be transactionConfirmed or transactionReceived; not supported: PaymentApproved',
		]);
		// the bank's word is not a value of the field
		expect(subscriptionProblems(['acc-1'], ['TransactionReceived'])).toEqual([
			'Events must be transactionConfirmed or transactionReceived; not supported: TransactionReceived',
		]);
		expect(subscriptionProblems(['acc-1'], ['transactionReceived'])).toEqual([]);
	});

	it('accepts the default scheme and names what is wrong with a bad custom one', () => {
		expect(schemeProblems({ ...DEFAULT_SIGNATURE_SCHEME })).toEqual([]);
		expect(
			schemeProblems({
				...DEFAULT_SIGNATURE_SCHEME,
				name: 'custom',
				signatureHeader: 'bad header',
				timestampHeader: '',
				toleranceSeconds: 0,
			}),
		).toEqual([
			'Signature Header must be a valid HTTP header name',
			'Timestamp Header is required when the timestamp is part of the signed content',
			'Timestamp Tolerance (Seconds) must be a whole number from 1 to 900',
		]);
		expect(
			schemeProblems({
				...DEFAULT_SIGNATURE_SCHEME,
				name: 'custom',
				signedContent: 'body',
				timestampHeader: '',
			}),
		).toEqual([]);
	});

	it('accepts every scheme offered by name, and names the field for a name it does not know', () => {
		for (const scheme of Object.values(NAMED_SCHEMES)) expect(schemeProblems(scheme)).toEqual([]);
		expect(
			schemeProblems({ ...DEFAULT_SIGNATURE_SCHEME, name: 'hmacOfSomething' as SchemeName }),
		).toEqual([
			'Signature Scheme must be Customer Banking, Standard Webhooks, Stripe-Style, GitHub-Style or Custom',
		]);
	});

	it('offers every scheme name in the form, Customer Banking by default, and the custom fields only for Custom', () => {
		const choice = triggerProperties.find((p) => p.name === 'signatureScheme');
		expect(choice?.default).toBe(DEFAULT_SIGNATURE_SCHEME.name);
		expect(
			((choice?.options ?? []) as Array<{ value: string }>).map((o) => o.value).sort(),
		).toEqual([...SCHEME_NAMES].sort());
		const custom = triggerProperties.find((p) => p.name === 'signature');
		expect(custom?.displayOptions).toEqual({ show: { signatureScheme: ['custom'] } });
		const replayNotice = triggerProperties.find((p) => p.name === 'githubReplayNotice');
		expect(replayNotice?.displayOptions).toEqual({ show: { signatureScheme: ['github'] } });
		expect(replayNotice?.displayName).toMatch(/no timestamp/);
	});

	it('shows the default scheme as the defaults of the Signature Verification options', () => {
		const signature = triggerProperties.find((p) => p.name === 'signature');
		const defaults = Object.fromEntries(
			((signature?.options ?? []) as INodeProperties[]).map((option) => [
				option.name,
				option.default,
			]),
		);
		const { name, layout, secretFormat, ...fields } = DEFAULT_SIGNATURE_SCHEME;
		expect([name, layout, secretFormat]).toEqual(['customerBanking', 'separateHeaders', 'text']);
		expect(defaults).toEqual(fields);
	});
});

describe('node description', () => {
	const { description } = new CustomerBankingTrigger();

	it('is a webhook trigger on POST with no inputs', () => {
		expect(description.name).toBe('customerBankingTrigger');
		expect(description.inputs).toEqual([]);
		expect(description.group).toEqual(['trigger']);
		expect(description.usableAsTool).toBeUndefined();
		expect(description.webhooks).toEqual([
			// n8n answers a delivery that starts an execution once it has ended, without its data
			expect.objectContaining({
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'lastNode',
				responseData: 'noData',
			}),
		]);
		expect(description.credentials).toEqual([{ name: 'customerBankingApi', required: true }]);
	});

	it('offers exactly the two events, both selected by default, and fetches the full transaction by default', () => {
		const events = description.properties.find((p) => p.name === 'events');
		expect(events?.default).toEqual(['transactionReceived', 'transactionConfirmed']);
		expect((events?.options as Array<{ value: string }>).map((o) => o.value).sort()).toEqual([
			'transactionConfirmed',
			'transactionReceived',
		]);
		expect(description.properties.find((p) => p.name === 'fetchTransaction')?.default).toBe(true);
		expect(description.properties.find((p) => p.name === 'accounts')?.typeOptions).toEqual({
			loadOptionsMethod: 'getAccounts',
		});
	});

	it("loads accounts with the action node's getAccounts", async () => {
		const { getAccounts } = await import('../../../nodes/shared/methods/loadOptions');
		expect(new CustomerBankingTrigger().methods.loadOptions.getAccounts).toBe(getAccounts);
	});
});

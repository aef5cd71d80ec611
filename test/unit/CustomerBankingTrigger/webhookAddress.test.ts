import { webhookAddressCheck } from '../../../nodes/CustomerBankingTrigger/webhookAddress';

describe('the webhook address the bank is given', () => {
	it.each([
		{
			url: 'https://n8n.example.com/webhook/abc/webhook',
			environment: 'production',
			verdict: 'ok',
		},
		{
			url: 'HTTPS://N8N.EXAMPLE.COM/webhook/abc/webhook',
			environment: 'production',
			verdict: 'ok',
		},
		{ url: 'https://n8n.example.com/webhook/abc/webhook', environment: 'sandbox', verdict: 'ok' },
		{
			url: 'http://localhost:5678/webhook/abc/webhook',
			environment: 'production',
			verdict: 'refuse',
		},
		{
			url: 'http://n8n.example.com/webhook/abc/webhook',
			environment: 'production',
			verdict: 'refuse',
		},
		{ url: 'not an address', environment: 'production', verdict: 'refuse' },
		{ url: 'http://localhost:5678/webhook/abc/webhook', environment: 'sandbox', verdict: 'warn' },
		// a credential saved before it had an environment is a sandbox one (the field's default)
		{ url: 'http://localhost:5678/webhook/abc/webhook', environment: undefined, verdict: 'warn' },
	])('$url for a $environment credential: $verdict', ({ url, environment, verdict }) => {
		expect(webhookAddressCheck(url, environment).verdict).toBe(verdict);
	});

	it('names the address as an origin only, and the n8n setting that makes it', () => {
		const check = webhookAddressCheck(
			'http://localhost:5678/webhook/secret-path/webhook',
			'production',
		);
		expect(check.verdict).toBe('refuse');
		const text = `${check.message} ${check.description}`;
		expect(text).toContain('http://localhost:5678');
		expect(text).not.toContain('secret-path');
		expect(text).toContain('WEBHOOK_URL');
		expect(text).toMatch(/https/);
	});
});

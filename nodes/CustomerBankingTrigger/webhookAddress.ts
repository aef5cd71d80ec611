/**
 * The address the bank is told to deliver to. The API documentation says a subscription's URL is the
 * client's HTTPS endpoint; n8n builds the address from its WEBHOOK_URL setting, and without it from
 * its own host and port (`http://localhost:5678/` by default), which no bank can reach.
 */
export interface WebhookAddressCheck {
	/** 'refuse' activation (production), 'warn' and subscribe anyway (sandbox), or 'ok'. */
	verdict: 'ok' | 'warn' | 'refuse';
	message: string;
	description: string;
}

/** Scheme, host and port only: the path of a webhook address is not shown in messages and logs. */
function originOf(url: string): string {
	try {
		const { origin } = new URL(url);
		return origin === 'null' ? 'an address that is not http or https' : origin;
	} catch {
		return 'an address that is not valid';
	}
}

export function webhookAddressCheck(webhookUrl: string, environment: unknown): WebhookAddressCheck {
	if (/^https:\/\//i.test(webhookUrl.trim()))
		return { verdict: 'ok', message: '', description: '' };
	const production = environment === 'production';
	return {
		verdict: production ? 'refuse' : 'warn',
		message: `The webhook address n8n gives this trigger is not https (${originOf(webhookUrl)}): the bank delivers only to an https address`,
		description: `n8n builds the address from its WEBHOOK_URL setting. Set WEBHOOK_URL to the public https address of this n8n (for example https://n8n.example.com/), restart n8n and activate the workflow again.${production ? '' : ' With a sandbox credential the trigger subscribes anyway, for a sandbox that delivers to it.'}`,
	};
}

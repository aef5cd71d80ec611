import {
	REASON_WORDS,
	refusalReport,
	SCHEME_TITLES,
	schemesInHeaders,
} from '../../../nodes/CustomerBankingTrigger/refusalReasons';
import {
	DEFAULT_SIGNATURE_SCHEME,
	NAMED_SCHEMES,
	SCHEME_NAMES,
} from '../../../nodes/CustomerBankingTrigger/signature';

describe('schemesInHeaders', () => {
	it.each([
		[{ 'x-cb-signature': 'v1=ab' }, [{ scheme: 'customerBanking', headers: ['x-cb-signature'] }]],
		[{ 'Svix-Signature': 'v1,x' }, [{ scheme: 'standardWebhooks', headers: ['svix-signature'] }]],
		[{ 'stripe-signature': 't=1,v1=a' }, [{ scheme: 'stripe', headers: ['stripe-signature'] }]],
		[
			{ 'x-hub-signature-256': 'sha256=a' },
			[{ scheme: 'github', headers: ['x-hub-signature-256'] }],
		],
		[{ 'x-my-sig': 'abc', 'x-hub-signature': 'sha1=a' }, []],
	])('%j → %j', (headers, found) => {
		expect(schemesInHeaders(headers)).toEqual(found);
	});
});

describe('refusalReport', () => {
	it('counts, names each reason in words, the scheme chosen, the headers it reads', () => {
		const report = refusalReport(
			{
				counts: new Map([
					['badSignature', 2],
					['staleTimestamp', 1],
				]),
				sinceSeconds: 61,
			},
			{ ...DEFAULT_SIGNATURE_SCHEME },
			{},
		);
		expect(report.message).toBe(
			`Customer Banking Trigger refused 3 deliveries in the last 61 s: ${REASON_WORDS.badSignature} (2); ${REASON_WORDS.staleTimestamp} (1)`,
		);
		expect(report.description).toContain(
			'Signature Scheme "Customer Banking" reads x-cb-signature and x-cb-timestamp.',
		);
		expect(report.description).not.toContain('carried');
	});

	it('points at the scheme whose signature header the delivery carried, never at header names a sender chose', () => {
		const report = refusalReport(
			{ counts: new Map([['missingSignature', 1]]) },
			{ ...NAMED_SCHEMES.github },
			{ 'webhook-signature': 'v1,secretish', 'x-attacker-words': 'choose me' },
		);
		expect(report.description).toContain(
			'carried the signature header of Standard Webhooks (Svix) (webhook-signature)',
		);
		expect(report.description).not.toContain('x-attacker-words');
		expect(report.description).not.toContain('secretish');
		expect(report.description).toContain(
			'Signature Scheme "GitHub-Style" reads x-hub-signature-256.',
		);
	});

	it('has a title for every scheme and words for every reason', () => {
		expect(Object.keys(SCHEME_TITLES).sort()).toEqual([...SCHEME_NAMES].sort());
		for (const words of Object.values(REASON_WORDS)) expect(words).toMatch(/^[a-z]/);
	});
});

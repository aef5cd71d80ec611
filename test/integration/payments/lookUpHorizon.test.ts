/**
 * Skip Payments Already Made reads an account's whole history unless Look Back (Days) is set; with it,
 * back that many days only where the bank's records
 * show their times and its lists run in order of them (checked, not assumed); otherwise every page.
 * Adversarial: the same payment made just inside and just beyond the horizon, at banks that list oldest
 * or newest first, show no times (also spec-minimal mode), or write times without a zone in another
 * zone. Inside: never paid again, everywhere. Beyond: found wherever the whole list is read; at a bank
 * whose lists allow the short read, sent again once the bank has forgotten the key (the limit
 * docs/payments.md states), and the read stays short.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { credentialsFor } from '../../helpers/sandboxCredentials';
import { type Sandbox, startSandbox } from '../../sandbox';
import type { VariantsOption } from '../../sandbox/variants';
import { jsonOf, runPayments, sentWithReference, type PaymentRun } from './paymentNode';

/** The Look Back (Days) these tests choose; without it the whole history is read. */
const LOOK_BACK_DAYS = 90;
const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
/** The bank's clock starts this far back, so that records can be made "days ago" of the node's now. */
const START_BACK = 200 * DAY;

let sandbox: Sandbox | undefined;
afterEach(async () => {
	await sandbox?.close();
	sandbox = undefined;
});

let counter = 0;

async function submit(
	bank: Sandbox,
	credentials: ICredentialDataDecryptedObject,
	reference: string,
	lookBackDays = LOOK_BACK_DAYS,
): Promise<PaymentRun> {
	return await runPayments(bank, credentials, {
		executionId: `exec-horizon-${++counter}`,
		parameters: {
			operation: 'submit',
			account: { __rl: true, mode: 'id', value: bank.seeded.accounts.gbp },
			payee: { __rl: true, mode: 'id', value: bank.seeded.payees.gbp },
			amount: 12.5,
			reference,
			skipAlreadyMade: true,
			options: { lookBackDays },
		},
	});
}

/** `count` transactions received 50 at a time, two seconds apart (times written to the second differ). */
async function seedHistory(bank: Sandbox, count: number): Promise<void> {
	for (let seeded = 0; seeded < count; seeded += 50) {
		await bank.control.seedTransactions(bank.seeded.accounts.gbp, Math.min(50, count - seeded));
		await bank.control.advanceClock(2000);
	}
}

/**
 * An account whose history puts the payment a whole page away from the recent records: 600 transactions
 * 200 days old, the payment made `ageMs` ago (by the node's clock) and 600 more at its time, then 1,200
 * made now. Then the same payment again, in a new execution.
 */
async function payAgainAfter(
	variants: VariantsOption,
	ageMs: number,
	second: typeof submit = submit,
) {
	const started = Date.now();
	const bank = await startSandbox({ port: 0, now: new Date(started - START_BACK), variants });
	sandbox = bank;
	const credentials = credentialsFor(bank);
	const reference = `HORIZON-${++counter}`;
	await seedHistory(bank, 600);
	// the bank's clock started START_BACK before the node's: on to `ageMs` before the node's now
	await bank.control.advanceClock(START_BACK - ageMs - (Date.now() - started));
	const first = await submit(bank, credentials, reference);
	expect(jsonOf(first)[0].status).toBe('sent');
	await seedHistory(bank, 600);
	await bank.control.advanceClock(ageMs - 10 * 60 * 1000);
	await seedHistory(bank, 1200);
	const again = await second(bank, credentials, reference);
	const listPages = again.requests.filter(
		(request) => request.method === 'GET' && /\/account\/[^/]+\/transactions/.test(request.url),
	).length;
	return { again, paid: sentWithReference(bank, reference).length, listPages };
}

/** Every output item's JSON, whichever output it left on. */
function items(run: PaymentRun): IDataObject[] {
	if (run.error) throw run.error;
	return (run.output ?? []).flat().map((item) => item.json);
}

const INSIDE = LOOK_BACK_DAYS * DAY - HOUR;
const BEYOND = (LOOK_BACK_DAYS + 1) * DAY + HOUR;

const READ_BACK: Array<[string, VariantsOption]> = [
	['oldest first (the sandbox)', {}],
	['newest first', { listOrder: 'newestFirst' }],
	[
		'times without a zone, the bank 12 hours behind UTC',
		{ recordTimes: 'zoneless', bankUtcOffsetMinutes: -720 },
	],
];
const READ_WHOLE: Array<[string, VariantsOption]> = [
	['no times', { createdTimes: false }],
	['no times, newest first', { createdTimes: false, listOrder: 'newestFirst' }],
	['spec-minimal', 'specMinimal'],
];

describe(`the same payment made ${LOOK_BACK_DAYS} days less an hour ago: never paid again`, () => {
	it.each([...READ_BACK, ...READ_WHOLE])(
		'%s',
		async (_, variants) => {
			const { again, paid } = await payAgainAfter(variants, INSIDE);
			expect(again.posts).toEqual([]);
			expect(items(again)[0].status).toBe('already_made');
			expect(paid).toBe(1);
		},
		60_000,
	);
});

describe(`the same payment made ${LOOK_BACK_DAYS} days and a day and an hour ago`, () => {
	it.each(READ_WHOLE)(
		'%s: every page read, found, not paid again',
		async (_, variants) => {
			const { again, paid, listPages } = await payAgainAfter(variants, BEYOND);
			expect(again.posts).toEqual([]);
			expect(items(again)[0].status).toBe('already_made');
			expect(paid).toBe(1);
			expect(listPages).toBeGreaterThanOrEqual(5);
			// the item says the whole list was read, and why
			expect(items(again)[0].earlierPaymentsChecked).toBe(
				"Looked for an earlier payment with these details among all the account's approvals and all the account's transactions (every page: the bank's records do not show when they were made).",
			);
		},
		60_000,
	);

	it.each(READ_BACK)(
		'%s: the lists are read back to the horizon only, so it is not found: sent again once the bank forgot the key (the stated limit)',
		async (_, variants) => {
			const { again, paid, listPages } = await payAgainAfter(variants, BEYOND);
			expect(items(again)[0].status).toBe('sent');
			expect(again.posts).toHaveLength(1);
			expect(paid).toBe(2);
			// 2,401 and more records, 5 pages: the short read leaves out the payment's page
			expect(listPages).toBeLessThan(5);
			// the item says how far back it looked
			expect(items(again)[0].earlierPaymentsChecked).toBe(
				"Looked for an earlier payment with these details among all the account's approvals and the account's transactions of the last 90 days.",
			);
		},
		60_000,
	);
});

describe('without Look Back (the default): the whole history is read', () => {
	const wholeHistory: typeof submit = (bank, credentials, reference) =>
		submit(bank, credentials, reference, 0);

	it.each(READ_BACK)(
		'%s: the same payment made 91 days and an hour ago is found, not paid again',
		async (_, variants) => {
			const { again, paid, listPages } = await payAgainAfter(variants, BEYOND, wholeHistory);
			expect(again.posts).toEqual([]);
			expect(items(again)[0].status).toBe('already_made');
			expect(paid).toBe(1);
			expect(listPages).toBeGreaterThanOrEqual(5);
			expect(items(again)[0].earlierPaymentsChecked).toBe(
				"Looked for an earlier payment with these details among all the account's approvals and all the account's transactions.",
			);
		},
		60_000,
	);

	it('a Look Back that is not a whole number of days fails before anything is sent', async () => {
		const bank = await startSandbox({ port: 0 });
		sandbox = bank;
		const run = await submit(bank, credentialsFor(bank), `HORIZON-${++counter}`, 1.5);
		expect(run.error?.message).toBe('Look Back (Days) must be a whole number from 0 to 36500');
		expect(run.posts).toEqual([]);
	});
});

describe('lists that move while the look-up reads them', () => {
	/** An account with 1,200 transactions made now, and the payment among the first of them. */
	async function accountWithPayment(variants: VariantsOption) {
		const bank = await startSandbox({ port: 0, variants });
		sandbox = bank;
		const credentials = credentialsFor(bank);
		const reference = `MOVING-${++counter}`;
		await seedHistory(bank, 100);
		expect(jsonOf(await submit(bank, credentials, reference))[0].status).toBe('sent');
		await seedHistory(bank, 1100);
		return { bank, credentials, reference };
	}

	const isTransactionsPage = (url: string) => /\/account\/[^/]+\/transactions$/.test(url);

	it('newest first, 40 payments arriving before each page is answered: found, not paid again', async () => {
		const { bank, credentials, reference } = await accountWithPayment({ listOrder: 'newestFirst' });
		const again = await runPayments(bank, credentials, {
			executionId: `exec-horizon-${++counter}`,
			parameters: {
				operation: 'submit',
				account: { __rl: true, mode: 'id', value: bank.seeded.accounts.gbp },
				payee: { __rl: true, mode: 'id', value: bank.seeded.payees.gbp },
				amount: 12.5,
				reference,
				skipAlreadyMade: true,
			},
			afterRequest: async (request) => {
				if (isTransactionsPage(String(request.url)))
					for (let at = 0; at < 40; at++) await bank.control.receive(bank.seeded.accounts.gbp, 1);
			},
		});
		expect(again.posts).toEqual([]);
		expect(items(again)[0].status).toBe('already_made');
		expect(sentWithReference(bank, reference)).toHaveLength(1);
	}, 60_000);

	/** A bank whose transactions list says it holds one record fewer on every page it answers. */
	function shrinkingTransactions() {
		let answered = 0;
		return (request: { url?: string }, answer: unknown) => {
			if (!isTransactionsPage(String(request.url))) return answer;
			const { total, results } = answer as { total: number; results: unknown[] };
			answered += 1;
			return { total: total - answered, results };
		};
	}

	it('a list whose total falls while both reads of it run: nothing sent, the item says the account could not be checked', async () => {
		const { bank, credentials, reference } = await accountWithPayment({});
		const again = await runPayments(bank, credentials, {
			executionId: `exec-horizon-${++counter}`,
			continueOnFail: true,
			parameters: {
				operation: 'submit',
				account: { __rl: true, mode: 'id', value: bank.seeded.accounts.gbp },
				payee: { __rl: true, mode: 'id', value: bank.seeded.payees.gbp },
				amount: 12.5,
				reference,
				skipAlreadyMade: true,
			},
			answerAs: shrinkingTransactions(),
		});
		expect(again.posts).toEqual([]);
		const [item] = items(again);
		expect(item.status).toBe('not_sent');
		expect(String(item.error)).toContain('lost records while it was read, twice');
		expect(sentWithReference(bank, reference)).toHaveLength(1);
	}, 60_000);
});

describe('the look-ups after a failure read every page', () => {
	it("n8n's Retry of a failed execution whose keys were lost: the same payment made 91 days and an hour ago, at a bank whose lists allow the short read, is named and held back, not sent", async () => {
		const retryWithKeysLost: typeof submit = async (bank, credentials, reference) =>
			await runPayments(bank, credentials, {
				executionId: `exec-horizon-${++counter}`,
				mode: 'retry',
				contextData: {},
				continueOnFail: true,
				parameters: {
					operation: 'submit',
					account: { __rl: true, mode: 'id', value: bank.seeded.accounts.gbp },
					payee: { __rl: true, mode: 'id', value: bank.seeded.payees.gbp },
					amount: 12.5,
					reference,
				},
			});
		const { again, paid, listPages } = await payAgainAfter({}, BEYOND, retryWithKeysLost);
		expect(again.posts).toEqual([]);
		expect(paid).toBe(1);
		const [item] = items(again);
		expect(String(item.error)).toContain('Payment state unknown');
		expect(listPages).toBeGreaterThanOrEqual(5);
	}, 60_000);
});

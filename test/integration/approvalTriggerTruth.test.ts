/**
 * Issue 20 (cases 1 and 2): what the Approval Trigger says is true under every bank the spec allows.
 * - A bank that keeps a transaction record for the held payment (PENDING_APPROVAL, then DECLINED or
 *   EXPIRED): a record is evidence of "approved" only when its own status does not say otherwise.
 * - Decided names that negate approval (DISAPPROVED, NOT_APPROVED) are never approvals, and are not
 *   read again for ever.
 * - Conflicting or silent evidence is watched, then reported "undetermined" with what the bank said.
 * - An approval decided between two polls, or across an n8n restart, is emitted once when the bank
 *   lists decided approvals.
 */
import type { IDataObject } from 'n8n-workflow';

import { type ScriptedApi, scriptedCredentials, startScriptedApi } from '../helpers/scriptedApi';
import { type Sandbox, startSandbox } from '../sandbox';
import type { BankVariants } from '../sandbox/variants';
import { ActiveTrigger, requestApprovals, sandboxTrigger } from './approvalTriggerHarness';

/** docs/triggers.md §Customer Banking Approval Trigger: unclear evidence is watched for 10 polls. */
const WATCH_POLLS = 10;

type Outcome = 'approve' | 'decline' | 'expire';
const OUTCOMES: Outcome[] = ['approve', 'decline', 'expire'];

/** The decision each outcome must be reported as, under the bank's status names. */
function expectedDecision(variants: Partial<BankVariants>, outcome: Outcome): string {
	if (outcome === 'approve') return 'approved';
	// DISAPPROVED and NOT_APPROVED say "not approved" without saying declined or expired
	if (variants.approvalStatusNames === 'negations') return 'not_sent';
	return outcome === 'decline' ? 'declined' : 'expired';
}

const BANKS: Array<[string, Partial<BankVariants>]> = [
	['keeps records of held payments, lists every status', { heldPaymentRecords: true }],
	[
		'keeps records of held payments, lists pending only',
		{ heldPaymentRecords: true, approvalList: 'pendingOnly', approvalStatusNames: 'other' },
	],
	[
		'names decided approvals with negations, lists every status',
		{ approvalStatusNames: 'negations' },
	],
	[
		'names decided approvals with negations, lists pending only',
		{ approvalStatusNames: 'negations', approvalList: 'pendingOnly' },
	],
	[
		'negations and held-payment records, pending only',
		{ approvalStatusNames: 'negations', heldPaymentRecords: true, approvalList: 'pendingOnly' },
	],
];

describe.each(BANKS)('Approval Trigger, a bank that %s', (_name, variants) => {
	let sandbox: Sandbox;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, seed: 43, variants });
	});
	afterAll(async () => await sandbox.close());
	beforeEach(() => sandbox.control.reset());

	const decide = async (outcome: Outcome, ref: string) => await sandbox.control[outcome](ref);

	it('approve, decline, expire: each reported once with the right decision, and not read again', async () => {
		const node = sandboxTrigger(sandbox);
		await node.poll();
		const approvals = await requestApprovals(sandbox, [1500, 1600, 1700]);
		expect(await node.poll()).toHaveLength(3);
		for (const [index, outcome] of OUTCOMES.entries()) await decide(outcome, approvals[index].ref);

		const decided = await node.poll();
		expect(decided.map((event) => [event.event, event.approvalId, event.decision])).toEqual(
			OUTCOMES.map((outcome, index) => [
				'approvalDecided',
				approvals[index].ref,
				expectedDecision(variants, outcome),
			]),
		);
		sandbox.control.clearRequests();
		for (let i = 0; i < WATCH_POLLS + 2; i++) expect(await node.poll()).toEqual([]);
		const reads = sandbox.control
			.requests()
			.filter((r) => r.method === 'GET' && !r.path.startsWith('/approvals'));
		expect(reads).toEqual([]);
	});

	it('each outcome alone, decided and then n8n restarted before the next poll: never "approved" unless approved', async () => {
		for (const outcome of OUTCOMES) {
			let node = sandboxTrigger(sandbox, { events: ['approvalDecided'] });
			await node.poll();
			const [approval] = await requestApprovals(sandbox, [2500]);
			expect(await node.poll()).toEqual([]);
			await decide(outcome, approval.ref);
			node = node.restart();
			const events = await node.poll();
			if (sandbox.variants.approvalList === 'pendingOnly') {
				// docs/triggers.md: a bank that lists pending approvals only, "Approval Decided" alone, n8n saving on emit: lost
				expect(events).toEqual([]);
				continue;
			}
			expect(events.map((event) => [event.approvalId, event.decision])).toEqual([
				[approval.ref, expectedDecision(variants, outcome)],
			]);
			expect(await node.poll()).toEqual([]);
		}
	});

	it('each outcome alone, n8n restarted while pending: reported once with the right decision', async () => {
		for (const outcome of OUTCOMES) {
			let node = sandboxTrigger(sandbox, { events: ['approvalDecided'] });
			await node.poll();
			const [approval] = await requestApprovals(sandbox, [2500]);
			expect(await node.poll()).toEqual([]);
			node = node.restart();
			expect(await node.poll()).toEqual([]);
			await decide(outcome, approval.ref);
			expect((await node.poll()).map((event) => [event.approvalId, event.decision])).toEqual([
				[approval.ref, expectedDecision(variants, outcome)],
			]);
			expect(await node.poll()).toEqual([]);
		}
	});

	it('Fetch Test Event says the right decision of a decided approval', async () => {
		for (const outcome of OUTCOMES) {
			sandbox.control.reset();
			const [approval] = await requestApprovals(sandbox, [1900]);
			await decide(outcome, approval.ref);
			const node = sandboxTrigger(sandbox, { events: ['approvalDecided'] });
			if (sandbox.variants.approvalList === 'pendingOnly') {
				await expect(node.poll('manual')).rejects.toThrow('No approval to show as an example');
				continue;
			}
			const [example] = await node.poll('manual');
			expect([example.approvalId, example.decision]).toEqual([
				approval.ref,
				expectedDecision(variants, outcome),
			]);
		}
	});
});

describe.each<[string, Partial<BankVariants>]>([
	['sandbox defaults', {}],
	['held-payment records', { heldPaymentRecords: true }],
	['negations', { approvalStatusNames: 'negations', createdTimes: false }],
])('Approval Trigger, a bank that lists decided approvals (%s)', (_name, variants) => {
	let sandbox: Sandbox;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, seed: 44, variants });
	});
	afterAll(async () => await sandbox.close());
	beforeEach(() => sandbox.control.reset());

	it('approvals requested and decided between two polls: each emitted once, with the right decision', async () => {
		const node = sandboxTrigger(sandbox);
		const [old] = await requestApprovals(sandbox, [1200]);
		await sandbox.control.decline(old.ref);
		expect(await node.poll()).toEqual([]);
		const approvals = await requestApprovals(sandbox, [1500, 1600, 1700]);
		for (const [index, outcome] of OUTCOMES.entries())
			await sandbox.control[outcome](approvals[index].ref);
		const decided = await node.poll();
		expect(decided.map((event) => [event.event, event.approvalId, event.decision])).toEqual(
			OUTCOMES.map((outcome, index) => [
				'approvalDecided',
				approvals[index].ref,
				expectedDecision(variants, outcome),
			]),
		);
		for (let i = 0; i < 3; i++) expect(await node.poll()).toEqual([]);
		// the one decided before activation is part of the baseline: never emitted
		expect(decided.map((event) => event.approvalId)).not.toContain(old.ref);
	});

	it.each(['onEmit', 'everyPoll'] as const)(
		'restarts (n8n saving state %s): requested before, decided after → emitted once',
		async (saveRule) => {
			let node = sandboxTrigger(sandbox, { events: ['approvalDecided'] }, saveRule);
			await node.poll();
			const [first, second] = await requestApprovals(sandbox, [1500, 1600]);
			expect(await node.poll()).toEqual([]);
			node = node.restart();
			await sandbox.control.approve(first.ref);
			await sandbox.control.decline(second.ref);
			node = node.restart();
			const decided = await node.poll();
			expect(decided.map((event) => [event.approvalId, event.decision])).toEqual([
				[first.ref, 'approved'],
				[second.ref, expectedDecision(variants, 'decline')],
			]);
			for (const restarted of [node.restart(), node]) expect(await restarted.poll()).toEqual([]);
		},
	);
});

describe('Approval Trigger: conflicting or silent evidence is watched, then "undetermined", never "approved"', () => {
	let api: ScriptedApi;
	/** The scripted bank: approvals it lists and answers, and transaction records by xtid. */
	let approvals: Map<string, IDataObject>;
	let transactions: Map<string, IDataObject>;
	let listed: (approval: IDataObject) => boolean;

	beforeAll(async () => {
		api = await startScriptedApi((request) => {
			const [, kind, id] = request.path.split('/');
			if (kind === 'approvals') {
				const results = [...approvals.values()].filter(listed);
				return { status: 200, body: { total: results.length, results } };
			}
			const record =
				kind === 'approval'
					? approvals.get(id)
					: kind === 'transaction'
						? transactions.get(id)
						: undefined;
			return record
				? { status: 200, body: record }
				: { status: 404, body: { statusCode: 404, message: 'Not found' } };
		});
	});
	afterAll(async () => await api.close());
	beforeEach(() => {
		approvals = new Map();
		transactions = new Map();
		listed = () => true;
	});

	let sequence = 0;
	function approval(status: string): IDataObject {
		const n = String(++sequence).padStart(12, '0');
		const record = {
			ref: `0c9d8e7f-6a5b-4c3d-8e1f-${n}`,
			xtid: `1d2c3b4a-5f6e-4a7b-9c8d-${n}`,
			parent_xaid: 'a1',
			status,
		};
		approvals.set(record.ref, record);
		return record;
	}
	const trigger = (events = ['approvalRequested', 'approvalDecided']) =>
		new ActiveTrigger(scriptedCredentials(api), { events });

	/** A trigger that saw an approval pending, which the bank then shows decided with `decidedStatus`. */
	async function decidedAfterBaseline(decidedStatus: string, transaction?: IDataObject) {
		const node = trigger();
		const pending = approval('pending');
		await node.poll();
		pending.status = decidedStatus;
		if (transaction) transactions.set(String(pending.xtid), { xtid: pending.xtid, ...transaction });
		return { node, pending };
	}

	/** Polls until something is emitted (at most `limit` polls); returns the events and the polls it took. */
	async function pollUntilEmitted(
		node: ActiveTrigger,
		limit: number,
	): Promise<{ events: IDataObject[]; polls: number }> {
		for (let polls = 1; polls <= limit; polls++) {
			const events = await node.poll();
			if (events.length > 0) return { events, polls };
		}
		return { events: [], polls: limit };
	}

	it.each<[string, string, IDataObject | undefined]>([
		['the approval says declined, its transaction says sent', 'declined', { status: 'sent' }],
		[
			'the approval says approved, its transaction is held for approval',
			'approved',
			{ status: 'PENDING_APPROVAL' },
		],
		['the approval says nothing known, no transaction', 'DONE', undefined],
		['the approval says nothing known, its transaction is held', 'DONE', { status: 'ON_HOLD' }],
		[
			'the approval says not approved, its transaction says settled',
			'NOT_APPROVED',
			{ status: 'settled' },
		],
	])(
		'%s → watched, then undetermined with what the bank said',
		async (_name, decidedStatus, transaction) => {
			const { node, pending } = await decidedAfterBaseline(decidedStatus, transaction);
			const { events, polls } = await pollUntilEmitted(node, WATCH_POLLS + 2);
			expect(polls).toBe(WATCH_POLLS);
			expect(events).toEqual([
				expect.objectContaining({
					event: 'approvalDecided',
					decision: 'undetermined',
					approvalId: pending.ref,
					bankStatus: decidedStatus,
					transactionStatus: transaction
						? ((transaction.status as string | undefined) ?? null)
						: null,
				}),
			]);
			for (let i = 0; i < 3; i++) expect(await node.poll()).toEqual([]);
		},
	);

	it.each([
		['declined', 'APPROVED', 'DECLINED'],
		['failed', 'approved', 'FAILED'],
	])(
		'the approval says approved, its transaction says %s: not sent, at once and once, as Submit states it',
		async (_name, decidedStatus, transactionStatus) => {
			const node = trigger();
			const pending = approval('pending');
			await node.poll();
			pending.status = decidedStatus;
			transactions.set(String(pending.xtid), { xtid: pending.xtid, status: transactionStatus });
			expect(await node.poll()).toEqual([
				expect.objectContaining({
					event: 'approvalDecided',
					decision: 'not_sent',
					approvalId: pending.ref,
					bankStatus: decidedStatus,
					transactionStatus,
				}),
			]);
			expect(await node.poll()).toEqual([]);
		},
	);

	it.each<[string, string, IDataObject | undefined, string]>([
		// spec §States and transitions: approved → the payment is sent
		['the approval says approved, no transaction shown yet', 'AUTHORISED', undefined, 'approved'],
		// a record without a status word says nothing against the approval's own word
		['the approval says declined, its transaction has no status', 'DECLINED', {}, 'declined'],
	])(
		'%s: decided at once and once, as Submit states the same records',
		async (_name, decidedStatus, transaction, decision) => {
			const { node, pending } = await decidedAfterBaseline(decidedStatus, transaction);
			expect((await node.poll()).map((event) => event.decision)).toEqual([decision]);
			// the transaction showing later reports nothing again
			transactions.set(String(pending.xtid), { xtid: pending.xtid, status: 'COMPLETED' });
			expect(await node.poll()).toEqual([]);
			expect(await node.poll()).toEqual([]);
		},
	);

	it('a held record that turns into a sent one while the approval says nothing known: approved, once', async () => {
		const node = trigger();
		const pending = approval('pending');
		transactions.set(String(pending.xtid), { xtid: pending.xtid, status: 'PENDING_APPROVAL' });
		await node.poll();
		pending.status = 'FINAL';
		expect(await node.poll()).toEqual([]);
		transactions.set(String(pending.xtid), { xtid: pending.xtid, status: 'BOOKED' });
		expect((await node.poll()).map((event) => event.decision)).toEqual(['approved']);
	});

	it('an approval the bank stops showing (404) and no transaction: undetermined, not "not sent"', async () => {
		const node = trigger();
		const pending = approval('pending');
		await node.poll();
		approvals.delete(String(pending.ref));
		const { events } = await pollUntilEmitted(node, WATCH_POLLS + 2);
		expect(events).toEqual([
			expect.objectContaining({
				decision: 'undetermined',
				approvalId: pending.ref,
				bankStatus: null,
				transactionStatus: null,
			}),
		]);
	});

	it('the watch survives a restart as saved, and is bounded: still reported once', async () => {
		let node = trigger(['approvalDecided']);
		const pending = approval('pending');
		await node.poll();
		pending.status = 'approved';
		transactions.set(String(pending.xtid), { xtid: pending.xtid, status: 'PENDING_APPROVAL' });
		const seen: IDataObject[] = [];
		// n8n saves nothing while no poll emits: a restart starts the watch again from what was saved
		for (let i = 0; i < 3 * WATCH_POLLS; i++) {
			if (i === 2 || i === 5) node = node.restart();
			seen.push(...(await node.poll()));
		}
		expect(seen.map((event) => [event.approvalId, event.decision])).toEqual([
			[pending.ref, 'undetermined'],
		]);
	});

	it('Fetch Test Event never says approved on conflicting evidence', async () => {
		const declined = approval('declined');
		transactions.set(String(declined.xtid), { xtid: declined.xtid, status: 'sent' });
		const [example] = await trigger(['approvalDecided']).poll('manual');
		expect(example).toMatchObject({
			approvalId: declined.ref,
			decision: 'undetermined',
			bankStatus: 'declined',
			transactionStatus: 'sent',
		});
	});

	it('statuses that negate approval are never approvals and are read once', async () => {
		const node = trigger(['approvalDecided']);
		const refs = ['pending', 'pending', 'pending', 'pending'].map(() => approval('pending'));
		await node.poll();
		const words = ['UNAUTHORISED', 'NOT_APPROVED', 'DISAPPROVED', 'NotAuthorized'];
		refs.forEach((record, index) => {
			record.status = words[index];
		});
		const decided = await node.poll();
		expect(decided.map((event) => [event.bankStatus, event.decision])).toEqual(
			words.map((word) => [word, 'not_sent']),
		);
		const before = api.apiRequests().length;
		for (let i = 0; i < 5; i++) expect(await node.poll()).toEqual([]);
		expect(
			api
				.apiRequests()
				.slice(before)
				.map((r) => r.path.split('/')[2]),
		).toEqual(Array(5).fill('approvals'));
	});
});

/**
 * Reliability check: what the Approval Trigger and the Approval operations say about approvals,
 * compared with the sandbox ledger (the approval's true status), across banks the spec allows: the
 * sandbox defaults, spec-minimal, a bank that keeps records of held payments, a bank naming decided
 * approvals with negations, each listing every status or pending ones only. Seeded random rounds:
 * payments that need approval, decisions (approve, decline, expire), n8n restarts (static data as n8n
 * saved it), polls of three triggers (both events; Approval Decided only; Approval Decided only with n8n
 * saving after every poll), Fetch Test Event, and Get Many with the Pending and Decided filters.
 *
 * A statement disagrees with the ledger when it is false: "approved" for an approval that is not
 * approved, "declined"/"expired" for another outcome, "not sent" for an approved one, any decision for
 * one still pending, "pending" for a decided one and the reverse. "undetermined" never disagrees.
 */

import { runNode, mainJson } from '../integration/actionNode';
import {
	ActiveTrigger,
	requestApprovals,
	sandboxCredentials,
	sandboxTrigger,
} from '../integration/approvalTriggerHarness';
import { type Sandbox, startSandbox } from '../sandbox';
import type { VariantsOption } from '../sandbox/variants';

const ROUNDS = 14;
const WORKSPACE = 'workspace-1';

const BANKS: Array<[string, VariantsOption]> = [
	['sandbox defaults', {}],
	['spec-minimal', 'specMinimal'],
	['held-payment records, every status listed', { heldPaymentRecords: true }],
	['held-payment records, pending only', { heldPaymentRecords: true, approvalList: 'pendingOnly' }],
	['negations, every status listed', { approvalStatusNames: 'negations' }],
	['negations, pending only', { approvalStatusNames: 'negations', approvalList: 'pendingOnly' }],
	[
		'negations and held-payment records, no creation times',
		{ approvalStatusNames: 'negations', heldPaymentRecords: true, createdTimes: false },
	],
];

/** Deterministic random numbers (mulberry32). */
function random(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state + 0x6d2b79f5) | 0;
		let t = Math.imul(state ^ (state >>> 15), 1 | state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

type Truth = 'pending' | 'approved' | 'declined' | 'expired';

/** Whether a statement about an approval is false, given its true status when the statement was made. */
function disagrees(statement: string, truth: Truth | undefined): boolean {
	switch (statement) {
		case 'undetermined':
			return false;
		case 'approved':
		case 'declined':
		case 'expired':
			return truth !== statement;
		case 'not_sent':
			return truth !== 'declined' && truth !== 'expired';
		case 'pending':
			return truth !== 'pending';
		case 'decided':
			return truth === undefined || truth === 'pending';
		default:
			return true;
	}
}

interface Tally {
	statements: number;
	disagreeing: string[];
	duplicates: string[];
	missed: string[];
	undetermined: number;
}

const totals: Tally = {
	statements: 0,
	disagreeing: [],
	duplicates: [],
	missed: [],
	undetermined: 0,
};

afterAll(() => {
	process.stdout.write(
		`\napproval statements disagreeing with the ledger: ${totals.disagreeing.length} ` +
			`(of ${totals.statements} statements over ${BANKS.length} banks; decisions reported twice: ${totals.duplicates.length}; ` +
			`missed where the bank lists decided approvals: ${totals.missed.length}; undetermined: ${totals.undetermined})\n`,
	);
});

describe.each(BANKS)('approval statements against the ledger: %s', (name, variants) => {
	let sandbox: Sandbox;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, seed: 2020, variants });
	});
	afterAll(async () => await sandbox.close());

	it(`${ROUNDS} seeded rounds: 0 statements disagree with the ledger, no decision reported twice`, async () => {
		const next = random(name.length * 7919);
		const truthNow = (): Map<string, Truth> =>
			new Map(
				sandbox.control.ledger(WORKSPACE).approvals.map((a) => [String(a.ref), a.status as Truth]),
			);
		const tally: Tally = {
			statements: 0,
			disagreeing: [],
			duplicates: [],
			missed: [],
			undetermined: 0,
		};
		const check = (who: string, ref: string, statement: string, truth: Map<string, Truth>) => {
			tally.statements++;
			if (statement === 'undetermined') tally.undetermined++;
			if (disagrees(statement, truth.get(ref)))
				tally.disagreeing.push(
					`${name}: ${who} said ${statement} of ${ref} (ledger: ${truth.get(ref)})`,
				);
		};
		const triggers: Record<string, ActiveTrigger> = {
			both: sandboxTrigger(sandbox),
			decidedOnly: sandboxTrigger(sandbox, { events: ['approvalDecided'] }),
			decidedOnlyDurable: sandboxTrigger(sandbox, { events: ['approvalDecided'] }, 'everyPoll'),
		};
		const reported: Record<string, Map<string, number>> = {
			both: new Map(),
			decidedOnly: new Map(),
			decidedOnlyDurable: new Map(),
		};
		const pending: string[] = [];
		const created: string[] = [];
		const beforeActivation = await requestApprovals(sandbox, [1100, 1200]);
		await sandbox.control.decline(beforeActivation[0].ref);
		pending.push(beforeActivation[1].ref);

		const pollAll = async () => {
			for (const [who, trigger] of Object.entries(triggers)) {
				const events = await trigger.poll();
				const truth = truthNow();
				for (const event of events) {
					const ref = String(event.approvalId);
					if (event.event === 'approvalRequested') continue;
					check(who, ref, String(event.decision), truth);
					reported[who].set(ref, (reported[who].get(ref) ?? 0) + 1);
				}
			}
		};

		await pollAll();
		for (let round = 0; round < ROUNDS; round++) {
			const count = Math.floor(next() * 4);
			if (count > 0) {
				const approvals = await requestApprovals(
					sandbox,
					Array.from({ length: count }, () => 1000 + Math.floor(next() * 900)),
				);
				for (const { ref } of approvals) {
					pending.push(ref);
					created.push(ref);
				}
			}
			for (let i = pending.length - 1; i >= 0; i--) {
				if (next() < 0.4) {
					const outcome = (['approve', 'decline', 'expire'] as const)[Math.floor(next() * 3)];
					await sandbox.control[outcome](pending[i]);
					pending.splice(i, 1);
				}
			}
			if (next() < 0.3) {
				const who = Object.keys(triggers)[Math.floor(next() * 3)];
				triggers[who] = triggers[who].restart();
			}
			if (next() < 0.8) await pollAll();

			// Fetch Test Event and Get Many, as a user would run them now
			const example = await sandboxTrigger(sandbox, { events: ['approvalDecided'] })
				.poll('manual')
				.catch(() => []);
			for (const event of example)
				check('Fetch Test Event', String(event.approvalId), String(event.decision), truthNow());
			for (const status of ['pending', 'decided']) {
				const run = await runNode(sandbox, sandboxCredentials(sandbox), {
					parameters: {
						resource: 'approval',
						operation: 'getMany',
						scope: 'all',
						status,
						returnAll: true,
					},
				});
				if (run.error) throw run.error;
				const truth = truthNow();
				for (const approval of mainJson(run))
					check(`Get Many (${status})`, String(approval.approvalId), status, truth);
			}
		}
		for (const ref of pending.splice(0)) await sandbox.control.decline(ref);
		for (let i = 0; i < 12; i++) await pollAll();

		const truth = truthNow();
		const listsDecided = sandbox.variants.approvalList === 'allStatuses';
		for (const [who, counts] of Object.entries(reported)) {
			for (const [ref, times] of counts)
				if (times > 1) tally.duplicates.push(`${name}: ${who} reported ${ref} ${times} times`);
			// a bank that lists decided approvals shows every decision, whatever n8n saved
			for (const ref of created)
				if (listsDecided && truth.get(ref) !== 'pending' && !counts.has(ref))
					tally.missed.push(`${name}: ${who} never reported ${ref}`);
			// decided before activation: never reported
			expect(counts.has(beforeActivation[0].ref)).toBe(false);
		}

		totals.statements += tally.statements;
		totals.undetermined += tally.undetermined;
		totals.disagreeing.push(...tally.disagreeing);
		totals.duplicates.push(...tally.duplicates);
		totals.missed.push(...tally.missed);
		expect(tally.statements).toBeGreaterThan(0);
		expect(tally.disagreeing).toEqual([]);
		expect(tally.duplicates).toEqual([]);
		expect(tally.missed).toEqual([]);
	});
});

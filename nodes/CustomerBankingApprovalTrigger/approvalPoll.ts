import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isPending } from '../shared/approvals/approvalRecords';
import { PLAIN_NAMES } from '../shared/outputNames';
import { ENDPOINTS, newestFirst } from '../shared/transport';
import { TriggerNodeRegistry } from '../shared/triggerNodeRegistry';
import {
	type ApprovalEvent,
	type ApprovalState,
	decidedEvent,
	describeApproval,
	simplifiedEvent,
	listAllApprovals,
	MAX_SETTLED,
	readDecision,
	readState,
	settledKey,
	UNDETERMINED_AFTER_POLLS,
	writeState,
} from './approvalEvents';

/** The last poll of a node started, settled whether it succeeded or failed. */
interface PollQueue {
	last: Promise<unknown>;
}

// Polls of one node never overlap: n8n starts the next on time even if the last is still running, and
// both would read and write the same remembered state.
const pollQueues = new TriggerNodeRegistry<PollQueue>(() => ({ last: Promise.resolve() }));

async function oneAtATime<T>(this: IPollFunctions, poll: () => Promise<T>): Promise<T> {
	const queue = pollQueues.of(this);
	const next = queue.last.then(poll, poll);
	const settled = next.catch(() => undefined);
	queue.last = settled;
	try {
		return await next;
	} finally {
		if (pollQueues.peek(this)?.last === settled) pollQueues.forget(this);
	}
}

/** What an approval's record tells about its payment, as remembered while it is watched. */
function knownOf(details: IDataObject): { xtid: string | null; account: string | null } {
	return {
		xtid: (details[PLAIN_NAMES.xtid] as string | null) ?? null,
		account: (details[PLAIN_NAMES.parent_xaid] as string | null) ?? null,
	};
}

const APPROVAL_CREATED = ENDPOINTS.approvals.records?.created ?? [];

/**
 * The newest pending approval (Approval Requested), else the newest decided one (Approval Decided), read
 * once: unclear evidence is shown as undetermined at once, as nothing is watched here. Newest by the
 * records' creation times, or the list's last (docs/bank-assumptions.md#list-order).
 */
async function exampleEvent(
	this: IPollFunctions,
	approvals: IDataObject[],
	events: ApprovalEvent[],
): Promise<IDataObject> {
	const newest = newestFirst(approvals, APPROVAL_CREATED);
	const pending = newest.find(isPending);
	if (pending && events.includes('approvalRequested')) {
		return { event: 'approvalRequested', ...describeApproval(pending), approval: pending };
	}
	for (const approval of events.includes('approvalDecided')
		? newest.filter((a) => !isPending(a))
		: []) {
		const details = describeApproval(approval);
		const known = knownOf(details);
		const read = await readDecision.call(this, String(details[PLAIN_NAMES.ref]), known, approval);
		const { judgement } = read;
		if (judgement.kind === 'pending') continue;
		return judgement.kind === 'decided'
			? decidedEvent(String(details[PLAIN_NAMES.ref]), known, read, judgement.decision)
			: decidedEvent(String(details[PLAIN_NAMES.ref]), known, read, 'undetermined', judgement.note);
	}
	throw new NodeOperationError(this.getNode(), 'No approval to show as an example', {
		description: events.includes('approvalDecided')
			? "Decide an approval in the bank's app (or submit a payment that needs approval), then fetch a test event again. A bank that lists only pending approvals shows no decided one here."
			: 'Submit a payment that needs approval (Payment → Submit), then fetch a test event again.',
	});
}

interface Candidate {
	ref: string;
	known: { xtid: string | null; account: string | null };
	polls: number;
	/** The record as listed, when the bank lists it as decided. */
	listed?: IDataObject;
}

/** One poll in progress: the state remembered, the state to remember, the events and the settled digests. */
interface Poll {
	known: ApprovalState;
	next: ApprovalState;
	emitted: IDataObject[];
	/** Digests of decided approvals the bank lists that need no report any more. */
	settled: Set<string>;
	/** Digests of approvals reported now that the bank does not list decided. */
	settledUnlisted: Set<string>;
}

/** The pending approvals of the list (announced when new), and the decided ones by ref. */
function readList(
	poll: Poll,
	approvals: IDataObject[],
	announceRequested: boolean,
	includePendingAtStart: boolean,
): Map<string, IDataObject> {
	const { known, next } = poll;
	const listedDecided = new Map<string, IDataObject>();
	for (const approval of approvals) {
		const details = describeApproval(approval);
		const ref = String(details[PLAIN_NAMES.ref] ?? '');
		if (!ref) continue;
		if (!isPending(approval)) {
			listedDecided.set(ref, approval);
			continue;
		}
		next.pending[ref] = knownOf(details);
		const isNew = known.pending[ref] === undefined && known.watched[ref] === undefined;
		const announce = known.baselineTaken ? isNew : includePendingAtStart;
		if (announce && announceRequested)
			poll.emitted.push({ event: 'approvalRequested', ...details, approval });
	}
	return listedDecided;
}

/**
 * The approvals whose decision is to be read: known as pending and no longer listed pending, watched,
 * or listed decided and neither in the baseline nor reported (decided between two polls, or while n8n
 * was down). Listed decided ones that need no report are settled.
 */
function candidatesOf(poll: Poll, listedDecided: Map<string, IDataObject>): Candidate[] {
	const { known, next } = poll;
	const candidates: Candidate[] = [];
	for (const [ref, approval] of Object.entries(known.pending)) {
		if (next.pending[ref] === undefined)
			candidates.push({ ref, known: approval, polls: 0, listed: listedDecided.get(ref) });
	}
	for (const [ref, { polls, ...approval }] of Object.entries(known.watched)) {
		if (next.pending[ref] === undefined && known.pending[ref] === undefined) {
			candidates.push({ ref, known: approval, polls, listed: listedDecided.get(ref) });
		}
	}
	const remembered = new Set([...known.settled, ...known.settledMissing]);
	const handled = new Set(candidates.map((candidate) => candidate.ref));
	for (const [ref, approval] of listedDecided) {
		if (handled.has(ref)) continue;
		const key = settledKey(ref);
		if (remembered.has(key) || !known.baselineTaken) poll.settled.add(key);
		else if (!known.settledOverflow) {
			candidates.push({
				ref,
				known: knownOf(describeApproval(approval)),
				polls: 0,
				listed: approval,
			});
		}
	}
	return candidates;
}

/** A candidate's decision read: still pending, decided (reported), unclear (watched, or undetermined at last). */
async function judgeCandidate(
	this: IPollFunctions,
	poll: Poll,
	candidate: Candidate,
	wantDecided: boolean,
): Promise<void> {
	const { ref, known: approval, listed } = candidate;
	const settle = (): void => {
		(listed ? poll.settled : poll.settledUnlisted).add(settledKey(ref));
	};
	if (!wantDecided) return settle();
	const read = await readDecision.call(this, ref, approval, listed);
	const { judgement } = read;
	if (judgement.kind === 'pending') {
		poll.next.pending[ref] = approval;
	} else if (judgement.kind === 'decided') {
		poll.emitted.push(decidedEvent(ref, approval, read, judgement.decision));
		settle();
	} else if (candidate.polls + 1 >= UNDETERMINED_AFTER_POLLS) {
		poll.emitted.push(decidedEvent(ref, approval, read, 'undetermined', judgement.note));
		settle();
	} else {
		poll.next.watched[ref] = { ...approval, polls: candidate.polls + 1 };
	}
}

/** The settled digests to remember, at most MAX_SETTLED; those missing from this poll's list kept one more poll. */
function rememberSettled({ known, next, settled, settledUnlisted }: Poll): void {
	next.settled = [...settled];
	if (next.settled.length > MAX_SETTLED) {
		next.settled = next.settled.slice(0, MAX_SETTLED);
		next.settledOverflow = true;
	}
	const missing = [...known.settled.filter((key) => !settled.has(key)), ...settledUnlisted];
	next.settledMissing = [...new Set(missing)].slice(0, MAX_SETTLED);
}

/**
 * One poll of an active workflow: what is new since the state remembered, and the state to remember.
 * Approval Decided is emitted for an approval known as pending that left pending, for one the bank lists
 * already decided that is not in the baseline and was not reported (decided between two polls, or while
 * n8n was down), and for one watched for UNDETERMINED_AFTER_POLLS polls (as undetermined).
 */
async function pollChanges(
	this: IPollFunctions,
	approvals: IDataObject[],
	known: ApprovalState,
	events: ApprovalEvent[],
	includePendingAtStart: boolean,
): Promise<{ emitted: IDataObject[]; next: ApprovalState }> {
	const next: ApprovalState = {
		baselineTaken: true,
		pending: {},
		watched: {},
		settled: [],
		settledMissing: [],
		settledOverflow: known.settledOverflow,
	};
	const poll: Poll = { known, next, emitted: [], settled: new Set(), settledUnlisted: new Set() };
	const listedDecided = readList(
		poll,
		approvals,
		events.includes('approvalRequested'),
		includePendingAtStart,
	);
	const wantDecided = events.includes('approvalDecided');
	for (const candidate of candidatesOf(poll, listedDecided))
		await judgeCandidate.call(this, poll, candidate, wantDecided);
	rememberSettled(poll);
	return { emitted: poll.emitted, next };
}

export interface PollOptions {
	events: ApprovalEvent[];
	/** Account IDs; empty for every account of the credential. */
	accounts: string[];
	includePendingAtStart: boolean;
	/** Simplify: the events without the bank's records (approvalEvents.ts `simplifiedEvent`). */
	simplify: boolean;
}

/**
 * One poll of the node, never overlapping another of the same node: in the editor's "Fetch Test Event"
 * (manual mode) an example, remembering nothing; otherwise the events since the state remembered in
 * the node's static data, and the state to remember written there.
 */
export async function pollApprovals(
	this: IPollFunctions,
	{ events, accounts, includePendingAtStart, simplify }: PollOptions,
): Promise<INodeExecutionData[][] | null> {
	const output = (event: IDataObject) => (simplify ? simplifiedEvent(event) : event);
	return await (oneAtATime<INodeExecutionData[][] | null>).call(this, async () => {
		const approvals = await listAllApprovals.call(this, accounts);

		// n8n's "Fetch Test Event": the newest approval of a chosen event as an example; nothing is remembered.
		if (this.getMode() === 'manual')
			return [[{ json: output(await exampleEvent.call(this, approvals, events)) }]];

		const staticData = this.getWorkflowStaticData('node');
		const { emitted, next } = await pollChanges.call(
			this,
			approvals,
			readState(staticData),
			events,
			includePendingAtStart,
		);
		writeState(staticData, next);
		return emitted.length > 0 ? [this.helpers.returnJsonArray(emitted.map(output))] : null;
	});
}

/**
 * Where a CPU profile of n8n's main thread spent its time, in a few kinds a reader can act on: waiting,
 * n8n saving the execution, n8n's expression isolate, n8n's database, HTTP, this package's own code,
 * garbage collection and the rest. Each sample goes to the first kind its stack matches, leaf first.
 * This package's own code is its self time: samples whose innermost frame with a source is the
 * package's (built-ins it calls, such as JSON or regular expressions, count with it); n8n code the
 * package calls (parameters, credentials, n8n's request helper) is counted apart, unless a kind
 * nearer the leaf (HTTP, the database) claims it.
 */
interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string };
	children?: number[];
}

export interface CpuProfile {
	nodes: ProfileNode[];
	samples: number[];
	timeDeltas: number[];
	startTime: number;
	endTime: number;
}

export interface ProfileShare {
	kind: string;
	ms: number;
	share: number;
}

const BY_NAME = new Map([
	['(idle)', 'idle: waiting for the bank, the database or the next call'],
	['(garbage collector)', 'garbage collection'],
	['(program)', 'V8 and native code outside JavaScript'],
]);

// the e2e cache's own folder is also named after the package: only its installed copy counts
const PACKAGE = /node_modules\/n8n-nodes-customer-banking\//;
export const OWN_CODE = 'this package, its own code (self time)';
const CALLED_BY_PACKAGE =
	"n8n's helpers called by this package (parameters, credentials, request helper)";

/** Kinds recognised in a sample's stack, in the order they are tried on each frame from the leaf. */
const BY_URL: Array<[string, RegExp]> = [
	['n8n saving the execution', /execution-persistence|\/flatted\//],
	['n8n expression isolate', /expression-runtime|isolated-vm/],
	['n8n database (TypeORM, SQLite)', /@n8n\/typeorm|\/sqlite3\//],
	['HTTP (client and server)', /axios|backend-network|node:_http|node:net|express|body-parser/],
];

function kindOf(stack: ProfileNode[]): string {
	const named = BY_NAME.get(stack[0].callFrame.functionName);
	if (named) return named;
	const innermost = stack.find((frame) => frame.callFrame.url !== '');
	if (innermost && PACKAGE.test(innermost.callFrame.url)) return OWN_CODE;
	for (const frame of stack) {
		if (PACKAGE.test(frame.callFrame.url)) return CALLED_BY_PACKAGE;
		const found = BY_URL.find(([, pattern]) => pattern.test(frame.callFrame.url));
		if (found) return found[0];
	}
	return 'other n8n work (engine, hooks, events)';
}

/** A stretch of the profile, in microseconds of its own clock (that of `startTime`). */
export interface ProfileWindow {
	fromUs: number;
	toUs: number;
}

/** The kinds of the samples of the whole profile, or of those taken within `window`. */
export function profileShares(profile: CpuProfile, window?: ProfileWindow): ProfileShare[] {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parentOf = new Map<number, number>();
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parentOf.set(child, node.id);
	const stackOf = (id: number) => {
		const stack: ProfileNode[] = [];
		for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
			const node = byId.get(at);
			if (node) stack.push(node);
		}
		return stack;
	};
	const kindById = new Map<number, string>();
	const micros = new Map<string, number>();
	let total = 0;
	let at = profile.startTime;
	profile.samples.forEach((id, index) => {
		const delta = profile.timeDeltas[index] ?? 0;
		at += delta;
		if (window && (at < window.fromUs || at >= window.toUs)) return;
		let kind = kindById.get(id);
		if (kind === undefined) {
			kind = kindOf(stackOf(id));
			kindById.set(id, kind);
		}
		micros.set(kind, (micros.get(kind) ?? 0) + delta);
		total += delta;
	});
	return [...micros]
		.map(([kind, value]) => ({ kind, ms: value / 1000, share: total ? value / total : 0 }))
		.sort((a, b) => b.ms - a.ms);
}

/**
 * The package's own self time by function (its innermost frame with a source), in `window`, most
 * first: where its share of the profile goes.
 */
export function ownCodeByFunction(
	profile: CpuProfile,
	window?: ProfileWindow,
): Array<{ name: string; ms: number }> {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parentOf = new Map<number, number>();
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parentOf.set(child, node.id);
	const micros = new Map<string, number>();
	let at = profile.startTime;
	profile.samples.forEach((id, index) => {
		at += profile.timeDeltas[index] ?? 0;
		if (window && (at < window.fromUs || at >= window.toUs)) return;
		for (let node = byId.get(id); node; node = byId.get(parentOf.get(node.id) ?? -1)) {
			const { url, functionName, lineNumber } = node.callFrame as ProfileNode['callFrame'] & {
				lineNumber?: number;
			};
			if (url === '') continue;
			if (!PACKAGE.test(url)) return;
			const name = `${functionName || '(anonymous)'} (${url.split('/dist/')[1] ?? url}:${(lineNumber ?? 0) + 1})`;
			micros.set(name, (micros.get(name) ?? 0) + (profile.timeDeltas[index] ?? 0));
			return;
		}
	});
	return [...micros]
		.map(([name, value]) => ({ name, ms: value / 1000 }))
		.sort((a, b) => b.ms - a.ms);
}

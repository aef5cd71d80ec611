/**
 * Where a CPU profile of n8n's main thread spent its time, in a few kinds a reader can act on: waiting,
 * n8n saving the execution, n8n's expression isolate, n8n's database, HTTP, this package's own code,
 * garbage collection and the rest. Each sample goes to the first kind its stack matches, leaf first.
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

/** Kinds recognised in a sample's stack, in the order they are tried on each frame from the leaf. */
const BY_URL: Array<[string, RegExp]> = [
	// the e2e cache's own folder is also named after the package: only its installed copy counts
	['this package', /node_modules\/n8n-nodes-customer-banking\//],
	['n8n saving the execution', /execution-persistence|\/flatted\//],
	['n8n expression isolate', /expression-runtime|isolated-vm/],
	['n8n database (TypeORM, SQLite)', /@n8n\/typeorm|\/sqlite3\//],
	['HTTP (client and server)', /axios|backend-network|node:_http|node:net|express|body-parser/],
];

function kindOf(stack: ProfileNode[]): string {
	const named = BY_NAME.get(stack[0].callFrame.functionName);
	if (named) return named;
	for (const frame of stack) {
		const found = BY_URL.find(([, pattern]) => pattern.test(frame.callFrame.url));
		if (found) return found[0];
	}
	return 'other n8n work (engine, hooks, events)';
}

export function profileShares(profile: CpuProfile): ProfileShare[] {
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
	profile.samples.forEach((id, index) => {
		const delta = profile.timeDeltas[index] ?? 0;
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

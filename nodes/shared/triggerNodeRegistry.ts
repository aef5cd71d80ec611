import type { INode } from 'n8n-workflow';

/** What every n8n context of a trigger node (hook, webhook, poll) tells about the node it runs. */
export interface TriggerNodeCall {
	getWorkflow(): { id?: string };
	getNode(): INode;
}

/** Which trigger node a call belongs to: its workflow and its node (the node's name when n8n gave no id). */
export function triggerNodeOf(call: TriggerNodeCall): string {
	const node = call.getNode();
	return JSON.stringify([call.getWorkflow().id ?? '', node.id || node.name]);
}

/**
 * State kept per trigger node in this n8n instance's memory (never in static data), for as long as the
 * instance runs. With `maxNodes`, the entry created first goes once more nodes than that have one.
 */
export class TriggerNodeRegistry<T> {
	private readonly byNode = new Map<string, T>();

	constructor(
		private readonly create: (call: TriggerNodeCall) => T,
		private readonly maxNodes = Infinity,
	) {}

	/** The node's entry, created on first use. */
	of(call: TriggerNodeCall): T {
		const node = triggerNodeOf(call);
		const known = this.byNode.get(node);
		if (known !== undefined) return known;
		return this.set(call, this.create(call));
	}

	/** The node's entry, without creating one. */
	peek(call: TriggerNodeCall): T | undefined {
		return this.byNode.get(triggerNodeOf(call));
	}

	/** Replaces the node's entry. */
	set(call: TriggerNodeCall, entry: T): T {
		const node = triggerNodeOf(call);
		if (!this.byNode.has(node) && this.byNode.size >= this.maxNodes) {
			const oldest = this.byNode.keys().next();
			if (!oldest.done) this.byNode.delete(oldest.value);
		}
		this.byNode.set(node, entry);
		return entry;
	}

	forget(call: TriggerNodeCall): void {
		this.byNode.delete(triggerNodeOf(call));
	}
}

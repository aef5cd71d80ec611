import type { INode } from 'n8n-workflow';

import { TriggerNodeRegistry, triggerNodeOf } from '../../../nodes/shared/triggerNodeRegistry';

function callOf(workflowId: string | undefined, node: Partial<INode>) {
	return {
		getWorkflow: () => ({ id: workflowId }),
		getNode: () => ({ name: 'Trigger', ...node }) as INode,
	};
}

describe('one registry per trigger node', () => {
	it('keeps one entry per workflow and node, created on first use', () => {
		const registry = new TriggerNodeRegistry(() => ({ count: 0 }));
		const first = registry.of(callOf('wf-1', { id: 'node-1' }));
		first.count++;
		expect(registry.of(callOf('wf-1', { id: 'node-1' }))).toBe(first);
		expect(registry.of(callOf('wf-1', { id: 'node-2' }))).not.toBe(first);
		expect(registry.of(callOf('wf-2', { id: 'node-1' }))).not.toBe(first);
		expect(first.count).toBe(1);
	});

	it('names a node by its name when n8n gave it no id, without mixing it up with an id', () => {
		expect(triggerNodeOf(callOf('wf', { id: '', name: 'A' }))).not.toBe(
			triggerNodeOf(callOf('wf', { id: 'B', name: 'B' })),
		);
		expect(triggerNodeOf(callOf(undefined, { id: 'n' }))).toBe(
			triggerNodeOf(callOf('', { id: 'n' })),
		);
	});

	it('peeks without creating, replaces, and forgets', () => {
		const registry = new TriggerNodeRegistry((call) => ({ of: call.getNode().id }));
		const call = callOf('wf', { id: 'n' });
		expect(registry.peek(call)).toBeUndefined();
		const set = registry.set(call, { of: 'replaced' });
		expect(registry.of(call)).toBe(set);
		registry.forget(call);
		expect(registry.peek(call)).toBeUndefined();
		expect(registry.of(call)).toEqual({ of: 'n' });
	});

	it('beyond its bound, the entry created first goes', () => {
		const registry = new TriggerNodeRegistry(() => ({}), 2);
		const [a, b, c] = ['a', 'b', 'c'].map((id) => callOf('wf', { id }));
		registry.of(b);
		registry.of(a);
		registry.of(c);
		expect(registry.peek(b)).toBeUndefined();
		expect(registry.peek(a)).toBeDefined();
		expect(registry.peek(c)).toBeDefined();
	});
});

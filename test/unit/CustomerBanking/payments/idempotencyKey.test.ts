import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	batchKey,
	isUuidV4,
	itemKey,
	keyScopeOf,
	resubmissionKey,
	uuidV4FromParts,
	type KeyScope,
} from '../../../../nodes/CustomerBanking/payments/idempotencyKey';

const scope: KeyScope = {
	executionId: '1001',
	keysLost: false,
	workflowId: 'wf-7',
	nodeId: 'node-a',
	runIndex: 0,
};
// Computed once from the rule below; a change here means every custom key changed
const PINNED_CUSTOM_KEY = 'c5c20839-ec68-40e6-bb4d-6b261c7884a6';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('uuidV4FromParts', () => {
	it('formats sha256 output as an RFC 9562 UUID v4 (version nibble 4, variant 10xx)', () => {
		for (let i = 0; i < 200; i++) {
			const key = uuidV4FromParts(['part', String(i)]);
			expect(key).toMatch(UUID_V4);
			expect(isUuidV4(key)).toBe(true);
		}
	});

	it('is deterministic and keeps part boundaries', () => {
		expect(uuidV4FromParts(['a', 'bc'])).toBe(uuidV4FromParts(['a', 'bc']));
		expect(uuidV4FromParts(['a', 'bc'])).not.toBe(uuidV4FromParts(['ab', 'c']));
		expect(uuidV4FromParts(['a,b'])).not.toBe(uuidV4FromParts(['a', 'b']));
	});
});

describe('isUuidV4', () => {
	it('accepts only version 4 with the RFC variant', () => {
		expect(isUuidV4('0b0f8a3e-5c4d-4e2f-9a1b-2c3d4e5f6a7b')).toBe(true);
		expect(isUuidV4('0B0F8A3E-5C4D-4E2F-9A1B-2C3D4E5F6A7B')).toBe(true);
		expect(isUuidV4('0b0f8a3e-5c4d-1e2f-9a1b-2c3d4e5f6a7b')).toBe(false); // version 1
		expect(isUuidV4('0b0f8a3e-5c4d-4e2f-7a1b-2c3d4e5f6a7b')).toBe(false); // NCS variant
		expect(isUuidV4('INV-2024-0001')).toBe(false);
		expect(isUuidV4(' 0b0f8a3e-5c4d-4e2f-9a1b-2c3d4e5f6a7b')).toBe(false);
	});
});

describe('itemKey (Submit)', () => {
	it('derives the same key for the same execution, node and item: Retry On Fail reuses it', () => {
		const first = itemKey(scope, 3);
		expect(first).toEqual({ key: itemKey({ ...scope }, 3).key, source: 'derived' });
		expect(first.key).toMatch(UUID_V4);
	});

	it('derives a different key per item, per node and per execution', () => {
		const keys = new Set([
			itemKey(scope, 0).key,
			itemKey(scope, 1).key,
			itemKey({ ...scope, nodeId: 'node-b' }, 0).key,
			itemKey({ ...scope, executionId: '1002' }, 0).key,
		]);
		expect(keys.size).toBe(4);
	});

	it('depends on the workflow id too (execution ids of two n8n instances can meet at one bank)', () => {
		expect(itemKey({ ...scope, workflowId: 'other' }, 0).key).not.toBe(itemKey(scope, 0).key);
		expect(batchKey({ ...scope, workflowId: 'other' }, 0, [0]).key).not.toBe(
			batchKey(scope, 0, [0]).key,
		);
	});

	it('hashes a custom key that is not a UUID v4, namespaced by workflow and node, independent of the execution', () => {
		const custom = itemKey(scope, 0, 'INV-2024-0001');
		expect(custom.source).toBe('custom');
		expect(custom.customKey).toBe('INV-2024-0001');
		expect(custom.key).toMatch(UUID_V4);
		expect(itemKey({ ...scope, executionId: '9999' }, 5, 'INV-2024-0001').key).toBe(custom.key);
		expect(itemKey({ ...scope, workflowId: 'wf-8' }, 0, 'INV-2024-0001').key).not.toBe(custom.key);
		expect(itemKey({ ...scope, nodeId: 'node-b' }, 0, 'INV-2024-0001').key).not.toBe(custom.key);
		expect(itemKey(scope, 0, 'INV-2024-0002').key).not.toBe(custom.key);
	});

	it('sends a custom UUID v4 exactly as given', () => {
		const given = '0B0F8A3E-5C4D-4E2F-9A1B-2C3D4E5F6A7B';
		expect(itemKey(scope, 0, given)).toEqual({ key: given, source: 'custom' });
	});
});

describe('batchKey (Submit Batch)', () => {
	it('is stable for the same batch in the same execution', () => {
		expect(batchKey(scope, 1, [2, 3]).key).toBe(batchKey(scope, 1, [2, 3]).key);
		expect(batchKey(scope, 1, [2, 3]).key).toMatch(UUID_V4);
	});

	it('changes with the items in the batch, so another batch size never reuses a key for another body', () => {
		const sizeTwo = batchKey(scope, 0, [0, 1]).key;
		expect(batchKey(scope, 0, [0, 1, 2]).key).not.toBe(sizeTwo);
		expect(batchKey(scope, 0, [0]).key).not.toBe(sizeTwo);
		expect(batchKey(scope, 1, [0, 1]).key).not.toBe(sizeTwo);
		expect(batchKey({ ...scope, executionId: '1002' }, 0, [0, 1]).key).not.toBe(sizeTwo);
		expect(batchKey(scope, 0, [0, 1]).key).not.toBe(itemKey(scope, 0).key);
	});
});

describe('resubmissionKey', () => {
	it('is a new UUID v4, stable for the same original key and items', () => {
		const original = batchKey(scope, 0, [0, 1, 2]).key;
		const key = resubmissionKey(original, 1, [2]);
		expect(key).toMatch(UUID_V4);
		expect(key).not.toBe(original);
		expect(resubmissionKey(original, 1, [2])).toBe(key);
		expect(resubmissionKey(original, 1, [1, 2])).not.toBe(key);
		expect(resubmissionKey(original, 2, [2])).not.toBe(key);
	});
});

describe('derived keys and the run of the node ($runIndex)', () => {
	it("a loop's later run gets other keys; the first run keeps the keys derived before runs counted", () => {
		expect(itemKey(scope, 0).key).toBe(uuidV4FromParts(['item', 'wf-7', '1001', 'node-a', '0']));
		expect(itemKey({ ...scope, runIndex: 1 }, 0).key).not.toBe(itemKey(scope, 0).key);
		expect(itemKey({ ...scope, runIndex: 1 }, 0).key).toBe(
			itemKey({ ...scope, runIndex: 1 }, 0).key,
		);
		expect(batchKey({ ...scope, runIndex: 1 }, 0, [0, 1]).key).not.toBe(
			batchKey(scope, 0, [0, 1]).key,
		);
		// custom keys are meant to be stable across runs and executions
		expect(itemKey({ ...scope, runIndex: 1 }, 0, 'INV-1').key).toBe(itemKey(scope, 0, 'INV-1').key);
	});
});

describe('keyScopeOf', () => {
	const contextWith = (
		executionId: string,
		node: { id?: string; name: string },
		runIndex: unknown = 0,
		nodeContext: Record<string, unknown> = {},
		mode = 'trigger',
	) =>
		({
			getExecutionId: () => executionId,
			getMode: () => mode,
			getContext: () => nodeContext,
			getWorkflow: () => ({ id: 'wf-1', active: false }),
			getNode: () => ({
				...node,
				type: 'customerBanking',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			}),
			getWorkflowDataProxy: () => ({ $runIndex: runIndex }),
		}) as unknown as IExecuteFunctions;

	it('uses the execution id, the workflow id, the node id (stable across renames) and the run of the node', () => {
		expect(keyScopeOf.call(contextWith('42', { id: 'abc', name: 'Pay suppliers' }, 2))).toEqual({
			executionId: '42',
			keysLost: false,
			workflowId: 'wf-1',
			nodeId: 'abc',
			runIndex: 2,
		});
		expect(keyScopeOf.call(contextWith('42', { id: 'abc', name: 'Pay' }, undefined)).runIndex).toBe(
			0,
		);
	});

	it('falls back to the node name when n8n gives no node id', () => {
		expect(keyScopeOf.call(contextWith('42', { name: 'Pay suppliers' })).nodeId).toBe(
			'Pay suppliers',
		);
	});

	it("keeps the first execution's id in the node's context, which n8n hands to its Retry of the execution", () => {
		const nodeContext: Record<string, unknown> = {};
		expect(
			keyScopeOf.call(contextWith('42', { id: 'abc', name: 'Pay' }, 0, nodeContext)).executionId,
		).toBe('42');
		const retried = keyScopeOf.call(
			contextWith('57', { id: 'abc', name: 'Pay' }, 0, nodeContext, 'retry'),
		);
		expect(retried).toMatchObject({ executionId: '42', keysLost: false });
	});

	it('a Retry whose context holds no scope says the keys are lost (payments are looked up before sending)', () => {
		expect(
			keyScopeOf.call(contextWith('57', { id: 'abc', name: 'Pay' }, 0, {}, 'retry')),
		).toMatchObject({ executionId: '57', keysLost: true });
		expect(
			keyScopeOf.call(contextWith('58', { id: 'abc', name: 'Pay' }, 0, {}, 'webhook')).keysLost,
		).toBe(false);
	});

	it('refuses to derive a key without an execution id', () => {
		expect(() => keyScopeOf.call(contextWith('', { id: 'abc', name: 'Pay' }))).toThrow(
			NodeOperationError,
		);
	});
});

describe('derivation rule (pinned: changing it would change custom keys across package versions)', () => {
	it('is sha256 over the JSON array [version, ...parts], first 16 bytes, version and variant bits set', () => {
		const { createHash } = jest.requireActual<typeof import('crypto')>('crypto');
		const bytes = createHash('sha256')
			.update(
				JSON.stringify([
					'customer-banking/payment-key/v1',
					'custom',
					'wf-7',
					'node-a',
					'INV-2024-0001',
				]),
			)
			.digest();
		bytes[6] = (bytes[6] & 0x0f) | 0x40;
		bytes[8] = (bytes[8] & 0x3f) | 0x80;
		const hex = bytes.subarray(0, 16).toString('hex');
		const expected = [
			hex.slice(0, 8),
			hex.slice(8, 12),
			hex.slice(12, 16),
			hex.slice(16, 20),
			hex.slice(20),
		].join('-');
		expect(itemKey(scope, 0, 'INV-2024-0001').key).toBe(expected);
		expect(expected).toBe(PINNED_CUSTOM_KEY);
	});
});

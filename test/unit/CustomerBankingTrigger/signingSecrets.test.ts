/**
 * The signing secrets a trigger node reuses between deliveries: read from its credential (current,
 * then previous), reused for SECRET_REUSE_MS, read again for a delivery they do not verify at most once
 * per REREAD_INTERVAL_MS, never another credential's, forgotten on deactivation.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import {
	forgetSigningSecrets,
	readSigningSecrets,
	recentSigningSecrets,
	REREAD_INTERVAL_MS,
	rereadSigningSecrets,
	SECRET_REUSE_MS,
} from '../../../nodes/CustomerBankingTrigger/signingSecrets';

let nodeCount = 0;

/** A trigger node's calls: its credential (changeable), and how often it was read. */
function triggerNode(stored: IDataObject = { webhookSigningSecret: 'current' }) {
	const nodeId = `node-${++nodeCount}`;
	const state = { credentialId: 'cred-1', credential: stored, reads: 0, slow: false };
	let release: (() => void) | undefined;
	const call = {
		getWorkflow: () => ({ id: 'workflow-1' }),
		getNode: () => ({
			id: nodeId,
			name: 'Customer Banking Trigger',
			credentials: { customerBankingApi: { id: state.credentialId, name: 'bank' } },
		}),
		getCredentials: async () => {
			state.reads++;
			if (state.slow) await new Promise<void>((resolve) => (release = resolve));
			return { ...state.credential };
		},
	} as unknown as IWebhookFunctions;
	return Object.assign(state, { call, release: () => release?.() });
}

const T0 = 1_700_000_000_000;

describe('readSigningSecrets', () => {
	it.each<[string, IDataObject, string[]]>([
		[
			'current, then previous',
			{ webhookSigningSecret: 'a', webhookSigningSecretPrevious: 'b' },
			['a', 'b'],
		],
		[
			'trimmed, empty ones left out',
			{ webhookSigningSecret: '  a ', webhookSigningSecretPrevious: '' },
			['a'],
		],
		[
			'the same secret twice counts once',
			{ webhookSigningSecret: 'a', webhookSigningSecretPrevious: 'a' },
			['a'],
		],
		['none set', {}, []],
	])('%s', async (_case, stored, secrets) => {
		const node = triggerNode(stored);
		expect(await readSigningSecrets.call(node.call, T0)).toEqual(secrets);
	});

	it('concurrent deliveries share one read of the credential', async () => {
		const node = triggerNode();
		node.slow = true;
		const first = readSigningSecrets.call(node.call, T0);
		const second = readSigningSecrets.call(node.call, T0);
		await Promise.resolve();
		node.release();
		expect(await Promise.all([first, second])).toEqual([['current'], ['current']]);
		expect(node.reads).toBe(1);
	});
});

describe('recentSigningSecrets', () => {
	it('reused for SECRET_REUSE_MS after a read, then not', async () => {
		const node = triggerNode();
		expect(recentSigningSecrets.call(node.call, T0)).toBeUndefined();
		await readSigningSecrets.call(node.call, T0);
		expect(recentSigningSecrets.call(node.call, T0 + SECRET_REUSE_MS - 1)).toEqual(['current']);
		expect(recentSigningSecrets.call(node.call, T0 + SECRET_REUSE_MS)).toBeUndefined();
	});

	it('not reused when the clock went back', async () => {
		const node = triggerNode();
		await readSigningSecrets.call(node.call, T0);
		expect(recentSigningSecrets.call(node.call, T0 - 1)).toBeUndefined();
	});

	it("never another credential's: a node given another credential reads its own", async () => {
		const node = triggerNode();
		await readSigningSecrets.call(node.call, T0);
		node.credentialId = 'cred-2';
		expect(recentSigningSecrets.call(node.call, T0 + 1)).toBeUndefined();
	});

	it('forgotten on deactivation', async () => {
		const node = triggerNode();
		await readSigningSecrets.call(node.call, T0);
		forgetSigningSecrets.call(node.call as never);
		expect(recentSigningSecrets.call(node.call, T0 + 1)).toBeUndefined();
	});
});

describe('rereadSigningSecrets', () => {
	it('reads again, at most once per REREAD_INTERVAL_MS (forged deliveries cannot make n8n decrypt on every request)', async () => {
		const node = triggerNode();
		await readSigningSecrets.call(node.call, T0);
		node.credential = { webhookSigningSecret: 'rotated' };
		expect(await rereadSigningSecrets.call(node.call, T0 + 1)).toEqual(['rotated']);
		expect(await rereadSigningSecrets.call(node.call, T0 + 2)).toBeUndefined();
		expect(await rereadSigningSecrets.call(node.call, T0 + 1 + REREAD_INTERVAL_MS)).toEqual([
			'rotated',
		]);
		expect(node.reads).toBe(3);
		// what was read is what is reused
		expect(recentSigningSecrets.call(node.call, T0 + 2 + REREAD_INTERVAL_MS)).toEqual(['rotated']);
	});
});

/** The demo's data and the example workflows (examples/*.json), shared by `npm run demo` and the editor suite. */
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Sandbox } from '../../sandbox';
import type { N8n } from './n8n';
import { activate, loadWorkflow } from './stack';

export const DEMO_DIR = join(__dirname, '..', '..', '..', 'examples');
/** The example with the trigger: activated on import, so sandbox events start it at once. */
export const ACTIVE_EXAMPLE = 'settled-payments.json';
/** What `npm run demo` activates besides: the approval examples, polled every minute. */
export const APPROVAL_EXAMPLES = [
	'approval-requested.json',
	'approval-decided.json',
	'approved-invoices.json',
];

export interface DemoWorkflow {
	file: string;
	id: string;
	name: string;
}

export async function importDemoWorkflows(
	n8n: N8n,
	sandbox: Sandbox,
	credentialId: string,
	active: readonly string[] = [ACTIVE_EXAMPLE],
): Promise<DemoWorkflow[]> {
	const replacements = {
		CREDENTIAL_ID: credentialId,
		ACCOUNT_GBP: sandbox.seeded.accounts.gbp,
		ACCOUNT_EUR: sandbox.seeded.accounts.eur,
		PAYEE_GBP: sandbox.seeded.payees.gbp,
	};
	const imported: DemoWorkflow[] = [];
	for (const file of readdirSync(DEMO_DIR)
		.filter((name) => name.endsWith('.json'))
		.sort()) {
		const created = await n8n.apiOk<{ id: string; name: string }>(
			'POST',
			'/workflows',
			loadWorkflow(join(DEMO_DIR, file), replacements),
		);
		if (active.includes(file)) await activate(n8n, created.id);
		imported.push({ file, id: String(created.id), name: created.name });
	}
	return imported;
}

/**
 * Two payments over the approval threshold, made straight at the sandbox API: one approval approved
 * (a decided one for the approval examples to show) and one left pending; returns the pending one's ref.
 */
export async function seedApprovals(sandbox: Sandbox): Promise<string> {
	const approved = await seedPendingApproval(sandbox, 'DEMO-APPROVED-01', 1800);
	await sandbox.control.approve(approved);
	return await seedPendingApproval(sandbox, 'DEMO-APPROVE-01', 2500);
}

/** A payment over the approval threshold, made straight at the sandbox API; returns its approval's ref. */
export async function seedPendingApproval(
	sandbox: Sandbox,
	reference: string,
	amount: number,
): Promise<string> {
	const { clientId, clientSecret } = sandbox.clients.full;
	const tokenResponse = await fetch(sandbox.tokenUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({
			grant_type: 'client_credentials',
			client_id: clientId,
			client_secret: clientSecret,
			audience: sandbox.audience,
		}),
	});
	const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
	const response = await fetch(`${sandbox.baseUrl}/payments`, {
		method: 'POST',
		headers: {
			authorization: `Bearer ${token}`,
			'content-type': 'application/json',
			'x-idempotent-key': randomUUID(),
		},
		body: JSON.stringify({
			xaid: sandbox.seeded.accounts.gbp,
			xpid: sandbox.seeded.payees.gbp,
			amount,
			reference,
		}),
	});
	if (response.status !== 202)
		throw new Error(
			`seeding a pending approval failed: ${response.status} ${await response.text()}`,
		);
	const xtid = ((await response.json()) as { submitted: Array<{ xtid: string }> }).submitted[0]
		.xtid;
	const approval = sandbox.control.ledger().approvals.find((a) => a.xtid === xtid);
	if (!approval) throw new Error(`no approval for the seeded payment ${reference}`);
	return String(approval.ref);
}

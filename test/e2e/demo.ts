/**
 * `npm run demo` (tsx test/e2e/demo.ts): the package in a real n8n, ready to click through.
 * Builds and packs the package, starts the sandbox bank with seeded data (port 4010 when free), starts
 * the pinned n8n (installed into the cache on first use) with the tarball installed as a user would,
 * creates the owner, a credential for the sandbox and the example workflows of examples/, and
 * prints the editor URL and the login. Ctrl-C stops everything it started.
 */
import { type Sandbox, startSandbox } from '../sandbox';
import {
	ACTIVE_EXAMPLE,
	APPROVAL_EXAMPLES,
	importDemoWorkflows,
	seedApprovals,
	seedPendingApproval,
} from './lib/demo';
import { defaultVersion } from './lib/install';
import { type N8n, OWNER, startN8n } from './lib/n8n';
import { buildAndPack } from './lib/pack';
import { portIsFree, stopAllOnSignals } from './lib/processes';
import { createSandboxCredential } from './lib/stack';

const SANDBOX_PORT = 4010;
const N8N_PORT = 5678;

async function main(): Promise<void> {
	const running: { sandbox?: Sandbox; n8n?: N8n } = {};
	stopAllOnSignals(async () => {
		process.stdout.write('\nStopping n8n and the sandbox …\n');
		await Promise.allSettled([running.n8n?.stop(), running.sandbox?.close()]);
	});

	console.log('Building and packing the package …');
	const tarball = buildAndPack();
	const sandbox = (running.sandbox = await startSandbox({
		port: (await portIsFree(SANDBOX_PORT)) ? SANDBOX_PORT : 0,
	}));
	await seedApprovals(sandbox);
	console.log(
		`Starting n8n ${defaultVersion} (the first run installs it into the cache: a few minutes) …`,
	);
	const n8n = (running.n8n = await startN8n({
		version: defaultVersion,
		tarball,
		port: (await portIsFree(N8N_PORT)) ? N8N_PORT : undefined,
	}));

	const credential = await createSandboxCredential(n8n, sandbox);
	const active = [ACTIVE_EXAMPLE, ...APPROVAL_EXAMPLES];
	const workflows = await importDemoWorkflows(n8n, sandbox, credential.id, active);
	const imported = workflows.map(
		({ file, id, name }) =>
			`${name}${active.includes(file) ? ' (active)' : ''}  ${n8n.url}/workflow/${id}`,
	);
	// made after the approval triggers took their first look, so their next poll announces it
	const pending = await seedPendingApproval(sandbox, 'DEMO-NEW-01', 1200);

	const { accounts, payees } = sandbox.seeded;
	const control = sandbox.controlUrl;
	const named = (file: string) =>
		`"${workflows.find((workflow) => workflow.file === file)?.name ?? file}"`;
	const [requested, decided, invoices] = APPROVAL_EXAMPLES.map(named);
	console.log(
		[
			'',
			`n8n ${defaultVersion} with n8n-nodes-customer-banking is running`,
			`  editor       ${n8n.url}`,
			`  login        ${OWNER.email} / ${OWNER.password}`,
			`  credential   "${credential.name}" (Settings → Credentials) points at the sandbox`,
			'  workflows',
			...imported.map((line) => `    ${line}`),
			'',
			`Sandbox bank  ${sandbox.baseUrl}`,
			`  accounts     GBP ${accounts.gbp}   EUR ${accounts.eur}`,
			`  payees       GBP ${payees.gbp}   EUR ${payees.eur}`,
			'  approvals    payments of 1,000.00 or more (any currency) wait for approval; the others are sent at once',
			'',
			'What to try next',
			`  1. Open ${named('pay-invoices.json')} and click Execute workflow: INV-DEMO-0001 (120.50) is sent, INV-DEMO-0002 (1,500.00)`,
			'     waits for approval. Run it again: nothing is paid twice (the invoice number is the idempotency key).',
			"  2. The approval workflows poll the bank every minute; their runs show in each workflow's Executions tab.",
			`     Within a minute ${requested}`,
			`     reports DEMO-NEW-01 (1,200.00). Decide it as an approver would in the bank's app, one of:`,
			`       curl -X POST ${control}/approvals/${pending}/approve`,
			`       curl -X POST ${control}/approvals/${pending}/decline`,
			`       curl -X POST ${control}/approvals/${pending}/expire`,
			`     and within a minute ${decided} runs,`,
			`     and so does ${invoices}.`,
			"     For INV-DEMO-0002, take its approvalId from the Pay node's output and do the same.",
			`  3. Money arriving starts ${named(ACTIVE_EXAMPLE)} at once:`,
			`       curl -X POST ${control}/accounts/${accounts.gbp}/receive -H 'content-type: application/json' -d '{"amount": 120.5, "reference": "Invoice 42"}'`,
			`     and a sent payment settling too: curl -X POST ${control}/transactions/<transaction ID>/settle`,
			`  Everything the bank holds: curl ${control}/ledger   (the control API: docs/sandbox.md)`,
			'',
			'Ctrl-C stops n8n and the sandbox.',
		].join('\n'),
	);
}

main().catch(async (error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
	process.kill(process.pid, 'SIGTERM');
});

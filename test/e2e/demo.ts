/**
 * `npm run demo` (tsx test/e2e/demo.ts): the package in a real n8n, ready to click through.
 * Builds and packs the package, starts the sandbox bank with seeded data (port 4010 when free), starts
 * the pinned n8n (installed into the cache on first use) with the tarball installed as a user would,
 * creates the owner, a credential for the sandbox and the example workflows of examples/, and
 * prints the editor URL and the login. Ctrl-C stops everything it started.
 */
import { type Sandbox, startSandbox } from '../sandbox';
import { ACTIVE_EXAMPLE, importDemoWorkflows, seedApprovals } from './lib/demo';
import { defaultVersion } from './lib/install';
import { type N8n, OWNER, startN8n } from './lib/n8n';
import { buildAndPack } from './lib/pack';
import { portIsFree, stopAllOnSignals } from './lib/processes';
import { createCredential, credentialData } from './lib/stack';

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
	const sandbox = (running.sandbox = await startSandbox({ port: (await portIsFree(SANDBOX_PORT)) ? SANDBOX_PORT : 0 }));
	await seedApprovals(sandbox);
	console.log(`Starting n8n ${defaultVersion} (the first run installs it into the cache: a few minutes) …`);
	const n8n = (running.n8n = await startN8n({ version: defaultVersion, tarball, port: (await portIsFree(N8N_PORT)) ? N8N_PORT : undefined }));

	const credential = await createCredential(n8n, 'Customer Banking sandbox', credentialData(sandbox));
	const workflows = await importDemoWorkflows(n8n, sandbox, credential.id);
	const imported = workflows.map(({ file, id, name }) => `${name}${file === ACTIVE_EXAMPLE ? ' (active)' : ''}  ${n8n.url}/workflow/${id}`);

	const { accounts } = sandbox.seeded;
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
			`Sandbox bank  ${sandbox.baseUrl}  (control API ${sandbox.controlUrl})`,
			`  accounts     GBP ${accounts.gbp}   EUR ${accounts.eur}`,
			'  try          (the settled-payments workflow is active: each of these starts an execution)',
			`    curl -X POST ${sandbox.controlUrl}/accounts/${accounts.gbp}/receive -H 'content-type: application/json' -d '{"amount": 120.5, "reference": "Invoice 42"}'`,
			`    curl ${sandbox.controlUrl}/ledger       # balances, transactions, approvals`,
			`    curl -X POST ${sandbox.controlUrl}/approvals/<ref>/approve   # approve a pending payment (ref from Approvals)`,
			`    curl -X POST ${sandbox.controlUrl}/transactions/<xtid>/settle   # settle a sent payment`,
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

/**
 * `npm run sandbox [-- --port 4010 --seed 1 --spec-minimal]`: the sandbox bank on loopback with seeded data.
 * `--spec-minimal` (or CUSTOMER_BANKING_SANDBOX_MODE=spec-minimal) runs a bank that answers only what the
 * spec promises (variants.ts, DECISIONS.md §Variants).
 * Prints what a credential needs; secrets are printed here on purpose (a local test bank).
 */
import { startSandbox } from './index';
import { variantsFromEnvironment } from './variants';

function option(name: string, fallback: number): number {
	const index = process.argv.indexOf(`--${name}`);
	if (index === -1) return fallback;
	const value = Number(process.argv[index + 1]);
	if (!Number.isInteger(value) || value < 0) {
		console.error(`--${name} needs a non-negative integer`);
		process.exit(2);
	}
	return value;
}

async function main(): Promise<void> {
	const specMinimal =
		process.argv.includes('--spec-minimal') || variantsFromEnvironment() === 'specMinimal';
	const sandbox = await startSandbox({
		port: option('port', 4010),
		seed: option('seed', 1),
		variants: specMinimal ? 'specMinimal' : {},
	});
	const lines = [
		'Customer Banking sandbox is running',
		specMinimal
			? '  mode         spec-minimal (answers only what the spec promises; DECISIONS.md §Variants)'
			: "  mode         default (the sandbox's own decisions; --spec-minimal for a bank answering only what the spec promises)",
		`  switches     ${Object.entries(sandbox.variants)
			.map(([name, value]) => `${name}=${value}`)
			.join(' ')}`,
		`  base URL     ${sandbox.baseUrl}`,
		`  token URL    ${sandbox.authUrl}   (token endpoint ${sandbox.tokenUrl})`,
		`  audience     ${sandbox.audience}`,
		`  control API  ${sandbox.controlUrl}`,
		`  webhook signing secret  ${sandbox.signingSecrets.main}   (other workspace: ${sandbox.signingSecrets.otherWorkspace})`,
		'  clients:',
		...Object.entries(sandbox.clients).map(
			([name, c]) =>
				`    ${name.padEnd(15)} ${c.clientId}  secret ${c.clientSecret}  (${c.workspaceId})\n` +
				`    ${''.padEnd(15)} scopes: ${c.scopes.join(' ')}`,
		),
		'  seeded accounts:',
		...Object.entries(sandbox.seeded.accounts).map(
			([name, xaid]) => `    ${name.padEnd(15)} ${xaid}`,
		),
		'  seeded payees:',
		...Object.entries(sandbox.seeded.payees).map(
			([name, xpid]) => `    ${name.padEnd(15)} ${xpid}`,
		),
		'Ctrl+C to stop.',
	];
	console.log(lines.join('\n'));
	const stop = () => void sandbox.close().then(() => process.exit(0));
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});

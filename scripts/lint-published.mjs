// Runs `n8n-node lint` exactly as n8n's tooling runs it on a community package: its own default
// eslint.config.mjs (strict mode refuses any other) over `eslint .` in the package root. That scope
// would take in test/, which is never published, so the CLI runs in a copy of the package that holds
// only what the published code is built from: nodes/, credentials/, icons/, package.json and
// tsconfig.json. Paths in its report are relative to that copy, the same as in this repository.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cliRoot = join(repoRoot, 'node_modules', '@n8n', 'node-cli');
const defaultConfig = join(
	cliRoot,
	'dist',
	'template',
	'templates',
	'shared',
	'default',
	'eslint.config.mjs',
);

const published = ['nodes', 'credentials', 'icons', 'package.json', 'tsconfig.json'];

const copy = mkdtempSync(join(tmpdir(), 'n8n-node-lint-'));
let status = 1;
try {
	for (const entry of published)
		cpSync(join(repoRoot, entry), join(copy, entry), { recursive: true });
	cpSync(defaultConfig, join(copy, 'eslint.config.mjs'));
	symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
	console.log(`n8n-node lint on ${published.join(', ')} (copied to ${copy})`);
	const run = spawnSync(process.execPath, [join(cliRoot, 'bin', 'n8n-node.mjs'), 'lint'], {
		cwd: copy,
		stdio: 'inherit',
	});
	status = run.status ?? 1;
	if (status === 0) console.log('n8n-node lint: no problems');
} finally {
	rmSync(copy, { recursive: true, force: true });
}
process.exit(status);

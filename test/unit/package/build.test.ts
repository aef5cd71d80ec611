/**
 * The build's asset step (gulpfile.js, run by `npm run build` after tsc): the icons and each node's
 * codex file go into dist/, and nothing else of the repository (screenshots, coverage, test files);
 * tsc emits no codex file of its own, so each is copied once.
 */
import { execFileSync } from 'node:child_process';
import {
	cpSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const repoRoot = join(__dirname, '..', '..', '..');

function filesUnder(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true, recursive: true })
		.filter((entry) => entry.isFile())
		.map((entry) => relative(folder, join(entry.parentPath, entry.name)))
		.sort();
}

describe('gulp build:icons', () => {
	let copy: string;

	beforeAll(() => {
		copy = mkdtempSync(join(tmpdir(), 'cb-build-'));
		cpSync(join(repoRoot, 'icons'), join(copy, 'icons'), { recursive: true });
		cpSync(join(repoRoot, 'nodes'), join(copy, 'nodes'), { recursive: true });
		// what else a repository holds: screenshots, coverage reports, test fixtures
		for (const planted of [
			'artifacts/e2e/editor/01.png',
			'coverage/lcov-report/favicon.png',
			'test/fixtures/logo.svg',
			'nodes/CustomerBanking/notes.json',
		]) {
			mkdirSync(join(copy, planted, '..'), { recursive: true });
			writeFileSync(join(copy, planted), 'x');
		}
		execFileSync(
			process.execPath,
			[
				join(repoRoot, 'node_modules', 'gulp', 'bin', 'gulp.js'),
				'--gulpfile',
				join(repoRoot, 'gulpfile.js'),
				'--cwd',
				copy,
				'build:icons',
			],
			{
				stdio: 'pipe',
			},
		);
	}, 60_000);

	afterAll(() => rmSync(copy, { recursive: true, force: true }));

	it('copies exactly the icons and the codex files', () => {
		expect(filesUnder(join(copy, 'dist'))).toEqual([
			'icons/customerBanking.dark.svg',
			'icons/customerBanking.svg',
			'nodes/CustomerBanking/CustomerBanking.node.json',
			'nodes/CustomerBankingApprovalTrigger/CustomerBankingApprovalTrigger.node.json',
			'nodes/CustomerBankingTrigger/CustomerBankingTrigger.node.json',
		]);
		expect(readFileSync(join(copy, 'dist/icons/customerBanking.svg'))).toEqual(
			readFileSync(join(repoRoot, 'icons/customerBanking.svg')),
		);
	});

	it('is the one asset step: tsc emits no codex file, the build runs tsc then gulp', () => {
		const tsconfig = JSON.parse(readFileSync(join(repoRoot, 'tsconfig.json'), 'utf8')) as {
			include: string[];
		};
		expect(tsconfig.include.filter((pattern) => !pattern.endsWith('.ts'))).toEqual([]);
		const { scripts } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
			scripts: Record<string, string>;
		};
		expect(scripts.build).toBe('npm run clean && tsc && gulp build:icons');
	});
});

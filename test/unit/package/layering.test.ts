/**
 * The layering rule of eslint.config.mjs: a node folder imports only itself and nodes/shared, and
 * nodes/shared and the credential import no node folder. Each violation is planted in a file that is
 * linted as if it lived there, and must fail; the allowed imports must pass.
 */
import { execFileSync } from 'child_process';
import { join } from 'path';

const ROOT = join(__dirname, '../../..');

const FAILS: Array<[string, string]> = [
	[
		'nodes/CustomerBanking/actions/x.ts',
		"import { imported } from '../../CustomerBankingTrigger/events';",
	],
	[
		'nodes/CustomerBankingTrigger/x.ts',
		"import { imported } from '../CustomerBanking/actions/simplify';",
	],
	[
		'nodes/CustomerBankingTrigger/x.ts',
		"import { imported } from '../CustomerBankingApprovalTrigger/approvalPoll';",
	],
	[
		'nodes/CustomerBankingApprovalTrigger/x.ts',
		"import { imported } from '../CustomerBanking/payments/evidence';",
	],
	['nodes/shared/x.ts', "import { imported } from '../CustomerBanking/actions/outputNames';"],
	[
		'nodes/shared/transport/x.ts',
		"import { imported } from '../../CustomerBankingTrigger/events';",
	],
	['credentials/x.ts', "import { imported } from '../nodes/CustomerBanking/actions/simplify';"],
];
const PASSES: Array<[string, string]> = [
	['nodes/CustomerBanking/actions/x.ts', "import { imported } from '../../shared/transport';"],
	['nodes/CustomerBanking/actions/x.ts', "import { imported } from '../payments/evidence';"],
	['nodes/CustomerBankingTrigger/x.ts', "import { imported } from './events';"],
	[
		'nodes/CustomerBankingApprovalTrigger/x.ts',
		"import { imported } from '../shared/approvals/statusVocabulary';",
	],
	['credentials/x.ts', "import { imported } from '../nodes/shared/transport/credentialRules';"],
];

// ESLint loads its ES-module config by a dynamic import, which jest's module system does not run: the
// cases are linted by ESLint itself, in one child process, each as if the file lived at its path.
const LINT_CASES = `
import { ESLint } from 'eslint';
const cases = JSON.parse(process.argv[1]);
const eslint = new ESLint({ cwd: process.cwd() });
const out = [];
for (const [file, source] of cases) {
	const [result] = await eslint.lintText(source + '\\nexport const used = imported;\\n', { filePath: file });
	out.push(result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message));
}
console.log(JSON.stringify(out));
`;

let errors: string[][];
beforeAll(() => {
	const cases = [...FAILS, ...PASSES].map(([file, source]) => [join(ROOT, file), source]);
	const output = execFileSync(
		process.execPath,
		['--input-type=module', '-e', LINT_CASES, JSON.stringify(cases)],
		{ cwd: ROOT, encoding: 'utf8' },
	);
	errors = JSON.parse(output) as string[][];
}, 120_000);

describe('node folders never import each other', () => {
	it.each(FAILS.map((entry, index) => [...entry, index] as const))(
		'%s: %s fails',
		(_file, _source, index) => {
			expect(errors[index]).toEqual([
				expect.stringContaining('node folders never import each other'),
			]);
		},
	);

	it.each(PASSES.map((entry, index) => [...entry, FAILS.length + index] as const))(
		'%s: %s passes',
		(_file, _source, index) => {
			expect(errors[index]).toEqual([]);
		},
	);
});

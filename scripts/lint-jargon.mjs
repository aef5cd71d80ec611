// Fails when a label, description, hint, placeholder, notice or option of a published node or of the
// credential shows the API's words (scripts/jargon.cjs). Loads the TypeScript sources named in
// package.json's "n8n" section (run with tsx: `npm run lint:jargon`), so no build is needed; files
// named on the command line are checked instead (the checker's own test plants one). Without named
// files, the README's user sections are checked too (scripts/readmeJargon.cjs).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const { findJargon } = require('./jargon.cjs');
const { findReadmeJargon } = require('./readmeJargon.cjs');

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { n8n } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
const named = process.argv.slice(2);
const sources =
	named.length > 0
		? named
		: [...n8n.nodes, ...n8n.credentials].map((built) =>
				built.replace(/^dist\//, '').replace(/\.js$/, '.ts'),
			);

/** The README's user sections (before its Resources links), read like the forms. */
function readmeProblems() {
	return findReadmeJargon(readFileSync(join(repoRoot, 'README.md'), 'utf8'), 'README.md');
}

const problems = [];
for (const source of sources) {
	const loaded = await import(pathToFileURL(resolve(repoRoot, source)).href);
	const classes = Object.values(loaded.default ?? loaded).filter(
		(value) => typeof value === 'function',
	);
	if (classes.length === 0) throw new Error(`${source}: exports no class`);
	for (const Type of classes) {
		const instance = new Type();
		// a node's form is its description; a credential's is the type itself
		problems.push(...findJargon(instance.description ?? instance, source));
	}
}

if (named.length === 0) problems.push(...readmeProblems());

for (const problem of problems) {
	console.error(
		`${problem.file}: ${problem.property}: ${problem.words} ("${problem.match}") in: ${problem.text}`,
	);
}
if (problems.length > 0) {
	console.error(
		`lint-jargon: ${problems.length} problem(s): write plain words in the form (the API reference belongs in the documentation)`,
	);
	process.exit(1);
}
console.log(`lint-jargon: no API words in the forms of ${sources.length} files`);
if (named.length === 0) console.log("lint-jargon: no API words in the README's user sections");

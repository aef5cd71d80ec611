// Fails when a label, description, hint, placeholder, notice or option of a published node or of the
// credential shows the API's words (scripts/jargon.cjs), or when an output the nodes give by default
// (every operation of the action node, payment results, both triggers: scripts/output-samples.mjs)
// names a field with one of the API's identifier names. Loads the TypeScript sources named in
// package.json's "n8n" section (run with tsx: `npm run lint:jargon`), so no build is needed. Files named
// on the command line are checked instead, their forms only (the checker's own test plants one);
// without them, the README's user sections (scripts/readmeJargon.cjs) and the outputs are checked too.
// `--outputs <module>` checks the outputs that module's `outputSamples()` gives instead of
// scripts/output-samples.mjs (the checker's own test plants one).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const { findApiOutputNames, findJargon } = require('./jargon.cjs');
const { findReadmeJargon } = require('./readmeJargon.cjs');

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { n8n } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
const args = process.argv.slice(2);
const outputsAt = args.indexOf('--outputs');
const outputsModule =
	outputsAt === -1
		? join(repoRoot, 'scripts', 'output-samples.mjs')
		: resolve(args.splice(outputsAt, 2)[1]);
const named = args;
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

const outputProblems = [];
let outputs = 0;
if (named.length === 0) {
	const { outputSamples } = await import(pathToFileURL(outputsModule).href);
	for (const { where, output, raw } of await outputSamples()) {
		outputs++;
		outputProblems.push(...findApiOutputNames(output, where, raw));
	}
}

for (const problem of problems) {
	console.error(
		`${problem.file}: ${problem.property}: ${problem.words} ("${problem.match}") in: ${problem.text}`,
	);
}
for (const problem of outputProblems) {
	console.error(
		`${problem.where}: output field ${problem.property}: the API's name "${problem.name}"`,
	);
}
if (problems.length > 0) {
	console.error(
		`lint-jargon: ${problems.length} problem(s): write plain words in the form (the API reference belongs in the documentation)`,
	);
}
if (outputProblems.length > 0) {
	console.error(
		`lint-jargon: ${outputProblems.length} output field(s) named as the API names them: use the plain names (nodes/shared/outputNames.ts), the bank's records with Simplify off only`,
	);
}
if (problems.length > 0 || outputProblems.length > 0) process.exit(1);
console.log(
	`lint-jargon: no API words in the forms of ${sources.length} files` +
		(named.length === 0 ? `, nor among the field names of ${outputs} kinds of output` : ''),
);
if (named.length === 0) console.log("lint-jargon: no API words in the README's user sections");

/**
 * What the nodes assume of a bank beyond the API documentation is written once, in
 * docs/bank-assumptions.md, and shipped code cites it there: not the sandbox's decision log (the sandbox
 * follows the page), not an entry the page does not have, and no test file (shipped comments say why,
 * and tests are not shipped).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const repoRoot = join(__dirname, '..', '..', '..');
const PAGE = 'docs/bank-assumptions.md';

function shippedFiles(dir: string): string[] {
	return readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return shippedFiles(path);
		return /\.(ts|json)$/.test(entry.name) ? [path] : [];
	});
}

const SHIPPED = [...shippedFiles('nodes'), ...shippedFiles('credentials')].map((path) => ({
	path: relative(repoRoot, join(repoRoot, path)),
	text: readFileSync(join(repoRoot, path), 'utf8'),
}));

/** The page's entries: the anchors of its `### name` headings (each name is its own anchor). */
function entriesOf(markdown: string): string[] {
	return [...markdown.matchAll(/^### ([a-z0-9]+(?:-[a-z0-9]+)*)$/gm)].map(([, name]) => name);
}

/** `docs/bank-assumptions.md#anchor` citations in a text. */
function citationsIn(text: string): string[] {
	return [...text.matchAll(/bank-assumptions\.md#([A-Za-z0-9_-]*)/g)].map(([, anchor]) => anchor);
}

/** Where a shipped file names a test file or the sandbox's decision log. */
function testFilesNamedIn(text: string): string[] {
	return [
		...text.matchAll(
			/DECISIONS\.md|\btest\/(?:unit|integration|e2e|queue|helpers|sandbox|reliability|bench)\b|\.(?:test|e2e\.test|bench)\.ts\b/g,
		),
	].map(([match]) => match);
}

const entries = entriesOf(readFileSync(join(repoRoot, PAGE), 'utf8'));

describe(PAGE, () => {
	it('has entries, each named once', () => {
		expect(entries.length).toBeGreaterThan(10);
		expect(new Set(entries).size).toBe(entries.length);
	});

	it('every citation of the page in shipped code names one of its entries', () => {
		const unknown = SHIPPED.flatMap(({ path, text }) =>
			citationsIn(text)
				.filter((anchor) => !entries.includes(anchor))
				.map((anchor) => `${path}: #${anchor}`),
		);
		expect(unknown).toEqual([]);
	});

	it('every entry is cited by the shipped code that makes the assumption', () => {
		const cited = new Set(SHIPPED.flatMap(({ text }) => citationsIn(text)));
		expect(entries.filter((entry) => !cited.has(entry))).toEqual([]);
	});

	it('no shipped file cites the sandbox decision log or names a test file', () => {
		const named = SHIPPED.flatMap(({ path, text }) =>
			testFilesNamedIn(text).map((match) => `${path}: ${match}`),
		);
		expect(named).toEqual([]);
	});
});

describe('the checks of this suite', () => {
	it.each([
		['// see test/sandbox/DECISIONS.md §Payments', ['test/sandbox', 'DECISIONS.md']],
		['// DECISIONS.md §Webhooks', ['DECISIONS.md']],
		['// test/unit/CustomerBanking/payments/evidence.test.ts has a row', ['test/unit', '.test.ts']],
		['// the editor suite (editorPayments.e2e.test.ts)', ['.e2e.test.ts']],
		['// docs/bank-assumptions.md#signature-scheme', []],
		['// a test of the form', []],
	])('find what %s names', (text, expected) => {
		expect(testFilesNamedIn(text)).toEqual(expected);
	});

	it('read citations and entries as written', () => {
		expect(citationsIn('(docs/bank-assumptions.md#list-order; bank-assumptions.md#nope)')).toEqual([
			'list-order',
			'nope',
		]);
		expect(entriesOf('## Lists\n\n### list-order\n\n- **Assume:** x\n### Not an entry\n')).toEqual([
			'list-order',
		]);
	});
});

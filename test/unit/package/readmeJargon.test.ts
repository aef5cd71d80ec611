/**
 * The README part of `npm run lint:jargon` (scripts/readmeJargon.cjs): no API words, delivery internals
 * or key internals in the sections a newcomer reads before the links to the reference pages.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { findReadmeJargon } from '../../../scripts/readmeJargon.cjs';

const repoRoot = join(__dirname, '..', '..', '..');

const readme = (userSections: string) =>
	`# n8n-nodes-example\n\n${userSections}\n\n## Resources\n\n- The reference: xtid, zapIds, static data, 503.\n`;

describe('findReadmeJargon', () => {
	it.each([
		['an identifier name', 'Outputs the `xtid` of the payment.', 'xtid'],
		['an identifier inside another name', 'Simplify keeps `parent_xaid`.', 'xaid'],
		['a subscription internal', 'Their zapIds come from the workflow.', 'zapIds'],
		['static data', "The node keeps it in n8n's static data.", 'static data'],
		['the key header', 'Sent with an Idempotency-Key header.', 'Idempotency-Key'],
		['a key field name', 'See `idempotencyKeySource`.', 'idempotencyKeySource'],
		['a table of answers', '| 503 with Retry-After | the bank sends it again |', '503'],
		['an HTTP verb and a path', 'It calls POST /payments.', 'POST'],
	])('finds %s, naming the line', (_, line, match) => {
		const problems = findReadmeJargon(readme(`Intro.\n\n${line}`), 'README.md');
		expect(problems).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ file: 'README.md', property: 'line 5', match }),
			]),
		);
	});

	it('leaves amounts, versions, limits and plain words alone', () => {
		const text = [
			'Payments of 1,200.00 or more wait; n8n 2.41.1 and 1.123.81 are tested; at most 100 per request.',
			'A Custom Idempotency Key such as the invoice number is paid once; `transactionId`, `accountId`.',
		].join('\n');
		expect(findReadmeJargon(readme(text), 'README.md')).toEqual([]);
	});

	it('reads only the sections before the Resources links', () => {
		expect(findReadmeJargon(readme('Plain words only.'), 'README.md')).toEqual([]);
	});

	it('refuses a README without the Resources heading, which would leave nothing checked', () => {
		expect(() => findReadmeJargon('# Title\n\nxtid\n', 'README.md')).toThrow(/## Resources/);
	});

	it("finds nothing in this package's README", () => {
		expect(
			findReadmeJargon(readFileSync(join(repoRoot, 'README.md'), 'utf8'), 'README.md'),
		).toEqual([]);
	});
});

it('npm run lint:jargon checks the README', () => {
	const result = spawnSync(
		process.execPath,
		[
			join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
			join(repoRoot, 'scripts', 'lint-jargon.mjs'),
		],
		{ cwd: repoRoot, encoding: 'utf8' },
	);
	expect(result.status).toBe(0);
	expect(result.stdout).toContain("no API words in the README's user sections");
}, 60_000);

/**
 * The README and the documentation pages it links say what the code does: the payment statuses and the
 * output each leaves on (payments/paymentStatuses.ts), the status words the node knows
 * (approvals/statusVocabulary.ts), and links that lead somewhere, also from the editor's documentation
 * links (codex files and the credential).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import { CustomerBankingApi } from '../../../credentials/CustomerBankingApi.credentials';
import { statusWord } from '../../../nodes/shared/approvals/statusVocabulary';
import {
	STATUS_OUTPUTS,
	PAYMENT_STATUSES,
} from '../../../nodes/CustomerBanking/payments/paymentStatuses';

const repoRoot = join(__dirname, '..', '..', '..');
const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');
const README = read('README.md');
const PAYMENTS_PAGE = read('docs/payments.md');
const PAGES = [
	'README.md',
	'docs/operations.md',
	'docs/payments.md',
	'docs/triggers.md',
	'docs/security.md',
	'docs/sandbox.md',
	'docs/architecture.md',
	'docs/bank-assumptions.md',
];

/** The rows of the Markdown table whose header row starts with `firstHeader`, as lists of cells. */
function tableAfter(markdown: string, firstHeader: string): string[][] {
	const lines = markdown.split('\n');
	const start = lines.findIndex((line) => line.startsWith(`| ${firstHeader} |`));
	if (start === -1) throw new Error(`no table starting with "${firstHeader}"`);
	const rows: string[][] = [];
	for (const line of lines.slice(start + 2)) {
		if (!line.startsWith('|')) break;
		rows.push(
			line
				.slice(1, -1)
				.split('|')
				.map((cell) => cell.trim()),
		);
	}
	return rows;
}

/** Status → output, from a table whose first column is the status and second the output. */
function statusTable(markdown: string): Record<string, string> {
	return Object.fromEntries(
		tableAfter(markdown, 'Status').map(([status, output]) => [status.replace(/`/g, ''), output]),
	);
}

const codeTable = Object.fromEntries(
	Object.entries(PAYMENT_STATUSES).map(([status, row]) => [status, row.output]),
);

describe.each([
	['the README', README],
	['docs/payments.md', PAYMENTS_PAGE],
])('the payment status table of %s', (_, markdown) => {
	const table = statusTable(markdown);

	it('names every status the code reports, and no other', () => {
		expect(Object.keys(table).sort()).toEqual(Object.keys(PAYMENT_STATUSES).sort());
	});

	it('names the output each status leaves on with Outputs by Outcome', () => {
		expect(table).toEqual(codeTable);
	});

	it('lists the outputs in the order the node shows them', () => {
		const outputs = [...new Set(Object.values(table))];
		expect(outputs).toEqual([...STATUS_OUTPUTS]);
	});
});

describe('the status words docs/payments.md names', () => {
	const listAfter = (opening: string) => {
		const flat = PAYMENTS_PAGE.replace(/\s+/g, ' ');
		const start = flat.indexOf(opening);
		if (start === -1) throw new Error(`"${opening}" is not in docs/payments.md`);
		const list = flat.slice(start + opening.length, flat.indexOf(')', start + opening.length));
		return [...list.matchAll(/`([^`]+)`/g)].map(([, word]) => word);
	};

	it('as known say something, on an approval or a transaction', () => {
		const known = listAfter('the words the node knows (');
		expect(known.length).toBeGreaterThan(3);
		for (const word of known)
			expect([
				word,
				statusWord(word, 'approval').says,
				statusWord(word, 'transaction').says,
			]).not.toEqual([word, 'unknown', 'unknown']);
	});

	it('as saying nothing are not known on a transaction', () => {
		const unknown = listAfter('Any other word (');
		expect(unknown).toEqual(expect.arrayContaining(['NEW', 'PENDING', 'submitted']));
		for (const word of unknown)
			expect([word, statusWord(word, 'transaction').says]).toEqual([word, 'unknown']);
	});

	it('a partly approved approval is not final', () => {
		expect(PAYMENTS_PAGE).toContain('(`PARTIALLY_APPROVED`) is not\n  final');
		expect(statusWord('PARTIALLY_APPROVED', 'approval').says).toBe('notFinal');
	});
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slugOf = (heading: string) =>
	heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N} _-]/gu, '')
		.replace(/ /g, '-');

function anchorsOf(markdown: string): Set<string> {
	const headings = [...markdown.matchAll(/^#{1,6} (.+)$/gm)].map(([, text]) => slugOf(text));
	const explicit = [...markdown.matchAll(/<a id="([^"]+)"><\/a>/g)].map(([, id]) => id);
	return new Set([...headings, ...explicit]);
}

describe('links', () => {
	const linksOf = (markdown: string) =>
		[...markdown.replace(/```[\s\S]*?```/g, '').matchAll(/\]\(([^)\s]+)\)/g)]
			.map(([, target]) => target)
			.filter((target) => !/^[a-z]+:/.test(target));

	it.each(PAGES)('every link of %s leads to a file, and a heading when it names one', (page) => {
		const broken = linksOf(read(page)).filter((target) => {
			const [path, anchor] = target.split('#');
			const file = path === '' ? join(repoRoot, page) : join(repoRoot, dirname(page), path);
			if (!existsSync(file)) return true;
			return anchor !== undefined && !anchorsOf(readFileSync(file, 'utf8')).has(anchor);
		});
		expect(broken).toEqual([]);
	});

	it('the README links every documentation page', () => {
		const linked = new Set(
			linksOf(README).map((target) => relative(repoRoot, join(repoRoot, target.split('#')[0]))),
		);
		const pages = [
			...PAGES.slice(1),
			'docs/scale.md',
			'docs/performance.md',
			'docs/development.md',
		];
		expect(pages.filter((page) => !linked.has(page))).toEqual([]);
	});

	it("the editor's documentation links lead to a heading of the README", () => {
		const codexLinks = [
			'CustomerBanking',
			'CustomerBankingTrigger',
			'CustomerBankingApprovalTrigger',
		].flatMap((node) =>
			Object.values(
				JSON.parse(read(`nodes/${node}/${node}.node.json`)).resources as Record<
					string,
					Array<{ url: string }>
				>,
			)
				.flat()
				.map(({ url }) => url),
		);
		const anchors = [...codexLinks, new CustomerBankingApi().documentationUrl]
			.map((url) => url.split('#')[1])
			.filter((anchor) => anchor !== undefined && anchor !== 'readme');
		expect(anchors.length).toBeGreaterThan(0);
		expect(anchors.filter((anchor) => !anchorsOf(README).has(anchor))).toEqual([]);
	});
});

it('the README stays short: at most 250 lines', () => {
	expect(README.split('\n').length).toBeLessThanOrEqual(250);
});

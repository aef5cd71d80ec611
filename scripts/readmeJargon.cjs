// The README's user sections (everything before "## Resources", where the links to the reference pages
// start) are what a newcomer reads first: the form's rules (jargon.cjs) apply there, and so do the words
// of the delivery and key internals, which belong in docs/. Used by lint-jargon.mjs and its unit test.
const { RULES } = require('./jargon.cjs');

const README_RULES = [
	...RULES,
	// also inside other names, such as parent_xaid
	{ words: "the API's identifier names (xtid, xpid, xaid)", pattern: /x[tpa]ids?\b/i },
	{ words: 'a subscription internal (zapId)', pattern: /\bzapIds?\b/i },
	{ words: "n8n's static data", pattern: /\bstatic data\b/i },
	{
		words: 'an idempotency key internal (header or field name)',
		pattern: /\bIdempotency-Key\b|\bidempotencyKey\w*|\bkeySource\b/,
	},
];

/** Where the user sections end: the heading of the links to the reference pages. */
const END_OF_USER_SECTIONS = /^## Resources\s*$/m;

// Amounts and versions (1,200.00, 2.41.1, 5,000) are not status codes.
const maskNumbers = (line) =>
	line.replace(/\d+(?:[.,]\d+)+/g, (number) => number.replace(/\d/g, '#'));

/** Every jargon word in the README's user sections, with its line number. */
function findReadmeJargon(markdown, file) {
	const end = markdown.search(END_OF_USER_SECTIONS);
	if (end === -1) throw new Error(`${file}: no "## Resources" heading ends the user sections`);
	const problems = [];
	markdown
		.slice(0, end)
		.split('\n')
		.forEach((line, index) => {
			const text = maskNumbers(line);
			const seen = new Set();
			for (const rule of README_RULES) {
				const match = rule.pattern.exec(text);
				if (match && !seen.has(rule.words)) {
					seen.add(rule.words);
					problems.push({
						file,
						property: `line ${index + 1}`,
						words: rule.words,
						match: match[0].trim(),
						text: line,
					});
				}
			}
		});
	return problems;
}

module.exports = { findReadmeJargon };

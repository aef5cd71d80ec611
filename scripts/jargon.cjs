// The words of the API (identifier names, HTTP verbs, paths, status codes, references to its
// documentation) that the form must not show: the user reads plain words there, and the API reference
// stays behind the documentation link. Used by lint-jargon.mjs and its unit test.

/** Keys whose string value the editor shows as text. `name` counts only on an option (it has a value). */
const TEXT_KEYS = new Set([
	'displayName',
	'description',
	'hint',
	'placeholder',
	'action',
	'errorMessage',
	'multipleValueButtonText',
]);

/** Keys whose values are data, not text: parameter values, visibility rules, request set-up. */
const SKIPPED_KEYS = new Set([
	'default',
	'value',
	'displayOptions',
	'routing',
	'credentials',
	'test',
	'authenticate',
	'icon',
	'defaults',
	'outputs',
	'inputs',
	'subtitle',
	'codex',
	'webhooks',
]);

const STATUS_CODES = '(?:100|20[0-8]|30[0-8]|40\\d|41\\d|42[0-9]|43\\d|451|50\\d|511)';

const RULES = [
	{ words: "the API's identifier names (xtid, xpid, xaid)", pattern: /\bx[tpa]ids?\b/i },
	{ words: 'an HTTP verb', pattern: /\b(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b/ },
	{ words: 'an API path', pattern: /(?:^|[\s("'`])\/[a-z{][\w{}.-]*/i },
	{ words: 'an API documentation placeholder', pattern: /\{[a-z]+_[a-z_]+\}/i },
	{
		words: 'a status code',
		// a bare number only when it reads as a status: "at most 100" is a limit
		pattern: new RegExp(
			`\\bHTTP\\s*\\d{3}\\b|(?<!\\b(?:most|to|of|than|least|max|maximum|limit)\\s)\\b${STATUS_CODES}\\b`,
			'i',
		),
	},
	{ words: 'a reference to the API documentation (spec §)', pattern: /§|\bspec\b/i },
];

/** Every jargon word in the user-facing text of `description` (a node description or a credential type). */
function findJargon(description, file) {
	const problems = [];
	const visit = (value, path, isOption) => {
		if (Array.isArray(value)) {
			value.forEach((entry, index) => visit(entry, `${path}[${index}]`, false));
			return;
		}
		if (value === null || typeof value !== 'object') return;
		const option =
			Object.hasOwn(value, 'value') &&
			Object.hasOwn(value, 'name') &&
			!Object.hasOwn(value, 'type');
		for (const [key, entry] of Object.entries(value)) {
			if (SKIPPED_KEYS.has(key)) continue;
			const where = `${path}.${key}`;
			if (
				typeof entry === 'string' &&
				(TEXT_KEYS.has(key) || (key === 'name' && (option || isOption)))
			) {
				for (const rule of RULES) {
					const match = rule.pattern.exec(entry);
					if (match)
						problems.push({
							file,
							property: where,
							words: rule.words,
							match: match[0].trim(),
							text: entry,
						});
				}
			} else if (typeof entry === 'object') {
				visit(entry, where, false);
			}
		}
	};
	visit(description, '', false);
	return problems;
}

/**
 * The API's names for its identifiers, its request ID and an approval's meta object (spec
 * §Identifiers, §Approval; spec §Payments' `requestId`), and the node's own former words for them: an
 * output names them in plain words instead (accountId, payeeId, transactionId, approvalId,
 * bankRequestId; nodes/shared/outputNames.ts), or lifts what meta holds to the top.
 */
const API_OUTPUT_NAME = /^(?:x[apt]?ids?|ref|parent_xaid|meta|requestId|approvalRef)$/;

/**
 * Every key of `output` (an output item the node builds, or a list of them), nested objects and lists
 * included, that is one of the API's names. `raw` names the keys whose value is the bank's record as
 * sent, which keeps the bank's names and is not looked into.
 */
function findApiOutputNames(output, where, raw = []) {
	const problems = [];
	const visit = (value, path) => {
		if (Array.isArray(value)) {
			value.forEach((entry, index) => visit(entry, `${path}[${index}]`));
			return;
		}
		if (value === null || typeof value !== 'object') return;
		for (const [key, entry] of Object.entries(value)) {
			if (API_OUTPUT_NAME.test(key))
				problems.push({ where, property: `${path}.${key}`, name: key });
			if (!raw.includes(key)) visit(entry, `${path}.${key}`);
		}
	};
	visit(output, '');
	return problems;
}

module.exports = { findJargon, findApiOutputNames, RULES };

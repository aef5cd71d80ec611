/**
 * The form check of `npm run lint` (scripts/lint-jargon.mjs, rules in scripts/jargon.cjs): no API words
 * (identifier names, HTTP verbs, paths, status codes, documentation references) in what the editor
 * shows; parameter values, names and defaults are data and stay as they are.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { CustomerBankingApi } from '../../../credentials/CustomerBankingApi.credentials';
import { CustomerBanking } from '../../../nodes/CustomerBanking/CustomerBanking.node';
import { CustomerBankingApprovalTrigger } from '../../../nodes/CustomerBankingApprovalTrigger/CustomerBankingApprovalTrigger.node';
import { CustomerBankingTrigger } from '../../../nodes/CustomerBankingTrigger/CustomerBankingTrigger.node';
import { findApiOutputNames, findJargon } from '../../../scripts/jargon.cjs';

const repoRoot = join(__dirname, '..', '..', '..');

describe('findJargon', () => {
	it.each([
		[
			'an identifier name',
			{ displayName: 'Transaction (xtid)' },
			'.properties[0].displayName',
			"the API's identifier names (xtid, xpid, xaid)",
		],
		[
			'an HTTP verb',
			{ description: 'Sends a POST for each item' },
			'.properties[0].description',
			'an HTTP verb',
		],
		['a path', { hint: 'Read from /payments first' }, '.properties[0].hint', 'an API path'],
		[
			'a status code',
			{ description: 'Refused with 409 when it exists' },
			'.properties[0].description',
			'a status code',
		],
		[
			'HTTP and a code',
			{ placeholder: 'e.g. HTTP 404' },
			'.properties[0].placeholder',
			'a status code',
		],
		[
			'a documentation reference',
			{ displayName: 'See spec §Payments', type: 'notice' },
			'.properties[0].displayName',
			'a reference to the API documentation (spec §)',
		],
		[
			'a documentation placeholder',
			{ description: 'The {base_url} of the API' },
			'.properties[0].description',
			'an API documentation placeholder',
		],
	])('names the property holding %s', (_, planted, property, words) => {
		const problems = findJargon(
			{ properties: [{ name: 'field', type: 'string', default: '', ...planted }] },
			'planted.ts',
		);
		expect(problems).toEqual([expect.objectContaining({ file: 'planted.ts', property, words })]);
	});

	it('checks option names and descriptions, and nested options', () => {
		const description = {
			properties: [
				{
					displayName: 'Mode',
					name: 'mode',
					type: 'options',
					default: 'a',
					options: [
						{ name: 'Use the xaid', value: 'a' },
						{ name: 'Plain', value: 'b', description: 'Answers 201 on success' },
					],
				},
				{
					displayName: 'More',
					name: 'more',
					type: 'collection',
					default: {},
					options: [
						{ displayName: 'Path', name: 'p', type: 'string', default: '', hint: 'GET it' },
					],
				},
			],
		};
		expect(findJargon(description, 'f.ts').map((p) => p.property)).toEqual([
			'.properties[0].options[0].name',
			'.properties[0].options[1].description',
			'.properties[1].options[0].hint',
		]);
	});

	it('leaves values, parameter names, defaults, visibility rules and plain numbers alone', () => {
		const description = {
			properties: [
				{
					displayName: 'Transaction ID Field',
					name: 'xtid',
					type: 'string',
					default: 'xtid',
					description: 'How many items go into one request (at most 100)',
					displayOptions: { show: { field: ['xaid'] } },
				},
				{
					displayName: 'Field',
					name: 'f',
					type: 'options',
					default: 'xpid',
					options: [{ name: 'Payee ID', value: 'xpid' }],
				},
			],
		};
		expect(findJargon(description, 'f.ts')).toEqual([]);
	});

	it('finds nothing in the forms of the published nodes and the credential', () => {
		const forms = [
			new CustomerBanking().description,
			new CustomerBankingTrigger().description,
			new CustomerBankingApprovalTrigger().description,
			new CustomerBankingApi(),
		];
		expect(forms.flatMap((form) => findJargon(form, 'source'))).toEqual([]);
	});
});

describe('findApiOutputNames', () => {
	it.each([
		'xtid',
		'xaid',
		'xpid',
		'xid',
		'xtids',
		'ref',
		'parent_xaid',
		'meta',
		'requestId',
		'approvalRef',
	])('names an output field called %s, at the top or nested', (name) => {
		const output = {
			status: 'already_made',
			earlierPayments: [{ transactionId: 't', [name]: 'x' }],
			[name]: 'x',
		};
		expect(findApiOutputNames(output, 'Payment')).toEqual([
			{ where: 'Payment', property: `.earlierPayments[0].${name}`, name },
			{ where: 'Payment', property: `.${name}`, name },
		]);
	});

	it("passes plain names, and leaves the bank's own record inside an output alone", () => {
		const output = {
			approvalId: 'a',
			transactionId: 't',
			accountId: 'c',
			payeeId: 'p',
			bankRequestId: 'r',
			reference: 'INV-1',
			approval: { ref: 'a', xtid: 't', parent_xaid: 'c' },
		};
		expect(findApiOutputNames(output, 'Approval Trigger', ['approval'])).toEqual([]);
		expect(findApiOutputNames(output, 'Approval Trigger').map((p) => p.name)).toEqual([
			'ref',
			'xtid',
			'parent_xaid',
		]);
	});
});

describe('scripts/lint-jargon.mjs', () => {
	const run = (...files: string[]) =>
		spawnSync(
			process.execPath,
			[
				join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
				join(repoRoot, 'scripts', 'lint-jargon.mjs'),
				...files,
			],
			{
				cwd: repoRoot,
				encoding: 'utf8',
			},
		);

	it('passes on the published sources', () => {
		const result = run();
		expect(result.stderr).toBe('');
		expect(result.status).toBe(0);
		expect(result.stdout).toMatch(/no API words in the forms of 4 files/);
		// every operation's default output (16 operations, 18 items: Get Many lists and payments give
		// one each), every kind of payment result, the Approval Trigger's events and the webhook
		// trigger's item with Fetch Full Transaction off and on (scripts/output-samples.mjs)
		expect(result.stdout).toMatch(/nor among the field names of 28 kinds of output/);
	}, 60_000);

	/** Runs the check on the outputs a planted module gives (`--outputs`). */
	const runOnOutputs = (module: string) => {
		const folder = mkdtempSync(join(tmpdir(), 'jargon-outputs-'));
		try {
			const planted = join(folder, 'planted.mjs');
			writeFileSync(planted, module);
			return run('--outputs', planted);
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
	};
	const samplesModule = JSON.stringify(join(repoRoot, 'scripts', 'output-samples.mjs'));

	it("fails on a planted output with the bank's names, naming the output and each field", () => {
		const result = runOnOutputs(
			`export const outputSamples = async () => [{ where: 'Planted (approval → get)', output: { approvalId: 'a', ref: 'a', parent_xaid: 'c', meta: { created: 't' }, transaction: { xtid: 't', xpid: 'p' } } }];\n`,
		);
		expect(result.status).toBe(1);
		for (const field of ['.ref', '.parent_xaid', '.meta', '.transaction.xtid', '.transaction.xpid'])
			expect(result.stderr).toContain(`Planted (approval → get): output field ${field}:`);
		expect(result.stderr).toContain('5 output field(s) named as the API names them');
	}, 60_000);

	it("fails when an operation's output is the bank's record (Transaction → Get with Simplify off planted as its default)", () => {
		const result = runOnOutputs(
			`import { OPERATION_INPUTS, operationSamples } from ${samplesModule};\n` +
				`export const outputSamples = async () => await operationSamples({ ...OPERATION_INPUTS, 'transaction:get': { ...OPERATION_INPUTS['transaction:get'], simplify: false } });\n`,
		);
		expect(result.status).toBe(1);
		const named = result.stderr
			.split('\n')
			.filter((line) => line.includes(': output field '))
			.map((line) => line.replace(/: the API's name.*/, ''));
		expect(named).toEqual([
			'Customer Banking (transaction → get): output field .xtid',
			'Customer Banking (transaction → get): output field .xaid',
			'Customer Banking (transaction → get): output field .xpid',
			'Customer Banking (transaction → get): output field .requestId',
		]);
	}, 60_000);

	it('fails on an operation it has no inputs for, so a new operation is checked from its first day', () => {
		const result = runOnOutputs(
			`import { OPERATION_INPUTS, operationSamples } from ${samplesModule};\n` +
				`const { ['payee:upsert']: _, ...inputs } = OPERATION_INPUTS;\n` +
				`export const outputSamples = async () => await operationSamples(inputs);\n`,
		);
		expect(result.status).toBe(1);
		expect(result.stderr).toContain(
			'Customer Banking (payee → upsert): no inputs for it in scripts/output-samples.mjs OPERATION_INPUTS',
		);
	}, 60_000);

	it('fails on a planted node, naming the file and the property', () => {
		const folder = mkdtempSync(join(tmpdir(), 'jargon-'));
		try {
			const planted = join(folder, 'Planted.node.ts');
			writeFileSync(
				planted,
				"export class Planted { description = { properties: [{ displayName: 'Payment', name: 'p', type: 'string', default: '', description: 'The xpid, sent with PUT' }] }; }\n",
			);
			const result = run(planted);
			expect(result.status).toBe(1);
			expect(result.stderr).toContain(
				`${planted}: .properties[0].description: the API's identifier names (xtid, xpid, xaid) ("xpid")`,
			);
			expect(result.stderr).toContain(
				`${planted}: .properties[0].description: an HTTP verb ("PUT")`,
			);
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
	}, 60_000);
});

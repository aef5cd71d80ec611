#!/usr/bin/env node
/**
 * Do two commits send the bank the same requests? Runs the integration suites of each commit against
 * the sandbox with its request recording on (CUSTOMER_BANKING_SANDBOX_RECORD, test/sandbox/index.ts)
 * and compares what each test sent: method, path, query, a digest of the body, idempotency key,
 * the answer's status and any injected fault. Timing fields are dropped; ids (UUIDs, long hex strings,
 * times) are replaced per test by their order of first appearance, so a key reused on a retry stays
 * visible as the same key.
 *
 *   node scripts/compare-request-logs.mjs [--before REV] [--after REV] [--mode spec-minimal]
 *                                         [--tests test/integration] [--keep]
 *   node scripts/compare-request-logs.mjs --logs before.jsonl after.jsonl
 *
 * Both commits run with this working tree's sandbox (test/sandbox/), so only the nodes and their
 * tests differ. --after defaults to the working tree itself (uncommitted changes included).
 * Exits 1 when any test sent other requests.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	cpSync,
	existsSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

function option(name, fallback) {
	const at = process.argv.indexOf(`--${name}`);
	return at === -1 ? fallback : process.argv[at + 1];
}

/** A checkout of `rev` (or the working tree for 'worktree') with this tree's sandbox and node_modules. */
function checkout(rev) {
	if (rev === 'worktree') return { dir: root, temporary: false };
	const dir = mkdtempSync(join(tmpdir(), `request-log-${rev.slice(0, 12)}-`));
	const archive = execFileSync('git', ['-C', root, 'archive', rev], { maxBuffer: 1 << 30 });
	execFileSync('tar', ['-x', '-C', dir], { input: archive });
	rmSync(join(dir, 'test/sandbox'), { recursive: true, force: true });
	cpSync(join(root, 'test/sandbox'), join(dir, 'test/sandbox'), { recursive: true });
	symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
	return { dir, temporary: true };
}

function record(rev, tests, mode, keep) {
	const { dir, temporary } = checkout(rev);
	const log = join(mkdtempSync(join(tmpdir(), 'request-log-')), `${rev.replace(/\W/g, '_')}.jsonl`);
	writeFileSync(log, '');
	const env = { ...process.env, CUSTOMER_BANKING_SANDBOX_RECORD: log };
	if (mode) env.CUSTOMER_BANKING_SANDBOX_MODE = mode;
	else delete env.CUSTOMER_BANKING_SANDBOX_MODE;
	console.log(`${rev}: running ${tests} in ${dir}${mode ? ` (${mode})` : ''}`);
	const run = spawnSync('npx', ['jest', '--silent', ...tests.split(',')], {
		cwd: dir,
		env,
		stdio: ['ignore', 'ignore', 'pipe'],
	});
	const summary = run.stderr
		.toString()
		.split('\n')
		.filter((line) => /^Tests:/.test(line))
		.join(' ');
	console.log(`${rev}: jest exit ${run.status}; ${summary}; log ${log}`);
	if (temporary && !keep) rmSync(dir, { recursive: true, force: true });
	return { log };
}

const ID =
	/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b|\b[0-9a-f]{16,}\b|\b[A-Za-z0-9_-]{20,}\b/gi;
const TIME = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?/g;
/** A port in an address (the sandbox and n8n's webhook listen on free ports). */
const PORT = /(\/\/[^/:\s"]+):\d{2,5}\b/g;
/** The test process's id (and its last three digits) as a number of its own in a text: tests put it in references. */
const pidIn = (pid) =>
	pid === undefined ? undefined : new RegExp(`(?<!\\d|<id )(?:${pid}|${pid % 1000})(?!\\d)`, 'g');

/**
 * One test's requests, ids replaced by `<id N>` in order of first appearance, times by `<time>`.
 * `anyNumber`: every number inside a text of a body counts as the same, for a test whose references
 * hold the process id next to a counter that happens to have the same digits.
 */
function normaliseTest(entries, anyNumber = false) {
	const ids = new Map();
	const placeholder = (id) => {
		if (!ids.has(id)) ids.set(id, `<id ${ids.size + 1}>`);
		return ids.get(id);
	};
	const pid = pidIn(entries[0]?.test?.pid);
	const name = (text) =>
		text.replace(TIME, '<time>').replace(PORT, '$1:<port>').replace(ID, placeholder);
	// inside a body only strings are text: numbers (amounts) stay as they are
	const nameBody = (value) => {
		if (typeof value === 'string') {
			if (anyNumber) return name(value).replace(/(?<!<id )\d+/g, '<n>');
			return pid ? name(value).replace(pid, '<pid>') : name(value);
		}
		if (Array.isArray(value)) return value.map(nameBody);
		if (typeof value !== 'object' || value === null) return value;
		return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, nameBody(entry)]));
	};
	return entries
		.sort((a, b) => a.id - b.id)
		.map((entry) => {
			const key = entry.headers?.['x-idempotent-key'];
			const body =
				entry.body === undefined
					? ''
					: createHash('sha256')
							.update(JSON.stringify(nameBody(entry.body)))
							.digest('hex')
							.slice(0, 12);
			const query = new URLSearchParams(entry.query ?? {}).toString();
			return [
				entry.area,
				entry.method,
				name(entry.path + (query ? `?${query}` : '')),
				body && `body ${body}`,
				key !== undefined && `key ${name(key)}`,
				`→ ${entry.status}`,
				entry.fault && `fault ${entry.fault}`,
			]
				.filter(Boolean)
				.join(' ');
		});
}

/** test file and name → its normalised requests. Sandboxes started outside a test count under the file. */
function readLog(log) {
	const byTest = new Map();
	for (const line of readFileSync(log, 'utf8').split('\n')) {
		if (!line) continue;
		const entry = JSON.parse(line);
		const file = entry.test?.file
			? entry.test.file.slice(entry.test.file.indexOf('/test/') + 1)
			: '(no test)';
		const test = `${file} › ${entry.test?.name ?? '(set-up)'}`;
		if (!byTest.has(test)) byTest.set(test, []);
		byTest.get(test).push(entry);
	}
	return byTest;
}

const sameRequests = (a, b) =>
	JSON.stringify(a) === JSON.stringify(b) ||
	// concurrent requests (batches, parallel look-ups) may arrive in another order: the same multiset is equal
	JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

/** A request's kind: method, route template and answer, e.g. `GET /transaction/{xtid} → 404`. */
const kindOf = (entry) =>
	`${entry.method} ${entry.route ?? entry.path.replace(ID, '{id}')} → ${entry.status}${entry.fault ? ` (fault ${entry.fault})` : ''}`;

const isPayment = (entry) => entry.method === 'POST' && entry.path === '/payments';

/**
 * Over the tests both commits have: how many more or fewer requests of each kind the second sent, and
 * the payment requests and idempotency keys of each, so a change in what the bank is asked to pay
 * stands out from added or removed reads.
 */
function summariseKinds(before, after) {
	const common = [...before.keys()].filter((test) => after.has(test));
	const change = new Map();
	const payments = [0, 0];
	const keys = [0, 0];
	for (const test of common) {
		[before, after].forEach((log, side) => {
			const entries = log.get(test);
			for (const entry of entries) {
				const kind = kindOf(entry);
				change.set(kind, (change.get(kind) ?? 0) + (side === 0 ? -1 : 1));
			}
			const posts = entries.filter(isPayment);
			payments[side] += posts.length;
			keys[side] += new Set(posts.map((entry) => entry.headers?.['x-idempotent-key'])).size;
		});
	}
	const onlyIn = (log, other) => [...log.keys()].filter((test) => !other.has(test)).length;
	console.log(
		`\nOver the ${common.length} tests both ran (${onlyIn(before, after)} only before, ${onlyIn(after, before)} only after): ` +
			`POST /payments ${payments[0]} → ${payments[1]}, idempotency keys ${keys[0]} → ${keys[1]}`,
	);
	for (const [kind, count] of [...change].sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))) {
		if (count !== 0) console.log(`  ${count > 0 ? '+' : ''}${count} ${kind}`);
	}
}

function compare(before, after) {
	const tests = [...new Set([...before.keys(), ...after.keys()])].sort();
	let same = 0;
	let requests = 0;
	const sameButNumbers = [];
	const differing = [];
	for (const test of tests) {
		const [a, b] = [before, after].map((log) => normaliseTest(log.get(test) ?? []));
		requests += a.length;
		if (sameRequests(a, b)) same++;
		else if (
			sameRequests(...[before, after].map((log) => normaliseTest(log.get(test) ?? [], true)))
		)
			sameButNumbers.push(test);
		else differing.push({ test, a, b });
	}
	for (const { test, a, b } of differing) {
		console.log(`\n✗ ${test}: ${a.length} requests before, ${b.length} after`);
		const onlyBefore = a.filter((r) => !b.includes(r));
		const onlyAfter = b.filter((r) => !a.includes(r));
		for (const r of onlyBefore.slice(0, 10)) console.log(`  - ${r}`);
		for (const r of onlyAfter.slice(0, 10)) console.log(`  + ${r}`);
		if (!onlyBefore.length && !onlyAfter.length) console.log('  (same requests, other counts)');
	}
	for (const test of sameButNumbers)
		console.log(`~ ${test}: the same once numbers inside texts are ignored`);
	summariseKinds(before, after);
	console.log(
		`\n${tests.length} tests, ${requests} requests before; ${same} tests sent the same requests, ` +
			`${sameButNumbers.length} the same but for numbers inside texts (the tests' references hold the process id), ` +
			`${differing.length} differ`,
	);
	return differing.length === 0;
}

let logs;
const given = process.argv.indexOf('--logs');
if (given !== -1) {
	logs = [{ log: process.argv[given + 1] }, { log: process.argv[given + 2] }];
} else {
	const tests = option('tests', 'test/integration');
	const mode = option('mode', undefined);
	const keep = process.argv.includes('--keep');
	logs = [
		record(option('before', 'ad626cf'), tests, mode, keep),
		record(option('after', 'worktree'), tests, mode, keep),
	];
}
for (const { log } of logs) if (!existsSync(log)) throw new Error(`no log ${log}`);
process.exit(compare(...logs.map(({ log }) => readLog(log))) ? 0 : 1);

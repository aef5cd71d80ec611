/**
 * `npm run bench`: this package inside a real n8n (the e2e harness's pinned install, packed package,
 * sandbox bank with seeded volume) side by side with what a user would build from n8n's own nodes and
 * with a raw HTTP loop (the floor). Cells are interleaved run by run, so a slower moment of the machine
 * hits every cell alike; medians with min–max, and the ratios the targets are written in.
 *
 * Run: `npm run bench [-- --runs 5 --deliveries 200 --after 10000 --only returnAll,trigger,submitBatch,forged,overload --forged 2000 --overload-seconds 60 --page-latency 20 --profile ours,trigger-off]`.
 * Return All only, Simplify on beside off: `npm run bench -- --only returnAll --return-all-counts 50000
 * --return-all-cells ours,oursSimplifyOff,http500,raw,empty --page-latency 0 --out <file>`.
 * Issue 41's table (saved workflows run with `n8n execute`, node windows, profiles cut to them, and the
 * same Return All in the long-lived n8n once warm):
 * `npm run bench -- --only returnAllCli --cli-counts 50005,5005 --runs 3 --profile-runs 3 --out <file>`.
 * Writes docs/benchmark-results.md, or `--out <file>` (machine, versions, date, figures). A benchmark, not a test.
 */
import { spawnSync } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { credentialsFor } from '../helpers/sandboxCredentials';
import { cleanEnv, defaultVersion } from '../e2e/lib/install';
import type { N8n } from '../e2e/lib/n8n';
import { buildAndPack, scratchDir } from '../e2e/lib/pack';
import {
	activate,
	createCredential,
	credentialData,
	type Stack,
	startStack,
	waitFor,
} from '../e2e/lib/stack';
import type { Sandbox } from '../sandbox';
import { executeWorkflow, lastNodeRuns, type NodeRun } from './lib/cliExecute';
import {
	type CpuProfile,
	OWN_CODE,
	ownCodeByFunction,
	type ProfileWindow,
	profileShares,
} from './lib/cpuProfile';
import { Inspector } from './lib/inspector';
import { startListProxy } from './lib/listProxy';
import { startRecordBank } from './lib/recordBank';
import {
	mb,
	ms,
	percentile,
	range,
	ratio,
	runConcurrently,
	type Summary,
	summarise,
} from './lib/measure';
import {
	type BenchWorkflow,
	cliHttpRequestWorkflow,
	cliReturnAllWorkflow,
	emptyWorkflow,
	floorTriggerWorkflow,
	httpRequestWorkflow,
	notSavingSuccess,
	returnAllWorkflow,
	submitBatchWorkflow,
	triggerWorkflow,
	webhookNoOpWorkflow,
} from './lib/workflows';

function option(name: string, fallback: number): number {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? fallback : Number(process.argv[index + 1]);
}
const RUNS = option('runs', 5);
const DELIVERIES = option('deliveries', 200);
const FORGED = option('forged', 2000);
const AFTER = option('after', 10_000);
const profileIndex = process.argv.indexOf('--profile');
/** cells to CPU-profile (its first measured run): ours, http500, submitBatch, submitBatchAuto, trigger-off, trigger-on, webhook */
const PROFILE = profileIndex === -1 ? [] : process.argv[profileIndex + 1].split(',');
const concurrencyIndex = process.argv.indexOf('--concurrency');
const CONCURRENCIES =
	concurrencyIndex === -1 ? [1, 8] : process.argv[concurrencyIndex + 1].split(',').map(Number);
/** n8n settings for this run, e.g. `--n8n-env N8N_EXPRESSION_ENGINE=legacy` */
const N8N_ENV = Object.fromEntries(
	process.argv.flatMap((arg, index) =>
		process.argv[index - 1] === '--n8n-env' ? [arg.split(/=(.*)/s).slice(0, 2)] : [],
	),
) as Record<string, string>;
const onlyIndex = process.argv.indexOf('--only');
const ONLY =
	onlyIndex === -1
		? ['returnAll', 'returnAllCli', 'trigger', 'submitBatch', 'forged', 'overload']
		: process.argv[onlyIndex + 1].split(',');
const OVERLOAD_SECONDS = option('overload-seconds', 60);
/** Added to every page of the Return All lists in a second pass (0: no such pass). */
const PAGE_LATENCY_MS = option('page-latency', 20);
/** CPU-profiled runs per cell after the measured ones (`n8n execute` and the long-lived n8n); the median share is reported. */
const PROFILE_RUNS = option('profile-runs', 3);
const cliCountsIndex = process.argv.indexOf('--cli-counts');
/** Transactions per list in the `n8n execute` Return All comparison (issue 41 measured 50,005 and 5,005). */
const CLI_COUNTS =
	cliCountsIndex === -1 ? [50_005, 5_005] : process.argv[cliCountsIndex + 1].split(',').map(Number);
const countsIndex = process.argv.indexOf('--return-all-counts');
/** Transactions per Return All list, e.g. `--return-all-counts 50000` for the large list only. */
const RETURN_ALL_COUNTS =
	countsIndex === -1 ? [50_000, 5_000] : process.argv[countsIndex + 1].split(',').map(Number);

const report: string[] = [];
function say(line = ''): void {
	console.log(line);
	report.push(line);
}

async function imported(n8n: N8n, workflow: BenchWorkflow): Promise<string> {
	const created = await n8n.apiOk<{ id: string }>('POST', '/workflows', workflow);
	await activate(n8n, String(created.id));
	return String(created.id);
}

/** Calls a workflow's production webhook, waiting out the moment after activation in which n8n answers 404. */
async function call(n8n: N8n, path: string, body: unknown): Promise<void> {
	for (;;) {
		const answer = await n8n.http('POST', `/webhook/${path}`, { body });
		if (answer.status === 404) continue;
		if (answer.status !== 200)
			throw new Error(`/webhook/${path} → ${answer.status} ${answer.text.slice(0, 300)}`);
		return;
	}
}

async function bankToken(sandbox: Sandbox): Promise<string> {
	const client = credentialsFor(sandbox);
	const answer = await fetch(sandbox.tokenUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({
			client_id: String(client.clientId),
			client_secret: String(client.clientSecret),
			audience: sandbox.audience,
			grant_type: 'client_credentials',
		}).toString(),
	});
	return ((await answer.json()) as { access_token: string }).access_token;
}

/**
 * The cells in a different order each run, so that no cell always follows the same neighbour: a
 * balanced Latin square (Williams), in which over as many runs as there are cells every cell comes
 * right after every other one once (an odd number of cells: over twice as many runs). A plain
 * rotation keeps the cyclic order, so one cell would always follow, say, the raw loop, whose garbage
 * the bench process (which also hosts the banks) collects during the next cell.
 */
function rotated<T>(cells: T[], run: number): T[] {
	const n = cells.length;
	const first = Array.from({ length: n }, (_, at) =>
		at % 2 === 0 ? (n - at / 2) % n : (at + 1) / 2,
	);
	const row = first.map((position) => cells[(position + run) % n]);
	// an odd number of cells needs each order also mirrored to be balanced
	return n % 2 === 1 && Math.floor(run / n) % 2 === 1 ? row.reverse() : row;
}

/**
 * A full garbage collection of this process (which hosts the sandbox and the record bank), so the
 * garbage a cell left here is not collected while the next cell is timed.
 */
const collectGarbage: () => void = (() => {
	setFlagsFromString('--expose-gc');
	return runInNewContext('gc') as () => void;
})();

async function settle(): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, 1500));
}

/**
 * Packs test/bench/floorTrigger and installs it beside this package, the way the harness installs this
 * package (npm install of the tarball into <user folder>/.n8n/nodes, production dependencies only, no
 * scripts), then restarts n8n, which loads community packages when it starts.
 */
async function installFloorTrigger(n8n: N8n): Promise<void> {
	const sh = (args: string[], cwd: string) => {
		const result = spawnSync('npm', args, {
			cwd,
			env: cleanEnv(n8n.install.nodePackageDir),
			encoding: 'utf8',
		});
		if (result.status !== 0)
			throw new Error(
				`npm ${args.join(' ')} failed in ${cwd}:\n${result.stdout}\n${result.stderr}`,
			);
		return result.stdout;
	};
	const destination = join(scratchDir, 'bench-floor');
	rmSync(destination, { recursive: true, force: true });
	mkdirSync(destination, { recursive: true });
	const packed = JSON.parse(
		sh(['pack', '--json', '--pack-destination', destination], join(__dirname, 'floorTrigger')),
	) as Array<{ filename: string }>;
	sh(
		[
			'install',
			'--omit=dev',
			'--legacy-peer-deps',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			join(destination, packed[0].filename),
		],
		join(n8n.userFolder, '.n8n', 'nodes'),
	);
	await n8n.restart();
}

/** Resident memory of the process `pid` in bytes (Linux /proc). */
function rssBytes(pid: number): number {
	const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
	return match ? Number(match[1]) * 1024 : NaN;
}

// ---------------------------------------------------------------- Return All

/**
 * Profiles are taken in a run after the measured ones (the profiler slows n8n down), which runs only
 * when a profile is asked for and is not counted.
 */
const PROFILED_RUN = RUNS + 1;
const LAST_RUN = PROFILE.length > 0 ? PROFILED_RUN : RUNS;
const counted = (run: number) => run > 0 && run <= RUNS;

/** What the CPU profiles of this run found, reported after the figures. */
const profileNotes: string[] = [];

/**
 * Runs `work`, under the CPU profiler when it is the cell asked for and the profiled run; the
 * profile is written to bench-<cell><tag>.cpuprofile (open it in Chrome DevTools) and summarised in the
 * report.
 */
async function maybeProfiled<T>(
	inspector: Inspector,
	cell: string,
	run: number,
	work: () => Promise<T>,
	tag = '',
): Promise<T> {
	if (!PROFILE.includes(cell) || run !== PROFILED_RUN) return await work();
	const name = `bench-${cell}${tag}.cpuprofile`;
	const file = join(__dirname, '..', '..', name);
	console.log(`profiling ${cell}${tag} into ${file}`);
	const result = await inspector.profile(file, work);
	const shares = profileShares(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile);
	profileNotes.push(
		`#### ${cell}${tag} (\`${name}\`)`,
		'',
		'| n8n main thread | time | share |',
		'|---|---|---|',
		...shares.map((s) => `| ${s.kind} | ${ms(s.ms)} | ${(s.share * 100).toFixed(1)}% |`),
		'',
	);
	return result;
}

type ReturnAllCell =
	| 'ours'
	| 'oursSimplifyOff'
	| 'ahead'
	| 'oneByOne'
	| 'http500'
	| 'http100'
	| 'oursNotSaved'
	| 'http500NotSaved'
	| 'raw'
	| 'empty';

interface ReturnAllFigures {
	time: Record<ReturnAllCell, Summary>;
	/** peak heap over the empty workflow's */
	extraMemory: Record<ReturnAllCell, number>;
	pages: Record<ReturnAllCell, number[]>;
	/** n8n CPU time over elapsed time, median */
	busy: Record<ReturnAllCell, number>;
	tokens: number;
}

/**
 * Runs every cell RUNS times, interleaved and rotated, after an uncounted warm-up run.
 * `extraMemory` is over the empty workflow's peak when that cell is among them, else over nothing.
 */
async function measureReturnAll(
	stack: Stack,
	inspector: Inspector,
	cells: ReturnAllCell[],
	runCell: (cell: ReturnAllCell) => Promise<void>,
	tag: string,
): Promise<ReturnAllFigures> {
	const { n8n, sandbox } = stack;
	const perCell = () =>
		Object.fromEntries(cells.map((c) => [c, [] as number[]])) as Record<ReturnAllCell, number[]>;
	const times = perCell();
	const memory = perCell();
	const pages = perCell();
	const busy = perCell();
	let tokens = 0;
	for (let run = 0; run <= LAST_RUN; run++) {
		for (const cell of rotated([...cells], run)) {
			sandbox.control.clearRequests();
			await settle();
			const cpuBefore = cpuSeconds(n8n.process.child.pid as number);
			const measured = await inspector.withPeakHeap(() =>
				maybeProfiled(inspector, cell, run, () => runCell(cell), tag),
			);
			const cpu = cpuSeconds(n8n.process.child.pid as number) - cpuBefore;
			const requests = sandbox.control.requests();
			if (!counted(run)) continue;
			times[cell].push(measured.elapsedMs);
			busy[cell].push((cpu * 1000) / measured.elapsedMs);
			memory[cell].push(measured.extraBytes);
			pages[cell].push(requests.filter((r) => r.path.endsWith('/transactions')).length);
			tokens += requests.filter((r) => r.area === 'auth').length;
		}
	}
	const each = <V>(of: (c: ReturnAllCell) => V) =>
		Object.fromEntries(cells.map((c) => [c, of(c)])) as Record<ReturnAllCell, V>;
	const baseline = cells.includes('empty') ? summarise(memory.empty).median : 0;
	return {
		time: each((c) => summarise(times[c])),
		extraMemory: each((c) => Math.max(0, summarise(memory[c]).median - baseline)),
		pages,
		busy: each((c) => summarise(busy[c]).median),
		tokens,
	};
}

const RETURN_ALL_CELLS: ReturnAllCell[] = [
	'ours',
	'oursSimplifyOff',
	'ahead',
	'oneByOne',
	'http500',
	'http100',
	'oursNotSaved',
	'http500NotSaved',
	'raw',
	'empty',
];
const cellsIndex = process.argv.indexOf('--return-all-cells');
/**
 * The Return All cells to run, e.g. `--return-all-cells ours,oursSimplifyOff,http500,raw,empty` for
 * Simplify on against off beside n8n's own nodes; a ratio whose cells did not run is left out.
 */
const RETURN_ALL_ONLY =
	cellsIndex === -1 ? RETURN_ALL_CELLS : process.argv[cellsIndex + 1].split(',');

const RETURN_ALL_LABELS: Record<ReturnAllCell, string> = {
	ours: 'this package, Return All (Simplify on, the default)',
	oursSimplifyOff: 'this package, Return All, Simplify off',
	ahead: 'the same through a pass-through (read ahead)',
	oneByOne: "the same through a pass-through hiding the list's total (one page at a time)",
	http500: 'HTTP Request + Split Out, limit 500',
	http100: 'HTTP Request + Split Out, limit 100',
	oursNotSaved: 'this package, Return All, in a workflow that does not save successful executions',
	http500NotSaved: 'HTTP Request + Split Out, limit 500, in a workflow that does not save them',
	raw: 'raw HTTP loop outside n8n (floor)',
	empty: 'empty workflow (Webhook → No Operation)',
};

function reportReturnAll(figures: ReturnAllFigures, cells: ReturnAllCell[], total: number): void {
	const { time, extraMemory, pages, busy } = figures;
	say(
		'| workflow | time, median (min–max) | pages seen by the bank | peak n8n heap over the empty workflow | n8n CPU time / elapsed |',
	);
	say('|---|---|---|---|---|');
	for (const cell of cells) {
		const seen =
			cell === 'ours'
				? `${pages.ours.join(', ')} (ceil(N/500) = ${Math.ceil(total / 500)})`
				: String(pages[cell][0]);
		const inN8n = cell !== 'raw';
		say(
			`| ${RETURN_ALL_LABELS[cell]} | ${range(time[cell], ms)} | ${seen} | ${inN8n ? mb(extraMemory[cell]) : '—'} | ${inN8n ? `${(busy[cell] * 100).toFixed(0)}%` : '—'} |`,
		);
	}
	say();
	const t = (cell: ReturnAllCell) => time[cell].median;
	const ran = (...needed: ReturnAllCell[]) => needed.every((cell) => cells.includes(cell));
	const sentences = [
		ran('ours', 'http500') &&
			`${ratio(t('ours'), t('http500'))} the limit-500 HTTP Request workflow (target ≤ 0.35×); ` +
				`memory ${ratio(extraMemory.ours, extraMemory.http500)} the limit-500 HTTP Request workflow's (target ≤ 0.4×).`,
		ran('ours', 'raw') && `${ratio(t('ours'), t('raw'))} the raw sequential loop (target ≤ 1.0×).`,
		ran('ours', 'oursSimplifyOff', 'http500') &&
			`Simplify on ${ratio(t('ours'), t('http500'))} and off ${ratio(t('oursSimplifyOff'), t('http500'))} the limit-500 HTTP Request workflow; ` +
				`on takes ${ratio(t('ours'), t('oursSimplifyOff'))} the time of off (target ≤ 1.1×), memory ${ratio(extraMemory.ours, extraMemory.oursSimplifyOff)}.`,
		ran('raw', 'http500') &&
			`The raw loop alone, which only reads the pages, takes ${ratio(t('raw'), t('http500'))} the limit-500 HTTP Request workflow's time.`,
		ran('oursNotSaved', 'http500NotSaved', 'raw') &&
			`Without n8n saving the execution: ${ratio(t('oursNotSaved'), t('http500NotSaved'))} the limit-500 HTTP Request workflow's time and ` +
				`${ratio(t('oursNotSaved'), t('raw'))} the raw loop's; memory ${ratio(extraMemory.oursNotSaved, extraMemory.http500NotSaved)}.`,
		ran('ahead', 'oneByOne') &&
			`Read-ahead: ${ratio(t('ahead'), t('oneByOne'))} the time of one page at a time (same pass-through).`,
		`Token exchanges over the measured runs: ${figures.tokens}.`,
	];
	say(`Ratios: ${sentences.filter(Boolean).join(' ')}`);
	say();
}

async function benchReturnAll(
	stack: Stack,
	inspector: Inspector,
	credentialId: string,
	counts: number[],
): Promise<void> {
	const { n8n, sandbox } = stack;
	const accounts = [sandbox.seeded.accounts.gbp, sandbox.seeded.accounts.eur];
	const token = await bankToken(sandbox);
	const raw = async (xaid: string) => {
		let items = 0;
		for (let page = 0; ; page++) {
			const answer = await fetch(
				`${sandbox.baseUrl}/account/${xaid}/transactions?limit=500&page=${page}`,
				{ headers: { authorization: `Bearer ${token}` } },
			);
			const { results } = (await answer.json()) as { results: unknown[] };
			items += results.length;
			if (results.length < 500) return items;
		}
	};
	const paths = {
		ours: 'bench-ours',
		oursSimplifyOff: 'bench-ours-simplify-off',
		ahead: 'bench-ours-ahead',
		oneByOne: 'bench-ours-one-by-one',
		http500: 'bench-http-500',
		http100: 'bench-http-100',
		oursNotSaved: 'bench-ours-not-saved',
		http500NotSaved: 'bench-http-500-not-saved',
		empty: 'bench-empty',
	};
	await imported(n8n, returnAllWorkflow(paths.ours, credentialId));
	await imported(n8n, returnAllWorkflow(paths.oursSimplifyOff, credentialId, false));
	// read-ahead against one page at a time, both through the same pass-through (listProxy.ts)
	const proxies = [
		await startListProxy(sandbox.baseUrl, false),
		await startListProxy(sandbox.baseUrl, true),
	];
	const viaProxy = async (index: number) =>
		(
			await createCredential(
				n8n,
				`Customer Banking sandbox via proxy ${index}`,
				credentialData(sandbox, 'full', { baseUrl: proxies[index].url }),
			)
		).id;
	await imported(n8n, returnAllWorkflow(paths.ahead, await viaProxy(0)));
	await imported(n8n, returnAllWorkflow(paths.oneByOne, await viaProxy(1)));
	await imported(n8n, httpRequestWorkflow(paths.http500, credentialId, sandbox.baseUrl, 500));
	await imported(n8n, httpRequestWorkflow(paths.http100, credentialId, sandbox.baseUrl, 100));
	await imported(n8n, notSavingSuccess(returnAllWorkflow(paths.oursNotSaved, credentialId)));
	await imported(
		n8n,
		notSavingSuccess(
			httpRequestWorkflow(paths.http500NotSaved, credentialId, sandbox.baseUrl, 500),
		),
	);
	await imported(n8n, emptyWorkflow(paths.empty));

	for (const [index, count] of counts.entries()) {
		const xaid = accounts[index];
		await sandbox.control.seedTransactions(xaid, count);
		const total = await raw(xaid);
		const runCell = async (cell: ReturnAllCell) =>
			cell === 'raw' ? void (await raw(xaid)) : await call(n8n, paths[cell], { xaid });
		const cells = RETURN_ALL_CELLS.filter((cell) => RETURN_ALL_ONLY.includes(cell));
		const tag = `-${total}`;
		say(
			`### Return All ${total.toLocaleString('en')} transactions (${RUNS} interleaved runs per cell)`,
		);
		say();
		const figures = await measureReturnAll(stack, inspector, cells, runCell, tag);
		reportReturnAll(figures, cells, total);
		if (PAGE_LATENCY_MS === 0 || index !== 0) continue;
		// The bank across a network: every page answered PAGE_LATENCY_MS later, for every cell alike.
		sandbox.control.setFaults([
			{
				method: 'GET',
				path: '/account/{xaid}/transactions',
				kind: 'latency',
				latencyMs: PAGE_LATENCY_MS,
			},
		]);
		const remote = (['ours', 'ahead', 'oneByOne', 'http500', 'raw', 'empty'] as const).filter(
			(cell) => cells.includes(cell),
		);
		say(
			`### Return All ${total.toLocaleString('en')} transactions, every page answered ${PAGE_LATENCY_MS} ms later (a bank across a network; ${RUNS} interleaved runs per cell)`,
		);
		say();
		try {
			const slow = await measureReturnAll(stack, inspector, remote, runCell, `${tag}-latency`);
			reportReturnAll(slow, remote, total);
		} finally {
			sandbox.control.clearFaults();
		}
	}
	await Promise.all(proxies.map((proxy) => proxy.close()));
}

// ---------------------------------------------------------------- Return All through `n8n execute`

type CliCell = 'ours' | 'oursSimplifyOff' | 'http500' | 'raw';
const CLI_CELLS: CliCell[] = ['ours', 'oursSimplifyOff', 'http500', 'raw'];
const CLI_LABELS: Record<CliCell, string> = {
	ours: 'this package, Return All (Simplify on, the default)',
	oursSimplifyOff: 'this package, Return All, Simplify off',
	http500: 'HTTP Request (limit 500) + Split Out',
	raw: 'raw fetch loop outside n8n, pages parsed (floor)',
};
const CLI_SHORT: Record<CliCell, string> = {
	ours: 'on',
	oursSimplifyOff: 'off',
	http500: 'HTTP',
	raw: 'raw',
};
/** The cells profiled, in one run after the measured ones at the first count. */
const CLI_PROFILED: CliCell[] = ['ours', 'oursSimplifyOff', 'http500'];

/**
 * Issue 41's measurement: saved workflows run with `n8n execute` (a fresh n8n process per run), a bank
 * answering at once (recordBank.ts: the eight fields issue 41 measured with), Return All with
 * Simplify on and off beside HTTP Request + Split Out. Timed is the node window: from the node's start
 * to its end as n8n records them in the execution (for HTTP Request + Split Out, from the first's start
 * to the second's end), so n8n's start-up, which dwarfs a 5,000-item list, is left out. Rounds are
 * interleaved and rotated after an uncounted first one; the CPU profile of one more run per cell is cut
 * to the node window.
 */
async function benchReturnAllCli(stack: Stack, inspector: Inspector): Promise<void> {
	const { n8n, sandbox } = stack;
	const bank = await startRecordBank(sandbox.baseUrl);
	try {
		const { id: credentialId } = await createCredential(
			n8n,
			'Customer Banking, bank answering from memory',
			credentialData(sandbox, 'full', { baseUrl: bank.url }),
		);
		const saved = async (workflow: BenchWorkflow) =>
			String((await n8n.apiOk<{ id: string }>('POST', '/workflows', workflow)).id);
		const accounts = [sandbox.seeded.accounts.gbp, sandbox.seeded.accounts.eur];
		const token = await bankToken(sandbox);
		for (const [index, count] of CLI_COUNTS.entries()) {
			const xaid = accounts[index % accounts.length];
			bank.seed(xaid, count);
			const workflows: Record<Exclude<CliCell, 'raw'>, string> = {
				ours: await saved(cliReturnAllWorkflow(credentialId, xaid, true)),
				oursSimplifyOff: await saved(cliReturnAllWorkflow(credentialId, xaid, false)),
				http500: await saved(cliHttpRequestWorkflow(credentialId, bank.url, xaid, 500)),
			};
			const raw = async () => {
				let items = 0;
				for (let page = 0; ; page++) {
					const answer = await fetch(
						`${bank.url}/account/${xaid}/transactions?limit=500&page=${page}`,
						{ headers: { authorization: `Bearer ${token}` } },
					);
					const { results } = (await answer.json()) as { results: unknown[] };
					items += results.length;
					if (results.length < 500) return items;
				}
			};
			const windows: Record<CliCell, number[]> = {
				ours: [],
				oursSimplifyOff: [],
				http500: [],
				raw: [],
			};
			const processes: Record<CliCell, number[]> = {
				ours: [],
				oursSimplifyOff: [],
				http500: [],
				raw: [],
			};
			const pages: Record<CliCell, number> = { ours: 0, oursSimplifyOff: 0, http500: 0, raw: 0 };
			const byRound: string[][] = Array.from({ length: RUNS }, () => []);
			const lastRun = index === 0 ? RUNS + PROFILE_RUNS : RUNS;
			const profiled: Partial<Record<CliCell, ProfiledRun[]>> = {};
			for (let run = 0; run <= lastRun; run++) {
				const profiling = run > RUNS;
				for (const cell of rotated([...CLI_CELLS], run)) {
					if (profiling && !CLI_PROFILED.includes(cell)) continue;
					collectGarbage();
					bank.takePagesServed();
					if (cell === 'raw') {
						const started = performance.now();
						const items = await raw();
						if (items !== count) throw new Error(`raw loop: ${items} items of ${count}`);
						const tookMs = performance.now() - started;
						if (counted(run)) {
							windows.raw.push(tookMs);
							byRound[run - 1].push(`${CLI_SHORT.raw} ${ms(tookMs)}`);
						}
						pages.raw = bank.takePagesServed();
						continue;
					}
					const profileDir = profiling ? join(scratchDir, `bench-cli-${cell}`) : undefined;
					const result = await executeWorkflow(n8n, workflows[cell], profileDir);
					const [first, last] =
						cell === 'http500'
							? [result.nodes['HTTP Request'], result.nodes['Split Out']]
							: [result.nodes['All Transactions'], result.nodes['All Transactions']];
					if (last.items !== count) throw new Error(`${cell}: ${last.items} items out of ${count}`);
					const windowMs = last.startTime + last.executionTime - first.startTime;
					pages[cell] = bank.takePagesServed();
					if (counted(run)) {
						windows[cell].push(windowMs);
						processes[cell].push(result.wallMs);
						byRound[run - 1].push(`${CLI_SHORT[cell]} ${ms(windowMs)}`);
					}
					if (!result.profile) continue;
					const { profile, wallAtMonotonicZeroMs } = result.profile;
					const window = {
						fromUs: (first.startTime - wallAtMonotonicZeroMs) * 1000,
						toUs: (first.startTime + windowMs - wallAtMonotonicZeroMs) * 1000,
					};
					(profiled[cell] ??= []).push(
						profileReport(
							`${CLI_LABELS[cell]}, ${count.toLocaleString('en')} transactions`,
							profile,
							window,
							windowMs,
						),
					);
				}
			}
			for (const cell of CLI_PROFILED) {
				const runs = profiled[cell];
				if (runs) cliProfiles.push(...medianProfile(runs));
			}
			const time = (cell: CliCell) => summarise(windows[cell]);
			say(
				`### Return All ${count.toLocaleString('en')} transactions through \`n8n execute\` (issue 41's records, a bank answering at once; ${RUNS} interleaved rounds)`,
			);
			say();
			say('| workflow | node window, median (min–max) | `n8n execute`, start to exit | pages |');
			say('|---|---|---|---|');
			for (const cell of CLI_CELLS)
				say(
					`| ${CLI_LABELS[cell]} | ${range(time(cell), ms)} | ${cell === 'raw' ? '—' : range(summarise(processes[cell]), ms)} | ${pages[cell]} |`,
				);
			say();
			const t = (cell: CliCell) => time(cell).median;
			say(
				`Node windows round by round, in the order run: ${byRound.map((cells, at) => `${at + 1}: ${cells.join(', ')}`).join('; ')}.`,
			);
			say();
			say(
				`Ratios of the node windows: Simplify on ${ratio(t('ours'), t('http500'))} and off ${ratio(t('oursSimplifyOff'), t('http500'))} the HTTP Request workflow (target ≤ 0.6×); ` +
					`Simplify on ${ratio(t('ours'), t('oursSimplifyOff'))} off (target ≤ 1.1×); on ${ratio(t('ours'), t('raw'))} the raw loop.`,
			);
			say();
			const warm = await warmReturnAll(n8n, inspector, credentialId, xaid, count);
			const warmTime = summarise(warm.windows);
			say(
				`The same Return All (Simplify on) in the long-lived n8n, started by a Webhook after ${WARM_UP_RUNS} uncounted runs, its code optimised: node window ${range(warmTime, ms)} over ${RUNS} runs, ${ratio(warmTime.median, t('ours'))} the \`n8n execute\` run's (profile below).`,
			);
			say();
			cliProfiles.push(...warm.report);
		}
	} finally {
		await bank.close();
	}
}

/** The profiles of the `n8n execute` runs, reported after the figures. */
const cliProfiles: string[] = [];

/** A CPU profile cut to a node window, as a report section: where n8n's main thread spent it, and the package's own functions. */
function profileReport(
	title: string,
	profile: CpuProfile,
	window: ProfileWindow,
	windowMs: number,
): ProfiledRun {
	const shares = profileShares(profile, window);
	const own = shares.find((share) => share.kind === OWN_CODE);
	const topOwn = ownCodeByFunction(profile, window).slice(0, 6);
	const lines = [
		`#### ${title}: node window ${ms(windowMs)}`,
		'',
		'| n8n main thread within the node window | time | share |',
		'|---|---|---|',
		...shares.map((s) => `| ${s.kind} | ${ms(s.ms)} | ${(s.share * 100).toFixed(1)}% |`),
		'',
		`This package's own code: ${ms(own?.ms ?? 0)}, ${(((own?.ms ?? 0) / windowMs) * 100).toFixed(1)}% of the node window.` +
			(topOwn.length
				? ` Its functions by self time: ${topOwn.map((f) => `\`${f.name}\` ${f.ms.toFixed(0)} ms`).join(', ')}.`
				: ''),
		'',
	];
	return { lines, ownShare: (own?.ms ?? 0) / windowMs };
}

/** One profiled run: its report section and the package's own share of its node window. */
interface ProfiledRun {
	lines: string[];
	ownShare: number;
}

/**
 * The profiled runs of one cell, as a report: the section of the run with the median share of the
 * package's own code, and every run's share (one profile's few dozen samples of the package swing by a
 * few points from run to run).
 */
function medianProfile(runs: ProfiledRun[]): string[] {
	const sorted = [...runs].sort((a, b) => a.ownShare - b.ownShare);
	const median = sorted[Math.floor((sorted.length - 1) / 2)];
	const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
	return [
		...median.lines,
		`The package's own share over the ${runs.length} profiled runs, in the order run: ${runs.map((run) => percent(run.ownShare)).join(', ')} (the run above: ${percent(median.ownShare)}).`,
		'',
	];
}

/** Uncounted runs before the counted ones in the long-lived n8n: enough for V8 to optimise the node's code. */
const WARM_UP_RUNS = 3;

/**
 * The default Return All (Simplify on) in the long-lived n8n, started by its Webhook, after
 * WARM_UP_RUNS uncounted runs: the node's code optimised and n8n's heap grown, as in an instance that
 * runs the workflow all day, where `n8n execute` starts cold every time. The node windows of RUNS
 * runs, and PROFILE_RUNS more, profiled, each cut to its node window.
 */
async function warmReturnAll(
	n8n: N8n,
	inspector: Inspector,
	credentialId: string,
	xaid: string,
	count: number,
): Promise<{ windows: number[]; report: string[] }> {
	const path = `bench-warm-${count}`;
	const workflowId = await imported(n8n, returnAllWorkflow(path, credentialId));
	const run = async (): Promise<NodeRun> => {
		await inspector.send('HeapProfiler.collectGarbage');
		await call(n8n, path, { xaid });
		const node = (await lastNodeRuns(n8n, workflowId, `webhook ${path}`))['All Transactions'];
		if (node.items !== count) throw new Error(`${path}: ${node.items} items out of ${count}`);
		return node;
	};
	const windows: number[] = [];
	for (let at = 0; at < WARM_UP_RUNS + RUNS; at++) {
		const node = await run();
		if (at >= WARM_UP_RUNS) windows.push(node.executionTime);
	}
	const title = `this package, Return All (Simplify on), ${count.toLocaleString('en')} transactions, long-lived n8n after ${WARM_UP_RUNS} runs`;
	const profiled: ProfiledRun[] = [];
	for (let at = 0; at < PROFILE_RUNS; at++) {
		const file = join(scratchDir, `bench-warm-${count}.cpuprofile`);
		const node = await inspector.profile(file, run);
		const zeroMs = await inspector.wallAtMonotonicZeroMs();
		const window = {
			fromUs: (node.startTime - zeroMs) * 1000,
			toUs: (node.startTime + node.executionTime - zeroMs) * 1000,
		};
		const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
		profiled.push(profileReport(title, profile, window, node.executionTime));
	}
	return { windows, report: profiled.length > 0 ? medianProfile(profiled) : [] };
}

// ---------------------------------------------------------------- trigger

interface DeliveryCell {
	key: string;
	label: string;
	url: string;
	workflowId: string;
}

/** Executions of the workflow n8n has saved; with `finished`, only those that ended. */
async function executionCount(n8n: N8n, workflowId: string, finished = false): Promise<number> {
	const filter = encodeURIComponent(
		JSON.stringify(
			finished
				? { workflowId, status: ['success', 'error', 'crashed', 'canceled'] }
				: { workflowId },
		),
	);
	const answer = await n8n.restOk<{ data: { count: number } }>(
		'GET',
		`/executions?filter=${filter}&limit=1`,
	);
	return answer.data.count;
}

/** Signed copies of a real delivery from the bank, each with its own delivery id. */
async function deliveryMaker(
	sandbox: Sandbox,
	xaid: string,
): Promise<() => { deliveryId: string; body: string; headers: Record<string, string> }> {
	const before = sandbox.control.deliveries().length;
	await sandbox.control.receive(xaid, 1, 'BENCH-TEMPLATE');
	await sandbox.control.waitForDeliveries();
	const template = JSON.parse(sandbox.control.deliveries()[before].body) as Record<string, unknown>;
	return () => {
		const deliveryId = randomUUID();
		const body = JSON.stringify({ ...template, deliveryId });
		return { deliveryId, body, headers: signed(sandbox, deliveryId, body) };
	};
}

/** The bank's headers for `body`, signed now (a resent delivery is signed again, as the bank does). */
function signed(sandbox: Sandbox, deliveryId: string, body: string): Record<string, string> {
	const timestamp = Math.floor(Date.now() / 1000);
	const signature = createHmac('sha256', sandbox.signingSecret)
		.update(`${timestamp}.${body}`)
		.digest('hex');
	return {
		'content-type': 'application/json',
		'x-cb-delivery-id': deliveryId,
		'x-cb-timestamp': String(timestamp),
		'x-cb-signature': `v1=${signature}`,
	};
}

async function benchTrigger(
	stack: Stack,
	inspector: Inspector,
	credentialId: string,
): Promise<void> {
	const { n8n, sandbox } = stack;
	const xaid = sandbox.seeded.accounts.gbp;
	const webhookPath = 'bench-webhook-noop';
	const webhookId = await imported(n8n, webhookNoOpWorkflow(webhookPath));
	const floor = floorTriggerWorkflow();
	const floorId = await imported(n8n, floor);
	const triggers: Array<{ fetch: boolean; id: string; webhookId: string }> = [];
	for (const fetchTransaction of [false, true]) {
		const workflow = triggerWorkflow(credentialId, xaid, fetchTransaction);
		triggers.push({
			fetch: fetchTransaction,
			id: await imported(n8n, workflow),
			webhookId: String(workflow.nodes[0].webhookId),
		});
	}
	const urlOf = (hookId: string) =>
		waitFor(
			`the subscription of ${hookId}`,
			() => sandbox.control.subscriptions().find((s) => s.url.includes(hookId))?.url,
			60_000,
		);
	const cells: DeliveryCell[] = [
		{
			key: 'webhook',
			label: 'Webhook → No Operation',
			url: `${n8n.url}/webhook/${webhookPath}`,
			workflowId: webhookId,
		},
		{
			key: 'floor',
			label: 'floor: a community trigger that only emits the body',
			url: `${n8n.url}/webhook/${String(floor.nodes[0].webhookId)}/webhook`,
			workflowId: floorId,
		},
		{
			key: 'floor-done',
			label: 'the floor, answering when the execution has ended',
			url: `${n8n.url}/webhook/${String(floor.nodes[0].webhookId)}/when-done`,
			workflowId: floorId,
		},
		{
			key: 'floor-remembering',
			label: 'the same, remembering the last 500 delivery ids in static data',
			url: `${n8n.url}/webhook/${String(floor.nodes[0].webhookId)}/remembering`,
			workflowId: floorId,
		},
		{
			key: 'trigger-off',
			label: 'this trigger, fetch off',
			url: await urlOf(triggers[0].webhookId),
			workflowId: triggers[0].id,
		},
		{
			key: 'trigger-on',
			label: 'this trigger, fetch on',
			url: await urlOf(triggers[1].webhookId),
			workflowId: triggers[1].id,
		},
	];
	const delivery = await deliveryMaker(sandbox, xaid);

	/** Sends `count` deliveries at `concurrency`; latency of each answer, and deliveries/s until every execution has finished. */
	async function send(
		cell: DeliveryCell,
		count: number,
		concurrency: number,
	): Promise<{ perSecond: number; latencies: number[] }> {
		const startCount = await executionCount(n8n, cell.workflowId);
		const latencies: number[] = [];
		const started = performance.now();
		await runConcurrently(count, concurrency, async () => {
			const { body, headers } = delivery();
			const sent = performance.now();
			// wait out the moment after activation in which n8n answers 404
			let answer = await fetch(cell.url, { method: 'POST', headers, body });
			while (answer.status === 404 && latencies.length === 0) {
				await answer.text();
				answer = await fetch(cell.url, { method: 'POST', headers, body });
			}
			await answer.text();
			if (answer.status !== 200) throw new Error(`${cell.label}: ${answer.status}`);
			latencies.push(performance.now() - sent);
		});
		await waitFor(
			`${count} executions of ${cell.label}`,
			async () =>
				(await executionCount(n8n, cell.workflowId)) - startCount >= count ? true : undefined,
			600_000,
			100,
		);
		return { perSecond: count / ((performance.now() - started) / 1000), latencies };
	}

	const FRESH = '(fresh trigger)';
	async function measure(title: string): Promise<void> {
		const indexes = cells.map((_, index) => index);
		for (const concurrency of CONCURRENCIES) {
			const perSecond: number[][] = cells.map(() => []);
			const p50: number[][] = cells.map(() => []);
			const p99: number[][] = cells.map(() => []);
			for (let run = 0; run <= LAST_RUN; run++) {
				for (const index of rotated(indexes, run)) {
					await settle();
					const result = await maybeProfiled(
						inspector,
						cells[index].key,
						run,
						() => send(cells[index], run === 0 ? 20 : DELIVERIES, concurrency),
						`-c${concurrency}${title === FRESH ? '' : '-later'}`,
					);
					if (!counted(run)) continue;
					perSecond[index].push(result.perSecond);
					p50[index].push(percentile(result.latencies, 50));
					p99[index].push(percentile(result.latencies, 99));
				}
			}
			const s = (values: number[]) => summarise(values);
			const rate = (v: number) => `${v.toFixed(1)}/s`;
			say(
				`### Trigger deliveries ${title}, concurrency ${concurrency} (${DELIVERIES} signed deliveries per run, ${RUNS} interleaved runs)`,
			);
			say();
			say('| workflow | deliveries/s until every execution finished | answer p50 | answer p99 |');
			say('|---|---|---|---|');
			cells.forEach((cell, index) =>
				say(
					`| ${cell.label} | ${range(s(perSecond[index]), rate)} | ${range(s(p50[index]), ms)} | ${range(s(p99[index]), ms)} |`,
				),
			);
			say();
			const median = (index: number) => ({
				rate: s(perSecond[index]).median,
				p99: s(p99[index]).median,
			});
			const cell = (key: string) => median(cells.findIndex((c) => c.key === key));
			const [webhook, floorCell, off, on] = ['webhook', 'floor', 'trigger-off', 'trigger-on'].map(
				cell,
			);
			const [atEnd, remembering] = ['floor-done', 'floor-remembering'].map(cell);
			const against = (ours: { rate: number; p99: number }, base: { rate: number; p99: number }) =>
				`throughput ${ratio(ours.rate, base.rate)}, p99 ${ratio(ours.p99, base.p99)}`;
			say(
				`Against the floor (target throughput ≥ 0.95×, p99 ≤ 1.1×): fetch off ${against(off, floorCell)}; fetch on ${against(on, floorCell)}. ` +
					`Against Webhook → No Operation: fetch off ${against(off, webhook)}; fetch on ${against(on, webhook)}; the floor itself ${against(floorCell, webhook)}. ` +
					`Step by step from the floor: answering when the execution has ended ${against(atEnd, floorCell)}; then remembering delivery ids in static data ${against(remembering, atEnd)}; then this trigger, fetch off, ${against(off, remembering)}.`,
			);
			say();
		}
	}

	await measure(FRESH);
	if (AFTER > 0) {
		console.log(`sending ${AFTER} deliveries to the fetch-off trigger …`);
		await send(cells.find((c) => c.key === 'trigger-off') as DeliveryCell, AFTER, 8);
		await measure(`after ${AFTER.toLocaleString('en')} deliveries to the trigger`);
	}
}

// ---------------------------------------------------------------- overload

/**
 * A burst the trigger cannot keep up with (issue 24): the sustainable rate is measured first (100
 * deliveries 8 at a time, until every execution finished), then signed deliveries are sent at twice
 * that rate for OVERLOAD_SECONDS, at most 32 at a time, as a bank does; an answer of 503 (or no answer)
 * is sent again after its Retry-After (1 s without one), newly signed, until it is accepted. n8n's
 * resident memory is sampled from the start until every execution has finished.
 */
async function benchOverload(stack: Stack, credentialId: string): Promise<void> {
	const { n8n, sandbox } = stack;
	const xaid = sandbox.seeded.accounts.gbp;
	const workflow = triggerWorkflow(credentialId, xaid, false);
	const workflowId = await imported(n8n, workflow);
	const url = await waitFor(
		'the overload subscription',
		() =>
			sandbox.control
				.subscriptions()
				.find((s) => s.url.includes(String(workflow.nodes[0].webhookId)))?.url,
		60_000,
	);
	const delivery = await deliveryMaker(sandbox, xaid);
	const pid = n8n.process.child.pid as number;
	const executions = () => executionCount(n8n, workflowId, true);
	const pause = (msToWait: number) => new Promise((resolve) => setTimeout(resolve, msToWait));

	let answered503 = 0;
	let otherAnswers = 0;
	let attempts = 0;
	/** Delivers one event until the trigger accepts it, as the bank retries. */
	async function deliver(inFlight: { count: number }): Promise<void> {
		const { deliveryId, body } = delivery();
		for (;;) {
			while (inFlight.count >= 32) await pause(5);
			inFlight.count++;
			attempts++;
			let status = 0;
			let retryAfter: string | null = null;
			try {
				const answer = await fetch(url, {
					method: 'POST',
					headers: signed(sandbox, deliveryId, body),
					body,
				});
				await answer.text();
				status = answer.status;
				retryAfter = answer.headers.get('retry-after');
			} catch {
				status = 0;
			} finally {
				inFlight.count--;
			}
			if (status === 200) return;
			if (status === 503) answered503++;
			else otherAnswers++;
			const seconds = Number(retryAfter);
			await pause(Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000);
		}
	}

	// the sustainable rate: closed loop, 8 at a time, until every execution finished (after a warm-up)
	const calibrate = async (count: number) => {
		const before = await executions();
		const started = performance.now();
		const inFlight = { count: 0 };
		await runConcurrently(count, 8, () => deliver(inFlight));
		await waitFor(
			'the calibration executions',
			async () => ((await executions()) - before >= count ? true : undefined),
			600_000,
			100,
		);
		return count / ((performance.now() - started) / 1000);
	};
	await calibrate(20);
	await settle();
	const sustainable = await calibrate(100);
	await settle();

	const rate = 2 * sustainable;
	answered503 = 0;
	otherAnswers = 0;
	attempts = 0;
	const before = await executions();
	const baseline = rssBytes(pid);
	let peak = baseline;
	let sampling = true;
	const sampler = (async () => {
		while (sampling) {
			peak = Math.max(peak, rssBytes(pid));
			await pause(250);
		}
	})();
	const inFlight = { count: 0 };
	const pending: Array<Promise<void>> = [];
	const started = performance.now();
	let sent = 0;
	while (performance.now() - started < OVERLOAD_SECONDS * 1000) {
		const due = Math.floor(((performance.now() - started) / 1000) * rate);
		while (sent < due) {
			sent++;
			pending.push(deliver(inFlight));
		}
		await pause(10);
	}
	await Promise.all(pending);
	const acceptedAfter = (performance.now() - started) / 1000;
	let finished = 0;
	try {
		await waitFor(
			'every overload execution',
			async () => ((finished = (await executions()) - before) >= sent ? true : undefined),
			900_000,
			250,
		);
	} finally {
		sampling = false;
		await sampler;
	}
	const drainedAfter = (performance.now() - started) / 1000;
	await settle();
	const total = (await executionCount(n8n, workflowId)) - before;
	say(
		`### Overload: twice the sustainable rate for ${OVERLOAD_SECONDS} s into this trigger (fetch off)`,
	);
	say();
	say(
		`Sustainable rate (100 deliveries 8 at a time, until every execution finished): ${sustainable.toFixed(1)}/s; sent ${rate.toFixed(1)}/s for ${OVERLOAD_SECONDS} s, ` +
			'at most 32 at a time; a 503 or a dropped connection was sent again after its Retry-After (1 s without one).',
	);
	say();
	say(
		'| distinct deliveries | attempts | answered 503 | other answers or no answer | executions | every delivery accepted after | every execution finished after | n8n RSS before | n8n peak RSS |',
	);
	say('|---|---|---|---|---|---|---|---|---|');
	say(
		`| ${sent} | ${attempts} | ${answered503} | ${otherAnswers} | ${total} | ${acceptedAfter.toFixed(0)} s | ${drainedAfter.toFixed(0)} s | ${mb(baseline)} | ${mb(peak)} |`,
	);
	say();
	say(
		`Executions ${total === sent ? '=' : '≠'} distinct deliveries (${total} for ${sent}${finished > sent ? `; ${finished - sent} more than deliveries` : ''}).`,
	);
	say();
}

// ---------------------------------------------------------------- forged deliveries

/** CPU seconds (user + system) the process `pid` has used so far (Linux /proc). */
function cpuSeconds(pid: number): number {
	const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
	// utime and stime are fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 per second on Linux)
	return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * What a flood of forged deliveries costs n8n (issue 21): a current timestamp and a wrong signature,
 * which anybody who knows the webhook URL can send. Refusals per second, n8n's CPU per refusal, and how
 * many log lines the trigger wrote for them.
 */
async function benchForged(stack: Stack, credentialId: string): Promise<void> {
	const { n8n, sandbox } = stack;
	const xaid = sandbox.seeded.accounts.gbp;
	const workflow = triggerWorkflow(credentialId, xaid, false);
	await imported(n8n, workflow);
	const url = await waitFor(
		'the forged-bench subscription',
		() =>
			sandbox.control
				.subscriptions()
				.find((s) => s.url.includes(String(workflow.nodes[0].webhookId)))?.url,
		60_000,
	);
	const body = JSON.stringify({
		deliveryId: randomUUID(),
		event: 'TransactionReceived',
		xaid,
		xtid: randomUUID(),
	});
	const forged = () => {
		const timestamp = Math.floor(Date.now() / 1000);
		const signature = createHmac('sha256', 'whsec_guessed_by_an_attacker')
			.update(`${timestamp}.${body}`)
			.digest('hex');
		return {
			'content-type': 'application/json',
			'x-cb-timestamp': String(timestamp),
			'x-cb-signature': `v1=${signature}`,
		};
	};
	const pid = n8n.process.child.pid as number;
	const logLines = () => (n8n.logs().match(/Customer Banking Trigger: refused/g) ?? []).length;
	say(`### Forged deliveries (${FORGED} per concurrency, current timestamp, wrong signature)`);
	say();
	say(
		'| concurrency | refused/s | n8n CPU per refusal | answers other than 401 | trigger log lines |',
	);
	say('|---|---|---|---|---|');
	for (const concurrency of CONCURRENCIES) {
		await settle();
		const linesBefore = logLines();
		const cpuBefore = cpuSeconds(pid);
		const started = performance.now();
		let other = 0;
		await runConcurrently(FORGED, concurrency, async () => {
			const answer = await fetch(url, { method: 'POST', headers: forged(), body });
			await answer.text();
			if (answer.status !== 401) other++;
		});
		const seconds = (performance.now() - started) / 1000;
		const cpu = cpuSeconds(pid) - cpuBefore;
		say(
			`| ${concurrency} | ${(FORGED / seconds).toFixed(0)}/s | ${((cpu * 1000) / FORGED).toFixed(2)} ms | ${other} | ${logLines() - linesBefore} |`,
		);
	}
	say();
}

// ---------------------------------------------------------------- Submit Batch

async function benchSubmitBatch(
	stack: Stack,
	inspector: Inspector,
	credentialId: string,
): Promise<void> {
	const { n8n, sandbox } = stack;
	const PAYMENTS = 1000;
	const BATCH = 100;
	const paths = {
		expressions: 'bench-submit-batch',
		automatic: 'bench-submit-batch-auto',
	} as const;
	await imported(n8n, submitBatchWorkflow(paths.expressions, credentialId, 'expressions'));
	await imported(n8n, submitBatchWorkflow(paths.automatic, credentialId, 'automatic'));
	const account = sandbox.seeded.accounts.gbp;
	const payee = sandbox.seeded.payees.gbp;
	const token = await bankToken(sandbox);
	const invoices = (run: string) =>
		Array.from({ length: PAYMENTS }, (_, i) => ({
			account,
			payee,
			amount: 0.01,
			reference: `B${run}-${i}`.slice(0, 18),
		}));
	const raw = async (run: string) => {
		const all = invoices(run).map((invoice) => ({
			xaid: invoice.account,
			xpid: invoice.payee,
			amount: invoice.amount,
			reference: invoice.reference,
		}));
		for (let start = 0; start < all.length; start += BATCH) {
			const answer = await fetch(`${sandbox.baseUrl}/payments`, {
				method: 'POST',
				headers: {
					authorization: `Bearer ${token}`,
					'content-type': 'application/json',
					'x-idempotent-key': randomUUID(),
				},
				body: JSON.stringify(all.slice(start, start + BATCH)),
			});
			if (answer.status >= 300)
				throw new Error(`raw batch → ${answer.status} ${await answer.text()}`);
			await answer.text();
		}
	};
	const cells = ['expressions', 'automatic', 'raw'] as const;
	const times: Record<(typeof cells)[number], number[]> = {
		expressions: [],
		automatic: [],
		raw: [],
	};
	const posts: Record<'expressions' | 'automatic', number[]> = { expressions: [], automatic: [] };
	for (let run = 0; run <= LAST_RUN; run++) {
		for (const cell of rotated([...cells], run)) {
			sandbox.control.clearRequests();
			await settle();
			const tag = `${run}${cell[0].toUpperCase()}${randomUUID().slice(0, 4)}`;
			const started = performance.now();
			if (cell === 'raw') await raw(tag);
			else
				await maybeProfiled(
					inspector,
					cell === 'expressions' ? 'submitBatch' : 'submitBatchAuto',
					run,
					() => call(n8n, paths[cell], { invoices: invoices(tag) }),
				);
			const elapsed = performance.now() - started;
			const sent = sandbox.control
				.requests()
				.filter((r) => r.method === 'POST' && r.path === '/payments').length;
			const made = sandbox.control
				.ledger()
				.transactions.filter((t) => String(t.reference).startsWith(`B${tag}`)).length;
			if (!counted(run)) continue;
			times[cell].push(elapsed);
			if (cell !== 'raw') posts[cell].push(sent);
			if (made !== PAYMENTS)
				throw new Error(`run ${run} ${cell}: the ledger has ${made} of ${PAYMENTS} payments`);
		}
	}
	const expressions = summarise(times.expressions);
	const automatic = summarise(times.automatic);
	const rawTimes = summarise(times.raw);
	say(`### Submit Batch of ${PAYMENTS} payments (${RUNS} interleaved runs)`);
	say();
	say('| workflow | time, median (min–max) | POST /payments seen by the bank |');
	say('|---|---|---|');
	say(
		`| this package, Submit Batch, Map Automatically (batch size ${BATCH}) | ${range(automatic, ms)} | ${posts.automatic.join(', ')} (floor ceil(${PAYMENTS}/${BATCH}) = ${Math.ceil(PAYMENTS / BATCH)}) |`,
	);
	say(
		`| this package, Submit Batch, a field expression per item (batch size ${BATCH}) | ${range(expressions, ms)} | ${posts.expressions.join(', ')} |`,
	);
	say(
		`| raw HTTP loop outside n8n (floor) | ${range(rawTimes, ms)} | ${Math.ceil(PAYMENTS / BATCH)} |`,
	);
	say();
	say(
		`Ratios: Map Automatically ${ratio(automatic.median, expressions.median)} the expressions, ${ratio(automatic.median, rawTimes.median)} the raw loop; expressions ${ratio(expressions.median, rawTimes.median)} the raw loop.`,
	);
	say();
}

async function main(): Promise<void> {
	buildAndPack();
	const stack = await startStack(defaultVersion, {}, N8N_ENV);
	let inspector: Inspector | undefined;
	const startedAt = new Date();
	try {
		const { n8n, sandbox } = stack;
		if (ONLY.includes('trigger')) await installFloorTrigger(n8n);
		const { id } = await createCredential(n8n, 'Customer Banking sandbox', credentialData(sandbox));
		inspector = await Inspector.attach(n8n.process.child.pid as number);
		say(`# Benchmark results`);
		say();
		say(
			`${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC · n8n ${defaultVersion} (sqlite, regular mode) · ${cpus().length} × ${cpus()[0]?.model.trim()} · ${(totalmem() / 2 ** 30).toFixed(0)} GiB${
				Object.keys(N8N_ENV).length
					? ` · ${Object.entries(N8N_ENV)
							.map(([k, v]) => `${k}=${v}`)
							.join(' ')}`
					: ''
			}`,
		);
		say();
		say(
			`Command: \`npm run bench -- ${process.argv.slice(2).join(' ')}\`. Absolute times vary between machines; compare the ratios, measured side by side in one run.`,
		);
		say();
		if (ONLY.includes('returnAll')) await benchReturnAll(stack, inspector, id, RETURN_ALL_COUNTS);
		if (ONLY.includes('returnAllCli')) await benchReturnAllCli(stack, inspector);
		if (ONLY.includes('submitBatch')) await benchSubmitBatch(stack, inspector, id);
		if (ONLY.includes('trigger')) await benchTrigger(stack, inspector, id);
		if (ONLY.includes('forged')) await benchForged(stack, id);
		if (ONLY.includes('overload')) await benchOverload(stack, id);
		if (cliProfiles.length > 0) {
			say(
				'### CPU profiles, cut to the node window (runs after the measured ones, not counted; of each cell, the run with the median share of the package)',
			);
			say();
			cliProfiles.forEach((line) => say(line));
		}
		if (profileNotes.length > 0) {
			say('### CPU profiles of n8n (a run after the measured ones, not counted)');
			say();
			profileNotes.forEach((line) => say(line));
		}
	} finally {
		inspector?.close();
		await stack.stop();
	}
	const outIndex = process.argv.indexOf('--out');
	const file =
		outIndex === -1
			? join(__dirname, '..', '..', 'docs', 'benchmark-results.md')
			: resolve(process.argv[outIndex + 1]);
	mkdirSync(join(file, '..'), { recursive: true });
	writeFileSync(file, `${report.join('\n')}\n`);
	console.log(`written: ${file}`);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});

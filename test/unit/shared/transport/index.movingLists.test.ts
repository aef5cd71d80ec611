/**
 * requestAll over lists that move while they are read, through the transport and a real HTTP server:
 * records pushed across a page boundary come out once (by the endpoint's ID field, endpoints.ts
 * `records`); a list whose `total` fell is read again, and if it fell again the caller's choice: a
 * warning n8n shows over the output (an execution hint), an error, or nothing. The recent read (`since`).
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { ENDPOINTS, requestAll } from '../../../../nodes/shared/transport';
import { CustomerBanking } from '../../../../nodes/CustomerBanking/CustomerBanking.node';
import { createExecuteContext, runInEngine } from '../../../helpers/n8nContext';
import { type ListChange, MovingList, timedRecords } from '../../../helpers/movingList';
import {
	scriptedCredentials,
	startScriptedApi,
	type ScriptedApi,
} from '../../../helpers/scriptedApi';

let api: ScriptedApi;
beforeEach(async () => {
	api = await startScriptedApi();
});
afterEach(async () => {
	await api.close();
});

/** Serves `list` as GET /account/{xaid}/transactions, its records named by `xtid`. */
function serve(list: MovingList) {
	api.setApi((request) => {
		const answer = list.answer(Number(request.query.page), Number(request.query.limit)) as {
			total: number;
			results: Array<{ id: string }>;
		};
		const results = answer.results.map(({ id, ...rest }) => ({ xtid: id, ...rest }));
		return { status: 200, body: { total: answer.total, results } };
	});
}

function context(): IExecuteFunctions & { hints: unknown[] } {
	const { context: execute } = createExecuteContext({
		parameters: {},
		credentials: scriptedCredentials(api),
	});
	return execute as IExecuteFunctions & { hints: unknown[] };
}

const XAID = '11111111-1111-4111-8111-111111111111';
const transactions = ENDPOINTS.transactions.at({ xaid: XAID });

describe('requestAll over a list that moves', () => {
	it('1,200 transactions newest first, 40 arriving before page 1 is answered: each record once, all 1,200 there', async () => {
		const list = new MovingList(
			timedRecords(1200, 'newestFirst'),
			(request): ListChange => (request === 1 ? { kind: 'addHead', count: 40 } : { kind: 'none' }),
			{ newTime: () => new Date().toISOString() },
		);
		serve(list);
		const execute = context();
		const read = await requestAll.call(execute, transactions, {
			returnAll: true,
			ifShrinking: 'warn',
		});
		const ids = read.map((record) => record.xtid);
		expect(new Set(ids).size).toBe(ids.length);
		for (let at = 0; at < 1200; at++) expect(ids).toContain(`r${at}`);
		expect(execute.hints).toEqual([]);
	});

	describe('a list that loses a record before every page is answered', () => {
		const shrinking = () =>
			new MovingList(timedRecords(1200, 'oldestFirst'), () => ({ kind: 'remove', at: 0 }));

		it("'warn': read twice, then an execution hint (a warning over the output) says records may be missing", async () => {
			const list = shrinking();
			serve(list);
			const execute = context();
			await requestAll.call(execute, transactions, { returnAll: true, ifShrinking: 'warn' });
			expect(list.requested.filter((page) => page === 0)).toHaveLength(2);
			expect(execute.hints).toEqual([
				{
					message: `The list GET /account/${XAID}/transactions lost records while it was read, twice: records may be missing from what was read.`,
					type: 'warning',
					location: 'outputPane',
				},
			]);
		});

		it("'fail': read twice, then an error that says what the list holds is not known", async () => {
			serve(shrinking());
			const execute = context();
			await expect(
				requestAll.call(execute, transactions, { returnAll: true, ifShrinking: 'fail' }),
			).rejects.toMatchObject({
				message: expect.stringContaining('lost records while it was read, twice'),
				description: expect.stringContaining('what it holds is not known'),
			});
		});

		it("'accept': read twice, no warning", async () => {
			const list = shrinking();
			serve(list);
			const execute = context();
			await requestAll.call(execute, transactions, { returnAll: true, ifShrinking: 'accept' });
			expect(list.requested.filter((page) => page === 0)).toHaveLength(2);
			expect(execute.hints).toEqual([]);
		});
	});

	it('a list that lost a record once is read again, and the second read stands without a warning', async () => {
		const list = new MovingList(timedRecords(1200, 'oldestFirst'), (request) =>
			request === 1 ? { kind: 'remove', at: 0 } : { kind: 'none' },
		);
		serve(list);
		const execute = context();
		const read = await requestAll.call(execute, transactions, {
			returnAll: true,
			ifShrinking: 'warn',
		});
		expect(read).toHaveLength(1199);
		expect(execute.hints).toEqual([]);
	});

	it('with `since`, 5,000 transactions newest first: only the pages back to that time and the last one are read, and the coverage is told', async () => {
		const list = new MovingList(timedRecords(5000, 'newestFirst'), () => ({ kind: 'none' }));
		serve(list);
		const execute = context();
		const covered: unknown[] = [];
		const since = Date.UTC(2026, 10, 29, 12) - 700 * 60_000;
		const read = await requestAll.call(execute, transactions, {
			returnAll: true,
			since,
			onCoverage: (coverage) => covered.push(coverage),
			ifShrinking: 'fail',
		});
		expect(list.requested).toEqual([0, 1, 9]);
		expect(covered).toEqual([{ read: 'recent', since, order: 'newestFirst' }]);
		expect(read.map((record) => record.xtid)).toContain('r700');
	});

	it("Transaction → Get Many, Return All, run by n8n-core's engine: the warning is in the run data n8n stores and the editor shows over the output (runData[node][0].hints)", async () => {
		serve(new MovingList(timedRecords(1200, 'oldestFirst'), () => ({ kind: 'remove', at: 0 })));
		const engine = await runInEngine({
			parameters: { resource: 'transaction', operation: 'getMany', returnAll: true },
			credentials: scriptedCredentials(api),
			nodeType: new CustomerBanking(),
		});
		expect(engine.error).toBeUndefined();
		const [task] = Object.values(engine.run.data.resultData.runData)[0];
		expect(task.hints).toEqual([
			{
				message:
					'The list GET /transactions lost records while it was read, twice: records may be missing from what was read.',
				type: 'warning',
				location: 'outputPane',
			},
		]);
		expect(engine.output?.[0].length).toBeGreaterThan(1000);
	});
});

/**
 * The places of the trigger's back-pressure (runningDeliveries.ts): a waiting delivery gets a freed
 * place first come, first served; one that stopped waiting is never handed a place afterwards, and a
 * place handed over in the moment its wait ran out is kept, not lost.
 */
import { RunningDeliveries } from '../../../nodes/CustomerBankingTrigger/runningDeliveries';

const data = () => ({});

afterEach(() => {
	jest.useRealTimers();
});

describe('RunningDeliveries', () => {
	it('a place freed after a waiter gave up goes to nobody: the count drops', async () => {
		jest.useFakeTimers();
		const running = new RunningDeliveries();
		const first = await running.take('a', data(), 1, 100);
		expect(first).toBeDefined();
		const late = running.take('b', data(), 1, 100);
		jest.advanceTimersByTime(100);
		expect(await late).toBeUndefined();
		running.free(first!);
		expect(running.size).toBe(0);
		expect(running.has('b')).toBe(false);
	});

	it('a place handed over after the wait ran out but before the waiter resumed is kept by it', async () => {
		jest.useFakeTimers();
		const running = new RunningDeliveries();
		const first = await running.take('a', data(), 1, 100);
		const waiting = running.take('b', data(), 1, 100);
		// the wait's timer fires; before the waiter resumes, the first place is freed and handed to it
		jest.advanceTimersByTime(100);
		running.free(first!);
		const place = await waiting;
		expect(place).toMatchObject({ key: 'b' });
		expect(running.size).toBe(1);
		running.free(place!);
		expect(running.size).toBe(0);
	});

	it('freed places go to the waiters in the order they came, never above the bound', async () => {
		const running = new RunningDeliveries();
		const a = await running.take('a', data(), 2, 1000);
		const b = await running.take('b', data(), 2, 1000);
		const waiting = ['c', 'd', 'e'].map(async (key) => await running.take(key, data(), 2, 1000));
		running.free(a!);
		expect(running.has('c')).toBe(true);
		expect(running.has('d')).toBe(false);
		expect(running.size).toBe(2);
		running.free(b!);
		expect(running.has('d')).toBe(true);
		const [c, d] = await Promise.all(waiting.slice(0, 2));
		running.free(c!);
		running.free(d!);
		const e = await waiting[2];
		expect(e).toMatchObject({ key: 'e' });
		expect(running.size).toBe(1);
	});
});

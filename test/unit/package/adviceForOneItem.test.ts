/**
 * No message, hint or nextStep of a payment leads the user to an action that touches other items'
 * money: the node-wide Skip Payments Already Made switch is never the advice for one item.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { join, relative } from 'path';

import { unsentItem } from '../../../nodes/CustomerBanking/actions/payment/paymentItems';
import { PAYMENT_STATUSES } from '../../../nodes/CustomerBanking/payments/paymentStatuses';
import type { FoundPayment } from '../../../nodes/CustomerBanking/payments/paymentLookUp';

const ROOT = join(__dirname, '../../..');
/** Advice that acts on the whole node: the switch turned off, or the workflow run again without it. */
const NODE_WIDE = /turn (it )?off|switch (it )?off|disable|skip payments already made off/i;

function shippedFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? shippedFiles(path) : path.endsWith('.ts') ? [path] : [];
	});
}

describe('advice names the item, never the node-wide switch', () => {
	it.each(Object.entries(PAYMENT_STATUSES))('nextStep of %s', (_status, row) => {
		expect(row.nextStep).not.toMatch(NODE_WIDE);
		expect(row.nextStep).not.toMatch(/Skip Payments Already Made/);
	});

	const payment = { itemIndex: 0, body: { xaid: 'a', xpid: 'p', amount: 1, reference: 'INV-1' } };
	const record = (state: Partial<FoundPayment>): FoundPayment =>
		({ xtid: 'tx-1', foundIn: 'approvals', ...state }) as FoundPayment;
	it.each([
		['held for approval', record({ approvalStatus: 'PENDING' })],
		['declined', record({ approvalStatus: 'DECLINED' })],
		['sent', record({ foundIn: 'transactions', transactionStatus: 'SENT' })],
		['failed', record({ foundIn: 'transactions', transactionStatus: 'FAILED' })],
	])('the message of a payment already at the bank, %s', (_name, found) => {
		const unsent = unsentItem({ kind: 'alreadyMade', payment, earlier: [found] });
		const message = String('items' in unsent ? unsent.items[0].json.message : '');
		expect(message).not.toMatch(NODE_WIDE);
		expect(message).not.toMatch(/Skip Payments Already Made/);
		expect(message).toMatch(/reference of its own|for this item only/);
	});

	it('no shipped text outside the switch itself advises turning it off', () => {
		const offenders = shippedFiles(join(ROOT, 'nodes'))
			.filter((path) => !path.endsWith(join('actions', 'payment', 'paymentForm.ts')))
			.flatMap((path) =>
				readFileSync(path, 'utf8')
					.split('\n')
					.map((line, index) => ({ line, at: `${relative(ROOT, path)}:${index + 1}` }))
					.filter(({ line }) => /Skip Payments Already Made/.test(line) && NODE_WIDE.test(line))
					.map(({ at }) => at),
			);
		expect(offenders).toEqual([]);
	});
});

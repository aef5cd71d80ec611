/**
 * What each payment's output item says, from its outcome: the status and next step, the payment in the
 * package's names, the key, and which output it leaves on. A status word nobody knows on an earlier
 * payment counts as holding money (already made), never as refused.
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	invalidItems,
	invalidItem,
	itemOfOutcome,
	runItems,
	unsentItem,
	validatedItem,
	withCheckNotes,
} from '../../../../../nodes/CustomerBanking/actions/payment/paymentItems';
import type { ReadItem } from '../../../../../nodes/CustomerBanking/actions/payment/readPayment';
import type { ItemOutput } from '../../../../../nodes/CustomerBanking/actions/types';
import type { IdempotencyKey } from '../../../../../nodes/CustomerBanking/payments/idempotencyKey';
import type { PaymentOutcome } from '../../../../../nodes/CustomerBanking/payments/outcomes';
import type { Payment } from '../../../../../nodes/CustomerBanking/payments/payment';
import type { FoundPayment } from '../../../../../nodes/CustomerBanking/payments/paymentLookUp';
import { nextStepOf } from '../../../../../nodes/CustomerBanking/payments/paymentStatuses';
import type { PaymentStep } from '../../../../../nodes/CustomerBanking/payments/paymentPlan';

const NODE = { name: 'Customer Banking' } as INode;
const PAYMENT: Payment = {
	itemIndex: 2,
	body: { xaid: 'acc-1', xpid: 'payee-1', amount: 10, reference: 'INV-0001' },
};
const SHOWN_PAYMENT = { accountId: 'acc-1', payeeId: 'payee-1', amount: 10, reference: 'INV-0001' };
const KEY: IdempotencyKey = { key: 'key-1', source: 'derived' } as IdempotencyKey;

/** The one output item of a result, and the output it leaves on. */
function only(result: ItemOutput) {
	if (!('items' in result)) throw new Error('expected an output item, got an error');
	expect(result.items).toHaveLength(1);
	return { json: result.items[0].json, output: result.items[0].output };
}

describe('itemOfOutcome', () => {
	const accepted = (extra: Partial<Extract<PaymentOutcome, { kind: 'accepted' }>> = {}) =>
		({
			kind: 'accepted',
			payment: PAYMENT,
			key: KEY,
			accepted: { xtid: 'tx-1', index: 0, status: 'submitted', approvalRef: 'ap-1' },
			requestId: 'req-1',
			replayed: false,
			...extra,
		}) as PaymentOutcome;

	it("an accepted payment: the evidence's status, the payment and the entry in plain names, never the answer's own state words", () => {
		const { json, output } = only(
			itemOfOutcome(
				accepted({ fromEvidence: { status: 'sent', fields: { transactionStatus: 'SETTLED' } } }),
			),
		);
		expect(output).toBeUndefined();
		expect(json).toEqual({
			status: 'sent',
			nextStep: nextStepOf('sent'),
			...SHOWN_PAYMENT,
			transactionId: 'tx-1',
			transactionStatus: 'SETTLED',
			bankRequestId: 'req-1',
			idempotencyKey: 'key-1',
			keySource: 'derived',
		});
	});

	it.each<[string, Partial<Extract<PaymentOutcome, { kind: 'accepted' }>>, string]>([
		['no evidence read', {}, 'accepted'],
		[
			'evidence that says nothing known',
			{ fromEvidence: { status: 'accepted', fields: {}, check: 'Check it.' } },
			'accepted',
		],
		[
			'a replay of a payment on its way',
			{ replayed: true, fromEvidence: { status: 'sent', fields: {} } },
			'replayed',
		],
		[
			'a replay of a refused payment stays not_sent',
			{ replayed: true, fromEvidence: { status: 'not_sent', fields: {} } },
			'not_sent',
		],
		[
			'waiting for approval',
			{ fromEvidence: { status: 'pending_approval', fields: {} } },
			'pending_approval',
		],
	])('%s → %s', (_case, extra, status) => {
		const { json } = only(itemOfOutcome(accepted(extra)));
		expect(json.status).toBe(status);
		expect(json.nextStep).toBe(nextStepOf(status as never));
	});

	it('a check of the evidence is shown as approvalCheck', () => {
		const { json } = only(
			itemOfOutcome(
				accepted({ fromEvidence: { status: 'accepted', fields: {}, check: 'Check it.' } }),
			),
		);
		expect(json.approvalCheck).toBe('Check it.');
	});

	it('a rejection leaves on the second output, saying when its reason is uncertain', () => {
		const { json, output } = only(
			itemOfOutcome({
				kind: 'rejected',
				payment: PAYMENT,
				key: KEY,
				reason: 'limit | closed',
				reasonUncertain: true,
			}),
		);
		expect(output).toBe('second');
		expect(json).toMatchObject({
			status: 'rejected',
			rejectionReason: 'limit | closed',
			rejectionReasonUncertain: true,
		});
	});

	it('undetermined: the statement, notPaid and which items share it', () => {
		const { json, output } = only(
			itemOfOutcome({
				kind: 'undetermined',
				payment: PAYMENT,
				key: KEY,
				statement: 'One of them may have been paid.',
				notPaid: false,
				xtids: ['tx-1'],
				sharedWith: [1, 2],
			}),
		);
		expect(output).toBeUndefined();
		expect(json).toMatchObject({
			status: 'undetermined',
			statement: 'One of them may have been paid.',
			notPaid: false,
			transactionIds: ['tx-1'],
			sharedWith: [1, 2],
		});
	});

	it('found after an error: what was found, and the request error', () => {
		const { json } = only(
			itemOfOutcome({
				kind: 'found',
				payment: PAYMENT,
				key: KEY,
				found: {
					xtid: 'tx-1',
					foundIn: 'approvals',
					approvalRef: 'ap-1',
					approvalStatus: 'pending',
				},
				failure: 'socket hang up',
			}),
		);
		expect(json).toMatchObject({
			status: 'found_after_error',
			transactionId: 'tx-1',
			approvalId: 'ap-1',
			approvalStatus: 'pending',
			foundIn: 'approvals',
			requestError: 'socket hang up',
		});
	});

	it('a failure is an error with its status, next step, key and candidates', () => {
		const error = new NodeOperationError(NODE, 'Payment state unknown');
		expect(
			itemOfOutcome({
				kind: 'failed',
				status: 'unknown',
				payment: PAYMENT,
				key: KEY,
				error,
				candidates: ['tx-9'],
			}),
		).toEqual({
			itemIndex: 2,
			error,
			errorFields: {
				status: 'unknown',
				nextStep: nextStepOf('unknown'),
				idempotencyKey: 'key-1',
				candidates: ['tx-9'],
			},
		});
	});

	it('the batch placement, the resubmission note and a custom key are shown', () => {
		const { json } = only(
			itemOfOutcome(
				accepted({ key: { key: 'uuid', source: 'custom', customKey: 'inv-7' } as IdempotencyKey }),
				{
					batch: { index: 1, itemIndexes: [2, 3] },
					resubmission: { resubmitted: true, firstRejection: 'busy', firstIdempotencyKey: 'k0' },
				},
			),
		);
		expect(json).toMatchObject({
			idempotencyKey: 'uuid',
			keySource: 'custom',
			customIdempotencyKey: 'inv-7',
			batch: { index: 1, itemIndexes: [2, 3] },
			resubmission: { resubmitted: true, firstRejection: 'busy', firstIdempotencyKey: 'k0' },
		});
	});
});

describe('unsentItem', () => {
	it('over a limit: rejected, not sent, on the second output', () => {
		const { json, output } = only(
			unsentItem({
				kind: 'overLimit',
				payment: PAYMENT,
				reason: 'over the Maximum Amount',
			} as PaymentStep),
		);
		expect(output).toBe('second');
		expect(json).toEqual({
			status: 'rejected',
			nextStep: nextStepOf('rejected'),
			rejectionReason: 'over the Maximum Amount',
			notSent: true,
			...SHOWN_PAYMENT,
		});
	});

	const earlier = (xtid: string, transactionStatus: string): FoundPayment => ({
		xtid,
		foundIn: 'transactions',
		transactionStatus,
	});
	const alreadyMade = (found: FoundPayment[]) =>
		only(unsentItem({ kind: 'alreadyMade', payment: PAYMENT, earlier: found } as PaymentStep)).json;

	it.each<[string, FoundPayment[], string, string]>([
		['an earlier payment sent', [earlier('tx-1', 'SETTLED')], 'already_made', 'tx-1'],
		['an earlier payment refused', [earlier('tx-1', 'failed')], 'not_sent', 'tx-1'],
		// a word nobody knows is not a refusal: it may hold money
		[
			'an earlier payment with a status nobody knows',
			[earlier('tx-1', 'WEIRD_STATE')],
			'already_made',
			'tx-1',
		],
		[
			'one refused, one sent: the one holding money is named',
			[earlier('tx-1', 'failed'), earlier('tx-2', 'SETTLED')],
			'already_made',
			'tx-2',
		],
	])('%s → %s', (_case, found, status, transactionId) => {
		const json = alreadyMade(found);
		expect(json).toMatchObject({ status, transactionId, notSent: true });
		expect((json.earlierPayments as unknown[]).length).toBe(found.length);
	});

	it('the advice for a refused earlier payment is for this item only, never the node-wide switch', () => {
		const json = alreadyMade([earlier('tx-1', 'failed')]);
		expect(json.message).toMatch(/set Send Again If Refused \(Options\) for this item only/);
		expect(json.message).not.toMatch(/Skip Payments Already Made/);
	});

	it('refuses a step that is sent', () => {
		expect(() => unsentItem({ kind: 'holdBack' } as PaymentStep)).toThrow(/is sent, not left out/);
	});
});

describe('Validate Only results', () => {
	it('a valid item shows the request it would send, alone or in its batch', () => {
		const single = only(validatedItem(PAYMENT, KEY)).json;
		// the payment under the names every other output gives it; the bank's names only in the request
		expect(single).toMatchObject(SHOWN_PAYMENT);
		expect(single).not.toHaveProperty('xaid');
		expect(single).toMatchObject({
			status: 'valid',
			idempotencyKey: 'key-1',
			request: {
				method: 'POST',
				path: '/payments',
				headers: { 'x-idempotent-key': 'key-1' },
				body: PAYMENT.body,
			},
		});
		const batched = only(validatedItem(PAYMENT, KEY, { index: 0, itemIndexes: [2] })).json;
		expect(batched.request).toMatchObject({
			batch: { index: 0, itemIndexes: [2] },
			payment: PAYMENT.body,
		});
		expect(batched.request).not.toHaveProperty('body');
	});

	it('an invalid item lists its issues on the second output', () => {
		const { json, output } = only(invalidItem(4, [{ field: 'Amount', rule: 'must be positive' }]));
		expect(output).toBe('second');
		expect(json).toEqual({
			status: 'invalid',
			nextStep: nextStepOf('invalid'),
			issues: ['Amount must be positive'],
		});
	});
});

describe('invalidItems and withCheckNotes', () => {
	const bad = (itemIndex: number): ReadItem => ({
		valid: false,
		itemIndex,
		issues: [],
		error: new NodeOperationError(NODE, `bad ${itemIndex}`),
	});
	const good: ReadItem = { valid: true, payment: PAYMENT };

	it('without Continue On Fail, stops at the first invalid item; with it, one error per invalid item', () => {
		const stopped = invalidItems(false, [good, bad(1), bad(3)]);
		expect(stopped.stop).toBe(true);
		expect(stopped.items.map((result) => result.itemIndex)).toEqual([1]);
		const all = invalidItems(true, [good, bad(1), bad(3)]);
		expect(all.stop).toBe(false);
		expect(all.items.map((result) => result.itemIndex)).toEqual([1, 3]);
		expect(all.items[0]).toMatchObject({ errorFields: { status: 'invalid' } });
	});

	it('the check note goes on the items and errors it is for', () => {
		const results: ItemOutput[] = [
			{ itemIndex: 0, items: [{ json: { status: 'sent' } }] },
			{
				itemIndex: 1,
				error: new NodeOperationError(NODE, 'x'),
				errorFields: { status: 'unknown' },
			},
			{ itemIndex: 2, items: [{ json: {} }] },
		];
		withCheckNotes(
			results,
			new Map([
				[0, 'Looked at all.'],
				[1, 'Looked at some.'],
			]),
		);
		expect(results[0]).toMatchObject({
			items: [{ json: { earlierPaymentsChecked: 'Looked at all.' } }],
		});
		expect(results[1]).toMatchObject({
			errorFields: { status: 'unknown', earlierPaymentsChecked: 'Looked at some.' },
		});
		expect(results[2]).toEqual({ itemIndex: 2, items: [{ json: {} }] });
	});
});

describe('runItems', () => {
	const pay = (itemIndex: number): Payment => ({ ...PAYMENT, itemIndex });
	const rejected = (itemIndex: number): PaymentOutcome => ({
		kind: 'rejected',
		payment: pay(itemIndex),
		key: KEY,
		reason: 'limit',
	});
	const send = (...items: number[]): PaymentStep => ({
		kind: 'send',
		request: { members: items.map(pay), key: KEY, asBatch: items.length > 1 },
	});
	const run = {
		steps: [
			{ step: send(0, 1), outcomes: [rejected(0), rejected(1)] },
			{ step: { kind: 'overLimit', payment: pay(2), reason: 'over' } as PaymentStep },
			{
				step: send(3),
				outcomes: [rejected(3)],
				resubmission: new Map([[3, { resubmitted: false, notResubmittedBecause: 'no' }]]),
			},
		],
		checkedAtBank: new Map([[3, 'every record']]),
	};
	const shown = (results: ItemOutput[]) =>
		results.map((result) => {
			const { json } = only(result);
			return [
				result.itemIndex,
				json.status,
				json.batch,
				json.resubmission,
				json.earlierPaymentsChecked,
			];
		});

	it('Submit Batch: each step in turn; sent items say which request, counting only requests sent', () => {
		expect(shown(runItems(run, { batchSize: 2 }))).toEqual([
			[0, 'rejected', { index: 0, itemIndexes: [0, 1] }, undefined, undefined],
			[1, 'rejected', { index: 0, itemIndexes: [0, 1] }, undefined, undefined],
			[2, 'rejected', undefined, undefined, undefined],
			[
				3,
				'rejected',
				{ index: 1, itemIndexes: [3] },
				{ resubmitted: false, notResubmittedBecause: 'no' },
				'every record',
			],
		]);
	});

	it('Submit: no request placement on the items', () => {
		expect(shown(runItems(run, {})).map(([, , batch]) => batch)).toEqual([
			undefined,
			undefined,
			undefined,
			undefined,
		]);
	});
});

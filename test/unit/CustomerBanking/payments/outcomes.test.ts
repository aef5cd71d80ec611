/**
 * The outcomes of payments that have no answer of their own: which status each failure allows
 * (`rejected` only for a refusal the bank answered, `unknown` whenever an earlier request may have been
 * made, else `not_sent`) and what the error tells the user to do. The errors of the transport are built
 * with its own constructor (failedRequestError), so they carry how the request failed.
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { IdempotencyKey } from '../../../../nodes/CustomerBanking/payments/idempotencyKey';
import {
	describeError,
	keyConflictOutcomes,
	type LookUpMiss,
	notProcessedOutcomes,
	type PaymentOutcome,
	uncheckedOutcomes,
	unknownOutcomes,
} from '../../../../nodes/CustomerBanking/payments/outcomes';
import type { Payment } from '../../../../nodes/CustomerBanking/payments/payment';
import type { ApiFailure } from '../../../../nodes/shared/transport';
import { failedRequestError } from '../../../../nodes/shared/transport/errors';
import type { FailureKind } from '../../../../nodes/shared/transport/retryPolicy';

const NODE: INode = {
	id: 'node-1',
	name: 'Customer Banking',
	type: 'n8n-nodes-customer-banking.customerBanking',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const context = { getNode: () => NODE } as unknown as IExecuteFunctions;

const payment = (itemIndex: number, reference = `INV-${itemIndex}`): Payment => ({
	itemIndex,
	body: { xaid: 'acc-1', xpid: 'payee-1', amount: 12.5, reference },
});
const PAYMENTS = [payment(0), payment(1)];
const KEY: IdempotencyKey = { key: 'key-1', source: 'derived' } as IdempotencyKey;

/** An error as the transport throws it for a failed request. */
function transportError(kind: FailureKind, status: number | undefined, facts: Partial<ApiFailure>) {
	return failedRequestError(
		NODE,
		{
			errorResponse: { message: 'bank says no' },
			message: `Bank answered ${status ?? 'nothing'}`,
			description: 'What the bank said.',
			...(status !== undefined && { httpCode: String(status) }),
		},
		{ kind, status, outcomeUnknown: false, refused: false, attempts: 1, ...facts },
		0,
	);
}

const failed = (outcome: PaymentOutcome) => {
	if (outcome.kind !== 'failed') throw new Error(`expected a failed outcome, got ${outcome.kind}`);
	return outcome;
};

describe('describeError', () => {
	it.each<[string, unknown, string]>([
		[
			'a NodeOperationError gets one full stop',
			new NodeOperationError(NODE, 'No token'),
			'No token.',
		],
		[
			'a NodeOperationError ending with a full stop keeps one',
			new NodeOperationError(NODE, 'No token.'),
			'No token.',
		],
		['a NodeApiError', transportError('serverError', 500, {}), 'Bank answered 500.'],
		['any other Error: its message', new Error('socket hang up'), 'socket hang up'],
		['a string', 'plain words', 'plain words'],
		['a number', 42, '42'],
	])('%s', (_case, error, expected) => {
		expect(describeError(error)).toBe(expected);
	});
});

describe('notProcessedOutcomes: a request that failed before the bank processed anything', () => {
	it('a 422 (the key used with another body) is a refusal that names the key and says nothing new was paid', () => {
		const outcomes = notProcessedOutcomes
			.call(context, PAYMENTS, KEY, transportError('unprocessable', 422, { refused: true }))
			.map(failed);
		expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
		expect(outcomes[0].error.message).toBe(
			'Idempotency key key-1 was already used for a different payment request: nothing new was paid',
		);
		expect(outcomes[0].error.description).toMatch(/The earlier payment made with this key stands/);
		// one error shared by the payments of the request
		expect(outcomes[1].error).toBe(outcomes[0].error);
		expect(outcomes.map((outcome) => outcome.payment)).toEqual(PAYMENTS);
	});

	it('another refusal (400) keeps its message and adds that nothing was paid', () => {
		const [outcome] = notProcessedOutcomes
			.call(context, [payment(0)], KEY, transportError('validation', 400, { refused: true }))
			.map(failed);
		expect(outcome.status).toBe('rejected');
		expect(outcome.error.message).toBe('Bank answered 400');
		expect(outcome.error.description).toBe(
			'What the bank said. The bank refused the request, so nothing was paid (idempotency key key-1).',
		);
	});

	it.each<[string, unknown, string]>([
		[
			'an error of the node before sending (no token)',
			new NodeOperationError(NODE, 'No token'),
			'No token',
		],
		['an error that is not an n8n error', new Error('bad URL'), 'bad URL'],
		// a NodeApiError not from the transport carries no refusal: it proves no refusal
		[
			"a NodeApiError without the transport's facts",
			new NodeApiError(NODE, { message: 'x' }, { message: 'Odd' }),
			'Odd',
		],
		[
			'a transport error that is not a refusal',
			transportError('other', undefined, {}),
			'Bank answered nothing',
		],
	])('%s: not sent, never "rejected"', (_case, error, message) => {
		const [outcome] = notProcessedOutcomes.call(context, [payment(0)], KEY, error).map(failed);
		expect(outcome.status).toBe('not_sent');
		expect(outcome.error.message).toBe(message);
		expect(outcome.error.description).toMatch(
			/The payment was not sent \(idempotency key key-1\)\.$/,
		);
	});
});

describe('keyConflictOutcomes: a key sent with one body only', () => {
	it.each<['otherBody' | 'otherKey', boolean, 'unknown' | 'not_sent', RegExp, RegExp]>([
		[
			'otherBody',
			false,
			'not_sent',
			/^Idempotency key key-1 was already used in this execution/,
			/^Nothing was paid for this item\./,
		],
		[
			'otherBody',
			true,
			'unknown',
			/^Idempotency key key-1 was already used in this execution/,
			/^The earlier request may have been processed/,
		],
		[
			'otherKey',
			false,
			'not_sent',
			/^This payment was already sent in this execution under another idempotency key: it was not sent again under key-1$/,
			/^Nothing was paid/,
		],
		[
			'otherKey',
			true,
			'unknown',
			/under another idempotency key/,
			/may already be paid in its earlier form: check the account/,
		],
	])(
		'%s, earlier request may have been made: %s → %s',
		(conflict, earlier, status, message, description) => {
			const outcomes = keyConflictOutcomes
				.call(context, [payment(3)], KEY, conflict, earlier)
				.map(failed);
			expect(outcomes).toHaveLength(1);
			expect(outcomes[0].status).toBe(status);
			expect(outcomes[0].error.message).toMatch(message);
			expect(outcomes[0].error.description).toMatch(description);
			// the error is the item's, so n8n shows which item it is
			expect((outcomes[0].error as NodeOperationError).context.itemIndex).toBe(3);
			expect(outcomes[0].candidates).toEqual(earlier ? [] : undefined);
		},
	);

	it('names a custom key as the user gave it', () => {
		const custom: IdempotencyKey = {
			key: 'uuid-of-it',
			source: 'custom',
			customKey: 'invoice-7',
		} as IdempotencyKey;
		const [outcome] = keyConflictOutcomes
			.call(context, [payment(0)], custom, 'otherBody', false)
			.map(failed);
		expect(outcome.error.message).toMatch(/^Custom Idempotency Key "invoice-7" was already used/);
	});
});

describe('unknownOutcomes: payments that may have been made are not sent again', () => {
	const failure = 'The bank did not answer.';

	it.each<[string, LookUpMiss, RegExp, string[]]>([
		[
			'nothing found',
			{ candidates: [] },
			/No payment of 12\.5 to payee payee-1 with this reference was found among the approvals and transactions of account acc-1\./,
			[],
		],
		[
			'records that match but cannot be told apart',
			{ candidates: ['tx-1', 'tx-2'] },
			/2 payment\(s\) of account acc-1 match reference, amount and payee \(tx-1, tx-2\), but none can be shown to be this one/,
			['tx-1', 'tx-2'],
		],
		[
			'the look-up failed',
			{ lookupFailed: 'approvals unavailable' },
			/Looking the payment up failed too: approvals unavailable/,
			[],
		],
	])('%s', (_case, miss, searched, candidates) => {
		const [outcome] = unknownOutcomes
			.call(context, [payment(2, 'INV-X')], KEY, failure, () => miss)
			.map(failed);
		expect(outcome.status).toBe('unknown');
		expect(outcome.candidates).toEqual(candidates);
		expect(outcome.error.message).toBe(
			'Payment state unknown — not resubmitted (reference "INV-X", idempotency key key-1)',
		);
		expect(outcome.error.description).toMatch(/^The bank did not answer\. /);
		expect(outcome.error.description).toMatch(searched);
		expect(outcome.error.description).toMatch(/It was not sent again\. Check the account/);
		expect((outcome.error as NodeOperationError).context.itemIndex).toBe(2);
	});

	it('asks the look-up of each payment', () => {
		const asked: number[] = [];
		const outcomes = unknownOutcomes
			.call(context, PAYMENTS, KEY, failure, (paid) => {
				asked.push(paid.itemIndex);
				return { candidates: paid.itemIndex === 1 ? ['tx-9'] : [] };
			})
			.map(failed);
		expect(asked).toEqual([0, 1]);
		expect(outcomes.map((outcome) => outcome.candidates)).toEqual([[], ['tx-9']]);
	});
});

describe('uncheckedOutcomes: Skip Payments Already Made could not read the account', () => {
	it.each<[string, unknown, string]>([
		[
			'a transport error',
			transportError('serverError', 503, { outcomeUnknown: false }),
			'Bank answered 503',
		],
		['any other error', new Error('token service down'), 'token service down'],
	])('%s: not sent, each payment under its own key', (_case, error, message) => {
		const keyOf = (paid: Payment): IdempotencyKey =>
			({ key: `key-of-${paid.itemIndex}`, source: 'details' }) as IdempotencyKey;
		const outcomes = uncheckedOutcomes.call(context, PAYMENTS, keyOf, error).map(failed);
		expect(outcomes.map((outcome) => [outcome.status, outcome.key.key])).toEqual([
			['not_sent', 'key-of-0'],
			['not_sent', 'key-of-1'],
		]);
		expect(outcomes[0].error.message).toBe(message);
		expect(outcomes[0].error.description).toMatch(
			/Nothing was sent: the account could not be checked for payments already made \(Skip Payments Already Made\)\.$/,
		);
	});
});

/**
 * Reading the action node's shared parameters with a fake context: IDs checked before any request,
 * options only from the values the form offers (never an inherited member), booleans only true or
 * false, list options and scope.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	getAccountId,
	getBoolean,
	getListOptions,
	getOption,
	getPayeeId,
	getScope,
	requireUuid,
} from '../../../../nodes/CustomerBanking/actions/parameters';

const ACCOUNT = '7b0e3c1d-2f4a-4b6c-8d9e-0a1b2c3d4e5f';

/** A context whose parameters are `parameters` (a resource locator's value as extractValue gives it). */
function contextWith(parameters: Record<string, unknown>): IExecuteFunctions {
	return {
		getNode: () => ({ name: 'Customer Banking' }),
		getNodeParameter: (name: string, _itemIndex: number, fallback: unknown) =>
			name in parameters ? parameters[name] : fallback,
	} as unknown as IExecuteFunctions;
}

const thrown = (read: () => unknown): NodeOperationError => {
	try {
		read();
	} catch (error) {
		return error as NodeOperationError;
	}
	throw new Error('expected it to throw');
};

describe('IDs', () => {
	it('an account ID is a UUID, trimmed', () => {
		expect(getAccountId.call(contextWith({ account: ` ${ACCOUNT} ` }), 0)).toBe(ACCOUNT);
	});

	it.each<[string, unknown]>([
		['empty', ''],
		['not a UUID', 'acc-1'],
		['a path', `../${ACCOUNT}`],
		['a number', 42],
	])('an account ID %s is refused naming the field and item', (_case, value) => {
		const error = thrown(() => getAccountId.call(contextWith({ account: value }), 2));
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(/Account/);
		expect(error.context.itemIndex).toBe(2);
	});

	it('a payee ID is any text, but not empty or a dot segment', () => {
		expect(getPayeeId.call(contextWith({ payee: 'payee-1' }), 0)).toBe('payee-1');
		expect(() => getPayeeId.call(contextWith({ payee: '' }), 0)).toThrow(/Payee/);
		expect(() => getPayeeId.call(contextWith({ payee: '..' }), 0)).toThrow(/Payee/);
	});

	it('requireUuid names the field it checks', () => {
		expect(requireUuid.call(contextWith({}), ACCOUNT, 'Transaction ID', 0)).toBe(ACCOUNT);
		expect(() => requireUuid.call(contextWith({}), 'tx-1', 'Transaction ID', 0)).toThrow(
			/Transaction ID/,
		);
	});
});

describe('getOption', () => {
	const read = (value: unknown) =>
		getOption.call(contextWith({ mode: value }), 'mode', 1, 'a', ['a', 'b'] as const, 'Mode');

	it('one of the values offered', () => {
		expect(read('b')).toBe('b');
		expect(getOption.call(contextWith({}), 'mode', 0, 'a', ['a', 'b'] as const, 'Mode')).toBe('a');
	});

	it.each<[unknown, string]>([
		['c', 'Got "c". Nothing was sent.'],
		['constructor', 'Got "constructor". Nothing was sent.'],
		['__proto__', 'Got "__proto__". Nothing was sent.'],
		[1, 'Got a number. Nothing was sent.'],
	])('%j is refused', (value, description) => {
		const error = thrown(() => read(value));
		expect(error.message).toBe('Mode: must be one of a, b (item 1)');
		expect(error.description).toBe(description);
	});
});

describe('getBoolean and getListOptions', () => {
	it.each<[unknown, boolean | undefined]>([
		[true, true],
		[false, false],
		['true', undefined],
		['false', undefined],
		[1, undefined],
	])('getBoolean(%j)', (value, expected) => {
		const read = () => getBoolean.call(contextWith({ flag: value }), 'flag', 0, false, 'Flag');
		if (expected === undefined) expect(read).toThrow('Flag: must be true or false (item 0)');
		else expect(read()).toBe(expected);
	});

	it('Return All reads everything; otherwise the limit (50 by default)', () => {
		expect(getListOptions.call(contextWith({ returnAll: true, limit: 5 }), 0)).toEqual({
			returnAll: true,
			ifShrinking: 'warn',
		});
		expect(getListOptions.call(contextWith({}), 0)).toEqual({
			returnAll: false,
			limit: 50,
			ifShrinking: 'warn',
		});
		expect(() => getListOptions.call(contextWith({ returnAll: 'yes' }), 0)).toThrow(/Return All/);
	});
});

describe('getScope', () => {
	it('every account by default; one account with its ID checked', () => {
		expect(getScope.call(contextWith({}), 0)).toEqual({});
		expect(getScope.call(contextWith({ scope: 'account', account: ACCOUNT }), 0)).toEqual({
			xaid: ACCOUNT,
		});
		expect(() => getScope.call(contextWith({ scope: 'account', account: 'x' }), 0)).toThrow(
			/Account/,
		);
		expect(() => getScope.call(contextWith({ scope: 'toString' }), 0)).toThrow(/Scope/);
	});
});

/**
 * What the network and the bank's auth server do to requests: injected faults (faults.ts), the log
 * of what arrived, tokens ended early.
 */
import { badRequest } from './errors';
import {
	answersOk,
	copy,
	type ControlContext,
	field,
	ok,
	type ResourceControls,
} from './controlKit';
import type { FaultRule } from './faults';

type Names = 'setFaults' | 'clearFaults' | 'requests' | 'clearRequests' | 'revokeTokens';

/** JSON cannot carry a RegExp: over HTTP a rule may give `pathPattern` (a RegExp source) instead. */
function faultRules(body: unknown): FaultRule[] {
	const rules = field(body, 'rules') ?? body;
	if (!Array.isArray(rules))
		throw badRequest('body must be an array of fault rules or { rules: [...] }');
	return rules.map((rule: FaultRule & { pathPattern?: string }) => {
		const { pathPattern, ...rest } = rule;
		return pathPattern === undefined ? rest : { ...rest, path: new RegExp(pathPattern) };
	});
}

export function faultControls({ deps }: ControlContext): ResourceControls<Names> {
	const operations: ResourceControls<Names>['operations'] = {
		setFaults: (rules) => deps.faults.set(rules),
		clearFaults: () => deps.faults.clear(),
		requests: () => copy(deps.requestLog),
		clearRequests: () => {
			deps.requestLog.length = 0;
		},
		revokeTokens: () => deps.tokens.revokeAll(),
	};

	return {
		operations,
		routes: [
			{ method: 'GET', path: '/requests', handle: () => ok(operations.requests()) },
			{ method: 'DELETE', path: '/requests', handle: answersOk(() => operations.clearRequests()) },
			{
				method: 'PUT',
				path: '/faults',
				handle: answersOk(({ body }) => operations.setFaults(faultRules(body))),
			},
			{ method: 'DELETE', path: '/faults', handle: answersOk(() => operations.clearFaults()) },
			{
				method: 'POST',
				path: '/tokens/revoke',
				handle: answersOk(() => operations.revokeTokens()),
			},
		],
	};
}

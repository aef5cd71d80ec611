import { SeededRandom } from './random';

/**
 * A rule that makes matching requests fail in one precise way (issue 2 item 11).
 * - status: answer `status` (e.g. 500, or 429 with `retryAfterSeconds`) without running the route,
 *   after `latencyMs` when given
 * - latency: wait `latencyMs`, then run the route normally
 * - reset: destroy the socket without an answer, nothing is processed
 * - commitThenDrop: run the route (commit), then destroy the socket instead of answering
 * - hang: keep the connection open and never answer, nothing processed (a bank that stopped)
 * - commitThenHang: run the route (commit), then keep the connection open and never answer
 * - expireToken: end the presented token now, so the request gets 401 "token expired" early
 * - redirect: answer `status` (301, 302, 303, 307 or 308; 302 by default) with `Location: location`
 *   without running the route, as a gateway or a compromised host might
 */
export interface FaultRule {
	method?: string;
	/** A string matches the path relative to {base_url}/{auth_url} (`/payments`, `/oauth/token`)
	 *  or the route template (`/account/{xaid}/balance`); a RegExp is tested on the relative path. */
	path?: string | RegExp;
	kind:
		| 'status'
		| 'latency'
		| 'reset'
		| 'commitThenDrop'
		| 'hang'
		| 'commitThenHang'
		| 'expireToken'
		| 'redirect';
	status?: number;
	retryAfterSeconds?: number;
	latencyMs?: number;
	/** Where a redirect fault points (an absolute URL, sent as it is in the Location header). */
	location?: string;
	/** How many requests this rule hits; unlimited when absent. */
	times?: number;
	/** How many matching requests go through untouched before the rule starts hitting (default 0). */
	after?: number;
	/** 0-1; drawn from the seeded generator, so runs repeat exactly. */
	probability?: number;
}

interface ActiveRule {
	rule: FaultRule;
	hits: number;
	/** Matching requests let through because of `after`. */
	passed: number;
}

export class Faults {
	private rules: ActiveRule[] = [];
	private random: SeededRandom;

	constructor(private readonly seed: number) {
		this.random = new SeededRandom(seed);
	}

	set(rules: FaultRule[]): void {
		this.rules = rules.map((rule) => ({ rule: validate(rule), hits: 0, passed: 0 }));
		this.random = new SeededRandom(this.seed);
	}

	clear(): void {
		this.set([]);
	}

	/** The first rule with hits left that matches this request; counts the hit. */
	match(method: string, relativePath: string, template: string | undefined): FaultRule | undefined {
		for (const active of this.rules) {
			const { rule } = active;
			if (rule.times !== undefined && active.hits >= rule.times) continue;
			if (rule.method && rule.method.toUpperCase() !== method) continue;
			if (rule.path !== undefined && !pathMatches(rule.path, relativePath, template)) continue;
			if (active.passed < (rule.after ?? 0)) {
				active.passed += 1;
				continue;
			}
			if (rule.probability !== undefined && this.random.next() >= rule.probability) continue;
			active.hits += 1;
			return rule;
		}
		return undefined;
	}
}

function pathMatches(
	path: string | RegExp,
	relativePath: string,
	template: string | undefined,
): boolean {
	return typeof path === 'string'
		? path === relativePath || path === template
		: path.test(relativePath);
}

function validate(rule: FaultRule): FaultRule {
	const kinds = [
		'status',
		'latency',
		'reset',
		'commitThenDrop',
		'hang',
		'commitThenHang',
		'expireToken',
		'redirect',
	];
	if (!kinds.includes(rule.kind))
		throw new RangeError(`fault kind must be one of ${kinds.join(', ')}`);
	const status = rule.status ?? 0;
	if (rule.kind === 'status' && !(Number.isInteger(status) && status >= 400 && status <= 599)) {
		throw new RangeError('a status fault needs status 400-599');
	}
	if (rule.kind === 'latency' && !(typeof rule.latencyMs === 'number' && rule.latencyMs >= 0)) {
		throw new RangeError('a latency fault needs latencyMs >= 0');
	}
	if (rule.kind === 'redirect') {
		if (!REDIRECT_STATUSES.includes(rule.status ?? 302)) {
			throw new RangeError(`a redirect fault needs status ${REDIRECT_STATUSES.join(', ')}`);
		}
		if (typeof rule.location !== 'string' || rule.location === '')
			throw new RangeError('a redirect fault needs a location');
	}
	return rule;
}

const REDIRECT_STATUSES = [301, 302, 303, 307, 308];

import { requestTimeLimitMsOf } from '../../../../nodes/shared/transport/credentialRules';

describe('requestTimeLimitMsOf', () => {
	it.each([
		[undefined, 30_000],
		['', 30_000],
		[0, 30_000],
		[0.5, 30_000],
		[1, 1_000],
		[45, 45_000],
		['90', 90_000],
		[600, 600_000],
		[601, 30_000],
		[Number.NaN, 30_000],
		['soon', 30_000],
	])('%p seconds in the credential → %p ms', (setting, expected) => {
		expect(requestTimeLimitMsOf({ requestTimeLimit: setting } as never)).toBe(expected);
	});
});

import { checkId } from '../../../../nodes/shared/validation/ids';

const UUID = '3f1c2a9e-6d1b-4c8e-9a57-0c1d2e3f4a5b';

describe('IDs (validation/ids.ts)', () => {
	it.each([
		[undefined, 'uuid', 'is required'],
		['  ', 'text', 'is required'],
		[5, 'text', 'must be text'],
		[{ id: 'x' }, 'text', 'must be text'],
		['\uD800', 'text', 'contains characters that are not valid text'],
		['pye\n1', 'text', 'must not contain control characters (such as line breaks or tabs)'],
		['..', 'text', 'must not be "." or ".."'],
		['.', 'text', 'must not be "." or ".."'],
		['../payments', 'uuid', 'must be a UUID'],
	] as const)('%j (%s): %s', (value, format, rule) => {
		expect(checkId(value, format)).toEqual({ valid: false, rule, description: expect.any(String) });
	});

	it('a payee ID is any other text (the spec types it as a string), trimmed; path characters are left to encoding', () => {
		expect(checkId(' pye_8f2k1q ', 'text')).toEqual({ valid: true, id: 'pye_8f2k1q' });
		expect(checkId('a/b?x=1#', 'text')).toEqual({ valid: true, id: 'a/b?x=1#' });
		expect(checkId(UUID, 'uuid')).toEqual({ valid: true, id: UUID });
	});
});

/**
 * Scenario 1 (both n8n lines): the packed package loads in a real n8n, and n8n's own credential
 * test (what the editor's "Test" / "Save" runs) passes with the sandbox's client and fails with a
 * clear message, never echoing the secret, when the client secret is wrong.
 */
import { selectedVersions } from './lib/config';
import { createCredential, credentialData, PACKAGE, type Stack, startStack } from './lib/stack';

interface CredentialTestAnswer {
	data: { status: 'OK' | 'Error'; message: string };
}

describe.each(selectedVersions())('n8n %s: package and credential', (version) => {
	let stack: Stack;

	beforeAll(async () => {
		stack = await startStack(version);
	});

	afterAll(async () => {
		await stack?.stop();
	});

	async function testCredential(name: string, data: Record<string, string>) {
		const { n8n } = stack;
		const credential = await createCredential(n8n, name, data);
		// the editor sends the credential it shows (id + data) to POST /rest/credentials/test
		return await n8n.restOk<CredentialTestAnswer>('POST', '/credentials/test', {
			credentials: { id: credential.id, name: credential.name, type: credential.type, data },
		});
	}

	it('registers both nodes of the installed tarball and the credential type', async () => {
		const { n8n } = stack;
		const nodes = await n8n.http<
			Array<{ name: string; displayName: string; credentials?: Array<{ name: string }> }>
		>('GET', '/types/nodes.json', {
			headers: { cookie: n8n.cookie },
		});
		expect(nodes.status).toBe(200);
		const ours = nodes.body.filter((node) => node.name.startsWith(`${PACKAGE}.`));
		expect(ours.map((node) => node.name)).toEqual(
			expect.arrayContaining([`${PACKAGE}.customerBanking`, `${PACKAGE}.customerBankingTrigger`]),
		);
		const action = ours.find((node) => node.name === `${PACKAGE}.customerBanking`);
		expect(action?.displayName).toBe('Customer Banking');
		expect(action?.credentials?.map((c) => c.name)).toEqual(['customerBankingApi']);

		const credentials = await n8n.http<Array<{ name: string; displayName: string }>>(
			'GET',
			'/types/credentials.json',
			{
				headers: { cookie: n8n.cookie },
			},
		);
		expect(credentials.body.find((c) => c.name === 'customerBankingApi')?.displayName).toBe(
			'Customer Banking API',
		);
	});

	it("passes n8n's credential test with the sandbox client, one token exchange then GET /accounts", async () => {
		const { sandbox } = stack;
		sandbox.control.clearRequests();
		const answer = await testCredential('Sandbox (full)', credentialData(sandbox));
		expect(answer.data).toEqual({ status: 'OK', message: expect.any(String) });

		const seen = sandbox.control.requests().map((r) => `${r.method} ${r.path} ${r.status}`);
		expect(seen).toEqual(['POST /oauth/token 200', 'GET /accounts 200']);
	});

	it('fails the credential test with a wrong client secret, naming the fields and hiding the secret', async () => {
		const { sandbox } = stack;
		sandbox.control.clearRequests();
		const wrongSecret = 'cs_wrong_e2e_secret_value_1234';
		const answer = await testCredential(
			'Sandbox (wrong secret)',
			credentialData(sandbox, 'full', { clientSecret: wrongSecret }),
		);

		expect(answer.data.status).toBe('Error');
		expect(answer.data.message).toMatch(/Client ID or Client Secret/);
		expect(JSON.stringify(answer)).not.toContain(wrongSecret);
		// the token exchange was refused, so no API request followed
		expect(sandbox.control.requests().map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			'POST /oauth/token 401',
		]);
	});

	it('fails the credential test with a clear message when the Token URL leads nowhere', async () => {
		const { sandbox } = stack;
		const answer = await testCredential(
			'Sandbox (wrong token URL)',
			credentialData(sandbox, 'full', { tokenUrl: `${sandbox.baseUrl}/nowhere` }),
		);
		expect(answer.data.status).toBe('Error');
		expect(answer.data.message).toMatch(/Token URL/);
	});
});

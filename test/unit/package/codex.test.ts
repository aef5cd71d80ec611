/**
 * The codex files (nodes/<Node>/<Node>.node.json) n8n reads for the node panel: the search words
 * (alias) a newcomer types, and the version that matches what n8n gives a new node.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeTypeDescription } from 'n8n-workflow';

import { CustomerBanking } from '../../../nodes/CustomerBanking/CustomerBanking.node';
import { CustomerBankingApprovalTrigger } from '../../../nodes/CustomerBankingApprovalTrigger/CustomerBankingApprovalTrigger.node';
import { CustomerBankingTrigger } from '../../../nodes/CustomerBankingTrigger/CustomerBankingTrigger.node';

const nodes: Array<[string, INodeTypeDescription]> = [
	['CustomerBanking', new CustomerBanking().description],
	['CustomerBankingTrigger', new CustomerBankingTrigger().description],
	['CustomerBankingApprovalTrigger', new CustomerBankingApprovalTrigger().description],
];

const codexOf = (folder: string) =>
	JSON.parse(
		readFileSync(join(__dirname, '..', '..', '..', 'nodes', folder, `${folder}.node.json`), 'utf8'),
	) as {
		node: string;
		nodeVersion: string;
		alias?: string[];
	};

describe.each(nodes)('%s.node.json', (folder, description) => {
	const codex = codexOf(folder);

	it('names the node', () => {
		expect(codex.node).toBe(`n8n-nodes-customer-banking.${description.name}`);
	});

	it('has the version n8n gives a new node', () => {
		const version = description.defaultVersion ?? Math.max(...[description.version].flat());
		expect(codex.nodeVersion).toBe(version.toFixed(1));
	});

	it('is found by the words people search for a bank', () => {
		expect(codex.alias).toEqual(expect.arrayContaining(['bank', 'banking', 'payment', 'transfer']));
		expect(new Set(codex.alias).size).toBe(codex.alias?.length);
	});
});

it('the approval trigger is found by "approval", the webhook trigger by "webhook"', () => {
	expect(codexOf('CustomerBankingApprovalTrigger').alias).toContain('approval');
	expect(codexOf('CustomerBankingTrigger').alias).toContain('webhook');
	expect(codexOf('CustomerBanking').alias).toEqual(expect.arrayContaining(['payee', 'approval']));
});

// `npm run lint` runs this config over the whole repository, then `n8n-node lint` with n8n's default
// config over the published sources alone (scripts/lint-published.mjs). This config holds the same
// plugins for nodes/, credentials/ and package.json, and lints the tests too, which n8n's config would
// reject wholesale (they use node:http, timers and literal test secrets by design).
// `linterOptions.noInlineConfig` on shipped code mirrors n8n's scanner, which ignores inline disables.
import eslint from '@eslint/js';
import { globalIgnores } from 'eslint/config';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesPlugin from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

// Layering: a node folder imports only itself and nodes/shared; nodes/shared and the credential import
// no node folder. (docs/architecture.md; test/unit/package/layering.test.ts plants each violation.)
const NODE_FOLDERS = [
	'CustomerBanking',
	'CustomerBankingTrigger',
	'CustomerBankingApprovalTrigger',
];
const importsFrom = (folders) => ({
	'no-restricted-imports': [
		'error',
		{
			patterns: folders.map((folder) => ({
				regex: `(^|/)(nodes/)?${folder}(/|$)`,
				message: `Import from nodes/shared, not from the ${folder} node's folder: node folders never import each other.`,
			})),
		},
	],
});
const layering = [
	...NODE_FOLDERS.map((folder) => ({
		files: [`nodes/${folder}/**/*.ts`],
		rules: importsFrom(NODE_FOLDERS.filter((other) => other !== folder)),
	})),
	{ files: ['nodes/shared/**/*.ts', 'credentials/**/*.ts'], rules: importsFrom(NODE_FOLDERS) },
];

export default tseslint.config(
	globalIgnores(['dist', 'node_modules', 'coverage', '.e2e', 'artifacts', 'test/e2e/.cache']),
	{
		files: ['**/*.ts'],
		extends: [eslint.configs.recommended, tseslint.configs.recommended],
		rules: { 'prefer-spread': 'off' },
	},
	{
		files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
		languageOptions: {
			globals: {
				require: 'readonly',
				module: 'writable',
				process: 'readonly',
				console: 'readonly',
				__dirname: 'readonly',
			},
		},
	},
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'],
		extends: [n8nCommunityNodesPlugin.configs.recommended],
		linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' },
	},
	{ plugins: { 'n8n-nodes-base': n8nNodesPlugin } },
	{
		files: ['package.json'],
		rules: { ...n8nNodesPlugin.configs.community.rules },
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: { extraFileExtensions: ['.json'] },
		},
	},
	{
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesPlugin.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesPlugin.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	...layering,
);

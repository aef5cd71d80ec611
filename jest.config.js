/** Unit and integration suites; the real-n8n suites have their own config (test/e2e). */
module.exports = {
	testEnvironment: 'node',
	reporters: ['default', '<rootDir>/test/jestTotalsReporter.js'],
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { isolatedModules: true, tsconfig: 'tsconfig.json' }],
	},
	testTimeout: 30000,
};

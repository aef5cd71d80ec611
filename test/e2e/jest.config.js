/**
 * Real-n8n end-to-end suites (`npm run test:e2e`, run with --runInBand). globalSetup installs the
 * pinned n8n releases into the cache outside the repo (minutes the first time, seconds after) and
 * packs the package once; each suite starts its own sandbox and n8n and stops them in afterAll.
 */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	reporters: ['default', '<rootDir>/test/jestTotalsReporter.js'],
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.test.ts'],
	globalSetup: '<rootDir>/test/e2e/globalSetup.ts',
	transform: {
		'^.+\\.ts$': ['ts-jest', { isolatedModules: true, tsconfig: 'tsconfig.json' }],
	},
	testTimeout: 180000,
	slowTestThreshold: 60,
};

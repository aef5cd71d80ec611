/**
 * Reliability checks (`npm run test:reliability`, part of `npm test` and CI): bounded in count and
 * time, each prints one closing line with its figures and fails on any miss.
 */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	reporters: ['default', '<rootDir>/test/jestTotalsReporter.js'],
	roots: ['<rootDir>/test/reliability'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { isolatedModules: true, tsconfig: 'tsconfig.json' }],
	},
	testTimeout: 300000,
};

/**
 * Reliability checks (`npm run test:reliability`, part of `npm test` and CI): bounded in count and
 * time, each prints one closing line with its figures and fails on any miss.
 */
const { availableParallelism } = require('os');

module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	reporters: ['default', '<rootDir>/test/jestTotalsReporter.js'],
	roots: ['<rootDir>/test/reliability'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { isolatedModules: true, tsconfig: 'tsconfig.json' }],
	},
	// jest's default (one core fewer than the machine has) is one worker on a 2-core machine, where two
	// finish the suites in little more than half the time
	maxWorkers: Math.max(2, availableParallelism() - 1),
	testTimeout: 300000,
};

/** Unit and integration suites; the reliability checks and the real-n8n suites have their own configs. */
const { availableParallelism } = require('os');

module.exports = {
	testEnvironment: 'node',
	reporters: ['default', '<rootDir>/test/jestTotalsReporter.js'],
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/', '/test/reliability/', '/test/queue/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { isolatedModules: true, tsconfig: 'tsconfig.json' }],
	},
	// jest's default (one core fewer than the machine has) is one worker on a 2-core machine, where two
	// finish the suites in little more than half the time
	maxWorkers: Math.max(2, availableParallelism() - 1),
	testTimeout: 30000,
};

/**
 * The queue-mode suite (`npm run test:queue`, run with --runInBand): n8n 2.41.1 as main, workers and
 * two webhook processes behind nginx, on Postgres and Redis. globalSetup installs what is missing
 * (Debian's Postgres, Redis and nginx with apt-get, the pinned n8n into the e2e cache) and packs the
 * package once.
 */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	reporters: ['default', '<rootDir>/test/jestTotalsReporter.js'],
	roots: ['<rootDir>/test/queue'],
	testMatch: ['**/*.queue.test.ts'],
	globalSetup: '<rootDir>/test/queue/globalSetup.ts',
	transform: {
		'^.+\\.ts$': ['ts-jest', { isolatedModules: true, tsconfig: 'tsconfig.json' }],
	},
	testTimeout: 300000,
	slowTestThreshold: 60,
};

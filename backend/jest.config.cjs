const { availableParallelism } = require('node:os');
const { esm, contractsSource } = require('../jest.preset.cjs');

/** Unit specs sit beside the code in src/; API tests in test/ run against one real PostgreSQL per run. */
module.exports = {
  ...esm,
  displayName: 'backend',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  moduleNameMapper: { ...contractsSource, ...esm.moduleNameMapper },
  // @nestjs/throttler (CommonJS) requires Nest 12 (ESM only): see test/support/require-esm-transform.cjs.
  transform: {
    ...esm.transform,
    '/node_modules/@nestjs/(common|core)/.+\\.js$': '<rootDir>/test/support/require-esm-transform.cjs',
  },
  transformIgnorePatterns: ['/node_modules/(?!@nestjs/(common|core)/)'],
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  testTimeout: 30_000,
  // Jest's default is a worker less than the cores: one on a 2-core machine. The API test files spend most
  // of their time waiting on PostgreSQL, Redis and child processes, so two share two cores well (the suite:
  // 285 s with one worker in CI, 131 s with two here).
  maxWorkers: Math.max(2, availableParallelism() - 1),
};

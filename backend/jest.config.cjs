const { esm, contractsSource } = require('../jest.preset.cjs');

/** Unit specs sit beside the code in src/; API tests in test/ run against one real PostgreSQL per run. */
module.exports = {
  ...esm,
  displayName: 'backend',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  moduleNameMapper: { ...contractsSource, ...esm.moduleNameMapper },
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  testTimeout: 30_000,
};

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
};

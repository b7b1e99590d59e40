const { esm } = require('../../jest.preset.cjs');

/**
 * Unit specs beside the code in src/; test/ runs the built binary (dist/termpaste.js: build first) against
 * the real app on one real PostgreSQL per run, started as the backend's API tests start theirs.
 */
module.exports = {
  ...esm,
  displayName: 'cli',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  moduleNameMapper: {
    '^@termpaste/contracts$': '<rootDir>/../../contracts/src/index.ts',
    ...esm.moduleNameMapper,
  },
  // As the backend's jest.config.cjs: @nestjs/throttler (CommonJS) requires Nest 12 (ESM only).
  transform: {
    ...esm.transform,
    '/node_modules/@nestjs/(common|core)/.+\\.js$':
      '<rootDir>/../../backend/test/support/require-esm-transform.cjs',
  },
  transformIgnorePatterns: ['/node_modules/(?!@nestjs/(common|core)/)'],
  globalSetup: '<rootDir>/../../backend/test/global-setup.mjs',
  globalTeardown: '<rootDir>/../../backend/test/global-teardown.mjs',
  testTimeout: 60_000,
};

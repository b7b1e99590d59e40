// Shared jest settings: TypeScript through SWC (fast, no type-check; `tsc` checks types in build/lint).
const swc = (module, { jsx = false } = {}) => [
  '@swc/jest',
  {
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', tsx: jsx, decorators: true },
      transform: {
        legacyDecorator: true,
        decoratorMetadata: true,
        ...(jsx ? { react: { runtime: 'automatic' } } : {}),
      },
      keepClassNames: true,
    },
    module: { type: module },
  },
];

// Source imports carry `.js` (NodeNext); jest resolves them to the `.ts` beside.
const stripJs = { '^(\\.{1,2}/.*)\\.js$': '$1' };
/** The backend (ESM) tests read contracts from source, so a change needs no rebuild. */
const contractsSource = { '^@termpaste/contracts$': '<rootDir>/../contracts/src/index.ts' };

/** Node code that runs as native ESM (the backend: NestJS 12 ships ESM only). */
const esm = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc('es6') },
  moduleNameMapper: { ...stripJs },
};

/** Code that jest runs as CommonJS (contracts, the React frontends). */
const cjs = ({ jsx = false, rootDepth = '..' } = {}) => ({
  testEnvironment: jsx ? 'jsdom' : 'node',
  transform: { '^.+\\.(t|j)sx?$': swc('commonjs', { jsx }) },
  transformIgnorePatterns: ['/node_modules/'],
  moduleNameMapper: {
    ...stripJs,
    '^@termpaste/contracts$': `<rootDir>/${rootDepth}/contracts/src/index.ts`,
    '^@termpaste/contracts/testing$': `<rootDir>/${rootDepth}/contracts/src/testing.ts`,
    '^@termpaste/ui$': `<rootDir>/${rootDepth}/frontends/ui/src/index.ts`,
    '\\.css$': '<rootDir>/' + rootDepth + '/jest.style-stub.cjs',
  },
});

module.exports = { swc, esm, cjs, contractsSource };

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

/**
 * Packages installed as ESM only ("type": "module": react-markdown and the unified family): jest's
 * CommonJS mode must transform them like our own code. Read from node_modules (nested ones too), so no
 * list goes stale.
 */
function esmOnlyPackages() {
  const fs = require('node:fs');
  const path = require('node:path');
  const names = new Set();
  const scan = (modules, depth) => {
    let entries;
    try {
      entries = fs.readdirSync(modules);
    } catch {
      return;
    }
    for (const entry of entries) {
      const scoped = entry.startsWith('@');
      const packages = scoped
        ? fs.readdirSync(path.join(modules, entry)).map((n) => `${entry}/${n}`)
        : [entry];
      for (const name of packages) {
        const dir = path.join(modules, name);
        try {
          const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
          if (pkg.type === 'module' && !name.startsWith('@termpaste/')) names.add(name);
        } catch {
          continue; // not a package folder (.bin, a broken link)
        }
        if (depth < 2) scan(path.join(dir, 'node_modules'), depth + 1);
      }
    }
  };
  scan(path.join(__dirname, 'node_modules'), 0);
  return [...names].map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
}

/** Code that jest runs as CommonJS (contracts, the React frontends). */
const cjs = ({ jsx = false, rootDepth = '..' } = {}) => ({
  testEnvironment: jsx ? 'jsdom' : 'node',
  transform: { '^.+\\.(t|j)sx?$': swc('commonjs', { jsx }) },
  // Ignored: a file whose innermost package under node_modules is not ESM only.
  transformIgnorePatterns: [
    `/node_modules/(?!(?:${esmOnlyPackages().join('|')})/)(?:@[^/]+/)?[^/]+/(?!.*/node_modules/)`,
  ],
  moduleNameMapper: {
    ...stripJs,
    '^@termpaste/contracts$': `<rootDir>/${rootDepth}/contracts/src/index.ts`,
    // The files the browser shares apart from the rest (ui/src/shared/contracts-<file>.ts).
    '^@termpaste/contracts/(sso|settings|tokens|account|admin|permissions|revisions|reputation|own-posts|moderation)$': `<rootDir>/${rootDepth}/contracts/src/$1.ts`,
    '^@termpaste/contracts/testing$': `<rootDir>/${rootDepth}/contracts/src/testing.ts`,
    '^@termpaste/ui$': `<rootDir>/${rootDepth}/frontends/ui/src/index.ts`,
    // From source too, so its renderScreen, toasts and query client are the ones the screens use.
    '^@termpaste/ui/testing$': `<rootDir>/${rootDepth}/frontends/ui/src/testing/index.ts`,
    '\\.css$': '<rootDir>/' + rootDepth + '/jest.style-stub.cjs',
  },
});

module.exports = { swc, esm, cjs, contractsSource };

// node --test scripts/check-lockfile.test.mjs: the lock-file check (npm run lint runs it).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { missingFromLock } from './check-lockfile.mjs';

const lock = (packages) => ({ lockfileVersion: 3, packages });

test('an optional platform binary the lock file does not list is reported', () => {
  const missing = missingFromLock(
    lock({
      '': { devDependencies: { '@swc/core': '^1.16.0' } },
      'node_modules/@swc/core': {
        version: '1.16.22',
        optionalDependencies: { '@swc/core-linux-x64-gnu': '1.16.22', '@swc/core-darwin-arm64': '1.16.22' },
      },
      'node_modules/@swc/core-linux-x64-gnu': { version: '1.16.22', optional: true },
    }),
  );
  assert.deepEqual(missing, ['node_modules/@swc/core → @swc/core-darwin-arm64@1.16.22']);
});

test('a dependency is found in its own node_modules or any enclosing one, as npm resolves it', () => {
  const packages = {
    '': { dependencies: { a: '1' } },
    'node_modules/a': { version: '1.0.0', dependencies: { b: '2', c: '1' } },
    'node_modules/a/node_modules/b': { version: '2.0.0', dependencies: { c: '1' } },
    'node_modules/c': { version: '1.0.0' },
  };
  assert.deepEqual(missingFromLock(lock(packages)), []);
  delete packages['node_modules/c'];
  assert.deepEqual(missingFromLock(lock(packages)), [
    'node_modules/a → c@1',
    'node_modules/a/node_modules/b → c@1',
  ]);
});

test('workspace links and their own dev dependencies count; installed packages’ dev dependencies do not', () => {
  const missing = missingFromLock(
    lock({
      '': { workspaces: ['backend'] },
      backend: { version: '0.1.0', devDependencies: { jest: '^30' } },
      'node_modules/@termpaste/backend': { resolved: 'backend', link: true },
      'node_modules/left-pad': { version: '1.0.0', devDependencies: { tape: '*' } },
    }),
  );
  assert.deepEqual(missing, ['backend → jest@^30']);
});

test("the project's own lock file is complete (npm ci and the Dockerfiles need every platform)", () => {
  const own = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
  assert.deepEqual(missingFromLock(own), []);
});

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as contractsAdmin from './contracts-admin.js';
import * as contractsPermissions from './contracts-permissions.js';
import * as contractsReputation from './contracts-reputation.js';
import * as contractsRevisions from './contracts-revisions.js';
import * as contractsSettings from './contracts-settings.js';
import * as contractsSso from './contracts-sso.js';
import * as contractsTokens from './contracts-tokens.js';
import * as contractsAccount from './contracts-account.js';
import * as contractsOwnPosts from './contracts-own-posts.js';
import * as contractsModeration from './contracts-moderation.js';
import * as contractsAsciicast from './contracts-asciicast.js';
import * as contracts from './contracts.js';
import * as router from './react-router-dom.js';

const FRONTENDS = path.resolve(__dirname, '../../..');
const CONTRACTS_SRC = path.resolve(FRONTENDS, '../contracts/src');
/**
 * Contracts files no screen needs, left out of the browser's copy: the OpenAPI document (and the JSON
 * Schema code of zod it calls), the backend's parsing of query strings, and the intake of `POST
 * /api/pastes` (curl and the CLI).
 */
const SERVER_ONLY = ['openapi', 'queries', 'pastes'];
/** Contracts files the browser shares apart, each as its own singleton (contracts-<file>.ts): `@termpaste/contracts/<file>`. */
const APART = [
  'sso',
  'settings',
  'tokens',
  'account',
  'admin',
  'permissions',
  'revisions',
  'reputation',
  'own-posts',
  'moderation',
  'asciicast',
];

/**
 * The packages mf-shared.ts shares as a part only (this folder): an app that imports a name the part
 * lacks would get `undefined` in the browser, while its tests (which read the whole package) pass.
 */
const SUBSETS = [
  { name: 'react-router-dom', provided: router },
  { name: '@termpaste/contracts', provided: contracts },
  { name: '@termpaste/contracts/sso', provided: contractsSso },
  { name: '@termpaste/contracts/settings', provided: contractsSettings },
  { name: '@termpaste/contracts/tokens', provided: contractsTokens },
  { name: '@termpaste/contracts/account', provided: contractsAccount },
  { name: '@termpaste/contracts/admin', provided: contractsAdmin },
  { name: '@termpaste/contracts/permissions', provided: contractsPermissions },
  { name: '@termpaste/contracts/revisions', provided: contractsRevisions },
  { name: '@termpaste/contracts/reputation', provided: contractsReputation },
  { name: '@termpaste/contracts/own-posts', provided: contractsOwnPosts },
  { name: '@termpaste/contracts/moderation', provided: contractsModeration },
  { name: '@termpaste/contracts/asciicast', provided: contractsAsciicast },
];

/** The source files an app build bundles: every .ts/.tsx under frontends/<app>/src but specs and test helpers. */
function appSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : appSources(file);
    if (!/\.tsx?$/.test(entry.name) || /\.spec\.tsx?$/.test(entry.name) || /^testing\.tsx?$/.test(entry.name))
      return [];
    return [file];
  });
}

/** The value names a file imports from a package (`type` imports are erased by the build). */
function importedNames(source: string, packageName: string): string[] {
  const from = new RegExp(
    `import\\s+(type\\s+)?([^;]*?)\\s+from\\s+'${packageName.replace('/', '\\/')}'`,
    'g',
  );
  return [...source.matchAll(from)].flatMap(([, typeOnly, clause]) => {
    if (typeOnly) return [];
    const named = /^\{([^}]*)\}$/.exec(clause!.trim());
    // A default or namespace import would reach names nobody listed.
    if (!named) return [`<${clause!.trim()}>`];
    return named[1]!
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name && !name.startsWith('type '))
      .map((name) => name.split(/\s+as\s+/)[0]!);
  });
}

const apps = readdirSync(FRONTENDS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && readdirSync(path.join(FRONTENDS, entry.name)).includes('src'))
  .map((entry) => entry.name);

describe('the shared parts of packages', () => {
  it('are read from every app', () => {
    expect(apps).toEqual(expect.arrayContaining(['shell', 'forum', 'messaging', 'settings', 'admin', 'ui']));
  });

  describe.each(SUBSETS)('$name', ({ name, provided }) => {
    it.each(apps)(`provides every name %s imports from ${name}`, (app) => {
      const missing = appSources(path.join(FRONTENDS, app, 'src')).flatMap((file) =>
        importedNames(readFileSync(file, 'utf8'), name)
          .filter((imported) => !(imported in provided))
          .map((imported) => `${path.relative(FRONTENDS, file)}: ${imported}`),
      );
      expect(missing).toEqual([]);
    });
  });

  it('@termpaste/contracts: every file of the package index but the server-only ones', () => {
    const listed = (source: string) =>
      [...source.matchAll(/^(?:import|export \* from) '[./]+(?:contracts\/dist\/)?([\w-]+)\.js';$/gm)].map(
        ([, file]) => file,
      );
    const index = listed(readFileSync(path.join(CONTRACTS_SRC, 'index.ts'), 'utf8'));
    for (const file of SERVER_ONLY) expect(index).toContain(file);
    expect(listed(readFileSync(path.join(__dirname, 'contracts.ts'), 'utf8'))).toEqual(
      index.filter((file) => !SERVER_ONLY.includes(file) && !APART.includes(file)),
    );
    for (const file of APART) {
      expect(index).toContain(file);
      expect(listed(readFileSync(path.join(__dirname, `contracts-${file}.ts`), 'utf8'))).toEqual([file]);
    }
  });
});

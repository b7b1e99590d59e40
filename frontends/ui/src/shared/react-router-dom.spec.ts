import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as provided from './react-router-dom.js';

const FRONTENDS = path.resolve(__dirname, '../../..');

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

/** The value names a file imports from react-router-dom (`type` imports are erased by the build). */
function routerImports(source: string): string[] {
  return [...source.matchAll(/import\s+(type\s+)?([^;]*?)\s+from\s+'react-router-dom'/g)].flatMap(
    ([, typeOnly, clause]) => {
      if (typeOnly) return [];
      const named = /^\{([^}]*)\}$/.exec(clause!.trim());
      // A default or namespace import would reach names nobody listed.
      if (!named) return [`<${clause!.trim()}>`];
      return named[1]!
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name && !name.startsWith('type '))
        .map((name) => name.split(/\s+as\s+/)[0]!);
    },
  );
}

describe('the shared react-router-dom', () => {
  const apps = readdirSync(FRONTENDS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && readdirSync(path.join(FRONTENDS, entry.name)).includes('src'))
    .map((entry) => entry.name);

  it('is read from every app', () => {
    expect(apps).toEqual(expect.arrayContaining(['shell', 'forum', 'messaging', 'settings', 'admin', 'ui']));
  });

  it.each(apps)('provides every name %s imports from it', (app) => {
    const missing = appSources(path.join(FRONTENDS, app, 'src')).flatMap((file) =>
      routerImports(readFileSync(file, 'utf8'))
        .filter((name) => !(name in provided))
        .map((name) => `${path.relative(FRONTENDS, file)}: ${name}`),
    );
    expect(missing).toEqual([]);
  });
});

// Runs the install scripts package.json's allowScripts approves, and no others: the images install with
// `npm ci --ignore-scripts` and then this, because the npm in node:20 (npm 10) ignores allowScripts and
// would run every dependency's script. Usage (from the folder of package.json): node <this file>
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/**
 * The package specs allowScripts approves ("name", "name@1.2.3", "name@1 || 2"), as `npm rebuild` takes
 * them: a spec matches only installed versions it names, and one not installed is skipped.
 */
export function approvedSpecs(manifest) {
  return Object.entries(manifest.allowScripts ?? {})
    .filter(([, allowed]) => allowed === true)
    .map(([spec]) => spec);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const specs = approvedSpecs(JSON.parse(readFileSync('package.json', 'utf8')));
  // Without arguments `npm rebuild` would run every package's scripts.
  if (specs.length === 0) process.exit(0);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['rebuild', '--ignore-scripts=false', ...specs], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

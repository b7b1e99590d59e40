// `npm ci` installs exactly what package-lock.json lists, and refuses a lock file that does not list an
// optional dependency some package declares: the other platforms' native binaries (@swc/core-darwin-*,
// @nx/nx-win32-*, @rspack/binding-*...). A lock file written where the registry lacked them passes
// `npm install` here but breaks `npm ci` in CI and in every Dockerfile under deploy/. This check finds such
// gaps in the lock file itself, without a network; `npm run lint` runs it.
//
//   node scripts/check-lockfile.mjs [path/to/package-lock.json]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where npm would find `name` for the package at `from` (a lock file key such as
 * `node_modules/a/node_modules/b`): its own node_modules, then each enclosing one up to the root.
 */
function resolves(packages, from, name) {
  let base = from;
  for (;;) {
    const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[candidate]) return true;
    if (!base) return false;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut === -1 ? '' : base.slice(0, cut);
  }
}

/** Every declared dependency the lock file has no entry for, as `package → dependency@range`. */
export function missingFromLock(lock) {
  const packages = lock.packages ?? {};
  const missing = [];
  for (const [key, entry] of Object.entries(packages)) {
    if (entry.link) continue;
    const declared = {
      ...entry.dependencies,
      ...entry.optionalDependencies,
      ...(key === '' || !key.includes('node_modules/') ? entry.devDependencies : {}),
    };
    for (const [name, range] of Object.entries(declared)) {
      if (!resolves(packages, key, name)) missing.push(`${key || '(root)'} → ${name}@${range}`);
    }
  }
  return missing;
}

const invoked = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (invoked) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const file = process.argv[2] ?? join(root, 'package-lock.json');
  const missing = missingFromLock(JSON.parse(readFileSync(file, 'utf8')));
  if (missing.length > 0) {
    console.error(
      `${file} lacks ${missing.length} declared dependencies, so \`npm ci\` refuses it:\n  ` +
        missing.slice(0, 30).join('\n  ') +
        (missing.length > 30 ? `\n  ... and ${missing.length - 30} more` : '') +
        '\nRegenerate it where the registry serves every platform: rm package-lock.json && npm install',
    );
    process.exit(1);
  }
  console.log(`${file}: every declared dependency, optional ones included, is locked`);
}

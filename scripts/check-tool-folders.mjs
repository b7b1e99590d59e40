// The tool folders (bench/, reliability/, scripts/, e2e/) share code only through harness/: none imports
// another, and harness/ imports none of them, so each can change without breaking the others. Running a
// tool (spawning `node bench/run.mjs`) is fine; importing its modules is not. Scripts stay small enough to
// read whole: no file of bench/, reliability/, scripts/ or harness/ over MAX_LINES. `npm run lint` runs it.
//
//   node scripts/check-tool-folders.mjs
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TOOL_FOLDERS = ['bench', 'reliability', 'scripts', 'e2e'];
export const HARNESS = 'harness';
export const MAX_LINES = 300;
/** Folders whose files are held to MAX_LINES (e2e's specs are tests, each as long as its story). */
const SIZED = ['bench', 'reliability', 'scripts', HARNESS];
const SOURCE = /\.(mjs|cjs|js|ts|tsx)$/;
/** Output, data and dependencies: not code of the tools. */
const SKIPPED = new Set([
  'node_modules',
  'dist',
  'output',
  'results',
  '.data',
  'test-results',
  'playwright-report',
]);

function sourceFiles(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : sourceFiles(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

/**
 * The paths a module loads, relative to the checkout: static and dynamic imports, re-exports and
 * require() of relative specifiers, and root-relative strings an import builds its path from
 * (`import(pathToFileURL(join(root, 'scripts/nx.mjs')).href)`).
 */
export function importedPaths(text, file, root) {
  const paths = [];
  const specifier = /(?:\bfrom|\bimport|\bimport\s*\(|\brequire\s*\()\s*['"]([^'"]+)['"]/g;
  for (const [, spec] of text.matchAll(specifier)) {
    if (spec.startsWith('.')) paths.push(relative(root, resolve(dirname(file), spec)));
  }
  const built = /\b(?:import|require)\s*\(([^;]*)/g;
  for (const [, call] of text.matchAll(built)) {
    for (const [, literal] of call.matchAll(/['"]([\w.-]+\/[^'"]*)['"]/g)) {
      if (!literal.startsWith('.')) paths.push(literal);
    }
  }
  return paths;
}

const folderOf = (path) => path.split(/[\\/]/)[0];

/** Every broken rule, one line each, with the file (relative to `root`) it is in. */
export function toolFolderProblems(root) {
  const problems = [];
  for (const folder of [...TOOL_FOLDERS, HARNESS]) {
    for (const file of sourceFiles(join(root, folder))) {
      const name = relative(root, file).split(sep).join('/');
      const text = readFileSync(file, 'utf8');
      const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      if (SIZED.includes(folder) && lines > MAX_LINES) {
        problems.push(`${name}: ${lines} lines, over ${MAX_LINES}: split it by what each part does`);
      }
      for (const path of importedPaths(text, file, root)) {
        const target = folderOf(path);
        if (target === folder || !TOOL_FOLDERS.includes(target)) continue;
        const instead = folder === HARNESS ? 'the harness imports no tool folder' : `move it to ${HARNESS}/`;
        problems.push(`${name} imports ${path.split(sep).join('/')} from ${target}/: ${instead}`);
      }
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const problems = toolFolderProblems(root);
  if (problems.length > 0) {
    console.error(`tool folders: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join('\n')}`);
    process.exit(1);
  }
  console.log(
    `tool folders: ${TOOL_FOLDERS.join(', ')} import only ${HARNESS}/, and no file is over ${MAX_LINES} lines`,
  );
}

// node --test scripts/check-tool-folders.test.mjs: the tool folder check (npm run lint runs it).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { MAX_LINES, toolFolderProblems } from './check-tool-folders.mjs';

/** A throwaway checkout holding `files` (path → text). */
function checkout(files) {
  const root = mkdtempSync(join(os.tmpdir(), 'tool-folders-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

// The fixtures' import lines are built here, so this file's own text imports nothing it names.
const imports = (names, path) => `${'import'} ${names} ${'from'} '${path}';\n`;
const reexports = (names, path) => `export ${names} ${'from'} '${path}';\n`;
const dynamic = (path) => `await ${'import'}('${path}');\n`;
const builtPath = (path) => `await ${'import'}(pathToFileURL(join(root, '${path}')).href);\n`;

function problemsOf(files) {
  const root = checkout(files);
  try {
    return toolFolderProblems(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('imports of the harness, of the app and within a folder pass', () => {
  assert.deepEqual(
    problemsOf({
      'bench/run.mjs': imports('{ nx }', '../harness/nx.mjs') + imports('{ seed }', './seed.mjs'),
      'reliability/lib/app.mjs': dynamic('../../backend/dist/main.js') + builtPath('backend/dist/x.js'),
      'scripts/oidc.mjs': imports('{ start }', '../backend/test/support/oidc-provider.mjs'),
      'e2e/support/start.mjs': imports('{ buildAndServe }', '../../harness/start.mjs'),
      'harness/user.mjs': imports('{ waitFor }', './wait.mjs') + imports('pg', 'pg'),
    }),
    [],
  );
});

test('a tool folder importing another one fails, static or dynamic', () => {
  assert.deepEqual(
    problemsOf({
      'bench/run.mjs': imports('{ registerUsers }', '../reliability/lib/client.mjs'),
      'reliability/run.mjs': builtPath('scripts/nx.mjs'),
      'e2e/support/start.mjs': dynamic('../../scripts/start.mjs'),
    }),
    [
      'bench/run.mjs imports reliability/lib/client.mjs from reliability/: move it to harness/',
      'reliability/run.mjs imports scripts/nx.mjs from scripts/: move it to harness/',
      'e2e/support/start.mjs imports scripts/start.mjs from scripts/: move it to harness/',
    ],
  );
});

test('the harness importing a tool folder fails', () => {
  assert.deepEqual(problemsOf({ 'harness/random.mjs': reexports('{ random }', '../bench/corpus.mjs') }), [
    'harness/random.mjs imports bench/corpus.mjs from bench/: the harness imports no tool folder',
  ]);
});

test(`a file over ${MAX_LINES} lines fails, except e2e's tests; output and dependencies are not looked at`, () => {
  const long = (n) => 'x;\n'.repeat(n);
  assert.deepEqual(
    problemsOf({
      'scripts/long.mjs': long(MAX_LINES + 1),
      'harness/just-fits.mjs': long(MAX_LINES),
      'e2e/tests/story.spec.ts': long(MAX_LINES * 2),
      'bench/results/dump.js': long(MAX_LINES * 2),
      'reliability/node_modules/x/index.js': imports('x', '../../../bench/run.mjs'),
    }),
    [`scripts/long.mjs: ${MAX_LINES + 1} lines, over ${MAX_LINES}: split it by what each part does`],
  );
});

// The docs checks pass on this repository, and each one fails on a small checkout planted with its fault.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { anchors, checkDocs, links, slug } from './check-docs.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const made = [];
after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const README = `# Demo

\`\`\`sh
npm install && npm start     # the forum
npm test                     # every suite
\`\`\`

Read [the docs](docs/README.md), [setup](docs/setup.md#first-run) and the [licence](LICENSE).
`;
const FILES = {
  'README.md': README,
  'docs/README.md': '# Docs\n\n- [Setup](setup.md)\n- [Back](../README.md#demo)\n',
  'docs/setup.md':
    '# Setup\n\n## First run\n\nSee [the top](#setup) and [the forum](http://localhost:3000).\n',
  LICENSE: 'MIT License\n\nCopyright (c) 2026 Demo contributors\n',
  'package.json': JSON.stringify({ license: 'MIT', workspaces: ['tool'] }),
  'tool/package.json': JSON.stringify({ name: 'tool', private: true }),
};

/** A small checkout that passes, with `change` applied: a file's new text, or null to delete it. */
function checkout(change = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'check-docs-'));
  made.push(dir);
  for (const [file, text] of Object.entries({ ...FILES, ...change })) {
    if (text === null) continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

function failsWith(change, pattern) {
  const problems = checkDocs(checkout(change));
  assert.ok(
    problems.some((problem) => pattern.test(problem)),
    `expected a problem like ${pattern}, got:\n${problems.join('\n') || '(none)'}`,
  );
}

describe('check-docs', () => {
  test("this repository's README, docs and LICENSE pass", () => {
    assert.deepEqual(checkDocs(root), []);
  });

  test('the planted checkout passes as it is', () => {
    assert.deepEqual(checkDocs(checkout()), []);
  });

  test('GitHub anchors: punctuation dropped, repeats numbered, code blocks ignored', () => {
    assert.equal(slug('Pasting with curl (`POST /api/pastes`)'), 'pasting-with-curl-post-apipastes');
    assert.equal(slug('Versions we pin, and why'), 'versions-we-pin-and-why');
    const text = '# A\n\n## Notes\n\n```sh\n# not a heading\n```\n\n## Notes\n';
    assert.deepEqual([...anchors(text)], ['a', 'notes', 'notes-1']);
    assert.deepEqual(
      links('[a](b.md) `[c](d.md)`\n```\n[e](f.md)\n```\n![g](h.png "t")').map((l) => l.target),
      ['b.md', 'h.png'],
    );
  });

  test('a README longer than one screen fails', () => {
    failsWith({ 'README.md': README + 'more\n'.repeat(60) }, /README.md has \d+ lines/);
  });

  test('a README that does not start with the two commands fails', () => {
    failsWith({ 'README.md': README.replace('npm test ', 'npm run test') }, /must start with its title/);
    failsWith(
      { 'README.md': README.replace('# Demo\n', '# Demo\n\nWelcome.\n') },
      /must start with its title/,
    );
  });

  test('a docs page linked from nowhere fails, and so does an index the README does not link', () => {
    failsWith({ 'docs/orphan.md': '# Orphan\n' }, /docs\/orphan.md is linked neither/);
    failsWith(
      { 'README.md': README.replace('[the docs](docs/README.md), ', '') },
      /does not link the docs index/,
    );
    failsWith({ 'docs/README.md': null }, /docs\/README.md \(the index of every docs page\) is missing/);
  });

  test('a link to a missing file or a missing heading fails', () => {
    failsWith(
      { 'docs/setup.md': FILES['docs/setup.md'] + '[gone](gone.md)\n' },
      /setup.md:\d+: gone.md: no such file/,
    );
    failsWith(
      { 'docs/setup.md': FILES['docs/setup.md'] + '[x](#nowhere)\n' },
      /has no heading whose anchor is #nowhere/,
    );
    failsWith(
      { 'README.md': README.replace('setup.md#first-run', 'setup.md#second-run') },
      /README.md:\d+: docs\/setup.md#second-run: docs\/setup.md has no heading/,
    );
    failsWith({ 'docs/README.md': FILES['docs/README.md'] + '[up](../../outside.md)\n' }, /no such file/);
  });

  test('a page citing an issue or a spec section fails, in the README, docs and CHANGELOG', () => {
    failsWith({ 'docs/setup.md': FILES['docs/setup.md'] + 'As issue 12 asked.\n' }, /cites an issue/);
    failsWith({ 'README.md': README + 'Limits (SPEC §9).\n' }, /README.md:\d+: cites an issue/);
    failsWith(
      { 'CHANGELOG.md': '# Changes\n\n- Backups (#28)\n- see spec section 4.2\n' },
      /CHANGELOG.md:4: cites/,
    );
    failsWith({ 'CHANGELOG.md': '# Changes\n\n- Backups (issue #28)\n' }, /CHANGELOG.md:3: cites/);
  });

  test('a missing LICENSE, another licence, or a published package without its copy fails', () => {
    failsWith({ LICENSE: null }, /LICENSE is missing/);
    failsWith({ LICENSE: 'Apache License\n\nCopyright (c) 2026 Demo\n' }, /not the MIT licence/);
    failsWith({ LICENSE: 'MIT License\n\nNo holder.\n' }, /no "Copyright \(c\) <year> <holder>" line/);
    failsWith({ 'tool/package.json': JSON.stringify({ name: 'tool' }) }, /tool\/LICENSE must be a copy/);
  });
});

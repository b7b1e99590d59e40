// The README and docs/ hold together: the README is one screen that starts with the two commands, every
// docs page is reachable from it, every relative link and #anchor lands, no page cites an issue or a spec
// section, and LICENSE is the licence package.json names. `npm run lint` runs it (check-docs.test.mjs).
//
//   node scripts/check-docs.mjs
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

export const README_MAX_LINES = 60;
/** The README's first code block, command by command (what follows a `#` is a comment). */
export const FIRST_COMMANDS = ['npm install && npm start', 'npm test'];
/** The first line of the licence text each SPDX id stands for. */
const LICENCE_TITLES = { MIT: 'MIT License', 'Apache-2.0': 'Apache License', ISC: 'ISC License' };
/** What a citation of our own issues or of the spec's sections looks like. */
const CITATIONS = [
  /\b(issue|pull request|PR)s? ?#?\d+/i,
  /§/,
  /\bSPEC(\.md)?\b/,
  /\bspec(ification)?'?s? sections? \d/i,
];

/** The Markdown files the checks read, relative to `root`: README.md, CHANGELOG.md, docs/*.md. */
export function markdownFiles(root) {
  const docs = existsSync(join(root, 'docs')) ? readdirSync(join(root, 'docs')) : [];
  return [
    'README.md',
    ...(existsSync(join(root, 'CHANGELOG.md')) ? ['CHANGELOG.md'] : []),
    ...docs.filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`),
  ];
}

/** The text outside fenced code blocks, line for line (fenced lines become empty). */
function prose(text) {
  let fence = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fence = !fence;
      return '';
    }
    return fence ? '' : line;
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading) {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown text has: its headings' slugs, a repeated one numbered as GitHub does. */
export function anchors(text) {
  const seen = new Map();
  const result = new Set();
  for (const line of prose(text)) {
    const match = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!match) continue;
    const base = slug(match[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** `[text](target)` and `![alt](target)` outside code, with their line numbers. */
export function links(text) {
  const found = [];
  prose(text).forEach((line, index) => {
    const outsideCode = line.replace(/`[^`]*`/g, '');
    for (const [, target] of outsideCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      found.push({ target, line: index + 1 });
    }
  });
  return found;
}

function read(root, file) {
  return readFileSync(join(root, file), 'utf8');
}

export function checkReadme(root) {
  const problems = [];
  const lines = read(root, 'README.md').replace(/\n$/, '').split('\n');
  if (lines.length > README_MAX_LINES) {
    problems.push(`README.md has ${lines.length} lines; it must fit one screen (${README_MAX_LINES})`);
  }
  // The title, then straight away the code block of the two commands.
  const body = lines.slice(1).filter((line) => line.trim() !== '');
  const end = body.indexOf('```', 1);
  const commands = /^```(sh|bash|shell)?$/.test(body[0] ?? '') && end > 0 ? body.slice(1, end) : [];
  const typed = commands.map((line) => line.replace(/\s+#.*$/, '').trim());
  if (!/^# /.test(lines[0] ?? '') || typed.join('\n') !== FIRST_COMMANDS.join('\n')) {
    problems.push(`README.md must start with its title, then a code block of: ${FIRST_COMMANDS.join(' ; ')}`);
  }
  return problems;
}

export function checkReachable(root) {
  const problems = [];
  const linkedFrom = (file) =>
    new Set(
      links(read(root, file))
        .map(({ target }) => target.split('#')[0])
        .filter((target) => target !== '')
        .map((target) => normalize(join(dirname(file), target))),
    );
  const fromReadme = linkedFrom('README.md');
  const index = 'docs/README.md';
  if (!existsSync(join(root, index))) return [`${index} (the index of every docs page) is missing`];
  if (!fromReadme.has(index)) problems.push(`README.md does not link the docs index, ${index}`);
  const fromIndex = linkedFrom(index);
  for (const file of markdownFiles(root).filter((name) => name.startsWith('docs/') && name !== index)) {
    if (!fromReadme.has(file) && !fromIndex.has(file)) {
      problems.push(`${file} is linked neither from README.md nor from ${index}`);
    }
  }
  return problems;
}

export function checkLinks(root) {
  const problems = [];
  const anchorsOf = new Map();
  const anchorsIn = (file) => {
    if (!anchorsOf.has(file)) anchorsOf.set(file, anchors(read(root, file)));
    return anchorsOf.get(file);
  };
  for (const file of markdownFiles(root)) {
    for (const { target, line } of links(read(root, file))) {
      // Other sites, mail, and the forum's own paths (`/api/logout`) are not files of this checkout.
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) continue;
      const [path, anchor] = target.split('#');
      const into = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)));
      const where = `${file}:${line}: ${target}`;
      if (into.startsWith('..') || !existsSync(join(root, into))) {
        problems.push(`${where}: no such file`);
      } else if (anchor !== undefined && into.endsWith('.md') && !anchorsIn(into).has(anchor)) {
        problems.push(`${where}: ${into} has no heading whose anchor is #${anchor}`);
      }
    }
  }
  return problems;
}

export function checkCitations(root) {
  const problems = [];
  for (const file of markdownFiles(root)) {
    read(root, file)
      .split('\n')
      .forEach((text, index) => {
        const citation = CITATIONS.map((pattern) => pattern.exec(text)?.[0]).find(Boolean);
        if (citation) problems.push(`${file}:${index + 1}: cites an issue or a spec section ("${citation}")`);
      });
  }
  return problems;
}

/** LICENSE is the licence package.json names; a published workspace package carries the same file. */
export function checkLicence(root) {
  const pkg = JSON.parse(read(root, 'package.json'));
  if (!existsSync(join(root, 'LICENSE'))) return ['LICENSE is missing'];
  const text = read(root, 'LICENSE');
  const title = LICENCE_TITLES[pkg.license];
  if (!title) return [`package.json names the licence "${pkg.license}", which this check does not know`];
  const problems = [];
  if (!text.startsWith(title)) problems.push(`LICENSE is not the ${pkg.license} licence package.json names`);
  if (!/^Copyright \(c\) \d{4} \S/m.test(text))
    problems.push('LICENSE has no "Copyright (c) <year> <holder>" line');
  for (const workspace of pkg.workspaces ?? []) {
    const manifest = join(root, workspace, 'package.json');
    if (!existsSync(manifest) || JSON.parse(readFileSync(manifest, 'utf8')).private) continue;
    const own = join(root, workspace, 'LICENSE');
    if (!existsSync(own) || readFileSync(own, 'utf8') !== text) {
      problems.push(`${workspace}/LICENSE must be a copy of LICENSE (the package is published)`);
    }
  }
  return problems;
}

export function checkDocs(root) {
  return [
    ...checkReadme(root),
    ...checkReachable(root),
    ...checkLinks(root),
    ...checkCitations(root),
    ...checkLicence(root),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const problems = checkDocs(root);
  for (const problem of problems) console.error(problem);
  console.log(problems.length === 0 ? 'README and docs/: fine' : `${problems.length} problem(s)`);
  process.exitCode = problems.length === 0 ? 0 : 1;
}

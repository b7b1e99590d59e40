import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LAYERS } from '../src/module-layers.js';

/**
 * Dependencies point down: the graph of src/'s units (a folder of src/modules/, or another folder of
 * src/) derived from the imports, checked against LAYERS (src/module-layers.ts).
 *
 * UPWARD holds the upward imports still there, each a step of the redesign to come. It only shrinks:
 * the test fails while it names an import that is gone, and no line is added for new code.
 */
const UPWARD: string[] = [
  'cli/admin-cli.ts -> bootstrap.js',
  'common/bearer.ts -> modules/tokens/access-tokens.service.js',
  'common/current-user.decorator.ts -> modules/users/entities/user.entity.js',
  'common/error.filter.ts -> logging/redact.js',
  'common/origin.guard.ts -> config/config.js',
  'common/origin.guard.ts -> config/config.module.js',
  'common/secrets.ts -> infra/secrets/secret-scanner.js',
  'common/session.guard.ts -> modules/auth/session-user.js',
  'common/session.guard.ts -> modules/users/entities/user.entity.js',
  'common/session.guard.ts -> modules/users/users.service.js',
  'common/writer.guard.ts -> config/config.js',
  'common/writer.guard.ts -> config/config.module.js',
  'common/writer.guard.ts -> modules/users/entities/user.entity.js',
  'common/writer.guard.ts -> modules/users/users.service.js',
  'infra/database/data-source.options.ts -> modules/users/entities/user.entity.js',
  'modules/messages/messages.module.ts -> modules/moderation/screening.module.js',
  'modules/messages/messages.service.ts -> modules/moderation/people-sql.js',
  'modules/messages/messages.service.ts -> modules/moderation/people.service.js',
  'modules/notifications/notifications.module.ts -> modules/messages/message-notices.js',
  'modules/notifications/notifications.module.ts -> modules/moderation/screening.module.js',
  'modules/notifications/notifications.module.ts -> modules/threads/post-notices.js',
  'modules/notifications/notifications.processor.ts -> modules/messages/message-notices.js',
  'modules/notifications/notifications.processor.ts -> modules/moderation/people.service.js',
  'modules/notifications/notifications.processor.ts -> modules/threads/post-notices.js',
  'modules/notifications/notifications.service.ts -> modules/threads/post-sql.js',
  'modules/notifications/notifications.service.ts -> modules/threads/visibility.js',
  'modules/ranks/reputation.service.ts -> modules/threads/post-sql.js',
  'modules/ranks/reputation.service.ts -> modules/threads/visibility.js',
  'modules/threads/forum.controller.ts -> modules/votes/votes.service.js',
  'modules/threads/forum.module.ts -> modules/moderation/screening.module.js',
  'modules/threads/forum.module.ts -> modules/votes/votes.module.js',
  'modules/threads/forum.service.ts -> modules/moderation/review-items.js',
  'modules/threads/forum.service.ts -> modules/moderation/spam-screen.js',
  // Was -> modules/threads/page-cache.js; downward once members.controller moves to profiles/.
  'modules/users/members.controller.ts -> http/page-cache.js',
  'modules/users/members.controller.ts -> modules/tokens/token-scope.decorator.js',
  'modules/users/members.module.ts -> modules/threads/forum.module.js',
  'modules/users/members.service.ts -> modules/threads/forum.service.js',
  'modules/users/profile.controller.ts -> modules/threads/write-limits.js',
  'modules/users/profile.service.ts -> modules/uploads/uploads.service.js',
  'modules/users/users.module.ts -> modules/auth/sessions.module.js',
];

/** Files that declare a Nest module though not named *.module.ts (same rule: it only shrinks). */
const HIDDEN_MODULES: string[] = [
  'modules/account/exports.processor.ts',
  'modules/messages/message-notices.ts',
  'modules/moderation/akismet.ts',
  'modules/moderation/suspension-lift.ts',
  'modules/threads/member-posts.ts',
  'modules/threads/paste-expiry.ts',
  'modules/threads/paste-scores.ts',
  'modules/threads/post-hiding.ts',
  'modules/threads/post-notices.ts',
  'modules/threads/trash-purge.ts',
  'modules/tokens/tokens-sweep.ts',
  'modules/uploads/uploads-sweep.ts',
];

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.ts$/.test(entry.name) && !/\.spec\.ts$/.test(entry.name) ? [file] : [];
  });
}

/** The unit a file of src/ belongs to. */
function unitOf(file: string): string {
  const parts = path.relative(SRC, file).split(path.sep);
  if (parts.length === 1) return 'app';
  return parts[0] === 'modules' ? parts[1]! : parts[0]!;
}

interface Edge {
  from: string;
  to: string;
  /** Both relative to src/. */
  file: string;
  target: string;
}

/** The imports of `file` (its text) that cross units: `from './x.js'`, `import('./x.js')`, `import './x.js'`. */
function edgesOf(file: string, text: string): Edge[] {
  const found: Edge[] = [];
  for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)'/g)) {
    const target = path.resolve(path.dirname(file), match[1]!);
    const from = unitOf(file);
    const to = unitOf(target);
    if (from !== to)
      found.push({ from, to, file: path.relative(SRC, file), target: path.relative(SRC, target) });
  }
  return found;
}

const rank = (unit: string) => (LAYERS as readonly string[]).indexOf(unit);

describe('the module graph', () => {
  const files = sources(SRC);
  const edges = files.flatMap((file) => edgesOf(file, readFileSync(file, 'utf8')));

  it('knows every unit of src/', () => {
    const units = [...new Set(files.map(unitOf))].sort();
    expect(units.filter((unit) => rank(unit) < 0)).toEqual([]);
  });

  it('has every import point down the layers, save the ones UPWARD still lists', () => {
    const upward = [
      ...new Set(edges.filter((e) => rank(e.to) > rank(e.from)).map((e) => `${e.file} -> ${e.target}`)),
    ].sort();
    expect(upward.filter((edge) => !UPWARD.includes(edge))).toEqual([]);
    // A step that removed an upward import deletes its line.
    expect(UPWARD.filter((edge) => !upward.includes(edge))).toEqual([]);
  });

  it('has no Nest module outside a *.module.ts file, save the ones HIDDEN_MODULES still lists', () => {
    const hidden = files
      .filter((file) => !file.endsWith('.module.ts') && /@Module\(/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(SRC, file))
      .sort();
    expect(hidden.filter((file) => !HIDDEN_MODULES.includes(file))).toEqual([]);
    expect(HIDDEN_MODULES.filter((file) => !hidden.includes(file))).toEqual([]);
  });

  it('sees an upward import, a dynamic one, and none inside a unit', () => {
    const file = path.join(SRC, 'modules/users/probe.ts');
    const text = [
      "import { ForumService } from '../threads/forum.service.js';",
      "const later = () => import('../../infra/queue/queue.module.js');",
      "import { UsersService } from './users.service.js';",
    ].join('\n');
    expect(edgesOf(file, text).map((edge) => [edge.from, edge.to, rank(edge.to) > rank(edge.from)])).toEqual([
      ['users', 'threads', true],
      ['users', 'infra', false],
    ]);
  });
});

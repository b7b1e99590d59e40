import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from 'pg';
import { MODULES, TABLE_OWNERS, TYPEORM_TABLES } from '../src/infra/database/table-owners.js';
import { createTestDatabase } from './support/postgres.js';
import {
  backendSources,
  entityClasses,
  entityDeclarations,
  moduleTouches,
  type EntityDeclaration,
  tableTouches,
  tablesInSql,
} from './support/table-access.js';

/**
 * A module touches only its own tables (src/infra/database/table-owners.ts), others only through their
 * owner. ALLOWED holds today's exceptions and only shrinks: moving an access to its owner deletes its
 * line, and no line is added for new code. docs/testing.md.
 */
interface Allowed {
  /** The folder under src/modules/ (or `infra`). */
  module: string;
  table: keyof typeof TABLE_OWNERS;
  /** Relative to backend/. */
  file: string;
  why: string;
}

const ALLOWED: Allowed[] = [];

const BACKEND_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TABLES = new Set(Object.keys(TABLE_OWNERS));
const owner = (table: string): string => (TABLE_OWNERS as Record<string, string>)[table]!;
const key = (access: { module: string; table: string; file: string }) =>
  `${access.module} → ${access.table} in ${access.file}`;

const kebab = (name: string) => name.replace(/(?<=[a-z0-9])(?=[A-Z])/g, '-').toLowerCase();

/** Entities outside `src/modules/<owner>/entities/<class-name>.entity.ts` (infra: `src/infra/<part>/entities/`). */
function misplacedEntities(declarations: EntityDeclaration[]): string[] {
  return declarations
    .filter(({ name, table, file }) => {
      const folder = owner(table) === 'infra' ? 'src/infra/[^/]+' : `src/modules/${owner(table)}`;
      return !new RegExp(`^${folder}/entities/${kebab(name)}\\.entity\\.ts$`).test(file);
    })
    .map(
      ({ name, table, file }) =>
        `${file}: ${name} (table ${table}) belongs in ` +
        `${owner(table) === 'infra' ? 'src/infra/<part>' : `src/modules/${owner(table)}`}/entities/${kebab(name)}.entity.ts`,
    );
}

describe('table ownership', () => {
  describe('the table-to-module map', () => {
    it('names every table of the migrated database, and no other', async () => {
      const database = await createTestDatabase();
      const client = new Client(database.url);
      try {
        await client.connect();
        // Tables, views, materialized views, partitioned and foreign tables of the app's schema.
        const { rows } = await client.query<{ name: string }>(
          `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v', 'm', 'p', 'f') ORDER BY 1`,
        );
        expect(rows.map((row) => row.name).sort()).toEqual(Object.keys(TABLE_OWNERS).sort());
      } finally {
        await client.end();
        await database.drop();
      }
    });

    it('has one folder under src/modules/ for each module of the table map (and health/, the probes)', () => {
      const folders = readdirSync(path.join(BACKEND_DIR, 'src/modules'), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort();
      expect(folders).toEqual([...MODULES, 'health'].sort());
    });

    it('gives each table one of the modules, or infra', () => {
      const owners = new Set<string>([...MODULES, 'infra']);
      for (const [table, module] of Object.entries(TABLE_OWNERS)) {
        expect({ table, known: owners.has(module) }).toEqual({ table, known: true });
      }
    });
  });

  describe('finding the tables code touches', () => {
    const sql = (text: string) => tablesInSql(text, TABLES).map((found) => found.table);

    it('sees tables after FROM, JOIN, UPDATE, INSERT INTO, DELETE FROM, USING and in FROM lists', () => {
      expect(sql('SELECT t.id FROM threads t LEFT JOIN users a ON a.id = t.author_id')).toEqual([
        'threads',
        'users',
      ]);
      expect(sql('UPDATE votes SET value = $1 WHERE id = $2')).toEqual(['votes']);
      expect(sql('insert into replies (thread_id) values ($1)')).toEqual(['replies']);
      expect(sql('DELETE FROM sessions s USING users u WHERE u.id = s.user_id')).toEqual([
        'sessions',
        'users',
      ]);
      expect(sql('SELECT 1 FROM threads t, replies r, unnest($1) x WHERE r.thread_id = t.id')).toEqual([
        'threads',
        'replies',
      ]);
      expect(sql('SELECT 1 FROM ONLY "audit_log" WHERE id IN (SELECT id FROM outbox)')).toEqual([
        'audit_log',
        'outbox',
      ]);
      expect(
        sql('WITH c AS (SELECT 1) SELECT * FROM c JOIN LATERAL (SELECT 1 FROM forum_stats) s ON true'),
      ).toEqual(['forum_stats']);
    });

    it('sees ON CONFLICT updates through the columns they qualify', () => {
      expect(
        sql(`INSERT INTO reputation_daily AS d (user_id) VALUES ($1)
             ON CONFLICT (user_id) DO UPDATE SET unread = notification_counters.unread + 1`),
      ).toEqual(['reputation_daily', 'notification_counters']);
    });

    it('sees a FROM fragment or a table name as a literal of its own', () => {
      expect(sql('users u')).toEqual(['users']);
      expect(sql('threads')).toEqual(['threads']);
      expect(sql('chat_messages m LEFT JOIN users a ON a.id = m.author_id')).toEqual([
        'chat_messages',
        'users',
      ]);
    });

    it('leaves out columns, SQL strings, comments, words in prose and other prefixes', () => {
      expect(sql('SELECT thread_count, u.votes FROM x WHERE reason = $1')).toEqual([]);
      expect(sql("SELECT 'users' AS kind, $1 -- from users\n /* join votes */")).toEqual([]);
      expect(sql('Pruning expired sessions failed: ')).toEqual([]);
      expect(sql('outbox-\u0001')).toEqual([]);
    });

    const touched = (code: string, entities = new Map<string, string>()) =>
      tableTouches('sample.ts', code, TABLES, entities).map(
        (touch) => `${touch.how} ${touch.table} :${touch.line}`,
      );

    it('reads SQL in strings and templates (its line), not import paths, route decorators or literal types', () => {
      const code = [
        "import { x } from './users.js';",
        "const table = onThread ? 'threads' : 'replies';",
        'const q = `SELECT 1',
        '  FROM ${table} JOIN votes v ON true`;',
        "class C { @Get('users') list(kind: 'users') { return `outbox-${kind}`; } }",
      ].join('\n');
      expect(touched(code)).toEqual(['sql threads :2', 'sql replies :2', 'sql votes :4']);
    });

    it('sees entity classes declared, passed to TypeORM, listed or new-ed, also renamed; not as types', () => {
      const entityFile = "@Entity('chat_messages') export class ChatMessage {}";
      const entities = entityClasses([{ file: 'chat-message.entity.ts', text: entityFile }]);
      expect(entities).toEqual(new Map([['ChatMessage', 'chat_messages']]));
      expect(touched(entityFile, entities)).toEqual(['entity chat_messages :1']);
      const code = [
        "import { ChatMessage as Line } from './chat-message.entity.js';",
        'class S { constructor(@InjectRepository(Line) private readonly lines: Repository<Line>) {} }',
        'const a = (m: EntityManager, l: Line) => m.findOneBy(Line, { id: 1 });',
        'const b = TypeOrmModule.forFeature([Line]);',
        'const c = new Line();',
        'const d = dataSource.getRepository(Line);',
      ].join('\n');
      expect(touched(code, entities)).toEqual([
        'entity chat_messages :2',
        'entity chat_messages :3',
        'entity chat_messages :4',
        'entity chat_messages :5',
        'entity chat_messages :6',
      ]);
    });
  });

  describe("finding entities' places", () => {
    it("wants each in its owner's entities/ folder, in a file named after its class", () => {
      expect(
        misplacedEntities([
          {
            name: 'PasteStats',
            table: 'forum_stats',
            file: 'src/modules/pastes/entities/paste-stats.entity.ts',
          },
          { name: 'OutboxJob', table: 'outbox', file: 'src/infra/outbox/entities/outbox-job.entity.ts' },
          { name: 'Vote', table: 'votes', file: 'src/modules/pastes/entities/vote.entity.ts' },
          { name: 'Flag', table: 'flags', file: 'src/modules/moderation/flag.entity.ts' },
          {
            name: 'Token',
            table: 'personal_access_tokens',
            file: 'src/modules/tokens/entities/pat.entity.ts',
          },
        ]),
      ).toEqual([
        'src/modules/pastes/entities/vote.entity.ts: Vote (table votes) belongs in src/modules/votes/entities/vote.entity.ts',
        'src/modules/moderation/flag.entity.ts: Flag (table flags) belongs in src/modules/moderation/entities/flag.entity.ts',
        'src/modules/tokens/entities/pat.entity.ts: Token (table personal_access_tokens) belongs in src/modules/auth/entities/token.entity.ts',
      ]);
    });
  });

  describe("the modules' code", () => {
    const touches = moduleTouches(BACKEND_DIR, TABLES);
    const foreign = touches.filter((touch) => owner(touch.table) !== touch.module);

    it("sees every table but TypeORM's own read or written somewhere (the scan reads the real tree)", () => {
      const used = new Set(touches.map((touch) => touch.table));
      expect(Object.keys(TABLE_OWNERS).filter((table) => !used.has(table))).toEqual([...TYPEORM_TABLES]);
    });

    it("declare one entity for each table but TypeORM's own, in its owner's entities/ folder", () => {
      const declarations = entityDeclarations(backendSources(BACKEND_DIR));
      expect(declarations.map((entity) => entity.table).sort()).toEqual(
        Object.keys(TABLE_OWNERS)
          .filter((table) => !(TYPEORM_TABLES as string[]).includes(table))
          .sort(),
      );
      expect(misplacedEntities(declarations)).toEqual([]);
    });

    it('touch no table of another module, but those the allowlist still names', () => {
      const allowed = new Set(ALLOWED.map(key));
      const unexpected = foreign
        .filter((touch) => !allowed.has(key(touch)))
        .map(
          (touch) =>
            `${touch.file}:${touch.line} (module ${touch.module}) touches ${touch.table} (${touch.how}), ` +
            `which the ${owner(touch.table)} module owns: go through its exported service, or a fragment it exports`,
        );
      expect(unexpected).toEqual([]);
    });

    it('leaves no line in the allowlist for an access that is gone (it only shrinks)', () => {
      const present = new Set(foreign.map(key));
      const stale = ALLOWED.filter((entry) => !present.has(key(entry))).map(
        (entry) => `${key(entry)}: no longer there, delete its line from ALLOWED`,
      );
      expect(stale).toEqual([]);
    });

    it('names each allowed access once, with a reason', () => {
      const keys = ALLOWED.map(key);
      expect(keys.filter((entry, index) => keys.indexOf(entry) !== index)).toEqual([]);
      expect(ALLOWED.filter((entry) => entry.why.trim().length < 10)).toEqual([]);
    });
  });
});

// Query plans of the list queries on a seeded database (20,000 pastes, 2,000 members, 40,000 private
// messages, 40,000 notifications, 20,000 chat messages), taken from the real services' SQL and
// parameters. Fails when home, the members directory, an inbox, the notifications or the chat history
// (or a tag's or a language's pastes, or the sweep of unclaimed uploads) stops being an index scan under a Limit (a Sort or a Seq Scan there means a query that grows with the
// data), or when search reads every match of a common word (a bitmap scan) instead of walking the
// newest pastes until it has its candidates, or reads a rare word's other than from the GIN index.
//   node bench/query-plans.mjs            (builds nothing; reads the backend's TypeScript directly)
import { register } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { seedPlans } from './plans-seed.mjs';

const backend = join(dirname(fileURLToPath(import.meta.url)), '..', 'backend');
register(pathToFileURL(join(backend, 'test/support/ts-loader.mjs')));
const load = (path) => import(pathToFileURL(join(backend, path)).href);
const { makeTempDir, startThrowawayPostgres } = await load('test/support/throwaway-postgres.ts');
const { dataSourceOptions } = await load('src/infra/database/data-source.options.ts');
const { migrateUnderLock } = await load('src/infra/database/migrate.ts');
const { ENTITIES } = await load('src/entities.ts');
const { PastesService } = await load('src/modules/pastes/pastes.service.ts');
const { ProfilesService } = await load('src/modules/profiles/profiles.service.ts');
const { SearchService } = await load('src/modules/pastes/search.service.ts');
const { MessagesService } = await load('src/modules/messages/messages.service.ts');
const { NotificationsService } = await load('src/modules/notifications/notifications.service.ts');
const { NoticeRegistry } = await load('src/modules/notifications/notice-registry.ts');
const { PostNotices } = await load('src/modules/pastes/post-notices.ts');
const { ChatService } = await load('src/modules/chat/chat.service.ts');
const { UploadsSweeper } = await load('src/modules/uploads/uploads-sweep.ts');
const { TagsService } = await load('src/modules/pastes/tags.service.ts');
const { DataSource } = await import('typeorm');

const THREADS = Number(process.env.BENCH_THREADS ?? 20_000);
const USERS = Number(process.env.BENCH_USERS ?? 2_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 40_000);
const CHAT = Number(process.env.BENCH_CHAT ?? 20_000);
const failures = [];

const server = await startThrowawayPostgres(join(await makeTempDir('termpaste-plans-'), 'pg'));
try {
  await server.createDatabaseIfMissing('plans');
  const ds = new DataSource(dataSourceOptions(server.url('plans'), { entities: ENTITIES }));
  await ds.initialize();
  await migrateUnderLock(ds);
  await seedPlans(ds, { THREADS, USERS, MESSAGES, CHAT });

  const real = new PastesService(ds);
  const realMembers = new ProfilesService(ds, real);
  const quiet = { publish: async () => undefined, add: async () => undefined };
  // The pastes module registers its part of the notifications' SQL when it starts.
  const notices = new NoticeRegistry();
  notices.registerPasteSql(new PostNotices(ds).pasteSql);
  const services = (dataSource) => ({
    uploads: new UploadsSweeper(
      { ...dataSource, transaction: (work) => work(dataSource) },
      { delete: async () => undefined },
      { processJobs: false },
    ),
    forum: new PastesService(dataSource),
    members: new ProfilesService(dataSource, new PastesService(dataSource)),
    search: new SearchService(dataSource),
    messages: new MessagesService(dataSource, undefined, quiet),
    notifications: new NotificationsService(dataSource, quiet, notices),
    chat: new ChatService(dataSource, quiet),
    tags: new TagsService(dataSource),
  });
  const realServices = services(ds);
  /**
   * Runs `call` on services whose matching query prints its plan, and checks the plan: by default an index
   * scan on `mustUse` with no Sort or Seq Scan near the top; a function instead returns what is wrong.
   */
  const explain = async (name, match, call, mustUse) => {
    const explaining = (executor) => ({
      query: async (sql, params) => {
        if (!match(sql)) return executor.query(sql, params);
        const rows = await executor.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
        const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
        console.log(`=== ${name}\n${plan}\n`);
        const top = plan.split('\n').slice(0, 8).join('\n');
        if (typeof mustUse === 'function') {
          const wrong = mustUse(plan);
          if (wrong) failures.push(`${name}: ${wrong}`);
        } else if (
          !new RegExp(`Index (Only )?Scan using ${mustUse}\\b`).test(plan) ||
          /Sort|Seq Scan/.test(top)
        ) {
          failures.push(`${name}: expected an index scan on ${mustUse} under the Limit`);
        }
        return [];
      },
      // A transaction's statements are explained inside it: its settings (SET LOCAL) shape their plans.
      transaction: (work) => ds.transaction((manager) => work(explaining(manager))),
    });
    await call(services(explaining(ds))).catch(() => undefined); // the stand-in rows are not real results
  };
  const forum = (call) => (s) => call(s.forum);
  const membersOf = (call) => (s) => call(s.members);

  const isHome = (sql) => sql.includes('NOT t.is_pinned');
  const isDirectory = (sql) => sql.includes('FROM users u');
  const first = await real.recent();
  await explain(
    'home, first page',
    isHome,
    forum((s) => s.recent()),
    'threads_recent_idx',
  );
  let cursor = first.nextCursor;
  for (let i = 0; i < 100 && cursor; i++) cursor = (await real.recent(cursor)).nextCursor;
  await explain(
    'home, page 102',
    isHome,
    forum((s) => s.recent(cursor)),
    'threads_recent_idx',
  );
  // A tag's pastes walk paste_tags_tag_idx newest first (then each paste by its key); a language's
  // walk threads_language_idx: neither sorts nor reads every match.
  const isTagPage = (sql) => sql.includes('JOIN paste_tags pt');
  const isLanguagePage = (sql) => sql.includes('t.language');
  const realTags = realServices.tags;
  for (const [label, name] of [
    ['common', 'linux'],
    ['rare', 'heisenbug'],
  ]) {
    // A rare tag's few rows may be read by the index and sorted: a sort of tens of rows.
    const check =
      label === 'common'
        ? 'paste_tags_tag_idx'
        : (plan) =>
            /paste_tags_tag_idx/.test(plan) && !/Seq Scan/.test(plan)
              ? null
              : 'expected paste_tags_tag_idx, no sequential scan';
    await explain(`tag page, a ${label} tag`, isTagPage, (s) => s.tags.page(name), check);
  }
  let tagCursor = (await realTags.page('linux')).nextCursor;
  for (let i = 0; i < 20 && tagCursor; i++) tagCursor = (await realTags.page('linux', tagCursor)).nextCursor;
  await explain(
    'tag page, page 22 of a common tag',
    isTagPage,
    (s) => s.tags.page('linux', tagCursor),
    'paste_tags_tag_idx',
  );
  await explain(
    'language page, a common language',
    isLanguagePage,
    (s) => s.tags.language('python'),
    'threads_language_idx',
  );
  // Fewer matches than a page: any join order reads them all from the index, and sorts no more.
  await explain(
    'language page, a rare language',
    isLanguagePage,
    (s) => s.tags.language('rust'),
    (plan) =>
      !plan.includes('Index Scan using threads_language_idx') || /Seq Scan on threads/.test(plan)
        ? 'expected the index threads_language_idx (no sequential scan of the pastes)'
        : undefined,
  );
  const python = await realTags.language('python');
  await explain(
    'language page, next page',
    isLanguagePage,
    (s) => s.tags.language('python', python.nextCursor),
    'threads_language_idx',
  );
  const members = await realMembers.directory('');
  await explain(
    'members, first page',
    isDirectory,
    membersOf((s) => s.directory('')),
    'users_reputation_idx',
  );
  await explain(
    'members, next page',
    isDirectory,
    membersOf((s) => s.directory('', members.nextCursor)),
    'users_reputation_idx',
  );

  const isInbox = (sql) => sql.includes('m.recipient_id = $1');
  const inbox = await realServices.messages.list(1, 'inbox');
  await explain(
    'inbox, first page',
    isInbox,
    (s) => s.messages.list(1, 'inbox'),
    'private_messages_inbox_idx',
  );
  await explain(
    'inbox, next page',
    isInbox,
    (s) => s.messages.list(1, 'inbox', inbox.nextCursor),
    'private_messages_inbox_idx',
  );
  const isNotifications = (sql) => sql.includes('n.user_id = $1');
  const notes = await realServices.notifications.list(1);
  await explain(
    'notifications, first page',
    isNotifications,
    (s) => s.notifications.list(1),
    'notifications_user_idx',
  );
  await explain(
    'notifications, next page',
    isNotifications,
    (s) => s.notifications.list(1, notes.nextCursor),
    'notifications_user_idx',
  );
  const isChat = (sql) => sql.includes('FROM chat_messages m');
  await explain('chat history', isChat, (s) => s.chat.history(), 'chat_messages_recent_idx');
  // Search ranks the newest SEARCH_CANDIDATES_MAX matches only. A probe walks the newest pastes to see
  // how common the words are; a common word's candidates come from walking threads_created_idx newest
  // first and stopping at the cap (a bitmap scan would read every match), never past the window; a rare
  // word's (and an unmatched phrase of common words') from the GIN index only, never a walk or a scan.
  const isProbe = (sql) => sql.includes('AS examined');
  const isWalk = (sql) => sql.includes('t.search @@') && sql.includes(') t WHERE');
  const isGin = (sql) => /FROM threads t WHERE \(?t\.search @@/.test(sql);
  const isRanking = (sql) => sql.includes('WITH ranked');
  const walksNewestFirst = (plan) =>
    !plan.includes('Index Scan using threads_created_idx') || /Bitmap|Seq Scan|Sort/.test(plan)
      ? 'expected an index walk on threads_created_idx (no bitmap scan, sequential scan or sort)'
      : undefined;
  const ginOnly = (plan) =>
    !plan.includes('Bitmap Index Scan on threads_search_idx') || /Seq Scan|Index Scan using/.test(plan)
      ? 'expected the GIN index threads_search_idx only (no walk, no sequential scan)'
      : undefined;
  const ranksCandidatesOnly = (plan) =>
    !/(Index|Bitmap Index) Scan (using|on) threads_pkey/.test(plan) || /Seq Scan/.test(plan)
      ? 'expected the candidates read by id (threads_pkey), no sequential scan'
      : undefined;
  const search = (label, match, query, check, page = 1) =>
    explain(`search, ${label}`, match, (s) => s.search.search(query, page), check);
  await search('probe', isProbe, 'kernel', walksNewestFirst);
  await search('common word', isWalk, 'kernel', walksNewestFirst);
  await search('two common words', isWalk, 'kernel panic', walksNewestFirst);
  await search('common phrase', isWalk, '"kernel panic"', walksNewestFirst);
  await search('rare word', isGin, 'heisenbug', ginOnly);
  await search('unmatched phrase of common words', isGin, '"panic kernel"', ginOnly);
  for (const page of [1, 2]) {
    await search(`common word, ranking page ${page}`, isRanking, 'kernel', ranksCandidatesOnly, page);
  }
  // Operators: each walks its own index newest first (a member's, a tag's, a language's, the featured),
  // an identifier found only inside a longer token comes from the code words' GIN index.
  const isSourceWalk = (sql) => sql.startsWith('SELECT t.id FROM (');
  const walksIndex = (index) => (plan) =>
    !new RegExp(`(Index|Index Only|Bitmap Index) Scan (using|on) ${index}`).test(plan) ||
    /Seq Scan|(^|->\s+)Sort\s/m.test(plan)
      ? `expected a walk of ${index} (no sequential scan, no full sort)`
      : undefined;
  const codeWordsGin = (plan) =>
    !plan.includes('Bitmap Index Scan on threads_code_words_idx') || /Seq Scan/.test(plan)
      ? 'expected the code words GIN index threads_code_words_idx (no sequential scan)'
      : undefined;
  const [{ username }] = await ds.query('SELECT username::text FROM users WHERE id = 1');
  await search('tag: (common)', isSourceWalk, 'tag:common-tag', walksIndex('paste_tags_tag_idx'));
  await search('tag: (rare)', isSourceWalk, 'tag:rare-tag', walksIndex('paste_tags_tag_idx'));
  await search('lang:', isSourceWalk, 'lang:python', walksIndex('threads_language_idx'));
  await search('user:', isSourceWalk, `user:${username}`, walksIndex('threads_author_idx'));
  await search('is:featured', isSourceWalk, 'is:featured', walksIndex('threads_featured_idx'));
  await search('dates', isSourceWalk, 'kernel after:2000-01-01', walksIndex('threads_created_idx'));
  // Together: the tag's walk or the GIN index, whichever the probe picks (here the GIN index).
  await search(
    'tag:, lang: and a phrase',
    (sql) => isSourceWalk(sql) || isGin(sql),
    'tag:common-tag lang:python "kernel panic"',
    (plan) => (/Seq Scan/.test(plan) ? 'expected index scans only (no sequential scan)' : undefined),
  );
  await search(
    'identifier',
    (sql) => sql.includes('t.code_words @@') && isGin(sql),
    'getWidgetById',
    codeWordsGin,
  );
  const isSweep = (sql) => sql.includes('FROM pending_uploads');
  await explain('unclaimed uploads sweep', isSweep, (s) => s.uploads.sweep(), 'pending_uploads_created_idx');
  await ds.destroy();
} finally {
  await server.stop();
}

if (failures.length) {
  console.error(failures.join('\n'));
  process.exit(1);
}
console.log(
  `query plans: home, members, inbox, notifications, chat, a tag's and a language's pastes and the uploads sweep are index scans, search walks the newest pastes for a common word (a filter's index for an operator) and the GIN index for a rare one or an identifier (${THREADS} pastes, ${USERS} members, ${MESSAGES} messages and notifications, ${CHAT} chat lines and pending uploads)`,
);

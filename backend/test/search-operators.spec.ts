import {
  API,
  PASTE_MESSAGES,
  SEARCH_MESSAGES,
  searchResultsSchema,
  type Visibility,
} from '@termpaste/contracts';
import { SearchService } from '../src/modules/pastes/search.service.js';
import { type Browser, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Search operators over the API: each alone and together, identifiers inside longer tokens, and the
 * visibility rule (only listed pastes) under every operator. Tags are written by SQL here, as the
 * benchmark's corpus writes them: paste_tags, threads.tags and the tag's row.
 */
describe('search operators', () => {
  let t: TestApp;
  let neo: { browser: Browser; user: { id: number; username: string } };
  let trinity: { browser: Browser; user: { id: number; username: string } };

  beforeAll(async () => {
    t = await createTestApp();
    await registered(t); // the owner
    neo = await registered(t);
    trinity = await registered(t);
  });

  afterAll(async () => {
    await t.close();
  });

  interface Made {
    title: string;
    content: string;
    language?: string;
    visibility?: Visibility;
  }

  async function paste(browser: Browser, made: Made): Promise<number> {
    const res = await browser.post(API.threads).send(made).expect(201);
    const [row]: Array<{ id: number }> = await t.dataSource.query(
      'SELECT id FROM threads WHERE title = $1 ORDER BY id DESC LIMIT 1',
      [made.title],
    );
    expect(res.body).toBeTruthy();
    return row!.id;
  }

  /** Tags a paste as the tags' writes do: its tags' rows, paste_tags and threads.tags. */
  async function tag(id: number, names: string[]): Promise<void> {
    await t.dataSource.query(
      `INSERT INTO tags (name) SELECT unnest($1::text[]) ON CONFLICT (name) DO NOTHING`,
      [names],
    );
    await t.dataSource.query(
      `INSERT INTO paste_tags (thread_id, tag_id, created_at)
       SELECT t.id, g.id, t.created_at FROM threads t, tags g WHERE t.id = $1 AND g.name = ANY ($2::text[])`,
      [id, names],
    );
    await t.dataSource.query('UPDATE threads SET tags = $2 WHERE id = $1', [id, names]);
  }

  const at = (id: number, date: string) =>
    t.dataSource.query('UPDATE threads SET created_at = $2 WHERE id = $1', [id, date]);

  const ids = async (q: string, page = 1): Promise<number[]> => {
    await t.pagesChanged();
    const res = await t.http.get(API.search).query({ q, page }).expect(200);
    return searchResultsSchema.parse(res.body).threads.map((card) => card.id as number);
  };

  const refused = async (q: string, message: string) => {
    await t.http.get(API.search).query({ q }).expect(400, { statusCode: 400, message });
  };

  // The listed pastes of the tests, and their twins that lists never show.
  let rust: number; // neo, python, tag rust+cli, featured, 2025-06-01, title "Zebulon parser"
  let rustOld: number; // neo, python, tag rust, 2024-01-10
  let other: number; // trinity, bash, tag cli, 2025-09-09, most votes
  let hiddenOnes: number[];

  beforeAll(async () => {
    rust = await paste(neo.browser, {
      title: 'Zebulon parser',
      content: 'The zebulon "flux capacitor" notes. const u = this.getUserById(id);',
      language: 'python',
    });
    rustOld = await paste(neo.browser, {
      title: 'Old notes',
      content: "zebulon flux capacitor, in other words. if (err.code === 'ECONNRESET') retry();",
      language: 'python',
    });
    other = await paste(trinity.browser, {
      title: 'Other zebulon',
      content: 'A zebulon for the shell: fs.readFileSync and more',
      language: 'bash',
    });
    await tag(rust, ['rust', 'cli']);
    await tag(rustOld, ['rust']);
    await tag(other, ['cli']);
    await at(rust, '2025-06-01T12:00:00Z');
    await at(rustOld, '2024-01-10T12:00:00Z');
    await at(other, '2025-09-09T12:00:00Z');
    await t.dataSource.query('UPDATE threads SET is_featured = true WHERE id = $1', [rust]);
    await t.dataSource.query('UPDATE threads SET vote_score = 7 WHERE id = $1', [other]);
    // Twins of `rust` in every way a list must not show: private, unlisted, hidden, deleted, expired.
    const twin = (visibility: Visibility) =>
      paste(neo.browser, {
        title: 'Zebulon parser',
        content: 'The zebulon "flux capacitor" notes. const u = this.getUserById(id);',
        language: 'python',
        visibility,
      });
    hiddenOnes = [await twin('private'), await twin('unlisted')];
    const hidden = await twin('public');
    const deleted = await twin('public');
    const expired = await twin('public');
    hiddenOnes.push(hidden, deleted, expired);
    await t.dataSource.query('UPDATE threads SET hidden_at = now() WHERE id = $1', [hidden]);
    await t.dataSource.query('UPDATE threads SET deleted_at = now() WHERE id = $1', [deleted]);
    await t.dataSource.query("UPDATE threads SET expires_at = now() - interval '1 minute' WHERE id = $1", [
      expired,
    ]);
    for (const id of hiddenOnes) {
      await tag(id, ['rust', 'cli']);
      await at(id, '2025-06-02T12:00:00Z');
    }
    await t.dataSource.query('UPDATE threads SET is_featured = true WHERE id = ANY ($1::int[])', [
      hiddenOnes,
    ]);
  });

  it('each operator alone', async () => {
    // The title hits first (their order is ts_rank's), then the content hit.
    expect((await ids('zebulon')).slice(2)).toEqual([rustOld]);
    expect(await ids('"flux capacitor"')).toEqual([rust, rustOld]);
    expect(await ids('zebulon -shell')).toEqual([rust, rustOld]);
    expect(await ids('zebulon -"flux capacitor"')).toEqual([other]);
    expect(await ids(`user:${neo.user.username}`)).toEqual([rust, rustOld]);
    expect(await ids(`user:${neo.user.username.toUpperCase()}`)).toEqual([rust, rustOld]);
    expect(await ids('user:nobody_here')).toEqual([]);
    expect(await ids('tag:rust')).toEqual([rust, rustOld]);
    expect(await ids('tag:RUST tag:cli')).toEqual([rust]);
    expect(await ids('tag:nosuchtag')).toEqual([]);
    expect(await ids('lang:python')).toEqual([rust, rustOld]);
    expect(await ids('lang:sh')).toEqual([other]); // an alias, as the paste form takes it
    expect((await ids('in:title zebulon')).sort()).toEqual([rust, other].sort());
    expect(await ids('after:2025-01-01')).toEqual([other, rust]);
    expect(await ids('before:2025-01-01')).toEqual([rustOld]);
    expect(await ids('after:2025-06-01 before:2025-06-02')).toEqual([rust]);
    expect(await ids('is:featured')).toEqual([rust]);
  });

  it('sort: relevance by default with words, newest without; new and top', async () => {
    expect(await ids('zebulon sort:relevance')).toEqual(await ids('zebulon'));
    expect((await ids('zebulon sort:relevance')).slice(2)).toEqual([rustOld]);
    expect(await ids('zebulon sort:new')).toEqual([other, rust, rustOld]);
    expect(await ids('zebulon sort:top')).toEqual([other, rust, rustOld]);
    expect(await ids('tag:cli')).toEqual([other, rust]);
    expect(await ids('tag:cli sort:top')).toEqual([other, rust]);
  });

  it('operators together', async () => {
    expect(await ids('tag:rust lang:python "flux capacitor"')).toEqual([rust, rustOld]);
    expect(await ids('tag:cli lang:python zebulon')).toEqual([rust]);
    expect(await ids(`user:${neo.user.username} after:2025-01-01 -shell`)).toEqual([rust]);
    expect(await ids(`user:${trinity.user.username} tag:rust`)).toEqual([]);
    expect(await ids('is:featured in:title parser sort:new')).toEqual([rust]);
    expect(await ids('tag:rust -capacitor')).toEqual([]);
  });

  it('finds identifiers inside longer tokens', async () => {
    expect(await ids('getUserById')).toEqual([rust]);
    expect(await ids('ECONNRESET')).toEqual([rustOld]);
    expect(await ids('readFileSync')).toEqual([other]);
    expect(await ids('fs.readFileSync')).toEqual([other]);
    expect(await ids('getUserById lang:python tag:cli')).toEqual([rust]);
    expect(await ids('zebulon -getUserById')).toEqual([other, rustOld]);
    expect(await ids('in:title getUserById')).toEqual([]);
  });

  it('unknown operators are words', async () => {
    const id = await paste(trinity.browser, { title: 'Ops', content: 'set frobnicate:quux in the file' });
    expect(await ids('frobnicate:quux')).toEqual([id]);
  });

  it('shows only listed pastes under every operator', async () => {
    const queries = [
      'zebulon',
      '"flux capacitor"',
      'zebulon -shell',
      `user:${neo.user.username}`,
      'tag:rust',
      'tag:rust tag:cli',
      'lang:python',
      'in:title zebulon',
      'after:2025-06-02',
      'before:2025-07-01',
      'is:featured',
      'zebulon sort:top',
      'sort:new',
      'getUserById',
      'tag:rust lang:python "flux capacitor"',
    ];
    for (const q of queries) {
      const found = await ids(q);
      expect({ q, hidden: found.filter((id) => hiddenOnes.includes(id)) }).toEqual({ q, hidden: [] });
    }
  });

  it('walks, probes and the GIN index agree under filters', async () => {
    const search = t.app.get(SearchService);
    for (const q of [
      'zebulon tag:rust',
      'getUserById user:' + neo.user.username,
      '"flux capacitor" lang:python',
    ]) {
      const seen = [];
      for (const [probe, window] of [
        [1, 1_000_000],
        [2, 1],
        [2000, 1_000_000],
      ])
        seen.push((await search.search(q, 1, { probe: probe!, window: window! })).threads.map((c) => c.id));
      expect(seen[1]).toEqual(seen[0]);
      expect(seen[2]).toEqual(seen[0]);
    }
  });

  it('a bad operator value is a 400 that says what is wrong', async () => {
    await refused('zebulon before:2025-13-01', SEARCH_MESSAGES.badDate('before', '2025-13-01'));
    await refused('after:soon', SEARCH_MESSAGES.badDate('after', 'soon'));
    await refused('after:2025-02-01 before:2025-01-01', SEARCH_MESSAGES.datesCrossed);
    await refused('zebulon sort:xyz', SEARCH_MESSAGES.badSort('xyz'));
    await refused('is:pinned', SEARCH_MESSAGES.badIs('pinned'));
    await refused('in:body x', SEARCH_MESSAGES.badIn('body'));
    await refused('tag:C++', SEARCH_MESSAGES.badTag('C++'));
    await refused('user:a!b', SEARCH_MESSAGES.badUser('a!b'));
    await refused('lang:', SEARCH_MESSAGES.emptyValue('lang'));
    await refused('lang:klingon', PASTE_MESSAGES.unknownLanguage('klingon'));
  });
});

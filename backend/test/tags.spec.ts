import {
  API,
  type AuditPage,
  type EditedPaste,
  type LanguagePage,
  languagePageSchema,
  PASTES_PAGE_SIZE,
  type PasteRef,
  pasteDetailSchema,
  POST_MESSAGES,
  recentPastesPageSchema,
  TAG_ADMIN_MESSAGES,
  TAG_MESSAGES,
  type TagList,
  tagListSchema,
  type TagPage,
  tagPageSchema,
} from '@termpaste/contracts';
import supertest from 'supertest';
import { type Browser, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { PostHidingService } from '../src/modules/pastes/post-hiding.js';
import { PasteExpiry } from '../src/modules/pastes/paste-expiry.js';
import { TagWrites17974000000001 } from '../src/infra/database/migrations/17974000000001-tag-writes.js';

interface Member {
  browser: Browser;
  user: { id: number; username: string };
}

const CURL_TYPE = 'application/x-www-form-urlencoded';
const TAG_NOT_FOUND = { statusCode: 404, message: TAG_MESSAGES.tagNotFound };

/**
 * Tags: written with a paste (the form, the terminal, an edit, a fork), counted over listed pastes only
 * whatever path changes one, listed by use and by tag, the language facet, and the admins' changes.
 */
describe('tags', () => {
  let t: TestApp;
  let admin: Member;
  let alice: Member;
  let bob: Member;
  let run = 0;
  const visitor = () => supertest(t.url);
  /** A tag name no other test uses. */
  const fresh = (stem: string) => `${stem}-${Date.now().toString(36)}-${run++}`;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await registered(t);
    alice = await registered(t);
    bob = await registered(t);
  });

  afterAll(async () => {
    await t?.close();
  });

  async function paste(member: Member, body: Record<string, unknown> = {}): Promise<PasteRef> {
    const res = await member.browser
      .post(API.threads)
      .send({ title: 'Tagged', content: 'echo tagged\n', ...body })
      .expect(201);
    return (res.body as { id: PasteRef }).id;
  }

  const tagsOf = async (id: PasteRef, member: Member = alice) =>
    pasteDetailSchema.parse((await member.browser.get(API.thread(id)).expect(200)).body).tags;

  async function count(name: string): Promise<number | undefined> {
    const [row]: Array<{ paste_count: number }> = await t.dataSource.query(
      'SELECT paste_count FROM tags WHERE name = $1',
      [name],
    );
    return row?.paste_count;
  }

  const list = async (q?: string): Promise<TagList> =>
    tagListSchema.parse(
      (
        await visitor()
          .get(API.tags)
          .query(q === undefined ? {} : { q })
          .expect(200)
      ).body,
    );

  const page = async (name: string, cursor?: string): Promise<TagPage> =>
    tagPageSchema.parse(
      (
        await visitor()
          .get(API.tag(name))
          .query(cursor ? { cursor } : {})
          .expect(200)
      ).body,
    );

  /** The pastes' numbers as the tag's first page lists them. */
  const listedUnder = async (name: string) => (await page(name)).threads.map((card) => card.id);

  describe('writing', () => {
    it("keeps a new paste's tags in its author's order, trimmed, lower-cased, once; on its card and page", async () => {
      const [a, b] = [fresh('zeta'), fresh('alpha')];
      const id = await paste(alice, { tags: [` ${a.toUpperCase()} `, b, a] });
      expect(await tagsOf(id)).toEqual([a, b]);
      const home = recentPastesPageSchema.parse((await visitor().get(API.threadsRecent).expect(200)).body);
      expect(home.threads.find((card) => card.id === id)?.tags).toEqual([a, b]);
      // paste_tags rows carry the paste's own time (the tag pages' index).
      const rows: Array<{ same: boolean }> = await t.dataSource.query(
        `SELECT pt.created_at = th.created_at AS same FROM paste_tags pt JOIN threads th ON th.id = pt.thread_id
         WHERE pt.thread_id = $1`,
        [id],
      );
      expect(rows).toEqual([{ same: true }, { same: true }]);
      expect([await count(a), await count(b)]).toEqual([1, 1]);
    });

    it('refuses bad names, a sixth tag and what is not a list, with their texts', async () => {
      const refused = async (tags: unknown) =>
        (
          (await alice.browser.post(API.threads).send({ title: 'x', content: 'x', tags }).expect(400))
            .body as {
            message: string;
          }
        ).message;
      expect(await refused(['c++'])).toContain(TAG_MESSAGES.badName('c++'));
      expect(await refused(['x'])).toContain(TAG_MESSAGES.badName('x'));
      expect(await refused(['aa', 'bb', 'cc', 'dd', 'ee', 'ff'])).toContain(TAG_MESSAGES.tooMany);
      expect(await refused('python')).toContain(TAG_MESSAGES.notAList);
      const id = await paste(alice);
      await alice.browser
        .patch(API.thread(id))
        .send({ tags: ['no spaces'] })
        .expect(400)
        .expect((res) =>
          expect((res.body as { message: string }).message).toContain(TAG_MESSAGES.badName('no spaces')),
        );
    });

    it('takes ?tags=a,b on POST /api/pastes (the terminal), and tags in its JSON body; bad ones are a 400', async () => {
      const [a, b] = [fresh('cli'), fresh('curl')];
      const res = await alice.browser
        .post(`${API.pastes}?tags=${a},${b.toUpperCase()}`)
        .set('Content-Type', CURL_TYPE)
        .set('Accept', 'application/json')
        .send(Buffer.from('from the terminal\n'))
        .expect(201);
      expect(await tagsOf((res.body as { id: PasteRef }).id)).toEqual([a, b]);
      const json = await alice.browser
        .post(API.pastes)
        .set('Accept', 'application/json')
        .send({ content: 'as json\n', tags: [b] })
        .expect(201);
      expect(await tagsOf((json.body as { id: PasteRef }).id)).toEqual([b]);
      // A form's own field wins over the query.
      const form = await alice.browser
        .post(`${API.pastes}?tags=ignored-tag`)
        .set('Accept', 'application/json')
        .field('tags', `${a}, ${b}`)
        .attach('file', Buffer.from('echo form\n'), 'run.sh')
        .expect(201);
      expect(await tagsOf((form.body as { id: PasteRef }).id)).toEqual([a, b]);
      await alice.browser
        .post(`${API.pastes}?tags=ok-tag,c%2B%2B`)
        .set('Content-Type', CURL_TYPE)
        .send(Buffer.from('x\n'))
        .expect(400, { statusCode: 400, message: TAG_MESSAGES.badName('c++') });
      await alice.browser
        .post(`${API.pastes}?tags=aa,bb,cc,dd,ee,ff`)
        .set('Content-Type', CURL_TYPE)
        .send(Buffer.from('x\n'))
        .expect(400)
        .expect((r) => expect((r.body as { message: string }).message).toBe(TAG_MESSAGES.tooMany));
      await alice.browser
        .post(API.pastes)
        .send({ content: 'x\n', tags: ['UPPER CASE'] })
        .expect(400)
        .expect((r) =>
          expect((r.body as { message: string }).message).toBe(TAG_MESSAGES.badName('upper case')),
        );
    });

    it('an edit sets them (absent: unchanged; [] clears) and makes no version', async () => {
      const [a, b] = [fresh('edit'), fresh('edit')];
      const id = await paste(alice, { tags: [a] });
      const edited = (
        await alice.browser
          .patch(API.thread(id))
          .send({ tags: [b, a] })
          .expect(200)
      ).body as EditedPaste;
      expect(edited).toMatchObject({ tags: [b, a], revisions: 1, editedAt: null });
      await alice.browser.patch(API.thread(id)).send({ title: 'Renamed' }).expect(200);
      expect(await tagsOf(id)).toEqual([b, a]);
      expect([await count(a), await count(b)]).toEqual([1, 1]);
      await alice.browser.patch(API.thread(id)).send({ tags: [] }).expect(200);
      expect(await tagsOf(id)).toEqual([]);
      expect([await count(a), await count(b)]).toEqual([0, 0]);
      await bob.browser
        .patch(API.thread(id))
        .send({ tags: [a] })
        .expect(403);
    });

    it("a fork carries the original's tags unless it names its own", async () => {
      const [a, b] = [fresh('fork'), fresh('fork')];
      const id = await paste(alice, { tags: [a] });
      const copied = (await bob.browser.post(API.threadFork(id)).expect(201)).body as { id: PasteRef };
      expect(await tagsOf(copied.id, bob)).toEqual([a]);
      const own = (
        await bob.browser
          .post(API.threadFork(id))
          .send({ tags: [b] })
          .expect(201)
      ).body as {
        id: PasteRef;
      };
      expect(await tagsOf(own.id, bob)).toEqual([b]);
      expect(await count(a)).toBe(2);
    });
  });

  describe('counting listed pastes only', () => {
    it('never names a tag that only private or unlisted pastes carry: not in /tags, suggestions or its page', async () => {
      const secret = fresh('secret');
      await paste(alice, { tags: [secret], visibility: 'private' });
      const unlisted = await paste(alice, { tags: [secret], visibility: 'unlisted' });
      expect(await count(secret)).toBe(0);
      expect((await list()).tags.map((tag) => tag.name)).not.toContain(secret);
      expect((await list(secret.slice(0, 8))).tags.map((tag) => tag.name)).not.toContain(secret);
      await visitor().get(API.tag(secret)).expect(404, TAG_NOT_FOUND);
      // One public paste names it, and lists only itself.
      const open = await paste(bob, { tags: [secret] });
      expect(await listedUnder(secret)).toEqual([open]);
      expect((await page(secret)).tag).toEqual({ name: secret, pasteCount: 1 });
      expect(await listedUnder(secret)).not.toContain(unlisted);
    });

    it('follows visibility changes, the trash and a restore, hiding, expiry and a removal', async () => {
      const name = fresh('life');
      const id = (await paste(alice, { tags: [name] })) as number;
      expect(await count(name)).toBe(1);

      const key = (
        (await alice.browser.patch(API.thread(id)).send({ visibility: 'private' }).expect(200))
          .body as EditedPaste
      ).id;
      expect(await count(name)).toBe(0);
      await alice.browser.patch(API.thread(key)).send({ visibility: 'public' }).expect(200);
      expect(await count(name)).toBe(1);

      await alice.browser.delete(API.thread(id)).expect(204);
      expect(await count(name)).toBe(0);
      await visitor().get(API.tag(name)).expect(404, TAG_NOT_FOUND);
      await admin.browser.post(API.adminThreadRestore(id)).expect(200);
      expect(await count(name)).toBe(1);

      const hiding = t.app.get(PostHidingService);
      await t.dataSource.transaction((manager) => hiding.setPasteHidden(manager, id, true));
      expect(await count(name)).toBe(0);
      await t.dataSource.transaction((manager) => hiding.setPasteHidden(manager, id, false));
      expect(await count(name)).toBe(1);

      await t.dataSource.query("UPDATE threads SET expires_at = now() - interval '1 second' WHERE id = $1", [
        id,
      ]);
      // Expired, its job not run yet: no list shows it (counted until the job removes it).
      await visitor().get(API.tag(name)).expect(404, TAG_NOT_FOUND);
      expect(await t.app.get(PasteExpiry).expire(id)).toBe(true);
      expect(await count(name)).toBe(0);

      // A removal for good (the purge, an account's deletion) takes its count with it.
      const other = (await paste(bob, { tags: [name] })) as number;
      expect(await count(name)).toBe(1);
      await t.dataSource.query('DELETE FROM threads WHERE id = $1', [other]);
      expect(await count(name)).toBe(0);
    });
  });

  describe('lists', () => {
    it('lists tags by use, and suggests the most used starting with a prefix', async () => {
      const stem = fresh('use');
      const [one, two] = [`${stem}-one`, `${stem}-two`];
      await paste(alice, { tags: [one, two] });
      await paste(bob, { tags: [two] });
      const suggested = await list(stem.toUpperCase());
      expect(suggested.tags).toEqual([
        { name: two, pasteCount: 2 },
        { name: one, pasteCount: 1 },
      ]);
      const all = (await list()).tags;
      for (let i = 1; i < all.length; i++)
        expect(all[i - 1]!.pasteCount).toBeGreaterThanOrEqual(all[i]!.pasteCount);
      await visitor().get(API.tag('no-such-tag-here')).expect(404, TAG_NOT_FOUND);
      await visitor().get(API.tag('C++')).expect(404, TAG_NOT_FOUND);
      // A prefix no name can start with suggests nothing (a NUL byte never reaches PostgreSQL).
      for (const q of ['c++', '\u0000', `${stem}\u0000`]) {
        expect((await list(q)).tags).toEqual([]);
        expect((await admin.browser.get(API.adminTags).query({ q }).expect(200)).body).toEqual({ tags: [] });
      }
    });

    it("pages a tag's pastes newest first, as home pages", async () => {
      const name = fresh('paged');
      await t.dataSource.query(
        `INSERT INTO threads (title, content, author_id, tags, created_at)
         SELECT 'Paged ' || n, 'x', $1, ARRAY[$2], now() - n * interval '1 minute' FROM generate_series(1, $3) n`,
        [alice.user.id, name, PASTES_PAGE_SIZE + 2],
      );
      expect(await count(name)).toBe(PASTES_PAGE_SIZE + 2);
      const first = await page(name);
      expect(first.threads).toHaveLength(PASTES_PAGE_SIZE);
      expect(first.threads[0]!.title).toBe('Paged 1');
      const second = await page(name, first.nextCursor!);
      expect(second.threads.map((card) => card.title)).toEqual([
        `Paged ${PASTES_PAGE_SIZE + 1}`,
        `Paged ${PASTES_PAGE_SIZE + 2}`,
      ]);
      expect(second.nextCursor).toBeNull();
      await visitor().get(API.tag(name)).query({ cursor: 'nonsense' }).expect(400);
    });

    it("lists a language's listed pastes newest first (any alias); an unknown one is a 400", async () => {
      const py = await paste(alice, { language: 'python', title: 'Snake' });
      await paste(alice, { language: 'python', title: 'Hidden snake', visibility: 'private' });
      const res = (await visitor().get(API.language('py')).expect(200)).body as LanguagePage;
      const parsed = languagePageSchema.parse(res);
      expect(parsed.language).toBe('python');
      expect(parsed.threads[0]!.id).toBe(py);
      expect(parsed.threads.map((card) => card.title)).not.toContain('Hidden snake');
      await visitor().get(API.language('klingon')).expect(400);
    });
  });

  describe('admins', () => {
    const auditOf = async (action: string) =>
      ((await admin.browser.get(API.adminAudit).query({ action }).expect(200)).body as AuditPage).entries;

    it('rename a tag on every paste (409 onto an existing name), audit-logged; members get 403', async () => {
      const [from, to, taken] = [fresh('old'), fresh('new'), fresh('taken')];
      const id = await paste(alice, { tags: ['keep-me', from] });
      await paste(bob, { tags: [taken] });
      await alice.browser.patch(API.adminTag(from)).send({ name: to }).expect(403);
      await admin.browser
        .patch(API.adminTag(from))
        .send({ name: taken })
        .expect(409, { statusCode: 409, message: TAG_ADMIN_MESSAGES.nameTaken(taken) });
      await admin.browser.patch(API.adminTag(from)).send({ name: 'Bad Name' }).expect(400);
      await admin.browser.patch(API.adminTag('missing-tag')).send({ name: to }).expect(404, TAG_NOT_FOUND);
      await admin.browser
        .patch(API.adminTag(from))
        .send({ name: to })
        .expect(200, { message: TAG_ADMIN_MESSAGES.renamed });
      expect(await tagsOf(id)).toEqual(['keep-me', to]);
      expect(await listedUnder(to)).toEqual([id]);
      await visitor().get(API.tag(from)).expect(404);
      expect(await count(to)).toBe(1);
      expect((await auditOf('tag.rename'))[0]).toMatchObject({
        targetType: 'tag',
        targetLabel: from,
        after: { name: to },
      });
    });

    it('merge a tag into another: a paste carrying both keeps one; audit-logged; members get 403', async () => {
      const [from, into] = [fresh('dup'), fresh('main')];
      const both = await paste(alice, { tags: [from, into] });
      const only = await paste(bob, { tags: [from, 'other-tag'] });
      await bob.browser.post(API.adminTagMerge(from)).send({ into }).expect(403);
      await admin.browser
        .post(API.adminTagMerge(from))
        .send({ into: from })
        .expect(400, { statusCode: 400, message: TAG_ADMIN_MESSAGES.mergeIntoItself });
      await admin.browser.post(API.adminTagMerge(from)).send({ into: 'not-a-tag-yet' }).expect(404);
      await admin.browser
        .post(API.adminTagMerge(from))
        .send({ into })
        .expect(200, { message: TAG_ADMIN_MESSAGES.merged });
      expect(await tagsOf(both)).toEqual([into]);
      expect(await tagsOf(only, bob)).toEqual([into, 'other-tag']);
      expect(await count(into)).toBe(2);
      expect(await count(from)).toBeUndefined();
      expect((await listedUnder(into)).sort()).toEqual([both, only].sort());
      expect((await auditOf('tag.merge'))[0]).toMatchObject({
        targetLabel: from,
        after: { into, pastes: 2 },
      });
    });

    it('delete a tag: off every paste; audit-logged; members get 403', async () => {
      const name = fresh('gone');
      const id = await paste(alice, { tags: ['stays', name] });
      await alice.browser.delete(API.adminTag(name)).expect(403);
      await admin.browser.delete(API.adminTag(name)).expect(200, { message: TAG_ADMIN_MESSAGES.deleted });
      expect(await tagsOf(id)).toEqual(['stays']);
      expect(await count(name)).toBeUndefined();
      await admin.browser.delete(API.adminTag(name)).expect(404, TAG_NOT_FOUND);
      expect((await auditOf('tag.delete'))[0]).toMatchObject({ targetLabel: name, after: { pastes: 1 } });
      // The admins' list names unused tags too; members may not read it.
      await alice.browser.get(API.adminTags).expect(403);
      const hidden = fresh('unused');
      await paste(alice, { tags: [hidden], visibility: 'private' });
      const all = (await admin.browser.get(API.adminTags).query({ q: hidden }).expect(200)).body as TagList;
      expect(all.tags).toEqual([{ name: hidden, pasteCount: 0 }]);
    });
  });

  it('a paste not found stays a 404 (its tags change nothing)', async () => {
    await alice.browser
      .patch(API.thread(999_999))
      .send({ tags: ['aa'] })
      .expect(404, {
        statusCode: 404,
        message: POST_MESSAGES.pasteNotFound,
      });
  });

  // Last: it rolls the schema back and forth under the other tests' rows.
  it('its migration rolls back (triggers, audit actions) and applies again', async () => {
    const triggers = async () =>
      (
        (await t.dataSource.query(
          "SELECT tgname FROM pg_trigger WHERE tgrelid = 'threads'::regclass AND tgname LIKE 'threads_tags%' ORDER BY 1",
        )) as Array<{ tgname: string }>
      ).map((row) => row.tgname);
    expect(await triggers()).toHaveLength(8);
    const runner = t.dataSource.createQueryRunner();
    try {
      const migration = new TagWrites17974000000001();
      await migration.down(runner);
      expect(await triggers()).toEqual([]);
      const [{ n }] = (await t.dataSource.query(
        "SELECT count(*)::int AS n FROM audit_log WHERE target_type = 'tag'",
      )) as [{ n: number }];
      expect(n).toBe(0);
      await migration.up(runner);
      expect(await triggers()).toHaveLength(8);
    } finally {
      await runner.release();
    }
  });
});

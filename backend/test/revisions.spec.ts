import {
  API,
  type AuditPage,
  type CreatedAccessToken,
  editedReplySchema,
  editedPasteSchema,
  POST_MESSAGES,
  PASTE_MESSAGES,
  revisionListSchema,
  revisionSchema,
  REVISIONS_MESSAGES,
  secretFindingsBodySchema,
  type SearchResults,
  type PasteDetail,
  pasteDetailSchema,
} from '@termpaste/contracts';
import supertest from 'supertest';
import { lineChanges } from '../src/modules/pastes/line-changes.js';
import { TrashPurger } from '../src/modules/pastes/trash-purge.js';
import { AWS_ACCESS_KEY_ID } from './support/secret-samples.js';
import { type Browser, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const UNAUTHORIZED = { statusCode: 401, message: 'Unauthorized' };
const NOT_YOURS = { statusCode: 403, message: REVISIONS_MESSAGES.notYourPost };
const LOCKED = { statusCode: 403, message: POST_MESSAGES.pasteLocked };
const PASTE_404 = { statusCode: 404, message: POST_MESSAGES.pasteNotFound };
const REPLY_404 = { statusCode: 404, message: POST_MESSAGES.replyNotFound };
const REVISION_404 = { statusCode: 404, message: REVISIONS_MESSAGES.revisionNotFound };
/** PASTE_MAX_BYTES by default: 1 MiB. */
const MAX_BYTES = 1024 * 1024;

describe('edits with history', () => {
  let t: TestApp;
  let admin: { browser: Browser; user: { id: number; username: string } };
  let alice: { browser: Browser; user: { id: number; username: string } };
  let bob: { browser: Browser; user: { id: number; username: string } };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await registered(t); // the first account: owner and admin
    alice = await registered(t);
    bob = await registered(t);
  });

  afterAll(async () => {
    await t.close();
  });

  const visitor = () => supertest(t.url);

  async function paste(
    browser: Browser,
    body: { title?: string; content?: string; language?: string } = {},
  ): Promise<number> {
    const res = await browser
      .post(API.threads)
      .send({ title: 'A paste', content: 'one\ntwo\nthree\n', ...body })
      .expect(201);
    return (res.body as { id: number }).id;
  }

  async function reply(browser: Browser, thread: number, content = 'a reply'): Promise<number> {
    const res = await browser.post(API.threadReplies(thread)).send({ content }).expect(201);
    return (res.body as { id: number }).id;
  }

  async function detail(id: number, agent: Browser | ReturnType<typeof visitor> = visitor()) {
    return pasteDetailSchema.parse((await agent.get(API.thread(id)).expect(200)).body) as PasteDetail;
  }

  async function revisionRows(id: number) {
    return t.dataSource.query(
      `SELECT n, title, content, language, editor_id, lines_added, lines_removed
       FROM thread_revisions WHERE thread_id = $1 ORDER BY n`,
      [id],
    ) as Promise<
      Array<{
        n: number;
        title: string;
        content: string;
        language: string | null;
        editor_id: number | null;
        lines_added: number;
        lines_removed: number;
      }>
    >;
  }

  async function auditOf(targetType: string, targetId: number) {
    const page = (await admin.browser.get(API.adminAudit).expect(200)).body as AuditPage;
    return page.entries.filter((e) => e.targetType === targetType && e.targetId === targetId);
  }

  describe('PATCH /api/threads/{id}', () => {
    it('lets the author change title, content and language, keeping the original as version 1', async () => {
      const id = await paste(alice.browser, { title: 'First title', content: 'one\ntwo\nthree\n' });
      expect((await detail(id)).editedAt).toBeNull();
      const res = await alice.browser
        .patch(API.thread(id))
        .send({ title: '  Second title ', content: 'one\n2\nthree\nfour\n', language: 'py' })
        .expect(200);
      const edited = editedPasteSchema.parse(res.body);
      expect(edited).toMatchObject({
        id,
        title: 'Second title',
        content: 'one\n2\nthree\nfour\n',
        language: 'python',
        revisions: 2,
      });
      const shown = await detail(id);
      expect(shown).toMatchObject({
        title: 'Second title',
        content: 'one\n2\nthree\nfour\n',
        language: 'python',
      });
      expect(shown.editedAt).toBe(edited.editedAt);
      expect(Date.parse(shown.editedAt!)).toBeGreaterThanOrEqual(Date.parse(shown.createdAt));
      expect(await revisionRows(id)).toEqual([
        {
          n: 1,
          title: 'First title',
          content: 'one\ntwo\nthree\n',
          language: null,
          editor_id: alice.user.id,
          lines_added: 3,
          lines_removed: 0,
        },
        {
          n: 2,
          title: 'Second title',
          content: 'one\n2\nthree\nfour\n',
          language: 'python',
          editor_id: alice.user.id,
          lines_added: 2,
          lines_removed: 1,
        },
      ]);
      // The author's own edit is no staff action.
      expect(await auditOf('thread', id)).toEqual([]);
    });

    it('changes only the fields sent; language null (or markdown) is Markdown again', async () => {
      const id = await paste(alice.browser, { title: 'Keep me', content: 'x\n', language: 'bash' });
      await alice.browser.patch(API.thread(id)).send({ content: 'y\n' }).expect(200);
      expect(await detail(id)).toMatchObject({ title: 'Keep me', content: 'y\n', language: 'bash' });
      await alice.browser.patch(API.thread(id)).send({ language: null }).expect(200);
      expect((await detail(id)).language).toBeNull();
      await alice.browser.patch(API.thread(id)).send({ language: 'rust' }).expect(200);
      await alice.browser.patch(API.thread(id)).send({ language: 'markdown' }).expect(200);
      expect((await detail(id)).language).toBeNull();
      expect((await revisionRows(id)).map((r) => r.n)).toEqual([1, 2, 3, 4, 5]);
    });

    it('keeps no version when nothing changes, and answers the paste as it is', async () => {
      const id = await paste(alice.browser, { title: 'Same', content: 'same\n', language: 'js' });
      const same = await alice.browser
        .patch(API.thread(id))
        .send({ title: 'Same', content: 'same\n', language: 'javascript' })
        .expect(200);
      expect(same.body).toEqual({
        id,
        title: 'Same',
        content: 'same\n',
        language: 'javascript',
        editedAt: null,
        revisions: 1,
        secretVersions: [],
        visibility: 'public',
        expiresAt: null,
        burnAfterReading: false,
        tags: [],
      });
      await alice.browser.patch(API.thread(id)).send({}).expect(200);
      expect(await revisionRows(id)).toEqual([]);
      expect((await detail(id)).editedAt).toBeNull();
      // After a real edit, a no-op keeps the count and the time.
      const edited = (await alice.browser.patch(API.thread(id)).send({ content: 'other\n' }).expect(200))
        .body;
      const again = (await alice.browser.patch(API.thread(id)).send({ content: 'other\n' }).expect(200)).body;
      expect(again).toEqual(edited);
      expect(await revisionRows(id)).toHaveLength(2);
    });

    it('validates as a new paste does', async () => {
      const id = await paste(alice.browser);
      const edit = (body: unknown) => alice.browser.patch(API.thread(id)).send(body as object);
      await edit({ title: '   ' }).expect(400, {
        statusCode: 400,
        message: `title: ${POST_MESSAGES.titleRequired}`,
      });
      await edit({ title: 'x'.repeat(201) }).expect(400, {
        statusCode: 400,
        message: `title: ${POST_MESSAGES.titleTooLong}`,
      });
      await edit({ content: ' \n ' }).expect(400, {
        statusCode: 400,
        message: `content: ${POST_MESSAGES.contentRequired}`,
      });
      await edit({ content: 42 }).expect(400, {
        statusCode: 400,
        message: `content: ${POST_MESSAGES.contentRequired}`,
      });
      await edit({ language: 'klingon' }).expect(400, {
        statusCode: 400,
        message: PASTE_MESSAGES.unknownLanguage('klingon'),
      });
      await edit({ content: 'é'.repeat(MAX_BYTES / 2 + 1) }).expect(413, {
        statusCode: 413,
        message: PASTE_MESSAGES.tooLarge(MAX_BYTES),
      });
      // Exactly PASTE_MAX_BYTES is taken.
      await edit({ content: 'é'.repeat(MAX_BYTES / 2) }).expect(200);
      expect(await revisionRows(id)).toHaveLength(2);
    });

    it('takes a paste of PASTE_MAX_BYTES also where its JSON is larger than the usual body limit', async () => {
      const id = await paste(alice.browser);
      // Quotes and line feeds: escaped, the JSON is about twice the paste.
      const content = '"quoted"\n'.repeat(MAX_BYTES / 10);
      const res = await alice.browser.patch(API.thread(id)).send({ content }).expect(200);
      expect(res.body.revisions).toBe(2);
      expect((await visitor().get(API.threadRaw(id)).expect(200)).text).toBe(content);
    });

    it('refuses another member (403), a visitor (401) and a banned member (403), changing nothing', async () => {
      const id = await paste(alice.browser, { title: 'Alice only' });
      await bob.browser.patch(API.thread(id)).send({ title: 'Bob was here' }).expect(403, NOT_YOURS);
      await t.browser().patch(API.thread(id)).send({ title: 'Visitor' }).expect(401, UNAUTHORIZED);
      const banned = await registered(t);
      const theirs = await paste(banned.browser);
      await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [banned.user.id]);
      await banned.browser
        .patch(API.thread(theirs))
        .send({ title: 'banned' })
        .expect(403, { statusCode: 403, message: POST_MESSAGES.banned });
      expect((await detail(id)).title).toBe('Alice only');
      expect(await revisionRows(id)).toEqual([]);
      expect(await revisionRows(theirs)).toEqual([]);
    });

    it('is a 404 for a paste that does not exist or was deleted', async () => {
      await alice.browser.patch(API.thread(999_999)).send({ title: 'x' }).expect(404, PASTE_404);
      await alice.browser.patch(API.thread('abc')).send({ title: 'x' }).expect(404, PASTE_404);
      const id = await paste(alice.browser);
      await admin.browser.delete(API.adminThread(id)).expect(200);
      await alice.browser.patch(API.thread(id)).send({ title: 'x' }).expect(404, PASTE_404);
    });

    it('a locked paste: refused to its author (403), taken from an admin', async () => {
      const id = await paste(alice.browser);
      await admin.browser.post(API.adminThreadLock(id)).expect(200);
      await alice.browser.patch(API.thread(id)).send({ title: 'Unlock me' }).expect(403, LOCKED);
      await admin.browser.patch(API.thread(id)).send({ title: 'Admin edit' }).expect(200);
      expect((await detail(id)).title).toBe('Admin edit');
    });

    it("records an admin's edit of another member's paste in the audit log, with the version", async () => {
      const id = await paste(alice.browser, { title: 'Before', content: 'a\nb\n' });
      const res = await admin.browser
        .patch(API.thread(id))
        .send({ title: 'After', content: 'a\nc\n' })
        .expect(200);
      expect(res.body.revisions).toBe(2);
      const [entry, ...more] = await auditOf('thread', id);
      expect(more).toEqual([]);
      expect(entry).toMatchObject({
        action: 'thread.edit',
        actorId: admin.user.id,
        actorName: admin.user.username,
        targetLabel: 'After',
        before: { title: 'Before', language: null, revision: 1, authorId: alice.user.id },
        after: {
          title: 'After',
          language: null,
          revision: 2,
          authorId: alice.user.id,
          linesAdded: 1,
          linesRemoved: 1,
        },
      });
      const rows = await revisionRows(id);
      expect(rows.map((r) => r.editor_id)).toEqual([alice.user.id, admin.user.id]);
      // The admin's own paste: no staff action.
      const own = await paste(admin.browser);
      await admin.browser.patch(API.thread(own)).send({ title: 'Mine' }).expect(200);
      expect(await auditOf('thread', own)).toEqual([]);
      // The audit filter takes the new action.
      const filtered = await admin.browser.get(API.adminAudit).query({ action: 'thread.edit' }).expect(200);
      expect((filtered.body as AuditPage).entries.every((e) => e.action === 'thread.edit')).toBe(true);
    });

    it("gives an admin's access token no admin powers: another member's paste is refused", async () => {
      const id = await paste(alice.browser);
      const token = (
        await admin.browser
          .post(API.userTokens)
          .send({ name: 'ci', scopes: ['pastes:write', 'read'] })
          .expect(201)
      ).body as CreatedAccessToken;
      await visitor()
        .patch(API.thread(id))
        .set('Authorization', `Bearer ${token.token}`)
        .send({ title: 'By token' })
        .expect(403, NOT_YOURS);
      // Its own paste, with pastes:write, it may edit.
      const own = await paste(admin.browser);
      await visitor()
        .patch(API.thread(own))
        .set('Authorization', `Bearer ${token.token}`)
        .send({ title: 'By token' })
        .expect(200);
    });

    it('search finds the new words and no longer the old ones', async () => {
      const id = await paste(alice.browser, { title: 'Search me', content: 'quixotic marmalade\n' });
      const found = async (q: string) =>
        ((await visitor().get(API.search).query({ q }).expect(200)).body as SearchResults).threads.map(
          (c) => c.id,
        );
      expect(await found('marmalade')).toContain(id);
      await alice.browser.patch(API.thread(id)).send({ content: 'zealous pumpernickel\n' }).expect(200);
      expect(await found('pumpernickel')).toContain(id);
      expect(await found('marmalade')).not.toContain(id);
    });

    it('shows the edit at once to visitors whose copy of the page was cached', async () => {
      const id = await paste(alice.browser, { title: 'Cached', content: 'old words\n' });
      expect((await detail(id)).content).toBe('old words\n'); // cached now
      expect((await detail(id)).content).toBe('old words\n');
      await alice.browser.patch(API.thread(id)).send({ content: 'new words\n' }).expect(200);
      const after = await detail(id);
      expect(after.content).toBe('new words\n');
      expect(after.editedAt).not.toBeNull();
    });
  });

  describe('secrets in an edit', () => {
    const LEAKY = `deploy\nexport AWS_ACCESS_KEY_ID=${AWS_ACCESS_KEY_ID}\n`;

    it('refuses new content holding a secret with 422 and its findings, unless allowSecrets', async () => {
      const id = await paste(alice.browser, { content: 'deploy\n' });
      const res = await alice.browser.patch(API.thread(id)).send({ content: LEAKY }).expect(422);
      const body = secretFindingsBodySchema.parse(res.body);
      expect(body.findings).toEqual([expect.objectContaining({ rule: 'aws:AWSAccessKeyID', line: 2 })]);
      expect(res.text).not.toContain(AWS_ACCESS_KEY_ID);
      expect((await detail(id)).content).toBe('deploy\n');
      expect(await revisionRows(id)).toEqual([]);
      // A title alone is not scanned; the body field and the query parameter publish it.
      await alice.browser.patch(API.thread(id)).send({ title: 'renamed' }).expect(200);
      await alice.browser.patch(API.thread(id)).send({ content: LEAKY, allowSecrets: true }).expect(200);
      expect((await detail(id)).content).toBe(LEAKY);
      await alice.browser
        .patch(`${API.thread(id)}?allowSecrets=true`)
        .send({ content: `${LEAKY}again\n` })
        .expect(200);
    });

    it("refuses a reply's new text holding a secret the same way", async () => {
      const thread = await paste(bob.browser);
      const id = await reply(alice.browser, thread, 'safe');
      await alice.browser.patch(API.reply(id)).send({ content: LEAKY }).expect(422);
      const [{ content }] = await t.dataSource.query('SELECT content FROM replies WHERE id = $1', [id]);
      expect(content).toBe('safe');
      await alice.browser.patch(API.reply(id)).send({ content: LEAKY, allowSecrets: true }).expect(200);
    });
  });

  describe('concurrent edits', () => {
    it('number their versions one after another, each against the one before', async () => {
      const id = await paste(alice.browser, { content: 'v0\n' });
      const edits = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          alice.browser.patch(API.thread(id)).send({ content: `v${i + 1}\n` }),
        ),
      );
      expect(edits.map((res) => res.status)).toEqual([200, 200, 200, 200, 200, 200]);
      const rows = await revisionRows(id);
      expect(rows.map((r) => r.n)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(rows.slice(1).map((r) => [r.lines_added, r.lines_removed])).toEqual(Array(6).fill([1, 1]));
      expect((await detail(id)).content).toBe(rows[6]!.content);
    });
  });

  describe('GET /api/threads/{id}/revisions', () => {
    it('lists the versions newest first, with editor and line counts, to anyone', async () => {
      const id = await paste(alice.browser, { title: 'v1', content: 'a\nb\nc\n' });
      await alice.browser.patch(API.thread(id)).send({ title: 'v2', content: 'a\nB\nc\nd\n' }).expect(200);
      await admin.browser.patch(API.thread(id)).send({ content: 'a\n' }).expect(200);
      const res = await visitor().get(API.threadRevisions(id)).expect(200);
      const { revisions } = revisionListSchema.parse(res.body);
      expect(revisions.map((r) => [r.n, r.title, r.editor?.id, r.linesAdded, r.linesRemoved])).toEqual([
        [3, 'v2', admin.user.id, 0, 3],
        [2, 'v2', alice.user.id, 2, 1],
        [1, 'v1', alice.user.id, 3, 0],
      ]);
      expect(Date.parse(revisions[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(revisions[1]!.createdAt));
      expect(revisions[0]!.editor).not.toHaveProperty('email');
      expect((await detail(id)).editedAt).toBe(revisions[0]!.createdAt);
    });

    it('answers one version in full, and 404 for a version or a paste that does not exist', async () => {
      const id = await paste(alice.browser, { title: 'Orig', content: 'orig\n', language: 'go' });
      // Never edited: its one version is the paste.
      const only = revisionListSchema.parse((await visitor().get(API.threadRevisions(id)).expect(200)).body);
      expect(only.revisions).toEqual([
        expect.objectContaining({ n: 1, title: 'Orig', linesAdded: 1, linesRemoved: 0 }),
      ]);
      expect(only.revisions[0]!.editor?.id).toBe(alice.user.id);
      expect((await visitor().get(API.threadRevision(id, 1)).expect(200)).body).toMatchObject({
        n: 1,
        content: 'orig\n',
        language: 'go',
      });
      await visitor().get(API.threadRevision(id, 2)).expect(404, REVISION_404);
      await alice.browser.patch(API.thread(id)).send({ content: 'changed\n', language: null }).expect(200);
      const first = revisionSchema.parse((await visitor().get(API.threadRevision(id, 1)).expect(200)).body);
      expect(first).toMatchObject({ n: 1, title: 'Orig', content: 'orig\n', language: 'go' });
      const second = revisionSchema.parse((await visitor().get(API.threadRevision(id, 2)).expect(200)).body);
      expect(second).toMatchObject({
        n: 2,
        content: 'changed\n',
        language: null,
        linesAdded: 1,
        linesRemoved: 1,
      });
      await visitor().get(API.threadRevision(id, 3)).expect(404, REVISION_404);
      await visitor().get(API.threadRevision(id, 0)).expect(404, REVISION_404);
      await visitor().get(API.threadRevision(id, 'x')).expect(404, REVISION_404);
      await visitor().get(API.threadRevisions(999_999)).expect(404, PASTE_404);
      await visitor().get(API.threadRevision(999_999, 1)).expect(404, PASTE_404);
    });

    it('goes with its paste when the paste is deleted', async () => {
      const id = await paste(alice.browser);
      await alice.browser.patch(API.thread(id)).send({ content: 'gone soon\n' }).expect(200);
      await admin.browser.delete(API.adminThread(id)).expect(200);
      await visitor().get(API.threadRevisions(id)).expect(404, PASTE_404);
      // Removed for good when the paste leaves the trash.
      await t.dataSource.query("UPDATE threads SET deleted_at = now() - interval '31 days' WHERE id = $1", [
        id,
      ]);
      await t.app.get(TrashPurger).purge();
      expect(await revisionRows(id)).toEqual([]);
    });
  });

  describe('PATCH /api/replies/{id}', () => {
    it('lets the author edit, keeps the versions, and shows editedAt in the paste', async () => {
      const thread = await paste(bob.browser);
      const id = await reply(alice.browser, thread, 'first\n');
      expect((await detail(thread)).replies.find((r) => r.id === id)?.editedAt).toBeNull();
      const res = await alice.browser.patch(API.reply(id)).send({ content: 'first\nsecond\n' }).expect(200);
      const edited = editedReplySchema.parse(res.body);
      expect(edited).toMatchObject({ id, threadId: thread, content: 'first\nsecond\n', revisions: 2 });
      const shown = (await detail(thread)).replies.find((r) => r.id === id)!;
      expect(shown).toMatchObject({ content: 'first\nsecond\n', editedAt: edited.editedAt });
      const list = revisionListSchema.parse((await visitor().get(API.replyRevisions(id)).expect(200)).body);
      expect(list.revisions.map((r) => [r.n, r.title, r.linesAdded, r.linesRemoved])).toEqual([
        [2, null, 1, 0],
        [1, null, 1, 0],
      ]);
      expect((await visitor().get(API.replyRevision(id, 1)).expect(200)).body).toMatchObject({
        n: 1,
        content: 'first\n',
        language: null,
      });
      await visitor().get(API.replyRevision(id, 3)).expect(404, REVISION_404);
      // Nothing changed: no version.
      await alice.browser.patch(API.reply(id)).send({ content: 'first\nsecond\n' }).expect(200);
      expect(
        revisionListSchema.parse((await visitor().get(API.replyRevisions(id))).body).revisions,
      ).toHaveLength(2);
    });

    it("shows a reply's edit at once to visitors whose copy of the page was cached", async () => {
      const thread = await paste(bob.browser);
      const id = await reply(alice.browser, thread, 'cached reply');
      const text = async () => (await detail(thread)).replies.find((r) => r.id === id)?.content;
      expect(await text()).toBe('cached reply');
      expect(await text()).toBe('cached reply');
      await alice.browser.patch(API.reply(id)).send({ content: 'edited reply' }).expect(200);
      expect(await text()).toBe('edited reply');
    });

    it('refuses others, visitors, banned members, a locked paste; validates; 404s', async () => {
      const thread = await paste(bob.browser);
      const id = await reply(alice.browser, thread, 'mine');
      await bob.browser.patch(API.reply(id)).send({ content: 'bob' }).expect(403, NOT_YOURS);
      await t.browser().patch(API.reply(id)).send({ content: 'visitor' }).expect(401, UNAUTHORIZED);
      await alice.browser
        .patch(API.reply(id))
        .send({ content: '  ' })
        .expect(400, { statusCode: 400, message: `content: ${POST_MESSAGES.contentRequired}` });
      await alice.browser
        .patch(API.reply(id))
        .send({ content: 'x'.repeat(100_001) })
        .expect(400, { statusCode: 400, message: `content: ${POST_MESSAGES.contentTooLong}` });
      await alice.browser.patch(API.reply(999_999)).send({ content: 'x' }).expect(404, REPLY_404);
      await visitor().get(API.replyRevisions(999_999)).expect(404, REPLY_404);
      const banned = await registered(t);
      const theirs = await reply(banned.browser, thread);
      await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [banned.user.id]);
      await banned.browser
        .patch(API.reply(theirs))
        .send({ content: 'banned' })
        .expect(403, { statusCode: 403, message: POST_MESSAGES.banned });
      await admin.browser.post(API.adminThreadLock(thread)).expect(200);
      await alice.browser.patch(API.reply(id)).send({ content: 'locked' }).expect(403, LOCKED);
      const [{ content }] = await t.dataSource.query('SELECT content FROM replies WHERE id = $1', [id]);
      expect(content).toBe('mine');
      // An admin edits it under the lock, recorded as a staff action.
      await admin.browser.patch(API.reply(id)).send({ content: 'moderated' }).expect(200);
      const [entry] = await auditOf('reply', id);
      expect(entry).toMatchObject({
        action: 'reply.edit',
        actorId: admin.user.id,
        targetLabel: 'moderated',
        before: { threadId: thread, authorId: alice.user.id, revision: 1, content: 'mine' },
        after: { revision: 2, content: 'moderated', linesAdded: 1, linesRemoved: 1 },
      });
    });
  });

  describe('line counts', () => {
    it('count lines added and removed as the diff does, a final line feed ending the last line', () => {
      expect(lineChanges('a\nb\n', 'a\nb\n')).toEqual({ added: 0, removed: 0 });
      expect(lineChanges('a\nb', 'a\nb\n')).toEqual({ added: 0, removed: 0 });
      expect(lineChanges('a\nb\nc\n', 'a\nc\n')).toEqual({ added: 0, removed: 1 });
      expect(lineChanges('a\n', 'a\nb\nc\n')).toEqual({ added: 2, removed: 0 });
      expect(lineChanges('a\r\nb\r\n', 'a\nb\n')).toEqual({ added: 2, removed: 2 });
    });

    it('stay quick for two pastes of 20,000 lines that share nothing', () => {
      const before = Array.from({ length: 20_000 }, (_, i) => `old line ${i}`).join('\n');
      const after = Array.from({ length: 20_000 }, (_, i) => `new line ${i}`).join('\n');
      const started = performance.now();
      expect(lineChanges(before, after)).toEqual({ added: 20_000, removed: 20_000 });
      expect(performance.now() - started).toBeLessThan(2000);
    });
  });
});

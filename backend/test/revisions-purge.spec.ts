import {
  API,
  type AuditPage,
  type CreatedAccessToken,
  editedReplySchema,
  editedPasteSchema,
  type RevisionList,
  revisionListSchema,
  REVISIONS_MESSAGES,
  TOKEN_MESSAGES,
  VERSIONS_KEPT_NEWEST,
} from '@termpaste/contracts';
import supertest from 'supertest';
import { WritesRevisionPurge17970100000000 } from '../src/infra/database/migrations/17970100000000-writes-revision-purge.js';
import { AWS_ACCESS_KEY_ID } from './support/secret-samples.js';
import { type Browser, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const REMOVED = { statusCode: 404, message: REVISIONS_MESSAGES.revisionRemoved };
const NOT_FOUND = { statusCode: 404, message: REVISIONS_MESSAGES.revisionNotFound };
const NEWEST = { statusCode: 409, message: REVISIONS_MESSAGES.newestVersion };
const NOT_YOURS = { statusCode: 403, message: REVISIONS_MESSAGES.notYourVersion };

/** Versions kept, pruned and removed; the secret an edit took out, and its removal. */
describe('the versions a post keeps, and removing one', () => {
  let t: TestApp;
  let admin: { browser: Browser; user: { id: number; username: string } };
  let alice: { browser: Browser; user: { id: number; username: string } };
  let bob: { browser: Browser; user: { id: number; username: string } };
  const visitor = () => supertest(t.url);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await registered(t);
    alice = await registered(t);
    bob = await registered(t);
  });

  afterAll(async () => {
    await t.close();
  });

  async function paste(browser: Browser, content = 'v1\n'): Promise<number> {
    return (await browser.post(API.threads).send({ title: 'A paste', content }).expect(201)).body
      .id as number;
  }

  async function list(path: string): Promise<RevisionList> {
    return revisionListSchema.parse((await visitor().get(path).expect(200)).body);
  }

  it(`keeps the original and the newest ${VERSIONS_KEPT_NEWEST}, pruning the others in the edit; the list names them`, async () => {
    const id = await paste(alice.browser);
    for (let v = 2; v <= VERSIONS_KEPT_NEWEST + 3; v++) {
      await alice.browser
        .patch(API.thread(id))
        .send({ content: `v${v}\n` })
        .expect(200);
    }
    // 53 versions written: 1, and 4..53 kept; 2 and 3 pruned.
    const { revisions, pruned } = await list(API.threadRevisions(id));
    expect(revisions).toHaveLength(VERSIONS_KEPT_NEWEST + 1);
    expect(revisions[0]!.n).toBe(VERSIONS_KEPT_NEWEST + 3);
    expect(revisions.at(-2)!.n).toBe(4);
    expect(revisions.at(-1)!.n).toBe(1);
    expect(pruned).toEqual([{ from: 2, to: 3 }]);
    await visitor().get(API.threadRevision(id, 2)).expect(404, NOT_FOUND);
    expect((await visitor().get(API.threadRevision(id, 1)).expect(200)).body.content).toBe('v1\n');
    expect((await visitor().get(API.threadRevision(id, 4)).expect(200)).body.content).toBe('v4\n');
    // Another edit prunes one more; the range grows.
    await alice.browser.patch(API.thread(id)).send({ content: 'last\n' }).expect(200);
    expect((await list(API.threadRevisions(id))).pruned).toEqual([{ from: 2, to: 4 }]);
    const [row]: Array<{ n: number }> = await t.dataSource.query(
      'SELECT count(*)::int AS n FROM thread_revisions WHERE thread_id = $1',
      [id],
    );
    expect(row!.n).toBe(VERSIONS_KEPT_NEWEST + 1);
  });

  it("prunes a reply's versions the same way", async () => {
    const thread = await paste(bob.browser);
    const reply = (await alice.browser.post(API.threadReplies(thread)).send({ content: 'r1' }).expect(201))
      .body.id as number;
    for (let v = 2; v <= VERSIONS_KEPT_NEWEST + 2; v++) {
      await alice.browser
        .patch(API.reply(reply))
        .send({ content: `r${v}` })
        .expect(200);
    }
    const { revisions, pruned } = await list(API.replyRevisions(reply));
    expect(revisions).toHaveLength(VERSIONS_KEPT_NEWEST + 1);
    expect(pruned).toEqual([{ from: 2, to: 2 }]);
  });

  it('removes a version for its author: 204, then 404 for everyone, shown as removed in the list', async () => {
    const id = await paste(alice.browser, 'one\n');
    await alice.browser.patch(API.thread(id)).send({ title: 'Secret title', content: 'two\n' }).expect(200);
    await alice.browser.patch(API.thread(id)).send({ title: 'Clean', content: 'three\n' }).expect(200);
    await alice.browser.delete(API.threadRevision(id, 2)).expect(204);
    await visitor().get(API.threadRevision(id, 2)).expect(404, REMOVED);
    await alice.browser.get(API.threadRevision(id, 2)).expect(404, REMOVED);
    await admin.browser.get(API.threadRevision(id, 2)).expect(404, REMOVED);
    const { revisions, pruned } = await list(API.threadRevisions(id));
    expect(revisions.map((r) => [r.n, r.removed, r.title])).toEqual([
      [3, false, 'Clean'],
      [2, true, null],
      [1, false, 'A paste'],
    ]);
    expect(pruned).toEqual([]);
    const [row]: Array<{ title: string | null; content: string | null }> = await t.dataSource.query(
      'SELECT title, content FROM thread_revisions WHERE thread_id = $1 AND n = 2',
      [id],
    );
    expect(row).toEqual({ title: null, content: null });
    // Again: it is gone.
    await alice.browser.delete(API.threadRevision(id, 2)).expect(404, REMOVED);
    // The original may go too; the paste itself is untouched.
    await alice.browser.delete(API.threadRevision(id, 1)).expect(204);
    expect((await visitor().get(API.thread(id)).expect(200)).body.content).toBe('three\n');
  });

  it('refuses the newest version (409 edit instead), a version never written or pruned (404), a post not there (404)', async () => {
    const id = await paste(alice.browser);
    // Never edited: its one version is the paste itself, the newest.
    await alice.browser.delete(API.threadRevision(id, 1)).expect(409, NEWEST);
    await alice.browser.delete(API.threadRevision(id, 2)).expect(404, NOT_FOUND);
    await alice.browser.patch(API.thread(id)).send({ content: 'v2\n' }).expect(200);
    await alice.browser.delete(API.threadRevision(id, 2)).expect(409, NEWEST);
    await alice.browser.delete(API.threadRevision(id, 7)).expect(404, NOT_FOUND);
    await alice.browser.delete(API.threadRevision(id, 'x')).expect(404, NOT_FOUND);
    await alice.browser
      .delete(API.threadRevision(999_999, 1))
      .expect(404, { statusCode: 404, message: 'Thread not found' });
    await alice.browser
      .delete(API.replyRevision(999_999, 1))
      .expect(404, { statusCode: 404, message: 'Reply not found' });
  });

  it('refuses another member (403), a visitor (401) and any access token (403), on pastes and replies', async () => {
    const id = await paste(alice.browser);
    await alice.browser.patch(API.thread(id)).send({ content: 'v2\n' }).expect(200);
    const reply = (await alice.browser.post(API.threadReplies(id)).send({ content: 'r1' }).expect(201)).body
      .id as number;
    await alice.browser.patch(API.reply(reply)).send({ content: 'r2' }).expect(200);
    await bob.browser.delete(API.threadRevision(id, 1)).expect(403, NOT_YOURS);
    await bob.browser.delete(API.replyRevision(reply, 1)).expect(403, NOT_YOURS);
    const anonymous = t.browser();
    await anonymous.delete(API.threadRevision(id, 1)).expect(401);
    await anonymous.delete(API.replyRevision(reply, 1)).expect(401);
    const token = (
      await alice.browser
        .post(API.userTokens)
        .send({ name: 'ci', scopes: ['pastes:write', 'read'] })
        .expect(201)
    ).body as CreatedAccessToken;
    for (const path of [API.threadRevision(id, 1), API.replyRevision(reply, 1)]) {
      await visitor()
        .delete(path)
        .set('Authorization', `Bearer ${token.token}`)
        .expect(403, { statusCode: 403, message: TOKEN_MESSAGES.notForTokens });
    }
    // Nothing was removed.
    expect((await visitor().get(API.threadRevision(id, 1)).expect(200)).body.removed).toBe(false);
    expect((await visitor().get(API.replyRevision(reply, 1)).expect(200)).body.content).toBe('r1');
  });

  it("lets an admin remove a version of another member's post, recorded in the audit log", async () => {
    const id = await paste(alice.browser);
    await alice.browser.patch(API.thread(id)).send({ content: 'v2\n' }).expect(200);
    const reply = (await alice.browser.post(API.threadReplies(id)).send({ content: 'r1' }).expect(201)).body
      .id as number;
    await alice.browser.patch(API.reply(reply)).send({ content: 'r2' }).expect(200);
    await admin.browser.delete(API.threadRevision(id, 1)).expect(204);
    await admin.browser.delete(API.replyRevision(reply, 1)).expect(204);
    await visitor().get(API.replyRevision(reply, 1)).expect(404, REMOVED);
    const page = (await admin.browser.get(API.adminAudit).expect(200)).body as AuditPage;
    const entries = page.entries.filter((e) => e.action.endsWith('.revision_purge'));
    expect(entries.slice(0, 2)).toMatchObject([
      { action: 'reply.revision_purge', targetType: 'reply', targetId: reply, targetLabel: 'r2' },
      { action: 'thread.revision_purge', targetType: 'thread', targetId: id, targetLabel: 'A paste' },
    ]);
    expect(entries[0]!.before).toEqual({ revision: 1, authorId: alice.user.id });
    // The author's own removal is no staff action.
    await alice.browser.patch(API.thread(id)).send({ content: 'v3\n' }).expect(200);
    await alice.browser.delete(API.threadRevision(id, 2)).expect(204);
    const after = (await admin.browser.get(API.adminAudit).expect(200)).body as AuditPage;
    expect(after.entries.filter((e) => e.action === 'thread.revision_purge')).toHaveLength(1);
  });

  it('an edit that takes a secret out names the older versions still holding it; other edits name none', async () => {
    const secret = `aws_access_key_id = ${AWS_ACCESS_KEY_ID}\n`;
    const id = await paste(alice.browser, 'clean\n');
    const first = await alice.browser
      .patch(API.thread(id))
      .send({ content: `clean\n${secret}`, allowSecrets: true })
      .expect(200);
    expect(editedPasteSchema.parse(first.body).secretVersions).toEqual([]);
    await alice.browser
      .patch(API.thread(id))
      .send({ content: `still\n${secret}`, allowSecrets: true })
      .expect(200);
    const cleaned = await alice.browser.patch(API.thread(id)).send({ content: 'clean again\n' }).expect(200);
    expect(editedPasteSchema.parse(cleaned.body).secretVersions).toEqual([2, 3]);
    await alice.browser.delete(API.threadRevision(id, 2)).expect(204);
    await alice.browser.delete(API.threadRevision(id, 3)).expect(204);
    await visitor().get(API.threadRevision(id, 3)).expect(404, REMOVED);
    // A reply too.
    const reply = (
      await alice.browser
        .post(API.threadReplies(id))
        .send({ content: `oops ${secret}`, allowSecrets: true })
        .expect(201)
    ).body.id as number;
    const edited = await alice.browser.patch(API.reply(reply)).send({ content: 'oops, removed' }).expect(200);
    expect(editedReplySchema.parse(edited.body).secretVersions).toEqual([1]);
    const plain = await alice.browser.patch(API.reply(reply)).send({ content: 'plain edit' }).expect(200);
    expect(editedReplySchema.parse(plain.body).secretVersions).toEqual([]);
  });

  it('its migration goes down (removed versions with it) and up again, keeping every other audit action', async () => {
    const checkOf = async (): Promise<string> =>
      (
        (await t.dataSource.query(
          `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'audit_log_action_check'`,
        )) as Array<{ def: string }>
      )[0]!.def;
    const before = await checkOf();
    const runner = t.dataSource.createQueryRunner();
    try {
      const migration = new WritesRevisionPurge17970100000000();
      await migration.down(runner);
      expect(await checkOf()).not.toContain('revision_purge');
      expect(await checkOf()).toContain("'thread.edit'");
      const [removed]: Array<{ n: number }> = await runner.query(
        'SELECT count(*)::int AS n FROM thread_revisions WHERE content IS NULL',
      );
      expect(removed!.n).toBe(0);
      await migration.up(runner);
      // The same actions (a later migration's come before this one's again: the order means nothing).
      const actions = (def: string) => [...def.matchAll(/'([^']+)'/g)].map((match) => match[1]).sort();
      expect(actions(await checkOf())).toEqual(actions(before));
    } finally {
      await runner.release();
    }
  });
});

import {
  API,
  editedPasteSchema,
  LINE_COMMENT_MAX_LINES,
  LINE_COMMENT_MESSAGES,
  type PasteDetail,
  pasteDetailSchema,
  type ReplyView,
  revisionListSchema,
  SUGGESTION_MAX,
} from '@termpaste/contracts';
import supertest from 'supertest';
import { liveUser, type LiveUser } from './support/live.js';
import { expectPasteHidden, memberViewer, PASTE_404, visitorOf } from './support/paste-routes.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const SIX_LINES = 'one\ntwo\nthree\nfour\nfive\nsix\n';

/** Comments on lines of a paste, their suggested changes, and applying one as a new version. */
describe('line comments and suggested changes', () => {
  let t: TestApp;
  let admin: LiveUser;
  let alice: LiveUser;
  let bob: LiveUser;
  let carol: LiveUser;
  let words = 0;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await liveUser(t);
    alice = await liveUser(t);
    bob = await liveUser(t);
    carol = await liveUser(t);
  });

  afterAll(async () => {
    await t.close();
  });

  const newWord = () => `lcword${Date.now().toString(36)}q${(words++).toString(36)}`;

  async function paste(
    content = SIX_LINES,
    visibility: 'public' | 'private' = 'public',
  ): Promise<{ id: number; key: string | null; ref: number | string; title: string; word: string }> {
    const word = newWord();
    const title = `Lines ${word}`;
    const res = await alice.browser
      .post(API.threads)
      .send({ title, content: `${content}${word}\n`, visibility })
      .expect(201);
    const [row]: Array<{ id: number; key: string | null }> = await t.dataSource.query(
      'SELECT id, key FROM threads WHERE title = $1',
      [title],
    );
    return { ...row!, ref: res.body.id as number | string, title, word };
  }

  const comment = (who: LiveUser, ref: number | string, body: object) =>
    who.browser.post(API.threadReplies(ref)).send({ content: 'A note on these lines', ...body });

  const apply = (who: LiveUser, ref: number | string, replyId: number) =>
    who.browser.post(API.threadSuggestionApply(ref, replyId));

  async function page(ref: number | string): Promise<PasteDetail> {
    return pasteDetailSchema.parse(
      (await t.http.get(API.thread(ref)).set('Cache-Control', 'no-cache').expect(200)).body,
    );
  }

  async function replyOf(ref: number | string, id: number): Promise<ReplyView> {
    const found = (await page(ref)).replies.find((reply) => reply.id === id);
    if (!found) throw new Error(`reply ${id} not on the page`);
    return found;
  }

  it('a member comments on lines 3–5 with a suggestion; the author applies it, credited in the history', async () => {
    const p = await paste();
    await admin.browser.put(API.threadWatch(p.ref)).expect((res) => expect(res.status).toBeLessThan(300));
    const posted = await comment(bob, p.ref, {
      content: `Tidier @${carol.user.username}`,
      anchor: { fromLine: 3, toLine: 5, version: 1 },
      suggestion: 'THREE\nFOUR\nFIVE',
    }).expect(201);
    const replyId = posted.body.id as number;
    expect(await replyOf(p.ref, replyId)).toMatchObject({
      parentId: null,
      anchor: { fromLine: 3, toLine: 5, version: 1 },
      outdated: false,
      suggestion: 'THREE\nFOUR\nFIVE',
      suggestionApplied: null,
    });
    // A reply like any: the author is told, the mentioned member too, and it takes votes.
    const told = async (userId: number, type: string) => {
      const [{ n }] = await t.dataSource.query(
        'SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND thread_id = $2 AND type = $3',
        [userId, p.id, type],
      );
      return n > 0;
    };
    await waitFor('the author told of the comment', () => told(alice.user.id, 'reply'));
    await waitFor('the mentioned member told', () => told(carol.user.id, 'mention'));
    await waitFor('a watcher told', () => told(admin.user.id, 'watch'));
    await carol.browser.post(API.votes).send({ replyId, value: 1 }).expect(200);

    // Only the paste's author applies it: another member, an admin, a visitor are refused.
    const NOT_YOURS = { statusCode: 403, message: LINE_COMMENT_MESSAGES.notYourPaste };
    await apply(bob, p.ref, replyId).expect(403, NOT_YOURS);
    await apply(admin, p.ref, replyId).expect(403, NOT_YOURS);
    // A visitor has no session: the write is refused before the route (403).
    await supertest(t.url).post(API.threadSuggestionApply(p.ref, replyId)).expect(403);

    const edited = editedPasteSchema.parse((await apply(alice, p.ref, replyId).expect(200)).body);
    expect(edited.content).toBe(`one\ntwo\nTHREE\nFOUR\nFIVE\nsix\n${p.word}\n`);
    expect(edited.revisions).toBe(2);
    const after = await page(p.ref);
    expect(after.content).toBe(edited.content);
    expect(after.replies.find((reply) => reply.id === replyId)).toMatchObject({
      suggestionApplied: 2,
      // The lines now read as the suggestion: the comment still stands on them.
      outdated: true,
    });
    const { revisions } = revisionListSchema.parse(
      (await t.http.get(API.threadRevisions(p.ref)).expect(200)).body,
    );
    expect(revisions[0]).toMatchObject({
      n: 2,
      editor: { id: alice.user.id },
      suggestedBy: { id: bob.user.id, username: bob.user.username },
      suggestionReplyId: replyId,
      linesAdded: 3,
      linesRemoved: 3,
    });
    expect(revisions[1]!.suggestedBy).toBeUndefined();
    await apply(alice, p.ref, replyId).expect(409, {
      statusCode: 409,
      message: LINE_COMMENT_MESSAGES.alreadyApplied(2),
    });
  });

  it('validates the anchor and the suggestion, each with its message', async () => {
    const p = await paste();
    const refused = async (body: object, message: string) => {
      await comment(bob, p.ref, body).expect(400, { statusCode: 400, message });
    };
    await refused(
      { anchor: { fromLine: 0, toLine: 1, version: 1 } },
      `anchor.fromLine: ${LINE_COMMENT_MESSAGES.lineNumber}`,
    );
    await refused(
      { anchor: { fromLine: 1.5, toLine: 2, version: 1 } },
      `anchor.fromLine: ${LINE_COMMENT_MESSAGES.lineNumber}`,
    );
    await refused(
      { anchor: { fromLine: 1, toLine: 2, version: 0 } },
      `anchor.version: ${LINE_COMMENT_MESSAGES.version}`,
    );
    await refused(
      { anchor: { fromLine: 4, toLine: 3, version: 1 } },
      `anchor.toLine: ${LINE_COMMENT_MESSAGES.backwards}`,
    );
    await refused(
      { anchor: { fromLine: 1, toLine: LINE_COMMENT_MAX_LINES + 1, version: 1 } },
      `anchor.toLine: ${LINE_COMMENT_MESSAGES.tooManyLines}`,
    );
    await refused(
      { anchor: { fromLine: 1, toLine: 1, version: 1 }, suggestion: 'x'.repeat(SUGGESTION_MAX + 1) },
      `suggestion: ${LINE_COMMENT_MESSAGES.suggestionTooLong}`,
    );
    await refused(
      { anchor: { fromLine: 1, toLine: 1, version: 1 }, suggestion: 7 },
      `suggestion: ${LINE_COMMENT_MESSAGES.suggestionText}`,
    );
    await refused({ suggestion: 'ONE' }, LINE_COMMENT_MESSAGES.suggestionNeedsAnchor);
    // Seven lines (six and the word): the eighth is past the end.
    await refused(
      { anchor: { fromLine: 6, toLine: 8, version: 1 } },
      LINE_COMMENT_MESSAGES.linesOutside(7, 1),
    );
    await refused(
      { anchor: { fromLine: 1, toLine: 1, version: 2 } },
      LINE_COMMENT_MESSAGES.versionUnknown(2),
    );
    await refused(
      { anchor: { fromLine: 2, toLine: 3, version: 1 }, suggestion: 'two\nthree\n' },
      LINE_COMMENT_MESSAGES.suggestionSame,
    );
    const top = await comment(bob, p.ref, { content: 'plain' }).expect(201);
    await refused(
      { parentId: top.body.id as number, anchor: { fromLine: 1, toLine: 1, version: 1 } },
      LINE_COMMENT_MESSAGES.anchorOnAnswer,
    );
    // An answer to a line comment is an ordinary reply under it.
    const lineComment = await comment(bob, p.ref, { anchor: { fromLine: 1, toLine: 1, version: 1 } }).expect(
      201,
    );
    await comment(alice, p.ref, { content: 'Agreed', parentId: lineComment.body.id as number }).expect(201);
    // The last line, and the whole paste at the bound, are fine.
    await comment(bob, p.ref, { anchor: { fromLine: 7, toLine: 7, version: 1 } }).expect(201);
    // A comment with lines but no suggestion cannot be applied; neither can a reply of another paste.
    await apply(alice, p.ref, lineComment.body.id as number).expect(422, {
      statusCode: 422,
      message: LINE_COMMENT_MESSAGES.noSuggestion,
    });
    const other = await paste();
    const elsewhere = await comment(bob, other.ref, {
      anchor: { fromLine: 1, toLine: 1, version: 1 },
      suggestion: 'ONE',
    }).expect(201);
    const NOT_HERE = { statusCode: 404, message: LINE_COMMENT_MESSAGES.commentNotFound };
    await apply(alice, p.ref, elsewhere.body.id as number).expect(404, NOT_HERE);
    await apply(alice, p.ref, 2_000_000_000).expect(404, NOT_HERE);
    await apply(alice, p.ref, 'x' as unknown as number).expect(404, NOT_HERE);
  });

  it("a later version that changes the lines marks the comment 'on an older version'; it no longer applies", async () => {
    const p = await paste();
    const first = await comment(bob, p.ref, {
      anchor: { fromLine: 1, toLine: 2, version: 1 },
      suggestion: 'ONE\nTWO',
    }).expect(201);
    const untouched = await comment(bob, p.ref, {
      anchor: { fromLine: 5, toLine: 6, version: 1 },
      suggestion: 'FIVE AND SIX',
    }).expect(201);
    await alice.browser
      .patch(API.thread(p.ref))
      .send({ content: `uno\ntwo\nthree\nfour\nfive\nsix\n${p.word}\n` })
      .expect(200);
    expect(await replyOf(p.ref, first.body.id as number)).toMatchObject({
      anchor: { fromLine: 1, toLine: 2, version: 1 },
      outdated: true,
    });
    expect(await replyOf(p.ref, untouched.body.id as number)).toMatchObject({ outdated: false });
    await apply(alice, p.ref, first.body.id as number).expect(409, {
      statusCode: 409,
      message: LINE_COMMENT_MESSAGES.linesChanged(1),
    });
    // Lines the edit left alone still take the suggestion made on the older version.
    const edited = editedPasteSchema.parse(
      (await apply(alice, p.ref, untouched.body.id as number).expect(200)).body,
    );
    expect(edited.content).toBe(`uno\ntwo\nthree\nfour\nFIVE AND SIX\n${p.word}\n`);
    expect(edited.revisions).toBe(3);
    // A comment may name a version kept in the history, its lines judged against that version.
    await comment(bob, p.ref, { anchor: { fromLine: 7, toLine: 7, version: 2 } }).expect(201);
    await comment(bob, p.ref, { anchor: { fromLine: 7, toLine: 7, version: 3 } }).expect(400, {
      statusCode: 400,
      message: LINE_COMMENT_MESSAGES.linesOutside(6, 3),
    });
  });

  it('a suggestion that would empty the paste is refused; a deleted comment is not found', async () => {
    const p = await paste('');
    const wipe = await comment(bob, p.ref, {
      anchor: { fromLine: 1, toLine: 1, version: 1 },
      suggestion: '',
    }).expect(201);
    await apply(alice, p.ref, wipe.body.id as number).expect(422, {
      statusCode: 422,
      message: LINE_COMMENT_MESSAGES.wouldEmpty,
    });
    const gone = await comment(bob, p.ref, {
      anchor: { fromLine: 1, toLine: 1, version: 1 },
      suggestion: 'other',
    }).expect(201);
    await bob.browser.delete(API.reply(gone.body.id as number)).expect(204);
    await apply(alice, p.ref, gone.body.id as number).expect(404, {
      statusCode: 404,
      message: LINE_COMMENT_MESSAGES.commentNotFound,
    });
    // The deleted comment shows nothing of its lines or suggestion.
    expect((await page(p.ref)).replies.find((reply) => reply.id === gone.body.id)).toBeUndefined();
  });

  it('a comment hidden pending review shows nothing of its lines or suggestion, and does not apply', async () => {
    const p = await paste();
    const posted = await comment(bob, p.ref, {
      anchor: { fromLine: 2, toLine: 2, version: 1 },
      suggestion: 'TWO',
    }).expect(201);
    const replyId = posted.body.id as number;
    await t.dataSource.query('UPDATE replies SET hidden_at = now() WHERE id = $1', [replyId]);
    const hidden = await replyOf(p.ref, replyId);
    expect(hidden).toMatchObject({ hidden: true, content: '' });
    expect(hidden.anchor).toBeUndefined();
    expect(hidden.suggestion).toBeUndefined();
    await apply(alice, p.ref, replyId).expect(404, {
      statusCode: 404,
      message: LINE_COMMENT_MESSAGES.commentNotFound,
    });
  });

  it('a paste made private hides its line comments through every route; commenting and applying are 404', async () => {
    const p = await paste();
    const posted = await comment(bob, p.ref, {
      content: `secret-ish ${p.word}`,
      anchor: { fromLine: 3, toLine: 5, version: 1 },
      suggestion: 'x',
    }).expect(201);
    const replyId = posted.body.id as number;
    const edited = editedPasteSchema.parse(
      (await alice.browser.patch(API.thread(p.ref)).send({ visibility: 'private' }).expect(200)).body,
    );
    const key = edited.id as string;
    const walked = { id: p.id, key, title: p.title, authorId: alice.user.id, word: p.word, replyId };
    for (const viewer of [
      visitorOf(t),
      memberViewer(bob, 'the commenter'),
      memberViewer(admin, 'an admin'),
    ]) {
      await expectPasteHidden(walked, viewer);
    }
    for (const ref of [p.id, key]) {
      await comment(bob, ref, { anchor: { fromLine: 1, toLine: 1, version: 1 } }).expect(404, PASTE_404);
      await apply(bob, ref, replyId).expect(404, PASTE_404);
      await apply(admin, ref, replyId).expect(404, PASTE_404);
    }
    // Its author still reads it and applies the suggestion.
    expect((await apply(alice, key, replyId).expect(200)).body.revisions).toBe(2);
  });
});

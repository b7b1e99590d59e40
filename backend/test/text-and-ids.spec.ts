import { API, type PasteDetail } from '@termpaste/contracts';
import { type Browser, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/*
 * Found by the reliability suite's hostile input (reliability/scenarios/hostile.mjs): ids past PostgreSQL's
 * integer range reached the database (500), and lone surrogates were stored as U+FFFD by the driver after
 * the schema had accepted them as they were (so the text read back was not the text accepted).
 */
describe('ids and text a member sends', () => {
  let t: TestApp;
  let alice: Browser;
  let pasteId: number;

  beforeAll(async () => {
    t = await createTestApp();
    ({ browser: alice } = await registered(t));
    const res = await alice.post(API.threads).send({ title: 'ids', content: 'and text' }).expect(201);
    pasteId = res.body.id;
  });
  afterAll(() => t.close());

  it.each([2 ** 31, 9_007_199_254_740_991])(
    'refuses a reply to parent %d with 400, not 500',
    async (parentId) => {
      const res = await alice.post(API.threadReplies(pasteId)).send({ content: 'x', parentId });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^parentId: /);
    },
  );

  it.each([
    { threadId: 2 ** 31, value: 1 },
    { replyId: 2 ** 31, value: -1 },
  ])('refuses a vote for %j with 400, not 500', async (body) => {
    const res = await alice.post(API.votes).send(body);
    expect(res.status).toBe(400);
  });

  it('stores lone surrogates as U+FFFD and NUL not at all, and reads back exactly what it accepted', async () => {
    const res = await alice
      .post(API.threads)
      .set('Content-Type', 'application/json')
      // JSON.stringify would escape them the same way; written out so the test says what goes over the wire.
      .send('{"title":"lone \\ud800 high","content":"lone \\udfff low\\u0000 and 🚀"}')
      .expect(201);
    const paste = (await alice.get(API.thread(res.body.id)).expect(200)).body as PasteDetail;
    expect(paste.title).toBe('lone \ufffd high');
    expect(paste.content).toBe('lone \ufffd low and 🚀');
  });
});

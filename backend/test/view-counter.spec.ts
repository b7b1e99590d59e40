import { API, pasteDetailSchema } from '@termpaste/contracts';
import type { DataSource } from 'typeorm';
import { VIEW_COUNTER_MAX_PASTES, ViewCounter } from '../src/modules/pastes/view-counter.js';
import { type Browser, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

describe('paste views', () => {
  let t: TestApp;
  let alice: { browser: Browser };

  beforeAll(async () => {
    t = await createTestApp();
    alice = await registered(t);
  });

  afterAll(async () => {
    await t?.close();
  });

  async function paste(): Promise<number> {
    const res = await alice.browser.post(API.threads).send({ title: 'viewed', content: 'text' }).expect(201);
    return (res.body as { id: number }).id;
  }

  async function stored(id: number): Promise<number | undefined> {
    const [row] = await t.dataSource.query('SELECT view_count FROM threads WHERE id = $1', [id]);
    return (row as { view_count: number } | undefined)?.view_count;
  }

  async function viewCount(id: number): Promise<number> {
    return pasteDetailSchema.parse((await t.http.get(API.thread(id)).expect(200)).body).viewCount;
  }

  /** A counter of its own on the test database, whose queries fail while `down.value` is true. */
  function ownCounter(down = { value: false }): ViewCounter {
    const dataSource = {
      query: (sql: string, params?: unknown[]) =>
        down.value ? Promise.reject(new Error('database down')) : t.dataSource.query(sql, params),
    } as unknown as DataSource;
    return new ViewCounter(dataSource, { viewFlushMs: 60_000 });
  }

  describe('GET /api/threads/:id', () => {
    it('writes no row: views wait in memory, shown at once, stored by a flush', async () => {
      const views = t.app.get(ViewCounter);
      const id = await paste();
      expect(await viewCount(id)).toBe(1);
      expect(await viewCount(id)).toBe(2);
      expect(views.pending(id)).toBe(2);
      expect(await stored(id)).toBe(0);

      await views.flush();
      expect(views.pending(id)).toBe(0);
      expect(await stored(id)).toBe(2);
      expect(await viewCount(id)).toBe(3);
    });

    it('counts no view of an unknown paste (404)', async () => {
      const views = t.app.get(ViewCounter);
      await t.http.get(API.thread(999_999)).expect(404, { statusCode: 404, message: 'Thread not found' });
      expect(views.pending(999_999)).toBe(0);
    });

    it('tells which pastes a flush stored', async () => {
      const views = t.app.get(ViewCounter);
      await views.flush();
      const [a, b] = [await paste(), await paste()];
      await viewCount(a);
      await viewCount(b);
      const told: number[][] = [];
      const subscription = views.flushed$.subscribe((ids) => told.push(ids));
      try {
        await views.flush();
        await views.flush(); // nothing left: tells nothing
      } finally {
        subscription.unsubscribe();
      }
      expect(told).toEqual([[a, b].sort((x, y) => x - y)]);
    });

    it('counts concurrent views exactly, a flush running among them', async () => {
      const views = t.app.get(ViewCounter);
      const id = await paste();
      const reads = Array.from({ length: 30 }, (_, i) =>
        i === 15 ? views.flush().then(() => viewCount(id)) : viewCount(id),
      );
      await Promise.all(reads);
      expect(await viewCount(id)).toBe(31);
      await views.flush();
      expect(await stored(id)).toBe(31);
    });
  });

  it('a batch naming a deleted paste stores the others', async () => {
    const views = ownCounter();
    const [kept, deleted] = [await paste(), await paste()];
    views.count(kept);
    views.count(deleted);
    views.count(deleted);
    await t.dataSource.query('DELETE FROM threads WHERE id = $1', [deleted]);
    const told: number[][] = [];
    views.flushed$.subscribe((ids) => told.push(ids));
    await views.flush();
    expect(await stored(kept)).toBe(1);
    expect(views.pending(deleted)).toBe(0);
    expect(told).toEqual([[kept]]);
  });

  it('a failed flush keeps the views for the next one', async () => {
    const down = { value: true };
    const views = ownCounter(down);
    const id = await paste();
    views.count(id);
    views.count(id);
    await expect(views.flush()).rejects.toThrow('database down');
    expect(views.pending(id)).toBe(2);
    views.count(id);
    await expect(views.flush()).rejects.toThrow('database down');
    expect(views.pending(id)).toBe(3);
    expect(await stored(id)).toBe(0);

    down.value = false;
    await views.flush();
    expect(views.pending(id)).toBe(0);
    expect(await stored(id)).toBe(3);
  });

  it('keeps the views of at most VIEW_COUNTER_MAX_PASTES pastes while the database is down', async () => {
    const views = ownCounter({ value: true });
    for (let id = 1; id <= VIEW_COUNTER_MAX_PASTES; id++) views.count(id);
    await expect(views.flush()).rejects.toThrow('database down');
    views.count(VIEW_COUNTER_MAX_PASTES + 1); // one paste more: dropped
    views.count(1); // one already waiting: counted
    expect(views.pending(VIEW_COUNTER_MAX_PASTES + 1)).toBe(0);
    expect(views.pending(1)).toBe(2);
  });

  it('stores the views on shutdown', async () => {
    const app = await createTestApp();
    let again: TestApp | undefined;
    try {
      const author = await registered(app);
      const res = await author.browser.post(API.threads).send({ title: 'x', content: 'y' }).expect(201);
      const id = (res.body as { id: number }).id;
      await app.http.get(API.thread(id)).expect(200);
      await app.http.get(API.thread(id)).expect(200);
      await app.app.close();

      again = await createTestApp({ database: app.database });
      const [row] = await again.dataSource.query('SELECT view_count FROM threads WHERE id = $1', [id]);
      expect(row).toEqual({ view_count: 2 });
    } finally {
      await again?.close();
      await app.close().catch(() => undefined);
      await app.database.drop();
    }
  });
});

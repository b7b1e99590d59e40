import { rm } from 'node:fs/promises';
import { heldPostSchema, MODERATION_MESSAGES } from '@termpaste/contracts';
import { registered } from '../../../backend/test/support/accounts.js';
import { createTestApp, type TestApp } from '../../../backend/test/support/test-app.js';
import { makeToken, tempDir, termpaste } from './support.js';

describe('termpaste and a paste held for review (202)', () => {
  let t: TestApp;
  let config: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    // A new member's first post is held for approval.
    t = await createTestApp({ env: { MODERATION_HOLD_FIRST_POSTS: '1' } });
    await registered(t);
    const member = await registered(t);
    const token = (await makeToken(member.browser)).token;
    config = await tempDir('termpaste-cli-xdg-');
    env = { XDG_CONFIG_HOME: config };
    const login = await termpaste(['login', '--url', t.url], { env: { ...env, TERMPASTE_TOKEN: token } });
    if (login.code !== 0) throw new Error(`login failed: ${login.stderr}`);
  });

  afterAll(async () => {
    await t?.close();
    await rm(config, { recursive: true, force: true });
  });

  const heldItems = async (): Promise<number> => {
    const [row] = await t.dataSource.query("SELECT count(*)::int AS n FROM review_items WHERE kind = 'held'");
    return row.n;
  };

  it('prints the message instead of a URL, and exits 0: nothing is published', async () => {
    const run = await termpaste(['--title', 'Held from the terminal'], { env, input: 'echo held\n' });
    expect([run.code, run.stderr, run.stdout.toString()]).toEqual([0, '', `${MODERATION_MESSAGES.held}\n`]);
    expect(await heldItems()).toBe(1);
    const [row] = await t.dataSource.query('SELECT count(*)::int AS n FROM threads');
    expect(row.n).toBe(0);
  });

  it("with --json prints the server's object", async () => {
    const run = await termpaste(['--json'], { env, input: 'echo held again\n' });
    expect([run.code, run.stderr]).toEqual([0, '']);
    const held = heldPostSchema.parse(JSON.parse(run.stdout.toString()));
    expect(held).toEqual({ held: true, message: MODERATION_MESSAGES.held, itemId: expect.any(Number) });
    expect(await heldItems()).toBe(2);
  });
});

import {
  API,
  type CurrentUser,
  currentUserSchema,
  POST_MESSAGES,
  PREMIUM_RANK_NAMES,
  PROFILE_LIMITS,
  SETTINGS_MESSAGES,
} from '@termpaste/contracts';
import { type Browser, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const UNAUTHORIZED = { statusCode: 401, message: 'Unauthorized' };
const BANNED = { statusCode: 403, message: POST_MESSAGES.banned };

type Member = Awaited<ReturnType<typeof registered>>;

describe('profile settings and rank selection', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await registered(t); // the owner: keep the others plain members
  });

  afterAll(async () => {
    await t.close();
  });

  async function me(browser: Browser): Promise<CurrentUser> {
    const res = await browser.get(API.currentUser).expect(200);
    return currentUserSchema.strict().parse(res.body);
  }

  async function ban(member: Member): Promise<void> {
    // As a ban that has not reached the session store yet: the session still names the account.
    await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [member.user.id]);
  }

  describe('PUT /api/user/profile', () => {
    let alice: Member;

    beforeAll(async () => {
      alice = await registered(t);
    });

    async function save(body: object): Promise<CurrentUser> {
      const res = await alice.browser.put(API.userProfile).send(body).expect(200);
      const user = currentUserSchema.strict().parse(res.body);
      expect(await me(alice.browser)).toEqual(user);
      return user;
    }

    it('saves first name, last name and bio, answering with the current user', async () => {
      const user = await save({
        firstName: 'Ada',
        lastName: 'Lovelace',
        bio: '# Hello\n\n**Analytical** engines.',
      });
      expect(user).toMatchObject({
        id: alice.user.id,
        username: alice.account.username,
        email: alice.account.email,
        firstName: 'Ada',
        lastName: 'Lovelace',
        bio: '# Hello\n\n**Analytical** engines.',
      });
    });

    it('trims each field and drops NUL characters', async () => {
      const user = await save({ firstName: '  Ada \n', lastName: '\tLove\0lace ', bio: '\n  text  \n' });
      expect(user).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', bio: 'text' });
    });

    it('clears a field sent empty, blank, null or not at all', async () => {
      await save({ firstName: 'Ada', lastName: 'Lovelace', bio: 'bio' });
      expect(await save({ firstName: '', lastName: '   ', bio: null })).toMatchObject({
        firstName: null,
        lastName: null,
        bio: null,
      });
      await save({ firstName: 'Ada', lastName: 'Lovelace', bio: 'bio' });
      expect(await save({ bio: 'only the bio' })).toMatchObject({
        firstName: null,
        lastName: null,
        bio: 'only the bio',
      });
    });

    it('keeps Markdown and raw HTML as typed (rendering makes it safe)', async () => {
      const bio = '<script>alert(1)</script> [x](javascript:alert(1)) `code`';
      expect(await save({ bio })).toMatchObject({ bio });
    });

    it(`takes names of ${PROFILE_LIMITS.nameMax} and a bio of ${PROFILE_LIMITS.bioMax} characters, counted after trimming`, async () => {
      const name = 'n'.repeat(PROFILE_LIMITS.nameMax);
      const bio = 'b'.repeat(PROFILE_LIMITS.bioMax);
      expect(await save({ firstName: ` ${name} `, lastName: name, bio: `\n${bio}\n` })).toMatchObject({
        firstName: name,
        lastName: name,
        bio,
      });
    });

    it.each([
      [{ firstName: 'n'.repeat(PROFILE_LIMITS.nameMax + 1) }, SETTINGS_MESSAGES.firstNameTooLong],
      [{ lastName: 'n'.repeat(PROFILE_LIMITS.nameMax + 1) }, SETTINGS_MESSAGES.lastNameTooLong],
      [{ bio: 'b'.repeat(PROFILE_LIMITS.bioMax + 1) }, SETTINGS_MESSAGES.bioTooLong],
    ])('400 with a message over the limit: %#', async (body, message) => {
      await save({ firstName: 'Kept', lastName: 'As is', bio: 'unchanged' });
      const res = await alice.browser.put(API.userProfile).send(body).expect(400);
      expect(res.body).toEqual({ statusCode: 400, message: expect.stringContaining(message) });
      expect(await me(alice.browser)).toMatchObject({
        firstName: 'Kept',
        lastName: 'As is',
        bio: 'unchanged',
      });
    });

    it.each([[{ firstName: 42 }], [{ bio: ['a'] }], [{ lastName: { x: 1 } }]])(
      '400 for a field of the wrong type: %j',
      async (body) => {
        const res = await alice.browser.put(API.userProfile).send(body).expect(400);
        expect(res.body).toMatchObject({ statusCode: 400, message: expect.any(String) });
      },
    );

    it('changes nothing else, whatever the body holds', async () => {
      const before = await me(alice.browser);
      const user = await save({
        firstName: 'Ada',
        username: 'hijack',
        email: 'hijack@example.com',
        isAdmin: true,
        reputation: 99999,
        avatarUrl: 'https://evil.example.com/x.png',
        activePremiumRank: 'Cyber Ghost',
      });
      expect(user).toEqual({ ...before, firstName: 'Ada', lastName: null, bio: null });
    });

    it('needs a session (401) and an account not banned (403)', async () => {
      await t.browser().put(API.userProfile).send({ firstName: 'X' }).expect(401, UNAUTHORIZED);
      const mallory = await registered(t);
      await ban(mallory);
      await mallory.browser.put(API.userProfile).send({ firstName: 'X' }).expect(403, BANNED);
      const [row] = await t.dataSource.query('SELECT first_name FROM users WHERE id = $1', [mallory.user.id]);
      expect(row).toEqual({ first_name: null });
    });
  });

  describe('POST /api/user/select-rank', () => {
    let bob: Member;

    beforeAll(async () => {
      bob = await registered(t);
      // Grades are granted by admins; here straight in the database.
      await t.dataSource.query(
        `UPDATE users SET owned_premium_ranks = ARRAY['Cyber Ghost', 'Elite Hacker'], reputation = 120
         WHERE id = $1`,
        [bob.user.id],
      );
    });

    async function select(browser: Browser, rankName: string | null): Promise<CurrentUser> {
      const res = await browser.post(API.userSelectRank).send({ rankName }).expect(200);
      const user = currentUserSchema.strict().parse(res.body);
      expect(await me(browser)).toEqual(user);
      return user;
    }

    it('makes an owned grade the active rank, answering with the current user', async () => {
      expect(await select(bob.browser, 'Cyber Ghost')).toMatchObject({
        id: bob.user.id,
        activePremiumRank: 'Cyber Ghost',
        ownedPremiumRanks: ['Cyber Ghost', 'Elite Hacker'],
        reputation: 120,
      });
      expect(await select(bob.browser, 'Elite Hacker')).toMatchObject({ activePremiumRank: 'Elite Hacker' });
    });

    it('goes back to the reputation rank with null', async () => {
      await select(bob.browser, 'Cyber Ghost');
      expect(await select(bob.browser, null)).toMatchObject({ activePremiumRank: null });
      expect(await select(bob.browser, null)).toMatchObject({ activePremiumRank: null });
    });

    it('400 `You do not own this rank` for a grade not owned, keeping the active one', async () => {
      await select(bob.browser, 'Cyber Ghost');
      for (const rankName of PREMIUM_RANK_NAMES.filter(
        (name) => !['Cyber Ghost', 'Elite Hacker'].includes(name),
      )) {
        await bob.browser
          .post(API.userSelectRank)
          .send({ rankName })
          .expect(400, { statusCode: 400, message: SETTINGS_MESSAGES.rankNotOwned });
      }
      expect(await me(bob.browser)).toMatchObject({ activePremiumRank: 'Cyber Ghost' });
    });

    it('400 `Unknown rank` for a name that is no grade', async () => {
      for (const rankName of ['Wizard', 'cyber ghost', ' Cyber Ghost', 'Legend', 'Newbie', '']) {
        await bob.browser
          .post(API.userSelectRank)
          .send({ rankName })
          .expect(400, { statusCode: 400, message: SETTINGS_MESSAGES.unknownRank });
      }
    });

    it('refuses a member who owns no grade at all', async () => {
      const carol = await registered(t);
      await carol.browser
        .post(API.userSelectRank)
        .send({ rankName: 'Script Kiddie' })
        .expect(400, { statusCode: 400, message: SETTINGS_MESSAGES.rankNotOwned });
      expect(await select(carol.browser, null)).toMatchObject({ activePremiumRank: null });
    });

    it('refuses a grade revoked since it was selected, and the reputation rank applies again', async () => {
      const dave = await registered(t);
      await t.dataSource.query(
        `UPDATE users SET owned_premium_ranks = ARRAY['Digital Phantom'] WHERE id = $1`,
        [dave.user.id],
      );
      await select(dave.browser, 'Digital Phantom');
      await t.dataSource.query(`UPDATE users SET owned_premium_ranks = '{}' WHERE id = $1`, [dave.user.id]);
      await dave.browser
        .post(API.userSelectRank)
        .send({ rankName: 'Digital Phantom' })
        .expect(400, { statusCode: 400, message: SETTINGS_MESSAGES.rankNotOwned });
    });

    it.each([[{}], [{ rankName: 42 }], [{ rankName: ['Cyber Ghost'] }]])('400 for %j', async (body) => {
      const res = await bob.browser.post(API.userSelectRank).send(body).expect(400);
      expect(res.body).toMatchObject({ statusCode: 400, message: expect.stringContaining('rankName') });
    });

    it('needs a session (401) and an account not banned (403)', async () => {
      await t.browser().post(API.userSelectRank).send({ rankName: null }).expect(401, UNAUTHORIZED);
      const mallory = await registered(t);
      await t.dataSource.query(`UPDATE users SET owned_premium_ranks = ARRAY['Cyber Ghost'] WHERE id = $1`, [
        mallory.user.id,
      ]);
      await ban(mallory);
      await mallory.browser.post(API.userSelectRank).send({ rankName: 'Cyber Ghost' }).expect(403, BANNED);
    });
  });

  it('never answered with a 500', () => {
    expect(t.logs.entries.filter((entry) => entry.level === 'error')).toEqual([]);
  });
});

import { API, type CurrentUser, OWNER_SETUP_MESSAGES, PAGES } from '@termpaste/contracts';
import { OwnerService } from '../src/modules/auth/owner.service.js';
import { newAccount, registered, registeredUnverified, verifyByMail } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

function roles(user: CurrentUser): { isOwner: boolean; isAdmin: boolean } {
  return { isOwner: user.isOwner, isAdmin: user.isAdmin };
}

const CODE = '[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}';

/** The setup code the start-up log printed. */
function loggedCode(t: TestApp): string {
  const match = new RegExp(`Owner: none yet\\. Setup code (${CODE}):`).exec(t.logs.text());
  if (!match) throw new Error(`no setup code in the log:\n${t.logs.text()}`);
  return match[1]!;
}

describe('the owner', () => {
  describe('without OWNER_EMAIL: the one-time setup code of the start-up log', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp();
    });

    afterAll(async () => {
      await t.close();
    });

    it('prints a setup code in the start-up log and where to enter it, storing only its hash', async () => {
      const code = loggedCode(t);
      expect(t.logs.text()).toContain(
        `Owner: none yet. Setup code ${code}: sign in with a verified account and enter it at ` +
          `${t.config.publicUrl}${PAGES.ownerSetup} to become the owner (it works once; ` +
          '`npm run admin -- setup-code` prints another)',
      );
      const rows: Array<{ code_hash: string }> = await t.dataSource.query(
        'SELECT code_hash FROM owner_setup_codes',
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(rows)).not.toContain(code.replaceAll('-', ''));
    });

    it('makes nobody owner by being first, verified or not', async () => {
      const first = await registeredUnverified(t);
      expect(roles(first.user)).toEqual({ isOwner: false, isAdmin: false });
      await verifyByMail(t, first.account.email);
      expect(roles((await first.browser.get(API.currentUser).expect(200)).body)).toEqual({
        isOwner: false,
        isAdmin: false,
      });
      expect(await t.dataSource.query('SELECT id FROM users WHERE is_owner')).toEqual([]);
    });

    it('refuses the code to a visitor (401) and to a member whose address is not verified (403)', async () => {
      const code = loggedCode(t);
      await t.browser().post(API.ownerClaim).send({ code }).expect(401);
      const unverified = await registeredUnverified(t);
      await unverified.browser
        .post(API.ownerClaim)
        .send({ code })
        .expect(403, { statusCode: 403, message: OWNER_SETUP_MESSAGES.verifyFirst });
    });

    it('refuses a wrong or missing code: 400', async () => {
      const { browser } = await registeredUnverified(t).then(async (member) => {
        await verifyByMail(t, member.account.email);
        return member;
      });
      await browser
        .post(API.ownerClaim)
        .send({ code: 'AAAA-BBBB-CCCC-DDDD' })
        .expect(400, { statusCode: 400, message: OWNER_SETUP_MESSAGES.invalidCode });
      await browser
        .post(API.ownerClaim)
        .send({})
        .expect(400, { statusCode: 400, message: `code: ${OWNER_SETUP_MESSAGES.codeRequired}` });
    });

    it('makes a verified member owner and admin with the code (any case, spaces), once', async () => {
      const code = loggedCode(t);
      const member = await registeredUnverified(t);
      await verifyByMail(t, member.account.email);
      const typed = ` ${code.toLowerCase().replaceAll('-', ' ')} `;
      const res = await member.browser.post(API.ownerClaim).send({ code: typed }).expect(200);
      expect(roles(res.body)).toEqual({ isOwner: true, isAdmin: true });
      expect(roles((await member.browser.get(API.currentUser).expect(200)).body)).toEqual({
        isOwner: true,
        isAdmin: true,
      });
      // Single use: every code is gone, and nobody else can claim with it.
      expect(await t.dataSource.query('SELECT id FROM owner_setup_codes')).toEqual([]);
      const other = await registered(t);
      await other.browser
        .post(API.ownerClaim)
        .send({ code })
        .expect(409, { statusCode: 409, message: OWNER_SETUP_MESSAGES.ownerExists });
      expect(await t.app.get(OwnerService).issueSetupCode()).toEqual({
        issued: false,
        reason: 'owner',
        owner: member.account.username,
      });
    });

    it('names the owner in the log of the next start, with no new code', async () => {
      const next = await createTestApp({ database: t.database });
      try {
        const [owner] = await t.dataSource.query('SELECT username FROM users WHERE is_owner');
        expect(next.logs.text()).toContain(`Owner: ${owner.username}`);
        expect(next.logs.text()).not.toContain('Setup code');
        expect(await t.dataSource.query('SELECT id FROM owner_setup_codes')).toEqual([]);
      } finally {
        await next.close();
      }
    });

    it('allows one owner at most in the database itself', async () => {
      await expect(t.dataSource.query('UPDATE users SET is_owner = true, is_admin = true')).rejects.toThrow(
        /users_single_owner/,
      );
    });
  });

  it('gives the forum to one of two members claiming at once with two codes', async () => {
    const t = await createTestApp();
    try {
      const owners = t.app.get(OwnerService);
      const members = await Promise.all([registeredUnverified(t), registeredUnverified(t)]);
      for (const member of members) await verifyByMail(t, member.account.email);
      const codes = [await owners.issueSetupCode(), await owners.issueSetupCode()].map((result) =>
        result.issued ? result.code : '',
      );
      const results = await Promise.all(
        members.map((member, i) => member.browser.post(API.ownerClaim).send({ code: codes[i] })),
      );
      expect(results.map((res) => res.status).sort()).toEqual([200, 409]);
      expect(await t.dataSource.query('SELECT id FROM users WHERE is_owner')).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('is never one of several concurrent first registrations', async () => {
    const t = await createTestApp();
    try {
      const results = await Promise.all(
        Array.from({ length: 6 }, () => t.browser().post(API.register).send(newAccount())),
      );
      expect(results.map((res) => res.status)).toEqual(Array(6).fill(201));
      expect(results.filter((res) => res.body.isOwner)).toHaveLength(0);
      expect(await t.dataSource.query('SELECT id FROM users WHERE is_owner')).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('limits setup code tries per member: 429 after 5 an hour', async () => {
    const t = await createTestApp({ env: { RATE_LIMITS: 'on' } });
    try {
      const member = await registeredUnverified(t);
      await verifyByMail(t, member.account.email);
      for (let i = 0; i < 5; i++) {
        await member.browser
          .post(API.ownerClaim)
          .send({ code: `WRONG-${i}` })
          .expect(400);
      }
      const res = await member.browser
        .post(API.ownerClaim)
        .send({ code: loggedCode(t) })
        .expect(429);
      const seconds = Number(res.headers['retry-after']);
      expect(seconds).toBeGreaterThan(0);
      expect(res.body).toEqual({ statusCode: 429, message: OWNER_SETUP_MESSAGES.tooMany(seconds) });
      expect(await t.dataSource.query('SELECT id FROM users WHERE is_owner')).toEqual([]);
    } finally {
      await t.close();
    }
  });

  describe('with OWNER_EMAIL', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp({ env: { OWNER_EMAIL: 'The.Boss@Example.com' } });
    });

    afterAll(async () => {
      await t.close();
    });

    it('says the rule in the start-up log, and prints no setup code', () => {
      expect(t.logs.text()).toContain(
        'Owner: the account that registers with OWNER_EMAIL (the.boss@example.com) becomes owner and ' +
          'admin once it verifies that address',
      );
      expect(t.logs.text()).not.toContain('Setup code');
    });

    it('makes the account with that address owner and admin once it verifies it (any letter case, even if not first)', async () => {
      const first = await registered(t);
      expect(roles(first.user)).toEqual({ isOwner: false, isAdmin: false });
      const boss = await registeredUnverified(t, { email: 'the.boss@EXAMPLE.COM' });
      expect(roles(boss.user)).toEqual({ isOwner: false, isAdmin: false });
      expect(roles((await boss.browser.get(API.currentUser).expect(200)).body)).toEqual({
        isOwner: false,
        isAdmin: false,
      });
      await verifyByMail(t, boss.account.email);
      expect(roles((await boss.browser.get(API.currentUser).expect(200)).body)).toEqual({
        isOwner: true,
        isAdmin: true,
      });
    });

    it('refuses setup codes: 409', async () => {
      const member = await registered(t);
      await member.browser
        .post(API.ownerClaim)
        .send({ code: 'AAAA-BBBB-CCCC-DDDD' })
        .expect(409, { statusCode: 409, message: OWNER_SETUP_MESSAGES.ownerExists });
    });
  });

  it('grants nothing to an OWNER_EMAIL registration never verified, even with REQUIRE_VERIFIED_EMAIL=false', async () => {
    const t = await createTestApp({
      env: { OWNER_EMAIL: 'boss@example.com', REQUIRE_VERIFIED_EMAIL: 'false' },
    });
    try {
      const boss = await registeredUnverified(t, { email: 'boss@example.com' });
      expect(roles(boss.user)).toEqual({ isOwner: false, isAdmin: false });
      await boss.browser
        .post(API.ownerClaim)
        .send({ code: 'AAAA-BBBB-CCCC-DDDD' })
        .expect(409, { statusCode: 409, message: OWNER_SETUP_MESSAGES.ownerEmailSet });
      await verifyByMail(t, boss.account.email);
      expect(roles((await boss.browser.get(API.currentUser).expect(200)).body)).toEqual({
        isOwner: true,
        isAdmin: true,
      });
    } finally {
      await t.close();
    }
  });

  it('stays with an owner made earlier when OWNER_EMAIL is set later', async () => {
    const before = await createTestApp();
    const { user: firstOwner } = await registered(before);
    expect(roles(firstOwner)).toEqual({ isOwner: true, isAdmin: true });
    await before.app.close();
    const after = await createTestApp({
      database: before.database,
      env: { OWNER_EMAIL: 'late@example.com' },
    });
    try {
      const late = await registered(after, { email: 'late@example.com' });
      expect(roles(late.user)).toEqual({ isOwner: false, isAdmin: false });
      expect(after.logs.text()).toContain(`Owner: ${firstOwner.username}`);
    } finally {
      await after.close();
      await before.close().catch(() => undefined);
      await before.database.drop();
    }
  });
});

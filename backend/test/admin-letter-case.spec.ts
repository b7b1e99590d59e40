import { Controller, Get, Module, UseGuards } from '@nestjs/common';
import { API, type CreatedAccessToken, TOKEN_MESSAGES, TOKEN_SCOPES } from '@termpaste/contracts';
import supertest from 'supertest';
import { SessionGuard } from '../src/modules/auth/guards/session.guard.js';
import { AdminGuard } from '../src/modules/auth/guards/writer.guard.js';
import { NoTokens } from '../src/modules/auth/tokens/token-scope.decorator.js';
import { UsersModule } from '../src/modules/users/users.module.js';
import { registered } from './support/accounts.js';
import { servedRoutes } from './support/served-routes.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** Admin-guarded, yet outside /api/admin: the guard itself must refuse a token, whatever the path. */
const ADMIN_ELSEWHERE = '/api/test-admin-elsewhere';
/** Marked for sessions only, with no telling path. */
const SESSION_ONLY_ELSEWHERE = '/api/test-session-only';
/** A members-only read nobody marked with a scope: a new private route. */
const UNMARKED_USERS_READ = '/api/test-members-only';

@Controller()
class ElsewhereController {
  @Get(ADMIN_ELSEWHERE)
  @UseGuards(AdminGuard)
  admin(): { ok: true } {
    return { ok: true };
  }

  @Get(SESSION_ONLY_ELSEWHERE)
  @NoTokens()
  sessionOnly(): { ok: true } {
    return { ok: true };
  }

  @Get(UNMARKED_USERS_READ)
  @UseGuards(SessionGuard)
  membersOnly(): { ok: true } {
    return { ok: true };
  }
}

@Module({ imports: [UsersModule], controllers: [ElsewhereController] })
class ElsewhereModule {}

/** The path in the letter cases a request may try: the admin segment, the API segment, the rest. */
function letterCases(path: string): string[] {
  const rest = path.slice('/api/admin'.length);
  return [
    `/api/ADMIN${rest}`,
    `/api/Admin${rest}`,
    `/API/admin${rest}`,
    `/Api/Admin${rest}`,
    ...(rest === '' ? [] : [`/api/admin${rest.toUpperCase()}`]),
  ];
}

describe('no token reaches the admin API, in any letter case', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof registered>>;
  let member: Awaited<ReturnType<typeof registered>>;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp({ imports: [ElsewhereModule] });
    owner = await registered(t);
    member = await registered(t);
    expect(owner.user.isAdmin).toBe(true);
    const res = await owner.browser
      .post(API.userTokens)
      .send({ name: 'everything', scopes: [...TOKEN_SCOPES], expiresInDays: null })
      .expect(201);
    token = (res.body as CreatedAccessToken).token;
  });

  afterAll(async () => {
    await t?.close();
  });

  const call = (method: string, path: string) =>
    supertest(t.url)
      [method === '*' ? 'get' : (method as 'get' | 'post' | 'put' | 'patch' | 'delete')](path)
      .set('Authorization', `Bearer ${token}`)
      .send();

  it('walks every admin route: 403 as written, 403 or 404 in every other letter case', async () => {
    const admin = servedRoutes(t.app).filter(
      (route) => route.path === '/api/admin' || route.path.startsWith('/api/admin/'),
    );
    // The table holds the admin API (users, bans, audit, moderation) and the queue dashboard.
    expect(admin.map((route) => route.path)).toEqual(
      expect.arrayContaining([API.adminUsers, API.adminAudit, API.adminQueues, API.adminUserBan('{id}')]),
    );
    expect(admin.length).toBeGreaterThan(10);
    for (const route of admin) {
      const path = route.path.replace(/\{[^}]+\}/g, String(member.user.id));
      const asWritten = await call(route.method, path);
      expect({ route: `${route.method} ${path}`, status: asWritten.status, body: asWritten.body }).toEqual({
        route: `${route.method} ${path}`,
        status: 403,
        body: { statusCode: 403, message: TOKEN_MESSAGES.notForTokens },
      });
      for (const variant of letterCases(path)) {
        const res = await call(route.method, variant);
        expect({ route: `${route.method} ${variant}`, status: [403, 404].includes(res.status) }).toEqual({
          route: `${route.method} ${variant}`,
          status: true,
        });
      }
    }
    // Nothing happened to the member.
    const [row]: Array<{ is_banned: boolean; is_admin: boolean }> = await t.dataSource.query(
      'SELECT is_banned, is_admin FROM users WHERE id = $1',
      [member.user.id],
    );
    expect(row).toEqual({ is_banned: false, is_admin: false });
  });

  it('answers a wrong-case path with 404 for an admin’s session too: routing tells letter case apart', async () => {
    const users = await owner.browser.get(API.adminUsers).expect(200);
    expect(users.text).toContain(member.account.email);
    for (const variant of letterCases(API.adminUsers)) {
      const res = await owner.browser.get(variant).expect(404);
      expect(res.text).not.toContain(member.account.email);
    }
    await owner.browser.get('/API/threads/recent').expect(404);
  });

  it('the queue dashboard refuses a token in every letter case', async () => {
    await call('get', API.adminQueues).expect(403, { statusCode: 403, message: TOKEN_MESSAGES.notForTokens });
    for (const variant of letterCases(API.adminQueues)) {
      expect([403, 404]).toContain((await call('get', variant)).status);
    }
  });

  it('AdminGuard and NoTokens refuse a token by the route, never by its path', async () => {
    await owner.browser.get(ADMIN_ELSEWHERE).expect(200, { ok: true });
    await call('get', ADMIN_ELSEWHERE).expect(403, { statusCode: 403, message: TOKEN_MESSAGES.notForTokens });
    await call('get', SESSION_ONLY_ELSEWHERE).expect(403, {
      statusCode: 403,
      message: TOKEN_MESSAGES.notForTokens,
    });
  });

  it('an unmarked members-only read needs private:read: a new private route is never open to `read`', async () => {
    const res = await member.browser
      .post(API.userTokens)
      .send({ name: 'reader', scopes: ['read'] })
      .expect(201);
    const read = (res.body as CreatedAccessToken).token;
    await supertest(t.url)
      .get(UNMARKED_USERS_READ)
      .set('Authorization', `Bearer ${read}`)
      .expect(403, { statusCode: 403, message: TOKEN_MESSAGES.missingScope('private:read') });
    await call('get', UNMARKED_USERS_READ).expect(200, { ok: true });
  });
});

import { Controller, Delete, Module, Patch, Put } from '@nestjs/common';
import { API } from '@termpaste/contracts';
import supertest from 'supertest';
import { CROSS_SITE_REFUSED } from '../src/common/origins.js';
import { newAccount, sessionCookie } from './support/accounts.js';
import { connect, liveUser, refusal } from './support/live.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const REFUSED = { statusCode: 403, message: 'Cross-site request refused' };

/** A route of another module, for each state-changing method. */
@Controller('api/test/things')
class ThingsController {
  @Put() put(): string {
    return 'put';
  }
  @Patch() patch(): string {
    return 'patched';
  }
  @Delete() delete(): string {
    return 'deleted';
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

describe('CSRF: state-changing requests only from our own site', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      imports: [ThingsModule],
      env: {
        PUBLIC_URL: 'https://forum.example.com',
        ALLOWED_ORIGINS: 'https://admin.example.com, http://localhost:3104',
      },
    });
  });

  afterAll(async () => {
    await t.close();
  });

  const register = () => supertest(t.url).post(API.register).send(newAccount());

  it('refuses a POST without Origin or Referer', async () => {
    await register().expect(403, REFUSED);
  });

  it.each([
    ['a foreign site', 'https://evil.example'],
    ['a look-alike of ours', 'https://forum.example.com.evil.example'],
    ['our host over another scheme', 'http://forum.example.com'],
    ['our host on another port', 'https://forum.example.com:8443'],
    ['a sandboxed frame', 'null'],
  ])('refuses a POST from %s', async (_case, origin) => {
    await register().set('Origin', origin).expect(403, REFUSED);
  });

  it('refuses a foreign Referer when Origin is absent', async () => {
    await register().set('Referer', 'https://evil.example/forum.example.com').expect(403, REFUSED);
  });

  it('goes by Origin when both are sent', async () => {
    await register()
      .set('Origin', 'https://evil.example')
      .set('Referer', 'https://forum.example.com/register')
      .expect(403, REFUSED);
  });

  it('checks every state-changing method on every route, before anything else', async () => {
    for (const method of ['put', 'patch', 'delete'] as const) {
      await supertest(t.url)
        [method]('/api/test/things')
        .set('Origin', 'https://evil.example')
        .expect(403, REFUSED);
      await supertest(t.url)
        [method]('/api/test/things')
        .set('Origin', 'https://forum.example.com')
        .expect(200);
    }
    // A refused request is not even authenticated or validated.
    await supertest(t.url).post(API.changePassword).send({}).expect(403, REFUSED);
  });

  it("accepts PUBLIC_URL's origin", async () => {
    await register().set('Origin', 'https://forum.example.com').expect(201);
  });

  it('accepts a Referer on our site when Origin is absent', async () => {
    await register().set('Referer', 'https://forum.example.com/register?x=1').expect(201);
  });

  it("refuses the origin the request was addressed to when it is not PUBLIC_URL's", async () => {
    await register().set('Origin', t.url).expect(403, REFUSED);
  });

  it('refuses a DNS-rebinding page: its Host and Origin agree, but name another site', async () => {
    const port = new URL(t.url).port;
    await register()
      .set('Host', `evil.example:${port}`)
      .set('Origin', `http://evil.example:${port}`)
      .expect(403, REFUSED);
    // Even one that rebinds PUBLIC_URL's own host name over another port or scheme.
    await register()
      .set('Host', `forum.example.com:${port}`)
      .set('Origin', `http://forum.example.com:${port}`)
      .expect(403, REFUSED);
  });

  it('refuses loopback origins once PUBLIC_URL is set', async () => {
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']) {
      await register().set('Origin', origin).expect(403, REFUSED);
    }
  });

  it('accepts each of ALLOWED_ORIGINS', async () => {
    await register().set('Origin', 'https://admin.example.com').expect(201);
    await register().set('Origin', 'http://localhost:3104').expect(201);
  });

  it('answers CORS for ALLOWED_ORIGINS only, with credentials', async () => {
    const preflight = await supertest(t.url)
      .options(API.adminUsers)
      .set('Origin', 'https://admin.example.com')
      .set('Access-Control-Request-Method', 'PUT')
      .expect(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://admin.example.com');
    expect(preflight.headers['access-control-allow-credentials']).toBe('true');
    const read = await supertest(t.url).get(API.site).set('Origin', 'https://admin.example.com').expect(200);
    expect(read.headers['access-control-allow-origin']).toBe('https://admin.example.com');
    const foreign = await supertest(t.url)
      .options(API.adminUsers)
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'PUT');
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const plain = await supertest(t.url).get(API.site).set('Origin', 'https://evil.example').expect(200);
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('leaves reads alone', async () => {
    await supertest(t.url).get(API.site).set('Origin', 'https://evil.example').expect(200);
    await supertest(t.url).get(API.currentUser).expect(401);
  });

  it('pins the queue dashboard to the same origins', async () => {
    const port = new URL(t.url).port;
    const retry = () => supertest(t.url).put(`${API.adminQueues}/api/queues/mail/retry/failed`);
    await retry()
      .set('Host', `evil.example:${port}`)
      .set('Origin', `http://evil.example:${port}`)
      .expect(403, { statusCode: 403, message: CROSS_SITE_REFUSED });
    await retry().set('Origin', t.url).expect(403, { statusCode: 403, message: CROSS_SITE_REFUSED });
    // Our own origin gets past the check, to the sign-in one.
    await retry().set('Origin', 'https://forum.example.com').expect(401);
  });

  describe('the live socket upgrade', () => {
    /** A signed-in member's cookie: over https (as forwarded by the proxy), where the cookie is Secure. */
    async function member(): Promise<{ cookie: string }> {
      const res = await t.browser().post(API.register).set('X-Forwarded-Proto', 'https').send(newAccount());
      expect(res.status).toBe(201);
      return { cookie: sessionCookie(res)!.split(';')[0]! };
    }

    it('is accepted from PUBLIC_URL and ALLOWED_ORIGINS', async () => {
      const { cookie } = await member();
      for (const origin of ['https://forum.example.com', 'https://admin.example.com']) {
        const client = await connect(t, { cookie, origin });
        await client.roundTrip();
        await client.close();
      }
    });

    it('is refused (403) from the origin addressed, loopback ones, and a DNS-rebinding page', async () => {
      const { cookie } = await member();
      const port = new URL(t.url).port;
      for (const origin of [t.url, 'http://localhost:3000', 'http://forum.example.com']) {
        expect(await refusal(connect(t, { cookie, origin }))).toBe('403');
      }
      const rebinding = connect(t, {
        cookie,
        origin: `http://evil.example:${port}`,
        headers: { Host: `evil.example:${port}` },
      });
      expect(await refusal(rebinding)).toBe('403');
    });
  });
});

describe('CSRF with PUBLIC_URL unset (npm start): loopback origins only', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { ALLOWED_ORIGINS: 'https://admin.example.com' } });
  });

  afterAll(async () => {
    await t.close();
  });

  const register = () => supertest(t.url).post(API.register).send(newAccount());

  it('accepts any loopback origin, on any port, and ALLOWED_ORIGINS', async () => {
    const port = new URL(t.url).port;
    for (const origin of [
      t.url,
      `http://localhost:${port}`,
      'http://127.0.0.1:3000',
      'http://localhost:3001',
      `http://[::1]:${port}`,
      'https://localhost',
      'http://127.0.0.2:3000',
      'https://admin.example.com',
    ]) {
      await register().set('Origin', origin).expect(201);
    }
  });

  it('refuses a DNS-rebinding page (Host: evil.example:PORT, Origin: http://evil.example:PORT)', async () => {
    const port = new URL(t.url).port;
    await register()
      .set('Host', `evil.example:${port}`)
      .set('Origin', `http://evil.example:${port}`)
      .expect(403, REFUSED);
    await register()
      .set('Host', `evil.example:${port}`)
      .set('Referer', `http://evil.example:${port}/register`)
      .expect(403, REFUSED);
  });

  it('refuses other sites, look-alikes of localhost included', async () => {
    for (const origin of [
      'https://evil.example',
      'http://localhost.evil.example:3000',
      'http://127.0.0.1.evil.example',
      'http://192.168.1.10:3000',
      'http://0.0.0.0:3000',
      'null',
    ]) {
      await register().set('Origin', origin).expect(403, REFUSED);
    }
  });

  it('pins the live socket upgrade to loopback origins too: a DNS-rebinding page is refused (403)', async () => {
    const member = await liveUser(t);
    const port = new URL(t.url).port;
    const rebinding = connect(t, {
      cookie: member.cookie,
      origin: `http://evil.example:${port}`,
      headers: { Host: `evil.example:${port}` },
    });
    expect(await refusal(rebinding)).toBe('403');
    for (const origin of [`http://localhost:${port}`, 'http://127.0.0.1:3001', 'https://admin.example.com']) {
      const client = await connect(t, { cookie: member.cookie, origin });
      await client.roundTrip();
      await client.close();
    }
  });

  it('pins the queue dashboard to loopback origins too', async () => {
    const port = new URL(t.url).port;
    await supertest(t.url)
      .put(`${API.adminQueues}/api/queues/mail/retry/failed`)
      .set('Host', `evil.example:${port}`)
      .set('Origin', `http://evil.example:${port}`)
      .expect(403, { statusCode: 403, message: CROSS_SITE_REFUSED });
    await supertest(t.url)
      .put(`${API.adminQueues}/api/queues/mail/retry/failed`)
      .set('Origin', t.url)
      .expect(401);
  });
});

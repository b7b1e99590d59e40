import { Controller, Delete, Module, Patch, Put } from '@nestjs/common';
import { API } from '@termpaste/contracts';
import supertest from 'supertest';
import { newAccount } from './support/accounts.js';
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

  it('accepts the origin the request was addressed to (npm start on any port)', async () => {
    await register().set('Origin', t.url).expect(201);
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
});

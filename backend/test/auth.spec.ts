import { API } from '@termpaste/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';

describe('browser navigation to /api/login', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('redirects to the login page', async () => {
    const res = await t.http.get(API.login).expect(302);
    expect(res.headers.location).toBe('/login');
  });
});

import { API, LIVE_EVENT } from '@termpaste/contracts';
import { CLOSE_SIGNED_OUT } from '../src/modules/live/live.gateway.js';
import { PASSWORD } from './support/accounts.js';
import { type LiveClient, settle } from './support/live.js';
import {
  changePassword,
  expectSignedOut,
  openSocket,
  resetToken,
  signOutNavigation,
  twoSessions,
} from './support/sign-out-sockets.js';
import { createTestApp, type TestApp } from './support/test-app.js';

describe('a sign-out, a password change or a reset closes the live sockets of the sessions it ends', () => {
  let t: TestApp;
  const open: LiveClient[] = [];

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
  });

  afterAll(async () => {
    await t?.close();
  });

  /** Asserts that the socket is still open and served, and was never told to sign out. */
  async function expectUntouched(client: LiveClient): Promise<void> {
    await client.roundTrip();
    expect(client.closeCode).toBeUndefined();
    expect(client.events(LIVE_EVENT.signedOut)).toEqual([]);
  }

  it("a change closes every socket of the member's other sessions, and none of the changing one", async () => {
    const member = await twoSessions(t);
    const bystander = await twoSessions(t);
    const mine = [
      await openSocket(t, member.here.cookie, open),
      await openSocket(t, member.here.cookie, open, '/ws/chat?scope=user'),
    ];
    const theirs = [
      await openSocket(t, member.elsewhere.cookie, open),
      await openSocket(t, member.elsewhere.cookie, open, '/ws/chat?scope=user'),
    ];
    const others = await openSocket(t, bystander.elsewhere.cookie, open);

    await changePassword(member.here.browser);

    for (const client of theirs) await expectSignedOut(client, CLOSE_SIGNED_OUT);
    await settle();
    for (const client of [...mine, others]) await expectUntouched(client);
    await member.here.browser.get(API.currentUser).expect(200);
    await member.elsewhere.browser.get(API.currentUser).expect(401);
  });

  it("a sign-out closes that session's sockets, and none of the member's other sessions", async () => {
    const member = await twoSessions(t);
    const bystander = await twoSessions(t);
    const mine = [
      await openSocket(t, member.here.cookie, open),
      await openSocket(t, member.here.cookie, open, '/ws/chat?scope=user'),
    ];
    const theirs = await openSocket(t, member.elsewhere.cookie, open);
    const others = await openSocket(t, bystander.here.cookie, open);

    await signOutNavigation(member.here.browser);

    for (const client of mine) await expectSignedOut(client, CLOSE_SIGNED_OUT);
    await settle();
    for (const client of [theirs, others]) await expectUntouched(client);
    await member.here.browser.get(API.currentUser).expect(401);
    await member.elsewhere.browser.get(API.currentUser).expect(200);
  });

  it('a sign-out refused as no navigation of ours (an image, another site) closes nothing', async () => {
    const member = await twoSessions(t);
    const socket = await openSocket(t, member.here.cookie, open);
    await member.here.browser.get(API.logout).set('Sec-Fetch-Dest', 'image').expect(302);
    await settle();
    await expectUntouched(socket);
    await member.here.browser.get(API.currentUser).expect(200);
  });

  it('a refused change (wrong current password) closes nothing', async () => {
    const member = await twoSessions(t);
    const theirs = await openSocket(t, member.elsewhere.cookie, open);
    await member.here.browser
      .post(API.changePassword)
      .send({ currentPassword: 'not my password', newPassword: 'a brand new password' })
      .expect(400);
    await settle();
    await expectUntouched(theirs);
  });

  it("a reset closes every socket of the member's, in every session", async () => {
    const member = await twoSessions(t);
    const bystander = await twoSessions(t);
    const all = [
      await openSocket(t, member.here.cookie, open),
      await openSocket(t, member.here.cookie, open, '/ws/chat?scope=user'),
      await openSocket(t, member.elsewhere.cookie, open),
    ];
    const others = await openSocket(t, bystander.here.cookie, open);

    await t
      .browser()
      .post(API.resetPassword)
      .send({ token: await resetToken(t, member.user.id), newPassword: 'a reset password' })
      .expect(200);

    for (const client of all) await expectSignedOut(client, CLOSE_SIGNED_OUT);
    await settle();
    await expectUntouched(others);
    await member.here.browser.get(API.currentUser).expect(401);
    await member.elsewhere.browser.get(API.currentUser).expect(401);
    await bystander.here.browser.get(API.currentUser).expect(200);
  });

  it('a refused reset (a used token) closes nothing', async () => {
    const member = await twoSessions(t);
    const token = await resetToken(t, member.user.id);
    await t.dataSource.query('UPDATE password_reset_tokens SET used_at = now() WHERE user_id = $1', [
      member.user.id,
    ]);
    const socket = await openSocket(t, member.here.cookie, open);
    await t.browser().post(API.resetPassword).send({ token, newPassword: 'a reset password' }).expect(400);
    await settle();
    await expectUntouched(socket);
    // The old password still works.
    await t
      .browser()
      .post(API.login)
      .send({ usernameOrEmail: member.username, password: PASSWORD })
      .expect(200);
  });
});

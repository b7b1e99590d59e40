import {
  API,
  type CreatedAccessToken,
  type PasteDetail,
  POST_MESSAGES,
  SIGNATURE_MESSAGES,
  SSH_KEY_MAX_CHARS,
  SSH_KEY_MESSAGES,
  SSH_KEY_TITLE_MAX,
  type SshKey,
  sshKeyListSchema,
  SSH_KEYS_PER_USER_MAX,
  TOKEN_MESSAGES,
} from '@termpaste/contracts';
import supertest from 'supertest';
import { type Browser, registered } from './support/accounts.js';
import { generateKey, removeKeyFolders, sign, sshVerify, type TestKey } from './support/ssh-keygen.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const bad = (statusCode: number, message: string) => ({ statusCode, message });

/** SSH keys on profiles and signed pastes, with real keys and signatures from ssh-keygen. */
describe('SSH keys and signed pastes', () => {
  let t: TestApp;
  let owner: { browser: Browser; user: { id: number; username: string } };
  let alice: { browser: Browser; user: { id: number; username: string } };
  let bob: { browser: Browser; user: { id: number; username: string } };
  const keys: Record<'ed25519' | 'rsa' | 'ecdsa' | 'bobs', TestKey> = {} as never;
  const visitor = () => supertest(t.url);

  beforeAll(async () => {
    t = await createTestApp();
    owner = await registered(t);
    alice = await registered(t);
    bob = await registered(t);
    keys.ed25519 = generateKey('ed25519', undefined, 'alice@laptop');
    keys.rsa = generateKey('rsa');
    keys.ecdsa = generateKey('ecdsa', 384);
    keys.bobs = generateKey('ed25519', undefined, 'bob@desk');
    await alice.browser
      .post(API.userKeys)
      .send({ key: keys.ed25519.publicLine, title: 'laptop' })
      .expect(201);
    await alice.browser.post(API.userKeys).send({ key: keys.rsa.publicLine }).expect(201);
    await alice.browser
      .post(API.userKeys)
      .send({ key: keys.ecdsa.publicLine, title: 'ci runner' })
      .expect(201);
    await bob.browser.post(API.userKeys).send({ key: keys.bobs.publicLine }).expect(201);
  });

  afterAll(async () => {
    removeKeyFolders();
    await t.close();
  });

  async function signedPaste(browser: Browser, content: string, signature: string): Promise<string | number> {
    const res = await browser.post(API.threads).send({ title: 'Signed', content, signature });
    if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
    return res.body.id as string | number;
  }

  const detail = async (id: string | number, browser?: Browser): Promise<PasteDetail> =>
    (await (browser ?? visitor()).get(API.thread(id)).expect(200)).body as PasteDetail;

  it('lists a member’s keys with their fingerprints and titles (the comment when none is given)', async () => {
    const list = sshKeyListSchema.parse((await alice.browser.get(API.userKeys).expect(200)).body);
    expect(list.map((key) => [key.title, key.type, key.fingerprint])).toEqual([
      ['laptop', 'ssh-ed25519', keys.ed25519.fingerprint],
      ['me@test', 'ssh-rsa', keys.rsa.fingerprint],
      ['ci runner', 'ecdsa-sha2-nistp384', keys.ecdsa.fingerprint],
    ]);
    expect(keys.ed25519.publicLine.startsWith(list[0]!.publicKey)).toBe(true);
    // Bob sees his own only.
    const bobs = (await bob.browser.get(API.userKeys).expect(200)).body as SshKey[];
    expect(bobs.map((key) => key.title)).toEqual(['bob@desk']);
  });

  it('serves the keys as authorized_keys lines to anyone; 404 for no such member', async () => {
    const res = await visitor().get(API.userPublicKeys(alice.user.id)).expect(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = res.text.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines.at(-1)).toBe('');
    expect(keys.ed25519.publicLine.startsWith(lines[0]!)).toBe(true);
    expect(keys.rsa.publicLine.startsWith(lines[1]!)).toBe(true);
    expect((await visitor().get(API.userPublicKeys(owner.user.id)).expect(200)).text).toBe('');
    await visitor().get(API.userPublicKeys(999_999)).expect(404, bad(404, POST_MESSAGES.userNotFound));
  });

  it('says what is wrong with a key, each in its own words', async () => {
    const [type, data] = keys.ed25519.publicLine.split(' ') as [string, string];
    const cases: Array<[unknown, number, string]> = [
      [{}, 400, `key: ${SSH_KEY_MESSAGES.keyRequired}`],
      [{ key: '   ' }, 400, `key: ${SSH_KEY_MESSAGES.keyRequired}`],
      [{ key: 'x'.repeat(SSH_KEY_MAX_CHARS + 1) }, 400, `key: ${SSH_KEY_MESSAGES.keyTooLong}`],
      [
        { key: keys.rsa.publicLine, title: 't'.repeat(SSH_KEY_TITLE_MAX + 1) },
        400,
        `title: ${SSH_KEY_MESSAGES.titleTooLong}`,
      ],
      [{ key: keys.bobs.privateText }, 400, SSH_KEY_MESSAGES.privateKey],
      [{ key: `ssh-dss ${data}` }, 400, SSH_KEY_MESSAGES.unknownType],
      [{ key: `${type} %%%notbase64` }, 400, SSH_KEY_MESSAGES.notBase64],
      [{ key: `${type} ${data.slice(0, 40)}` }, 400, SSH_KEY_MESSAGES.malformed],
      [
        { key: `ecdsa-sha2-nistp256 ${data}` },
        400,
        SSH_KEY_MESSAGES.typeMismatch('ecdsa-sha2-nistp256', type),
      ],
      [{ key: `${keys.bobs.publicLine}\n${keys.rsa.publicLine}` }, 400, SSH_KEY_MESSAGES.oneKey],
      [{ key: keys.ed25519.publicLine }, 409, SSH_KEY_MESSAGES.duplicate],
    ];
    for (const [body, status, message] of cases) {
      const res = await alice.browser.post(API.userKeys).send(body as object);
      expect([res.status, res.body.message]).toEqual([status, message]);
    }
    // The private key was never stored, nor echoed.
    const [row]: Array<{ n: number }> = await t.dataSource.query(
      "SELECT count(*)::int AS n FROM ssh_keys WHERE public_key LIKE '%PRIVATE%'",
    );
    expect(row!.n).toBe(0);
  });

  it(`holds at most ${SSH_KEYS_PER_USER_MAX} keys a member (409), then takes one again after a deletion`, async () => {
    const carol = await registered(t);
    const made: number[] = [];
    for (let i = 0; i < SSH_KEYS_PER_USER_MAX; i++) {
      const key = generateKey('ed25519');
      made.push((await carol.browser.post(API.userKeys).send({ key: key.publicLine }).expect(201)).body.id);
    }
    const one = generateKey('ed25519');
    await carol.browser
      .post(API.userKeys)
      .send({ key: one.publicLine })
      .expect(409, bad(409, SSH_KEY_MESSAGES.tooMany));
    await carol.browser.delete(API.userKey(made[0]!)).expect(204);
    await carol.browser.post(API.userKeys).send({ key: one.publicLine }).expect(201);
  });

  it('lets no one else delete a key (404), a visitor in (401), nor an access token (403)', async () => {
    const [key] = (await alice.browser.get(API.userKeys).expect(200)).body as SshKey[];
    await bob.browser.delete(API.userKey(key!.id)).expect(404, bad(404, SSH_KEY_MESSAGES.notFound));
    await owner.browser.delete(API.userKey(key!.id)).expect(404, bad(404, SSH_KEY_MESSAGES.notFound));
    await t.browser().delete(API.userKey(key!.id)).expect(401);
    await visitor().get(API.userKeys).expect(401);
    const token = (
      await alice.browser
        .post(API.userTokens)
        .send({ name: 'ci', scopes: ['pastes:write', 'read'] })
        .expect(201)
    ).body as CreatedAccessToken;
    const auth = `Bearer ${token.token}`;
    const refused = bad(403, TOKEN_MESSAGES.notForTokens);
    await visitor()
      .post(API.userKeys)
      .set('Authorization', auth)
      .send({ key: generateKey('ed25519').publicLine })
      .expect(403, refused);
    await visitor().delete(API.userKey(key!.id)).set('Authorization', auth).expect(403, refused);
    await visitor().get(API.userKeys).set('Authorization', auth).expect(403, refused);
    expect(((await alice.browser.get(API.userKeys).expect(200)).body as SshKey[])[0]!.id).toBe(key!.id);
  });

  it.each(['ed25519', 'rsa', 'ecdsa'] as const)(
    'shows a paste signed with an %s key VERIFIED, and ssh-keygen -Y verify accepts raw + raw.sig',
    async (name) => {
      const content = `#!/bin/sh\n# install\ncurl -fsSL https://example.com/x | sh  \r\n\tdone ✓\n`;
      const id = await signedPaste(alice.browser, content, sign(keys[name], content));
      const { signature } = await detail(id);
      expect(signature).toEqual({
        state: 'verified',
        fingerprint: keys[name].fingerprint,
        keyType: { ed25519: 'ssh-ed25519', rsa: 'ssh-rsa', ecdsa: 'ecdsa-sha2-nistp384' }[name],
        keyTitle: { ed25519: 'laptop', rsa: 'me@test', ecdsa: 'ci runner' }[name],
      });
      // What a reader downloads: the keys, the raw text, the signature; checked by OpenSSH itself.
      const authorized = (await visitor().get(API.userPublicKeys(alice.user.id)).expect(200)).text;
      const allowed = authorized
        .split('\n')
        .filter(Boolean)
        .map((line) => `${alice.user.username} ${line}`)
        .join('\n');
      // The raw text is UTF-8: its bytes are the text's.
      const raw = Buffer.from((await visitor().get(API.threadRaw(id)).expect(200)).text, 'utf8');
      const sig = await visitor().get(API.threadRawSignature(id)).expect(200);
      expect(sig.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(sig.text).toMatch(/^-----BEGIN SSH SIGNATURE-----\n[\s\S]+-----END SSH SIGNATURE-----\n$/);
      const good = sshVerify(`${allowed}\n`, alice.user.username, sig.text, raw);
      expect(good.output).toContain(`Good "termpaste" signature for ${alice.user.username}`);
      expect(good.status).toBe(0);
      // Another member's identity is not accepted for it.
      expect(sshVerify(`${allowed}\n`, bob.user.username, sig.text, raw).status).not.toBe(0);
    },
  );

  it('refuses a signature over other bytes, in another namespace, by a key not the author’s, or unreadable', async () => {
    const content = 'echo signed\n';
    const post = (signature: string, text = content) =>
      alice.browser.post(API.threads).send({ title: 'Signed', content: text, signature });
    await post(sign(keys.ed25519, content), 'echo tampered\n').expect(
      422,
      bad(422, SIGNATURE_MESSAGES.mismatch),
    );
    await post(sign(keys.ed25519, content), 'echo signed').expect(422, bad(422, SIGNATURE_MESSAGES.mismatch));
    await post(sign(keys.ed25519, content, 'git')).expect(422, bad(422, SIGNATURE_MESSAGES.namespace('git')));
    await post(sign(keys.bobs, content)).expect(
      422,
      bad(422, SIGNATURE_MESSAGES.unknownKey(keys.bobs.fingerprint)),
    );
    await post('-----BEGIN SSH SIGNATURE-----\nAAAA\n-----END SSH SIGNATURE-----\n').expect(
      400,
      bad(400, SIGNATURE_MESSAGES.malformed),
    );
    await post('x'.repeat(20_000)).expect(400);
    // Nothing was made.
    const [row]: Array<{ n: number }> = await t.dataSource.query(
      "SELECT count(*)::int AS n FROM threads WHERE content IN ('echo tampered\n', 'echo signed\n', 'echo signed')",
    );
    expect(row!.n).toBe(0);
  });

  it('takes a signature on POST /api/pastes, as JSON and as a form field, with a token', async () => {
    const token = (
      await alice.browser
        .post(API.userTokens)
        .send({ name: 'cli', scopes: ['pastes:write', 'read'] })
        .expect(201)
    ).body as CreatedAccessToken;
    const auth = `Bearer ${token.token}`;
    const content = 'make: *** [all] Error 2\n';
    const json = await visitor()
      .post(API.pastes)
      .set('Authorization', auth)
      .set('Accept', 'application/json')
      .send({ content, signature: sign(keys.ed25519, content) })
      .expect(201);
    expect((await detail(json.body.id)).signature?.state).toBe('verified');
    const form = await visitor()
      .post(API.pastes)
      .set('Authorization', auth)
      .set('Accept', 'application/json')
      .attach('file', Buffer.from(content), 'build.log')
      .field('signature', sign(keys.rsa, content))
      .expect(201);
    expect((await detail(form.body.id)).signature?.fingerprint).toBe(keys.rsa.fingerprint);
    await visitor()
      .post(API.pastes)
      .set('Authorization', auth)
      .set('Accept', 'application/json')
      .send({ content: 'other\n', signature: sign(keys.ed25519, content) })
      .expect(422, bad(422, SIGNATURE_MESSAGES.mismatch));
  });

  it('warns once the author removes the key, and verifies again when it is back', async () => {
    const dave = await registered(t);
    const key = generateKey('ed25519', undefined, 'dave@box');
    const added = (await dave.browser.post(API.userKeys).send({ key: key.publicLine }).expect(201))
      .body as SshKey;
    const content = 'signed by dave\n';
    const id = await signedPaste(dave.browser, content, sign(key, content));
    expect((await detail(id)).signature?.state).toBe('verified');
    await dave.browser.delete(API.userKey(added.id)).expect(204);
    expect((await detail(id)).signature).toEqual({
      state: 'key-removed',
      fingerprint: key.fingerprint,
      keyType: 'ssh-ed25519',
      keyTitle: null,
    });
    // The signature is still served: a reader holding the old key can check it.
    await visitor().get(API.threadRawSignature(id)).expect(200);
    await dave.browser.post(API.userKeys).send({ key: key.publicLine, title: 'back' }).expect(201);
    expect((await detail(id)).signature).toMatchObject({ state: 'verified', keyTitle: 'back' });
  });

  it('drops the signature when an edit changes the content, unless the author signs the new one', async () => {
    const content = 'v1\n';
    const id = await signedPaste(alice.browser, content, sign(keys.ed25519, content));
    // A title-only edit keeps the bytes, and so the signature.
    await alice.browser.patch(API.thread(id)).send({ title: 'Renamed' }).expect(200);
    expect((await detail(id)).signature?.state).toBe('verified');
    await alice.browser.patch(API.thread(id)).send({ content: 'v2\n' }).expect(200);
    expect((await detail(id)).signature ?? null).toBeNull();
    await visitor().get(API.threadRawSignature(id)).expect(404, bad(404, SIGNATURE_MESSAGES.unsigned));
    // A new content with its signature.
    await alice.browser
      .patch(API.thread(id))
      .send({ content: 'v3\n', signature: sign(keys.rsa, 'v3\n') })
      .expect(200);
    expect((await detail(id)).signature?.fingerprint).toBe(keys.rsa.fingerprint);
    // A signature that does not match the new content: nothing changes.
    await alice.browser
      .patch(API.thread(id))
      .send({ content: 'v4\n', signature: sign(keys.rsa, 'v3\n') })
      .expect(422, bad(422, SIGNATURE_MESSAGES.mismatch));
    expect((await visitor().get(API.threadRaw(id)).expect(200)).text).toBe('v3\n');
    // Staff may edit, never sign for the author.
    await owner.browser
      .patch(API.thread(id))
      .send({ signature: sign(keys.ed25519, 'v3\n') })
      .expect(403, bad(403, SIGNATURE_MESSAGES.authorOnly));
    // A signature alone signs the content as it is.
    await alice.browser
      .patch(API.thread(id))
      .send({ signature: sign(keys.ecdsa, 'v3\n') })
      .expect(200);
    expect((await detail(id)).signature?.fingerprint).toBe(keys.ecdsa.fingerprint);
  });

  it('serves raw.sig only where raw is served: 404 for private, hidden, deleted and unsigned pastes', async () => {
    const content = 'private and signed\n';
    const privateRes = await alice.browser
      .post(API.threads)
      .send({ title: 'Mine', content, signature: sign(keys.ed25519, content), visibility: 'private' })
      .expect(201);
    const key = privateRes.body.id as string;
    await alice.browser.get(API.threadRawSignature(key)).expect(200);
    await bob.browser.get(API.threadRawSignature(key)).expect(404, bad(404, POST_MESSAGES.pasteNotFound));
    await visitor().get(API.threadRawSignature(key)).expect(404, bad(404, POST_MESSAGES.pasteNotFound));

    const hiddenId = await signedPaste(alice.browser, 'hidden\n', sign(keys.ed25519, 'hidden\n'));
    await t.dataSource.query('UPDATE threads SET hidden_at = now() WHERE id = $1', [hiddenId]);
    await bob.browser.get(API.threadRawSignature(hiddenId)).expect(404);
    await visitor().get(API.threadRawSignature(hiddenId)).expect(404);
    await alice.browser.get(API.threadRawSignature(hiddenId)).expect(200);

    const deletedId = await signedPaste(alice.browser, 'deleted\n', sign(keys.ed25519, 'deleted\n'));
    await alice.browser.delete(API.thread(deletedId)).expect(204);
    await alice.browser.get(API.threadRawSignature(deletedId)).expect(404);

    const unsigned = (
      await alice.browser.post(API.threads).send({ title: 'U', content: 'plain\n' }).expect(201)
    ).body.id as number;
    await visitor().get(API.threadRawSignature(unsigned)).expect(404, bad(404, SIGNATURE_MESSAGES.unsigned));
    expect((await detail(unsigned)).signature ?? null).toBeNull();
  });
});

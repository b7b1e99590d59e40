import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { API, type CreatedPaste, type PasteDetail, SIGNATURE_MESSAGES } from '@termpaste/contracts';
import { registered } from '../../../backend/test/support/accounts.js';
import { generateKey, removeKeyFolders, sshVerify } from '../../../backend/test/support/ssh-keygen.js';
import { createTestApp, type TestApp } from '../../../backend/test/support/test-app.js';
import { CLI_MESSAGES } from '../src/messages.js';
import { makeToken, tempDir, termpaste } from './support.js';

describe('termpaste --sign', () => {
  let t: TestApp;
  let dir: string;
  let env: Record<string, string>;
  let username: string;
  let userId: number;
  const key = generateKey('ed25519', undefined, 'cli@test');
  const stranger = generateKey('ed25519');

  beforeAll(async () => {
    t = await createTestApp();
    await registered(t);
    const member = await registered(t);
    username = member.user.username;
    userId = member.user.id;
    await member.browser.post(API.userKeys).send({ key: key.publicLine }).expect(201);
    dir = await tempDir('termpaste-cli-sign-');
    env = {
      XDG_CONFIG_HOME: dir,
      TERMPASTE_URL: t.url,
      TERMPASTE_TOKEN: (await makeToken(member.browser)).token,
    };
  });

  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
    removeKeyFolders();
  });

  it('signs a file with --key: the paste shows VERIFIED and ssh-keygen -Y verify accepts raw + raw.sig', async () => {
    const file = path.join(dir, 'install.sh');
    const content = '#!/bin/sh\necho "installing" \r\n\tdone ✓\n';
    await writeFile(file, content);
    const run = await termpaste([file, '--sign', '--key', key.file, '--json'], { env });
    expect([run.code, run.stderr]).toEqual([0, '']);
    const created = JSON.parse(run.stdout.toString()) as CreatedPaste;
    const detail = (await t.browser().get(API.thread(created.id)).expect(200)).body as PasteDetail;
    expect(detail.signature).toMatchObject({ state: 'verified', fingerprint: key.fingerprint });
    expect(detail.title).toBe('install.sh');
    const raw = await t.browser().get(API.threadRaw(created.id)).expect(200);
    expect(raw.text).toBe(content);
    const sig = (await t.browser().get(API.threadRawSignature(created.id)).expect(200)).text;
    const keys = (await t.browser().get(API.userPublicKeys(userId)).expect(200)).text;
    const allowed = keys
      .split('\n')
      .filter(Boolean)
      .map((line) => `${username} ${line}\n`)
      .join('');
    expect(sshVerify(allowed, username, sig, Buffer.from(content)).status).toBe(0);
  });

  it('edit --sign signs the new content; an edit without it leaves the paste unsigned', async () => {
    const made = await termpaste(['--sign', '--key', key.file, '--json'], { env, input: 'v1\n' });
    const { id } = JSON.parse(made.stdout.toString()) as CreatedPaste;
    const signature = async () =>
      ((await t.browser().get(API.thread(id)).expect(200)).body as PasteDetail).signature ?? null;
    expect((await signature())?.state).toBe('verified');
    const plain = await termpaste(['edit', String(id)], { env, input: 'v2\n' });
    expect([plain.code, plain.stderr]).toEqual([0, '']);
    expect(await signature()).toBeNull();
    const signed = await termpaste(['edit', String(id), '--sign', '--key', key.file], { env, input: 'v3\n' });
    expect([signed.code, signed.stderr]).toEqual([0, '']);
    expect(await signature()).toMatchObject({ state: 'verified', fingerprint: key.fingerprint });
    const nothing = await termpaste(['edit', String(id), '--sign', '--key', key.file, '--title', 'x'], {
      env,
    });
    expect([nothing.code, nothing.stderr]).toEqual([2, `termpaste: ${CLI_MESSAGES.signNeedsContent}\n`]);
  });

  it('signs standard input, and says what is wrong: a key not on the profile, or no key at all', async () => {
    const ok = await termpaste(['--sign', '--key', key.file], { env, input: 'piped and signed\n' });
    expect([ok.code, ok.stderr]).toEqual([0, '']);
    const refused = await termpaste(['--sign', '--key', stranger.file], { env, input: 'by a stranger\n' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(SIGNATURE_MESSAGES.unknownKey(stranger.fingerprint));
    const missing = path.join(dir, 'no_such_key');
    const none = await termpaste(['--sign', '--key', missing], { env, input: 'x\n' });
    expect([none.code, none.stderr]).toEqual([2, `termpaste: ${CLI_MESSAGES.noSigningKey(missing)}\n`]);
    // The default key is ~/.ssh/id_ed25519 (here: a HOME without one).
    const home = await termpaste(['--sign'], { env: { ...env, HOME: dir }, input: 'x\n' });
    expect([home.code, home.stderr]).toEqual([
      2,
      `termpaste: ${CLI_MESSAGES.noSigningKey(path.join(dir, '.ssh', 'id_ed25519'))}\n`,
    ]);
  });
});

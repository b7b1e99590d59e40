import type { Page } from '@playwright/test';
import { expect, test } from './test.js';
import {
  rankFromReputation,
  REPUTATION,
  SIGNING_TEXTS,
  SSH_KEY_MESSAGES,
  TOKEN_MESSAGES,
  TOKEN_PATTERN,
} from '@termpaste/contracts';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { baseURL, expectToast, newAccount, screenshotPath, signUp } from './support.js';

const run = promisify(execFile);
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The real curl binary (CI installs it): its standard output, and the HTTP status from `-w`. */
async function curl(args: string[], cwd: string): Promise<{ body: string; status: number }> {
  const { stdout } = await run(
    'curl',
    ['--silent', '--show-error', ...args, '--write-out', '\n%{http_code}'],
    {
      cwd,
    },
  );
  const cut = stdout.lastIndexOf('\n');
  return { body: stdout.slice(0, cut), status: Number(stdout.slice(cut + 1)) };
}

/** What the page put on the clipboard (the context may read it: see the permissions below). */
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

/** The signed-in member's reputation, read with the page's session. */
const reputation = async (page: Page) =>
  ((await (await page.request.get('/api/auth/user')).json()) as { reputation: number }).reputation;

test('a member makes a token in settings, pastes a file with the curl line shown, and revokes it', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  const account = await signUp(page, newAccount('curl'));
  const folder = mkdtempSync(join(tmpdir(), 'termpaste-curl-'));
  try {
    // The settings screen links to the tokens; none yet.
    await page.goto('/settings');
    await page.getByRole('link', { name: 'ACCESS TOKENS' }).click();
    await expect(page).toHaveURL(/\/settings\/tokens$/);
    const tokens = page.getByRole('region', { name: 'YOUR TOKENS' });
    await expect(tokens.getByText('No tokens yet.', { exact: false })).toBeVisible();
    await page.screenshot({ path: screenshotPath('tokens-empty-1280'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: screenshotPath('tokens-empty-390'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    // A token with the defaults (30 days, both scopes), shown once.
    await page.getByLabel('Token name').fill('e2e laptop');
    await page.getByRole('button', { name: 'CREATE TOKEN' }).click();
    const box = page.getByRole('region', { name: 'New token' });
    await expect(box).toBeVisible();
    await expect(box).toContainText('This token will not be shown again');
    await box.getByRole('button', { name: 'COPY', exact: true }).click();
    await expect(box.getByRole('button', { name: 'COPIED' })).toBeVisible();
    const token = await clipboard(page);
    expect(token).toMatch(TOKEN_PATTERN);
    await expect(box.getByTestId('new-token')).toHaveText(token);
    const item = tokens.getByRole('listitem', { name: 'e2e laptop' });
    await expect(item).toContainText('pastes:write');
    await expect(item).toContainText('never');
    await expect(tokens).not.toContainText(token);
    await page.screenshot({ path: screenshotPath('tokens-new-1280'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: screenshotPath('tokens-new-390'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    // The curl line the page shows, run as it is by a shell, in a folder with a file.txt.
    await box.getByRole('button', { name: 'COPY CURL' }).click();
    const line = await clipboard(page);
    expect(line).toBe(
      `curl --data-binary @file.txt -H 'Authorization: Bearer ${token}' '${baseURL()}/api/pastes?title=file.txt'`,
    );
    const before = await reputation(page);
    const content = `build log ${Date.now()}\r\nstep 2: ok\n\n`;
    writeFileSync(join(folder, 'file.txt'), content);
    const { stdout } = await run('sh', ['-c', line], { cwd: folder });
    expect(stdout).toMatch(new RegExp(`^${baseURL()}/thread/\\d+\\n$`));
    const pasteUrl = stdout.trim();
    const id = /\/thread\/(\d+)$/.exec(pasteUrl)![1]!;

    // Reputation as for a paste made in the browser.
    await expect.poll(() => reputation(page)).toBe(before + REPUTATION.thread);

    // The raw text is what was sent, byte for byte, without a session.
    const raw = await curl([`${baseURL()}/api/threads/${id}/raw`], folder);
    expect(raw).toEqual({ body: content, status: 200 });

    // Home lists it with its author.
    await page.goto('/');
    const row = page
      .getByRole('table', { name: 'Recent pastes' })
      .getByRole('row')
      .filter({ hasText: 'file.txt' })
      .filter({ hasText: account.username });
    await expect(row).toBeVisible();
    await expect(row.getByRole('link', { name: account.username })).toBeVisible();
    await row.getByRole('cell').nth(1).click();
    await expect(page).toHaveURL(new RegExp(`/thread/${id}$`));
    const paste = page.getByRole('region', { name: 'PASTE', exact: true });
    await expect(paste).toContainText('step 2: ok');
    const byline = paste.locator('.forum-byline').first();
    await expect(byline.getByRole('link', { name: account.username })).toBeVisible();
    await expect(byline.locator('.tp-badge')).toHaveAttribute(
      'title',
      rankFromReputation(before + REPUTATION.thread).name,
    );

    // The same token pastes a pipe with `npx termpaste`, run in the checkout (whose workspace has the bin).
    const cli = (script: string) =>
      run('sh', ['-c', script], {
        cwd: repoRoot,
        env: {
          ...process.env,
          TERMPASTE_URL: baseURL(),
          TERMPASTE_TOKEN: token,
          XDG_CONFIG_HOME: join(folder, 'config'),
        },
      });
    const pipedTitle = `from a pipe ${Date.now()}`;
    const piped = await cli(
      `printf 'make: *** [all] Error 2\\n' | npx --no-install termpaste --title '${pipedTitle}'`,
    );
    expect(piped.stdout).toMatch(new RegExp(`^${baseURL()}/thread/\\d+\\n$`));
    const pipedId = /\/thread\/(\d+)$/.exec(piped.stdout.trim())![1]!;
    expect((await curl([`${baseURL()}/api/threads/${pipedId}/raw`], folder)).body).toBe(
      'make: *** [all] Error 2\n',
    );
    await page.goto('/');
    const pipedRow = page
      .getByRole('table', { name: 'Recent pastes' })
      .getByRole('row')
      .filter({ hasText: pipedTitle });
    await expect(pipedRow.getByRole('link', { name: account.username })).toBeVisible();

    // The list says the token was used; REVOKE asks first, then the next call is refused.
    await page.goto('/settings/tokens');
    await expect(item).toBeVisible();
    await expect(item.getByText('Last used').locator('xpath=following-sibling::dd')).not.toHaveText('never');
    await page.screenshot({ path: screenshotPath('tokens-list-1280'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: screenshotPath('tokens-list-390'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    await item.getByRole('button', { name: 'REVOKE e2e laptop' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Revoke this token?' });
    await dialog.getByRole('button', { name: 'CANCEL' }).click();
    await expect(dialog).toBeHidden();
    await expect(item).toBeVisible();
    await item.getByRole('button', { name: 'REVOKE e2e laptop' }).click();
    await dialog.getByRole('button', { name: 'REVOKE' }).click();
    await expectToast(page, 'Token revoked', 'e2e laptop');
    // Still listed, as revoked by you, with nothing left to revoke; no longer counted as active.
    await expect(item.getByTestId('token-revoked')).toHaveText(/revoked\s*by you/);
    await expect(item.getByRole('button', { name: 'REVOKE e2e laptop' })).toBeHidden();
    await expect(page.getByTestId('token-count')).toHaveText('0/20 active');
    await page.screenshot({ path: screenshotPath('tokens-revoked-1280'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: screenshotPath('tokens-revoked-390'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    const refused = await curl(
      [
        '--data-binary',
        '@file.txt',
        '-H',
        `Authorization: Bearer ${token}`,
        '-H',
        'Accept: application/json',
        `${baseURL()}/api/pastes?title=after+revoke`,
      ],
      folder,
    );
    expect(refused.status).toBe(401);
    expect((JSON.parse(refused.body) as { message: string }).message).toBe(TOKEN_MESSAGES.invalid);
    // termpaste says so too, and exits 1.
    const failed = await cli(`printf 'late\\n' | npx --no-install termpaste`).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain(TOKEN_MESSAGES.invalid);
  } finally {
    rmSync(folder, { recursive: true, force: true });
    await context.close();
  }
});

/** A key pair made by OpenSSH's ssh-keygen in `folder`: its file, public line and fingerprint. */
function sshKey(folder: string): { file: string; publicLine: string; fingerprint: string } {
  const file = join(folder, 'id_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'e2e@laptop', '-f', file]);
  const publicLine = readFileSync(`${file}.pub`, 'utf8').trim();
  const fingerprint = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${file}.pub`], {
    encoding: 'utf8',
  }).split(' ')[1]!;
  return { file, publicLine, fingerprint };
}

test('a member adds an SSH key in settings, and a paste signed with it shows VERIFIED', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await signUp(page, newAccount('signer'));
  const folder = mkdtempSync(join(tmpdir(), 'termpaste-ssh-'));
  try {
    const key = sshKey(folder);
    await page.goto('/settings');
    await page.getByRole('link', { name: 'SSH KEYS' }).click();
    await expect(page).toHaveURL(/\/settings\/keys$/);
    const list = page.getByRole('region', { name: 'YOUR SSH KEYS' });
    await expect(list.getByText('No SSH keys yet.', { exact: false })).toBeVisible();

    // The private key by mistake: refused, with why, and never echoed.
    await page.getByLabel('Public key').fill(readFileSync(key.file, 'utf8'));
    await page.getByRole('button', { name: 'ADD KEY' }).click();
    await expect(page.getByTestId('ssh-key-problem')).toHaveText(SSH_KEY_MESSAGES.privateKey);
    await page.getByLabel('Public key').fill(key.publicLine);
    await page.getByLabel('Title (optional)').fill('e2e laptop');
    await page.getByRole('button', { name: 'ADD KEY' }).click();
    const item = list.getByRole('listitem', { name: 'e2e laptop' });
    await expect(item.getByTestId('ssh-key-fingerprint')).toHaveText(key.fingerprint);
    await expect(item).toContainText('ssh-ed25519');
    await expect(page.getByTestId('ssh-key-count')).toHaveText('1/10');
    await page.screenshot({ path: screenshotPath('ssh-keys-1280'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: screenshotPath('ssh-keys-390'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    // A paste signed with ssh-keygen over its exact bytes, made through the API.
    const content = '#!/bin/sh\nset -eu\necho "installing termpaste tools"\n';
    writeFileSync(join(folder, 'install.sh'), content);
    execFileSync('ssh-keygen', [
      '-q',
      '-Y',
      'sign',
      '-n',
      'termpaste',
      '-f',
      key.file,
      join(folder, 'install.sh'),
    ]);
    const signature = readFileSync(join(folder, 'install.sh.sig'), 'utf8');
    const made = await page.request.post('/api/threads', {
      data: { title: 'install.sh', content, language: 'bash', signature },
      headers: { Origin: baseURL() },
    });
    expect(made.status(), await made.text()).toBe(201);
    const { id } = (await made.json()) as { id: number };
    await page.goto(`/thread/${id}`);
    const mark = page.getByTestId('paste-signature');
    await expect(mark).toContainText(SIGNING_TEXTS.verified);
    await expect(mark).toContainText(SIGNING_TEXTS.verifiedDetail(key.fingerprint, 'e2e laptop'));
    await expect(mark.getByRole('link', { name: 'raw.sig' })).toHaveAttribute(
      'href',
      `/api/threads/${id}/raw.sig`,
    );
    await page.screenshot({ path: screenshotPath('signed-paste-1280'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: screenshotPath('signed-paste-390'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    // Deleting the key (after a confirmation) turns VERIFIED into a warning.
    await page.goto('/settings/keys');
    await item.getByRole('button', { name: 'DELETE e2e laptop' }).click();
    await page
      .getByRole('alertdialog', { name: 'Delete this SSH key?' })
      .getByRole('button', { name: 'DELETE' })
      .click();
    await expectToast(page, 'SSH key deleted', 'e2e laptop');
    await page.goto(`/thread/${id}`);
    await expect(mark).toContainText(SIGNING_TEXTS.keyRemoved);
    await expect(mark).toContainText(SIGNING_TEXTS.keyRemovedDetail(key.fingerprint));
    await page.screenshot({ path: screenshotPath('signed-paste-key-removed-1280'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: screenshotPath('signed-paste-key-removed-390'), fullPage: true });
  } finally {
    rmSync(folder, { recursive: true, force: true });
    await context.close();
  }
});

import { readFileSync } from 'node:fs';
import { ACCOUNT_MESSAGES, ACCOUNT_TEXTS } from '@termpaste/contracts';
import yauzl from 'yauzl';
import { expect, test } from './test.js';
import {
  baseURL,
  expectToast,
  newAccount,
  readOutboxMail,
  screenshotPath,
  signInAsOwner,
  signUp,
} from './support.js';

/** Every file of a zip, by name without the archive's top folder. */
function unzip(bytes: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('no zip'));
      const files = new Map<string, string>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            files.set(entry.fileName.split('/').slice(1).join('/'), Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

test('a member exports their data, downloads and reads it, then deletes their account', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const account = await signUp(page, newAccount('leaver'));
  const created = await page.request.post('/api/threads', {
    data: { title: 'My last paste', content: 'goodbye\n' },
    headers: { Origin: baseURL() },
  });
  expect(created.status(), await created.text()).toBe(201);

  // Settings link to the account screen.
  await page.goto('/settings');
  await page.getByRole('link', { name: 'YOUR DATA' }).click();
  await expect(page).toHaveURL(/\/settings\/account$/);
  const status = page.getByTestId('export-status');
  await expect(status).toContainText(ACCOUNT_TEXTS.exportStatus.none);
  await page.screenshot({ path: screenshotPath('account-1280'), fullPage: true });

  // Export: queued, built by the job, then a DOWNLOAD link; a second one today is refused.
  await page.getByRole('button', { name: ACCOUNT_TEXTS.exportButton }).click();
  await expectToast(page, 'Export queued', ACCOUNT_MESSAGES.exportQueued);
  const download = page.getByRole('link', { name: ACCOUNT_TEXTS.exportDownload });
  await expect(download).toBeVisible({ timeout: 20_000 });
  await expect(status).toContainText('ready');
  const again = await page.request.post('/api/user/export', { headers: { Origin: baseURL() } });
  expect(again.status()).toBe(429);

  // The mail holds the same link.
  const href = (await download.getAttribute('href'))!;
  const mail = await readOutboxMail(account.email);
  expect(mail).toContain('data export is ready');
  expect(mail).toContain(href);

  // Downloaded in the browser, and read.
  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toMatch(
    new RegExp(`^termpaste-${account.username}-\\d{4}-\\d\\d-\\d\\d\\.zip$`),
  );
  const files = await unzip(readFileSync((await file.path())!));
  expect(JSON.parse(files.get('profile.json')!)).toMatchObject({
    username: account.username,
    email: account.email,
  });
  expect(JSON.parse(files.get('pastes.json')!)).toEqual([
    expect.objectContaining({ title: 'My last paste', content: 'goodbye\n' }),
  ]);
  expect(files.has('tokens.json')).toBe(true);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: screenshotPath('account-390'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Delete the account: the choice, the password, the final prompt.
  const remove = page.getByRole('button', { name: ACCOUNT_TEXTS.deleteButton });
  await expect(remove).toBeDisabled();
  await page.getByRole('radio', { name: ACCOUNT_TEXTS.deleteContent }).check();
  await page.getByLabel('Password').fill(account.password);
  await remove.click();
  const dialog = page.getByRole('alertdialog', { name: ACCOUNT_TEXTS.confirmTitle });
  await expect(dialog).toBeVisible();
  await page.screenshot({ path: screenshotPath('account-delete-confirm-1280') });
  await dialog.getByRole('button', { name: ACCOUNT_TEXTS.deleteButton }).click();
  await expect(page).toHaveURL(`${baseURL()}/`);

  // Signed out, and the account is gone: its paste too, and signing in fails.
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);
  const id = ((await created.json()) as { id: number }).id;
  expect((await page.request.get(`/api/threads/${id}`)).status()).toBe(404);
  const signIn = await page.request.post('/api/login', {
    data: { usernameOrEmail: account.username, password: account.password },
    headers: { Origin: baseURL() },
  });
  expect(signIn.status()).toBe(401);
});

test("the owner deletes a member and their pastes from the admin panel's prompt", async ({ browser }) => {
  test.setTimeout(120_000);
  const memberContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const member = await memberContext.newPage();
  const account = await signUp(member, newAccount('removed'));
  const created = await member.request.post('/api/threads', {
    data: { title: 'Removed with its author', content: 'x\n' },
    headers: { Origin: baseURL() },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { id: number }).id;

  const ownerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const owner = await ownerContext.newPage();
  await signInAsOwner(owner);
  await owner.goto('/admin');
  const table = owner.getByRole('table', { name: 'Users' });
  await owner.getByRole('searchbox', { name: 'Filter users by name or e-mail' }).fill(account.username);
  const row = table.getByRole('row', { name: account.username, exact: true });
  await row.getByRole('button', { name: 'DELETE', exact: true }).click();
  const dialog = owner.getByRole('alertdialog', { name: `Delete ${account.username}?` });
  await expect(dialog.getByRole('radio', { name: /Keep their pastes and replies/ })).toBeChecked();
  await dialog.getByRole('radio', { name: /Delete their pastes and replies/ }).check();
  await owner.screenshot({ path: screenshotPath('admin-delete-user-1280') });
  await dialog.getByRole('button', { name: 'DELETE', exact: true }).click();
  await expectToast(owner, 'User deleted', account.username);
  await expect(row).toBeHidden();
  expect((await owner.request.get(`/api/threads/${id}`)).status()).toBe(404);
  expect((await member.request.get('/api/auth/user')).status()).toBe(401);
});

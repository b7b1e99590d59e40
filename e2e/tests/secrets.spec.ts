import { expect, test } from './test.js';
import { expectToast, newAccount, OPEN_TOAST, screenshotPath, signUp } from './support.js';

// A made-up AWS access key ID, built from parts so that the repository holds no whole key.
const KEY = ['AKIA', 'QYLPMN5H', 'HHFPZAM2'].join('');
const MASKED = `AKIA${'*'.repeat(16)}`;

test('a paste holding an AWS key is stopped by the warning and published only after PUBLISH ANYWAY', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signUp(page, newAccount('leaky'));
  const title = `Deploy notes ${Date.now()}`;
  const content = `# deploy\n\n  export AWS_ACCESS_KEY_ID=${KEY}\n`;

  await page.goto('/thread/new');
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Content').fill(content);
  await page.getByRole('button', { name: 'ADD PASTE' }).click();

  // The warning: the kind, where, the value masked; the key itself nowhere on the page.
  const dialog = page.getByRole('dialog', { name: 'POSSIBLE SECRET DETECTED' });
  await expect(dialog).toBeVisible();
  const finding = dialog.getByRole('listitem');
  await expect(finding).toHaveCount(1);
  await expect(finding).toContainText('AWS access key ID');
  await expect(finding).toContainText('line 3, col 28');
  await expect(finding).toContainText(MASKED);
  await expect(dialog).not.toContainText(KEY);
  await page.screenshot({ path: screenshotPath('secret-warning') });

  // EDIT: back in the text, nothing published.
  await dialog.getByRole('button', { name: 'EDIT' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel('Content')).toBeFocused();
  await expect(page).toHaveURL(/\/thread\/new$/);
  await expect(page.locator(OPEN_TOAST)).toHaveCount(0);
  const search = await page.request.get(`/api/search?q=${encodeURIComponent(title)}`);
  expect(JSON.stringify(await search.json())).not.toContain(title);

  // Escape is EDIT too.
  await page.getByRole('button', { name: 'ADD PASTE' }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/thread\/new$/);

  // PUBLISH ANYWAY: the paste is made, with the key in it.
  await page.getByRole('button', { name: 'ADD PASTE' }).click();
  await dialog.getByRole('button', { name: 'PUBLISH ANYWAY' }).click();
  await expect(page).toHaveURL(/\/thread\/\d+$/);
  await expectToast(page, 'Paste created', title);
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  expect(await (await page.request.get(`/api/threads/${id}/raw`)).text()).toBe(content);

  // A reply with a secret is stopped the same way; EDIT keeps the text in the box.
  const reply = page.getByLabel('Your reply');
  await reply.fill(`try this token: tp_${'Zx81Spectrum'}C64Amiga500Atari2600NesSnesX`);
  await page.getByRole('button', { name: 'POST REPLY' }).click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('listitem')).toContainText('Termpaste access token');
  await dialog.getByRole('button', { name: 'EDIT' }).click();
  await expect(reply).toBeFocused();
  await expect(reply).toHaveValue(/tp_Zx81/);
});
